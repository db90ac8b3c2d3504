/**
 * The approval audit in the state database (`approvals` table). Like the JSONL
 * log it replaces, a write that fails is logged and never blocks the decision
 * it records; the write itself is made behind the decision (below).
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
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

/** Decisions waiting for their insert, written out together: one transaction for however many queued up. */
const writeRows = (
  sql: SqlClient.SqlClient,
  insert: (params: ReadonlyArray<unknown>) => Effect.Effect<unknown, SqlError>,
  rows: ReadonlyArray<ReadonlyArray<unknown>>
) =>
  (rows.length === 1 ? insert(rows[0]!) : sql.withTransaction(Effect.forEach(rows, insert, { discard: true }))).pipe(
    Effect.asVoid,
    Effect.catchAll((error) => Effect.logWarning(`could not record an approval decision in the state database: ${error.message}`))
  )

export const ApprovalAuditSql: Layer.Layer<ApprovalAudit, never, SqlClient.SqlClient> = Layer.scoped(
  ApprovalAudit,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const statements = yield* Effect.serviceOption(SqliteStatements)
    const scope = yield* Effect.scope
    const INSERT = "INSERT INTO approvals (at, session_id, task_id, command, path, backend, outcome, decided_by, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    // On SQLite the insert is prepared once and bound in place (no statement compile and no span per command),
    // elsewhere it goes through the client.
    const insert = preparedOr(sql, statements, INSERT)

    // Write-behind: a decision is queued where it is made and inserted by a fiber of the layer's own, which runs as
    // soon as the deciding fiber waits, i.e. while the command it let through runs. The commit (~65 µs on the
    // reference VM, as much as judging the command) is then off every command's path: the writer runs at the first
    // wait after the decision, before any output of the command can be read; `recent` and the layer's end write out
    // whatever is still queued.
    let queued: Array<ReadonlyArray<unknown>> = []
    let scheduled = false
    const writeOut = Effect.suspend(() => {
      const rows = queued
      queued = []
      scheduled = false
      return rows.length === 0 ? Effect.void : writeRows(sql, insert, rows)
    }).pipe(Effect.uninterruptible)
    yield* Effect.addFinalizer(() => writeOut)

    return ApprovalAudit.of({
      record: (e) =>
        Effect.suspend(() => {
          queued.push([e.at, e.sessionId, e.taskId, e.command, e.path, e.backend, e.outcome, e.decidedBy, e.key])
          if (scheduled) return Effect.void
          scheduled = true
          return Effect.asVoid(Effect.forkIn(writeOut, scope))
        }),
      recent: (limit) =>
        Effect.zipRight(
          writeOut,
          sql.unsafe<ApprovalRow>("SELECT * FROM approvals ORDER BY id DESC LIMIT ?", [Math.max(0, Math.floor(limit))])
        ).pipe(
          Effect.map((rows) => rows.map(toRecord)),
          Effect.catchAll((error) =>
            Effect.as(Effect.logWarning(`could not read the approval audit: ${error.message}`), [] as ReadonlyArray<ApprovalRecord>)
          )
        )
    })
  })
)
