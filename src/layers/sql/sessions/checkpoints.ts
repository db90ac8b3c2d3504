/** Background processes as last seen, so a restarted runtime knows what was running. */
import { SqlSchema } from "@effect/sql"
import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { ProcessCheckpoint } from "../../../services/SessionStore.js"
import { CheckpointRow } from "./rows.js"
import { failure } from "./storeErrors.js"
import { observedFn } from "../../../lib/effect/observedFn.js"

export const makeCheckpoints = (sql: SqlClient.SqlClient) => {
  // The session link is kept only while that session exists (a checkpoint may outlive or predate it).
  const upsert = SqlSchema.void({
    Request: CheckpointRow,
    execute: (r) =>
      sql`INSERT INTO process_checkpoints (id, session_id, task_id, command, cwd, pid, status, exit_code, started_at, updated_at, output_tail)
        VALUES (${r.id}, (SELECT id FROM sessions WHERE id = ${r.session_id}), ${r.task_id}, ${r.command}, ${r.cwd}, ${r.pid}, ${r.status},
          ${r.exit_code}, ${r.started_at}, ${r.updated_at}, ${r.output_tail})
        ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, task_id = excluded.task_id, command = excluded.command,
          cwd = excluded.cwd, pid = excluded.pid, status = excluded.status, exit_code = excluded.exit_code,
          started_at = excluded.started_at, updated_at = excluded.updated_at, output_tail = excluded.output_tail`
  })

  const byStatus = SqlSchema.findAll({
    Request: Schema.UndefinedOr(Schema.String),
    Result: CheckpointRow,
    execute: (status) =>
      sql`SELECT * FROM process_checkpoints WHERE ${status === undefined ? sql.literal("1=1") : sql`status = ${status}`} ORDER BY started_at, id`
  })

  const removeById = SqlSchema.void({
    Request: Schema.String,
    execute: (id) => sql`DELETE FROM process_checkpoints WHERE id = ${id}`
  })

  const checkpointProcess = observedFn("SessionStore.checkpointProcess")(function*(cp: ProcessCheckpoint) {
    yield* upsert(cp).pipe(Effect.mapError(failure("checkpoint")))
  })

  const processCheckpoints = observedFn("SessionStore.processCheckpoints")(function*(options: { readonly status?: string } = {}) {
    return yield* byStatus(options.status).pipe(Effect.mapError(failure("checkpoints")))
  })

  const removeProcessCheckpoint = observedFn("SessionStore.removeProcessCheckpoint")(function*(id: string) {
    yield* removeById(id).pipe(Effect.mapError(failure("checkpoint")))
  })

  return { checkpointProcess, processCheckpoints, removeProcessCheckpoint }
}
