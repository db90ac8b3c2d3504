/**
 * The approval audit in the state database (`approvals` table). Like the JSONL
 * log it replaces, a write that fails is logged and never blocks the decision
 * it records.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { ApprovalAudit } from "../../../services/ApprovalAudit.js"
import type { ApprovalRecord } from "../../../services/ApprovalAudit.js"
import { preparedOr, SqliteStatements } from "../../sql/sqliteClient.js"

interface ApprovalRow {
  readonly at: string
  readonly session_id: string | null
  readonly task_id: string
  readonly command: string
  readonly path: ApprovalRecord["path"]
  readonly backend: string
  readonly outcome: ApprovalRecord["outcome"]
  readonly decided_by: ApprovalRecord["decidedBy"]
  readonly key: string | null
}

const toRecord = (r: ApprovalRow): ApprovalRecord => ({
  at: r.at,
  sessionId: r.session_id,
  taskId: r.task_id,
  command: r.command,
  path: r.path,
  backend: r.backend,
  outcome: r.outcome,
  decidedBy: r.decided_by,
  key: r.key
})

export const ApprovalAuditSql: Layer.Layer<ApprovalAudit, never, SqlClient.SqlClient> = Layer.effect(
  ApprovalAudit,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const statements = yield* Effect.serviceOption(SqliteStatements)
    const INSERT = "INSERT INTO approvals (at, session_id, task_id, command, path, backend, outcome, decided_by, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    // Every command is recorded before it runs: on SQLite the insert is prepared once and bound in place (no
    // statement compile and no span per command), elsewhere it goes through the client.
    const insert = preparedOr(sql, statements, INSERT)
    return ApprovalAudit.of({
      record: (e) =>
        insert([e.at, e.sessionId, e.taskId, e.command, e.path, e.backend, e.outcome, e.decidedBy, e.key]).pipe(
          Effect.asVoid,
          Effect.catchAll((error) => Effect.logWarning(`could not record an approval decision in the state database: ${error.message}`))
        ),
      recent: (limit) =>
        sql.unsafe<ApprovalRow>("SELECT * FROM approvals ORDER BY id DESC LIMIT ?", [Math.max(0, Math.floor(limit))]).pipe(
          Effect.map((rows) => rows.map(toRecord)),
          Effect.catchAll((error) =>
            Effect.as(Effect.logWarning(`could not read the approval audit: ${error.message}`), [] as ReadonlyArray<ApprovalRecord>)
          )
        )
    })
  })
)
