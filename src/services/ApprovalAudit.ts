/**
 * ApprovalAudit: every approval decision, who made it and under which rule.
 * Commands are stored redacted.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { CommandPath, DecidedBy } from "./Approval.js"

export interface ApprovalRecord {
  readonly at: string
  readonly sessionId: string | null
  readonly taskId: string
  readonly command: string
  readonly path: CommandPath | "tool" | "file-write"
  readonly backend: string
  readonly outcome: "allowed" | "denied"
  readonly decidedBy: DecidedBy | "hardline" | "sudo-guard" | "deny-rule" | "user-deny" | "timeout"
  readonly key: string | null
}

export interface ApprovalAuditService {
  readonly record: (entry: ApprovalRecord) => Effect.Effect<void>
  /** Most recent first. */
  readonly recent: (limit: number) => Effect.Effect<ReadonlyArray<ApprovalRecord>>
}

export class ApprovalAudit extends Context.Tag("hermes-effect/ApprovalAudit")<ApprovalAudit, ApprovalAuditService>() {}
