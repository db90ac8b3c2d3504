/**
 * Approver: whoever answers "may this command run?". A terminal prompt, a
 * callback (editors, embedding programs), or nobody (batch, subagents, CI),
 * in which case the answer is no unless the operator said otherwise.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ToolCallContext } from "./ToolContext.js"

export type ApprovalChoice = "once" | "session" | "always" | "deny"

export interface ApprovalPrompt {
  /** Redacted for display; the raw command is what would run. */
  readonly command: string
  readonly description: string
  /** The key a `session` or `always` answer stores. */
  readonly key: string
  /** False when `always` must not be offered (e.g. a rule that only allows per session). */
  readonly allowPermanent: boolean
  readonly context: ToolCallContext
}

export interface ApproverAnswer {
  readonly choice: ApprovalChoice
  /** "timeout" when nobody answered in time; the choice is then "deny". */
  readonly via: "human" | "callback" | "timeout" | "non-interactive" | "policy"
  readonly reason?: string | undefined
}

export interface ApproverService {
  /** Whether a human can be asked at all (decides the wording of denials). */
  readonly interactive: boolean
  readonly ask: (prompt: ApprovalPrompt) => Effect.Effect<ApproverAnswer>
}

export class Approver extends Context.Tag("hermes-effect/Approver")<Approver, ApproverService>() {}
