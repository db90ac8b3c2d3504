/**
 * Approval: the one gate every command passes before it reaches a shell
 * (terminal foreground, background, PTY, process write/submit, execute_code,
 * every backend). Fail-closed: with nobody to ask, a dangerous command is denied.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { ToolCallContext } from "./ToolContext.js"

/** Pure detection verdict for one command (Hermes' shape and rule descriptions). */
export interface Detection {
  readonly dangerous: boolean
  /** Rule description when dangerous: also the key stored in `command_allowlist`. */
  readonly description: string | null
  readonly hardline: boolean
  readonly hardline_description: string | null
}

/** How the command would reach the shell; recorded in the audit log. */
export type CommandPath = "foreground" | "background" | "pty" | "process-write" | "execute_code"

export interface CommandApprovalRequest {
  readonly command: string
  readonly context: ToolCallContext
  /** The backend's kind (local, sandbox, ssh, …) and whether it is fully isolated from the host. */
  readonly backend: { readonly kind: string; readonly isolated: boolean }
  readonly path: CommandPath
}

export type DecidedBy =
  | "not-dangerous"
  | "isolation"
  | "mode-off"
  | "allowlist"
  | "rule"
  | "session"
  | "smart"
  | "human"
  | "non-interactive"

export interface ApprovalGranted {
  readonly decidedBy: DecidedBy
  /** The rule description or allowlist key that applied, if any. */
  readonly key?: string | undefined
}

/** The command must not run. The message tells the model not to retry. */
export class CommandDenied extends Schema.TaggedError<CommandDenied>()("CommandDenied", {
  command: Schema.String,
  /** Rule description (approval key), or null for a policy denial without one. */
  description: Schema.NullOr(Schema.String),
  hardline: Schema.Boolean,
  decidedBy: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

export interface ApprovalService {
  readonly detect: (command: string) => Detection
  /** Decide for one command; succeeds only when it may run. */
  readonly check: (request: CommandApprovalRequest) => Effect.Effect<ApprovalGranted, CommandDenied>
}

export class Approval extends Context.Tag("hermes-effect/Approval")<Approval, ApprovalService>() {}
