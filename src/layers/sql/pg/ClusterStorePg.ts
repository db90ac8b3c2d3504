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
  PgClient.layer({ url: Redacted.make(url), maxConnections: 8, applicationName: "hermes-effect" })

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
    hasResult: (batchId, index) =>
      sql`SELECT 1 FROM hermes_batch_results WHERE batch_id = ${batchId} AND idx = ${index}`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(failed("read result"))
      ),
    markRunning: (batchId, index, runner) =>
      sql`INSERT INTO hermes_batch_running (batch_id, idx, runner) VALUES (${batchId}, ${index}, ${runner})
          ON CONFLICT (batch_id, idx) DO UPDATE SET runner = excluded.runner, started_at = now()`.pipe(
        Effect.asVoid,
        Effect.mapError(failed("mark running"))
      ),
    saveResult: (batchId, result, runner, copy) =>
      sql.withTransaction(Effect.gen(function*() {
        // The session first (the result row points at it); rolled back with it when the result was there already.
        if (copy !== undefined) {
          const s = copy.session
          yield* sql`INSERT INTO sessions ${
            sql.insert({
              id: s.id,
              source: s.source,
              parent_session_id: null,
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
          } ON CONFLICT (id) DO NOTHING`
          if (copy.messages.length > 0) {
            yield* sql`INSERT INTO messages ${
              sql.insert(copy.messages.map((m) => ({
                session_id: s.id,
                ordinal: m.ordinal,
                role: m.role,
                content: m.content,
                tool_calls: m.toolCalls === null ? null : JSON.stringify(m.toolCalls),
                tool_call_id: m.toolCallId,
                tool_name: m.toolName,
                created_at: m.createdAt
              })))
            } ON CONFLICT (session_id, ordinal) DO NOTHING`
          }
        }
        const inserted = yield* sql`INSERT INTO hermes_batch_results ${
          sql.insert({
            batch_id: batchId,
            idx: result.index,
            status: result.status,
            line: result.line,
            trajectory: result.trajectory,
            session_id: copy?.session.id ?? null,
            runner
          })
        } ON CONFLICT (batch_id, idx) DO NOTHING RETURNING idx`
        yield* sql`DELETE FROM hermes_batch_running WHERE batch_id = ${batchId} AND idx = ${result.index}`
        if (inserted.length === 0) return yield* Effect.fail("duplicate" as const)
        return true
      })).pipe(
        Effect.catchIf((e): e is "duplicate" => e === "duplicate", () => Effect.succeed(false)),
        Effect.mapError(failed("save result"))
      ),
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
