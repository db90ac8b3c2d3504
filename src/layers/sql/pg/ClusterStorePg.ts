/**
 * The cluster batch store on Postgres through @effect/sql-pg. Uses the
 * `PgClient` tag (not `SqlClient`) so it never mixes with the runner's own
 * SQLite state database, which the agent runtime provides as `SqlClient`.
 */
import { PgClient } from "@effect/sql-pg"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer, Redacted } from "effect"
import { ClusterStore, ClusterStoreError } from "../../../services/Cluster.js"
import type { BatchProgress, RunnerRow, StoredResult } from "../../../services/Cluster.js"
import { PG_SCHEMA, SCHEMA_LOCK } from "./schema.js"

/** A Postgres connection pool from a `postgres://` URL. */
export const pgClientLayer = (url: string) =>
  PgClient.layer({ url: Redacted.make(url), maxConnections: 16, applicationName: "hermes-effect" })

const failed = (operation: string) => (e: SqlError) => new ClusterStoreError({ operation, message: e.message })

const int = (v: unknown): number => Number(v ?? 0)

export const makeClusterStorePg = Effect.gen(function*() {
  const sql = yield* PgClient.PgClient
  yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`
    for (const statement of PG_SCHEMA) yield* sql.unsafe(statement)
  })).pipe(Effect.mapError(failed("create schema")))

  const progress = (batchId: string) =>
    Effect.gen(function*() {
      const rows = yield* sql<{ source: string; total: number; done: unknown; failed: unknown; running: unknown }>`
        SELECT b.source, b.total,
          (SELECT count(*) FROM hermes_batch_results r WHERE r.batch_id = b.batch_id AND r.status NOT IN ('failed', 'invalid')) AS done,
          (SELECT count(*) FROM hermes_batch_results r WHERE r.batch_id = b.batch_id AND r.status IN ('failed', 'invalid')) AS failed,
          (SELECT count(*) FROM hermes_batch_running g WHERE g.batch_id = b.batch_id
             AND NOT EXISTS (SELECT 1 FROM hermes_batch_results r WHERE r.batch_id = g.batch_id AND r.idx = g.idx)) AS running
        FROM hermes_batches b WHERE b.batch_id = ${batchId}`
      const row = rows[0]
      return {
        batchId,
        source: row?.source ?? "",
        total: row?.total ?? 0,
        done: int(row?.done),
        failed: int(row?.failed),
        running: int(row?.running)
      } satisfies BatchProgress
    }).pipe(Effect.mapError(failed("read progress")))

  return ClusterStore.of({
    registerBatch: (batchId, source, total) =>
      sql`INSERT INTO hermes_batches (batch_id, source, total) VALUES (${batchId}, ${source}, ${total}) ON CONFLICT (batch_id) DO NOTHING`.pipe(
        Effect.asVoid,
        Effect.mapError(failed("register batch"))
      ),
    claim: (batchId, index, runner) =>
      // One round trip: the prompt is marked running unless its result is there already.
      sql<{ idx: number }>`INSERT INTO hermes_batch_running (batch_id, idx, runner)
          SELECT ${batchId}, ${index}, ${runner}
          WHERE NOT EXISTS (SELECT 1 FROM hermes_batch_results WHERE batch_id = ${batchId} AND idx = ${index})
          ON CONFLICT (batch_id, idx) DO UPDATE SET runner = excluded.runner, started_at = now()
          RETURNING idx`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(failed("claim prompt"))
      ),
    saveResult: (batchId, result, runner, copy) => {
      // One statement (atomic, one round trip): the result row, and only when it is new, the session and its
      // messages; foreign keys are checked at the end of the statement, when all three are in.
      const s = copy?.session
      const session = s === undefined ? null : JSON.stringify({
        id: s.id,
        source: s.source,
        cwd: s.cwd,
        model: s.model,
        title: s.title,
        created_at: s.createdAt,
        updated_at: s.updatedAt,
        message_count: s.messageCount,
        tool_call_count: s.toolCallCount,
        input_tokens: s.inputTokens,
        output_tokens: s.outputTokens
      })
      const messages = JSON.stringify((copy?.messages ?? []).map((m) => ({
        ordinal: m.ordinal,
        role: m.role,
        content: m.content,
        tool_calls: m.toolCalls === null ? null : JSON.stringify(m.toolCalls),
        tool_call_id: m.toolCallId,
        tool_name: m.toolName,
        created_at: m.createdAt
      })))
      return sql<{ idx: number }>`
        WITH r AS (
          INSERT INTO hermes_batch_results (batch_id, idx, status, line, trajectory, session_id, runner)
          VALUES (${batchId}, ${result.index}, ${result.status}, ${result.line}, ${result.trajectory}, ${s?.id ?? null}, ${runner})
          ON CONFLICT (batch_id, idx) DO NOTHING RETURNING idx
        ), s AS (
          INSERT INTO sessions (id, source, parent_session_id, cwd, model, title, created_at, updated_at, message_count, tool_call_count, input_tokens, output_tokens)
          SELECT j.id, j.source, NULL, j.cwd, j.model, j.title, j.created_at, j.updated_at, j.message_count, j.tool_call_count, j.input_tokens, j.output_tokens
          FROM json_populate_record(NULL::sessions, ${session}::json) j
          WHERE ${session}::json IS NOT NULL AND EXISTS (SELECT 1 FROM r)
          ON CONFLICT (id) DO NOTHING
        ), m AS (
          INSERT INTO messages (session_id, ordinal, role, content, tool_calls, tool_call_id, tool_name, created_at)
          SELECT ${s?.id ?? null}, j.ordinal, j.role, j.content, j.tool_calls, j.tool_call_id, j.tool_name, j.created_at
          FROM json_populate_recordset(NULL::messages, ${messages}::json) j
          WHERE EXISTS (SELECT 1 FROM r)
          ON CONFLICT (session_id, ordinal) DO NOTHING
        ), d AS (
          DELETE FROM hermes_batch_running WHERE batch_id = ${batchId} AND idx = ${result.index}
        )
        SELECT idx FROM r`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(failed("save result"))
      )
    },
    results: (batchId) =>
      sql<{ idx: number; status: string; line: string; trajectory: string | null }>`
        SELECT idx, status, line, trajectory FROM hermes_batch_results WHERE batch_id = ${batchId} ORDER BY idx`.pipe(
        Effect.map((rows) => rows.map((r): StoredResult => ({ index: r.idx, status: r.status, line: r.line, trajectory: r.trajectory }))),
        Effect.mapError(failed("read results"))
      ),
    progress,
    heartbeat: (row) =>
      sql`INSERT INTO hermes_cluster_runners (address, pid, shards, running, done) VALUES (${row.address}, ${row.pid}, ${row.shards}, ${row.running}, ${row.done})
          ON CONFLICT (address) DO UPDATE SET pid = excluded.pid, shards = excluded.shards, running = excluded.running, done = excluded.done, updated_at = now()`
        .pipe(Effect.asVoid, Effect.mapError(failed("heartbeat"))),
    status: (shardsPerGroup) =>
      Effect.gen(function*() {
        const runners = yield* sql<{ address: string; pid: number; shards: number; running: number; done: number; age: unknown }>`
          SELECT address, pid, shards, running, done, extract(epoch FROM now() - updated_at) AS age
          FROM hermes_cluster_runners ORDER BY address`.pipe(Effect.mapError(failed("read runners")))
        const batches = yield* sql<{ batch_id: string }>`SELECT batch_id FROM hermes_batches ORDER BY created_at DESC LIMIT 20`.pipe(
          Effect.mapError(failed("read batches"))
        )
        return {
          runners: runners.map((r): RunnerRow => ({ address: r.address, pid: r.pid, shards: r.shards, running: r.running, done: r.done, age: Number(r.age) })),
          shardsPerGroup,
          batches: yield* Effect.forEach(batches, (b) => progress(b.batch_id))
        }
      })
  })
})

export const ClusterStorePg: Layer.Layer<ClusterStore, ClusterStoreError, PgClient.PgClient> = Layer.effect(ClusterStore, makeClusterStorePg)
