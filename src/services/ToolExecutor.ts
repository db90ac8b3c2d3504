/**
 * ToolExecutor: runs the model's calls against the ToolRegistry's catalogue.
 * Every failure is folded into the string the model sees; nothing here fails.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { CallStatus } from "./Hooks.js"
import type { ContentPart } from "./Tool.js"
import type { ToolCallContext } from "./ToolContext.js"
import type { ToolError } from "./ToolError.js"

export interface ToolCall {
  readonly tool: string
  /** A JSON string or an already-parsed object, as the model sent it. */
  readonly args: unknown
  readonly toolCallId?: string | undefined
}

export interface DispatchOptions {
  readonly context?: Partial<ToolCallContext> | undefined
  /** When given, only these tools may be called (the session's enabled tools). */
  readonly allowed?: ReadonlySet<string> | undefined
}

/** What one call ended in: the string for the model plus the facts around it. */
export interface CallOutcome {
  readonly tool: string
  readonly toolCallId: string | undefined
  readonly result: string
  readonly status: CallStatus
  readonly error: ToolError | undefined
  readonly durationMs: number
  /**
   * Content parts of a multimodal result (text and images, OpenAI's shape);
   * `result` then holds its text summary for hooks, logs and storage.
   */
  readonly parts?: ReadonlyArray<ContentPart> | undefined
}

export interface ToolExecutorService {
  /** One call, everything folded: the model's string plus the outcome facts. */
  readonly execute: (call: ToolCall, options?: DispatchOptions) => Effect.Effect<CallOutcome>
  /** One call: exactly the string the model sees. Never fails. */
  readonly dispatch: (call: ToolCall, options?: DispatchOptions) => Effect.Effect<string>
  /** The calls of one model turn, planned for parallelism; outcomes in the model's order. */
  readonly executeBatch: (calls: ReadonlyArray<ToolCall>, options?: DispatchOptions) => Effect.Effect<ReadonlyArray<CallOutcome>>
}

export class ToolExecutor extends Context.Tag("hermes-effect/ToolExecutor")<ToolExecutor, ToolExecutorService>() {}
