/**
 * Approval decisions kept in memory (tests, embedding without a home).
 */
import { Effect, Layer } from "effect"
import { ApprovalAudit } from "../../../services/ApprovalAudit.js"
import type { ApprovalRecord } from "../../../services/ApprovalAudit.js"

export const ApprovalAuditMemory = Layer.sync(ApprovalAudit, () => {
  const entries: Array<ApprovalRecord> = []
  return ApprovalAudit.of({
    record: (entry) => Effect.sync(() => void entries.push(entry)),
    recent: (limit) => Effect.sync(() => [...entries].reverse().slice(0, limit))
  })
})
