/**
 * Per-call facts a handler may need: which task/session it runs for, the
 * model's tool call id and the working directory. Provided by dispatch for
 * every call, so there is no global "current task".
 */
import { Context } from "effect"

export interface ToolCallContext {
  /** Environment key: calls with the same task id share a terminal environment. */
  readonly taskId: string
  readonly sessionId?: string
  readonly toolCallId?: string
  /** Working directory the caller believes is current (backends track their own). */
  readonly cwd?: string
}

export class ToolContext extends Context.Tag("hermes-effect/ToolContext")<ToolContext, ToolCallContext>() {}

export const DEFAULT_TASK_ID = "default"
