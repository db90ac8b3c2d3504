/**
 * Hooks: the plugin points around every tool call.
 *
 * - `pre_tool_call` may block a call or ask for approval. A pre hook that fails
 *   blocks the call (a broken policy plugin must not silently allow).
 * - `post_tool_call` observes the outcome; its failures are logged and ignored.
 * - `transform_tool_result` may replace the result string; the first string wins.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ToolCallContext } from "./ToolContext.js"

export type PreToolDirective =
  | { readonly action: "block"; readonly message: string }
  | { readonly action: "approve"; readonly message: string; readonly ruleKey?: string | undefined }

export interface PreToolCallEvent {
  readonly tool: string
  readonly args: unknown
  readonly context: ToolCallContext
}

export type CallStatus = "ok" | "error" | "blocked"

export interface PostToolCallEvent {
  readonly tool: string
  readonly args: unknown
  readonly result: string
  readonly status: CallStatus
  /** Tag of the folded error, when the call failed. */
  readonly errorType?: string | undefined
  readonly errorMessage?: string | undefined
  readonly durationMs: number
  readonly context: ToolCallContext
}

export interface TransformToolResultEvent {
  readonly tool: string
  readonly args: unknown
  readonly result: string
  readonly context: ToolCallContext
}

export interface HookSet {
  readonly pre_tool_call?: (event: PreToolCallEvent) => Effect.Effect<PreToolDirective | undefined, unknown>
  readonly post_tool_call?: (event: PostToolCallEvent) => Effect.Effect<void, unknown>
  readonly transform_tool_result?: (event: TransformToolResultEvent) => Effect.Effect<string | undefined, unknown>
}

export type HookName = keyof HookSet
export const HOOK_NAMES: ReadonlyArray<HookName> = ["pre_tool_call", "post_tool_call", "transform_tool_result"]

/** The outcome of all pre hooks for one call. */
export type PreToolVerdict =
  | { readonly _tag: "Proceed" }
  | { readonly _tag: "Block"; readonly by: string; readonly message: string }
  | { readonly _tag: "Approve"; readonly by: string; readonly message: string; readonly ruleKey: string }

export interface HooksService {
  /** Add hooks under a source name (a plugin's name); returns a remover. */
  readonly register: (source: string, hooks: HookSet) => Effect.Effect<Effect.Effect<void>>
  /** Whether any hook of this kind is registered (dispatch skips the work when not). */
  readonly has: (name: HookName) => boolean
  readonly preToolCall: (event: PreToolCallEvent) => Effect.Effect<PreToolVerdict>
  readonly postToolCall: (event: PostToolCallEvent) => Effect.Effect<void>
  readonly transformToolResult: (event: TransformToolResultEvent) => Effect.Effect<string>
}

export class Hooks extends Context.Tag("hermes-effect/Hooks")<Hooks, HooksService>() {}
