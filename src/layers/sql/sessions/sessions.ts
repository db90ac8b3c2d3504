/**
 * Sessions: create, look up, list, rename, fork, delete, lineage.
 *
 * A session's counters are kept by the `messages_count` trigger, so no
 * statement here writes them; a fork's copied history counts through it too.
 */
import { randomBytes } from "node:crypto"
import { SqlSchema } from "@effect/sql"
import type { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import type { ParseResult } from "effect"
import type { SqlError } from "@effect/sql/SqlError"
import { SessionExists, SessionNotFound, SessionStoreError } from "../../../services/SessionStore.js"
import type { ListSessionsOptions, NewSession, SessionPatch, SessionSummary } from "../../../services/SessionStore.js"
import type { BackgroundIndexer } from "./backgroundIndexer.js"
import type { SqliteStatementsService } from "../sqliteClient.js"
import type { GroupCommit } from "./groupCommit.js"
import { NewSessionRow, SESSION_COLUMNS, sessionRows, sessionSummaryRows, toSession, toSessionSummary } from "./rows.js"
import { clamp, failure, sqliteCode } from "./storeErrors.js"
import { observedFn } from "../../../lib/effect/observedFn.js"

const pad = (n: number) => String(n).padStart(2, "0")

/**
 * Run `insert` with a generated id; while the id is taken (another process counting through the same range this
 * second, or an earlier run's session), the next attempt starts a new run of ids from a random point.
 */
const withFreshId = <A, E extends { readonly _tag: string }, R>(
  now: number,
  insert: (id: string) => Effect.Effect<A, E, R>,
  retriesLeft = 16
): Effect.Effect<A, E, R> =>
  // A plain catch, not `Effect.retry`: a schedule driver costs ~35 run-loop steps on every session made, collision or not.
  Effect.catchIf(
    Effect.suspend(() => insert(newSessionId(now, retriesLeft < 16))),
    (e) => retriesLeft > 0 && e._tag === "SessionExists",
    () => withFreshId(now, insert, retriesLeft - 1)
  )

/** The second the current run of ids belongs to (epoch seconds), its `YYYYMMDD_HHMMSS` and the next suffix. */
let idSecond = -1
let idStamp = ""
let idNext = 0

/**
 * Hermes' id shape: local `YYYYMMDD_HHMMSS_` plus six hex digits. The digits start at a random point each second
 * and count up from there (`restart`: from a new random point), so the sessions one process makes in a second sort
 * next to each other: a batch's inserts then land on the same few pages of the sessions key and of the messages
 * index instead of all over the second's range, and each commit writes fewer pages (a third less time a commit in a
 * prompt batch; docs/benchmark-history.md).
 * Another process counting in the same second collides only where the two runs overlap, and a collision restarts.
 */
export const newSessionId = (now: number, restart = false): string => {
  const second = Math.floor(now / 1000)
  if (second !== idSecond) {
    const d = new Date(now)
    idSecond = second
    idStamp = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}_${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`
    restart = true
  }
  if (restart) idNext = randomBytes(3).readUIntBE(0, 3)
  const suffix = idNext.toString(16).padStart(6, "0")
  idNext = (idNext + 1) % 0x1000000
  return `${idStamp}_${suffix}`
}

export interface ForkOptions {
  readonly id?: string
  readonly source?: string
  readonly title?: string
  readonly upToOrdinal?: number
}

const ListRequest = Schema.Struct({
  limit: Schema.Number,
  offset: Schema.Number,
  source: Schema.optional(Schema.String),
  excludeSources: Schema.optional(Schema.Array(Schema.String)),
  cwd: Schema.optional(Schema.String),
  orderBy: Schema.optional(Schema.Literal("created", "updated"))
})

export const makeSessions = (
  sql: SqlClient.SqlClient,
  indexer: BackgroundIndexer,
  writes: GroupCommit,
  /** The state database's prepared statements; without them (another SqlClient) inserts compile an @effect/sql statement. */
  statements: Option.Option<SqliteStatementsService> = Option.none()
) =>
  Effect.gen(function*() {
    const columns = sql.literal(SESSION_COLUMNS)

    // Not a SqlResolver: no caller looks sessions up concurrently, and the request machinery measured 4-8x slower per lookup.
    const sessionById = (id: string) =>
      Effect.flatMap(sql`SELECT ${columns} FROM sessions WHERE id = ${id}`, (rows) => sessionRows.first(rows, toSession))

    const getRow = (id: string, operation: string) =>
      Effect.flatMap(
        sessionById(id).pipe(Effect.mapError(failure(operation))),
        Option.match({ onNone: () => Effect.fail(new SessionNotFound({ sessionId: id })), onSome: Effect.succeed })
      )

    const encodeNewSession = Schema.encode(NewSessionRow)
    // Every prompt of a batch creates a session: with SqliteStatements the insert is prepared once and bound in place
    // (the row is all strings, nulls and numbers already, so nothing is encoded), else compiled from the template.
    const insertText = (ignoreExisting: boolean) =>
      `INSERT INTO sessions (id, source, parent_session_id, cwd, model, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)${
        ignoreExisting ? " ON CONFLICT (id) DO NOTHING" : ""
      } RETURNING ${SESSION_COLUMNS}`
    const prepared = Option.map(statements, (st) => ({ plain: st.prepare<object>(insertText(false)), ignoring: st.prepare<object>(insertText(true)) }))
    // ON CONFLICT DO NOTHING: an existing session returns no row instead of failing. Concurrent creates share a commit.
    const insertRow = (row: typeof NewSessionRow.Type, ignoreExisting: boolean) => {
      const inserted: Effect.Effect<ReadonlyArray<unknown>, SqlError | ParseResult.ParseError> = Option.isSome(prepared)
        ? writes.write((ignoreExisting ? prepared.value.ignoring : prepared.value.plain)([
          row.id, row.source, row.parentSessionId, row.cwd, row.model, row.title, row.createdAt, row.updatedAt
        ]))
        : encodeNewSession(row).pipe(
          Effect.flatMap((encoded) =>
            writes.write(
              sql`INSERT INTO sessions ${sql.insert(encoded)}${sql.literal(ignoreExisting ? " ON CONFLICT (id) DO NOTHING" : "")} RETURNING ${columns}`
            )
          )
        )
      return Effect.flatMap(inserted, (rows) => sessionRows.first(rows, toSession))
    }

    const insertSession = (input: NewSession, operation: string, ignoreExisting: boolean) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        input.id !== undefined
          ? insertWithId(input, input.id, now, operation, ignoreExisting)
          : withFreshId(now, (id) => insertWithId(input, id, now, operation, ignoreExisting)))

    const insertWithId = (input: NewSession, id: string, now: number, operation: string, ignoreExisting: boolean) =>
      Effect.gen(function*() {
        const row = {
          id,
          source: input.source,
          parentSessionId: input.parentSessionId ?? null,
          cwd: input.cwd ?? null,
          model: input.model ?? null,
          title: input.title ?? null,
          createdAt: now,
          updatedAt: now
        }
        return yield* insertRow(row, ignoreExisting).pipe(
          Effect.catchAll((e): Effect.Effect<never, SessionExists | SessionNotFound | SessionStoreError> => {
            const code = sqliteCode(e)
            if (code === "SQLITE_CONSTRAINT_PRIMARYKEY") return Effect.fail(new SessionExists({ sessionId: id }))
            if (code === "SQLITE_CONSTRAINT_FOREIGNKEY") return Effect.fail(new SessionNotFound({ sessionId: input.parentSessionId ?? "" }))
            return Effect.fail(failure(operation)(e))
          })
        )
      })

    const create = observedFn("SessionStore.create")(function*(input: NewSession) {
      const row = yield* insertSession(input, "create", false).pipe(
        Effect.catchTag("SessionNotFound", (e) => Effect.fail(new SessionStoreError({ operation: "create", message: `parent ${e.message}` })))
      )
      // RETURNING always yields the inserted row when there is no ON CONFLICT clause.
      return Option.getOrThrow(row)
    })

    const ensure = observedFn("SessionStore.ensure")(function*(id: string, defaults: Omit<NewSession, "id">) {
      const row = yield* insertSession({ ...defaults, id }, "ensure", true).pipe(
        Effect.catchTags({
          SessionExists: () => Effect.succeed(Option.none()),
          SessionNotFound: (e) => Effect.fail(new SessionStoreError({ operation: "ensure", message: `parent ${e.message}` }))
        })
      )
      if (Option.isSome(row)) return row.value
      return yield* getRow(id, "ensure").pipe(
        Effect.catchTag("SessionNotFound", () =>
          Effect.fail(new SessionStoreError({ operation: "ensure", message: `session ${id} was deleted while it was being created` })))
      )
    })

    const get = observedFn("SessionStore.get")(function*(id: string) {
      return yield* getRow(id, "get")
    })

    const listFilter = (request: typeof ListRequest.Type) =>
      sql.and([
        ...(request.source === undefined ? [] : [sql`s.source = ${request.source}`]),
        ...(request.excludeSources === undefined || request.excludeSources.length === 0 ? [] : [sql`s.source NOT IN ${sql.in(request.excludeSources)}`]),
        ...(request.cwd === undefined ? [] : [sql`s.cwd = ${request.cwd}`])
      ])
    const listPage = (request: typeof ListRequest.Type) =>
      Effect.flatMap(
        sql`SELECT ${sql.literal(SESSION_COLUMNS.split(", ").map((c) => `s.${c}`).join(", "))},
          (SELECT substr(content, 1, 200) FROM messages WHERE session_id = s.id AND role = 'user' ORDER BY ordinal LIMIT 1) AS preview
         FROM sessions s WHERE ${listFilter(request)}
         ORDER BY ${sql.literal(request.orderBy === "updated" ? "s.updated_at DESC, s.id DESC" : "s.created_at DESC, s.id DESC")}
         LIMIT ${request.limit} OFFSET ${request.offset}`,
        (rows) => sessionSummaryRows.all(rows, toSessionSummary)
      )
    const listTotal = SqlSchema.findOne({
      Request: ListRequest,
      Result: Schema.Struct({ total: Schema.Number }),
      execute: (request) => sql`SELECT count(*) AS total FROM sessions s WHERE ${listFilter(request)}`
    })

    const list = observedFn("SessionStore.list")(function*(options: ListSessionsOptions = {}) {
      const request: typeof ListRequest.Type = {
        ...options,
        limit: clamp(options.limit, 20, 1, 1000),
        offset: clamp(options.offset, 0, 0, Number.MAX_SAFE_INTEGER)
      }
      const rows: ReadonlyArray<SessionSummary> = yield* listPage(request).pipe(Effect.mapError(failure("list")))
      const total = Option.match(yield* listTotal(request).pipe(Effect.mapError(failure("list"))), { onNone: () => 0, onSome: (r) => r.total })
      const offset = request.offset
      return { sessions: rows, total, nextOffset: offset + rows.length < total ? offset + rows.length : null }
    })

    const updateRow = (r: { readonly id: string; readonly set: Record<string, string | null> }) =>
      Effect.flatMap(sql`UPDATE sessions SET ${sql.update(r.set)} WHERE id = ${r.id} RETURNING ${columns}`, (rows) => sessionRows.first(rows, toSession))

    const update = observedFn("SessionStore.update")(function*(id: string, patch: SessionPatch) {
      // Only the fields the patch names: an undefined field keeps its value, null clears it.
      const sets = (["title", "model", "cwd"] as const).filter((k) => patch[k] !== undefined)
      if (sets.length === 0) return yield* getRow(id, "update")
      const row = yield* updateRow({ id, set: Object.fromEntries(sets.map((k) => [k, patch[k] ?? null])) }).pipe(Effect.mapError(failure("update")))
      return Option.isNone(row) ? yield* new SessionNotFound({ sessionId: id }) : row.value
    })

    const forkSession = SqlSchema.findAll({
      Request: Schema.Struct({ childId: Schema.String, parentId: Schema.String, source: Schema.NullOr(Schema.String), title: Schema.NullOr(Schema.String), now: Schema.Number }),
      Result: Schema.Struct({ id: Schema.String }),
      execute: (r) =>
        sql`INSERT INTO sessions (id, source, parent_session_id, cwd, model, title, created_at, updated_at)
          SELECT ${r.childId}, coalesce(${r.source}, source), id, cwd, model, coalesce(${r.title}, title), ${r.now}, ${r.now}
          FROM sessions WHERE id = ${r.parentId} RETURNING id`
    })

    const fork = observedFn("SessionStore.fork")(function*(id: string, options: ForkOptions = {}) {
      const now = yield* Clock.currentTimeMillis
      const upTo = options.upToOrdinal ?? Number.MAX_SAFE_INTEGER
      const forkAs = (childId: string) => sql.withTransaction(Effect.gen(function*() {
        const created = yield* forkSession({ childId, parentId: id, source: options.source ?? null, title: options.title ?? null, now }).pipe(
          Effect.catchAll((e): Effect.Effect<never, SessionExists | SessionStoreError> =>
            sqliteCode(e) === "SQLITE_CONSTRAINT_PRIMARYKEY" ? Effect.fail(new SessionExists({ sessionId: childId })) : Effect.fail(failure("fork")(e))
          )
        )
        if (created.length === 0) return yield* new SessionNotFound({ sessionId: id })
        yield* sql`INSERT INTO messages (session_id, ordinal, role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, created_at)
          SELECT ${childId}, ordinal, role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, created_at
          FROM messages WHERE session_id = ${id} AND ordinal <= ${upTo} ORDER BY ordinal`
        // The copies count into the child's counters through the insert trigger.
        return yield* getRow(childId, "fork")
      })).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(failure("fork")(e))))
      const session = yield* (options.id !== undefined ? forkAs(options.id) : withFreshId(now, forkAs))
      yield* indexer.noteAppended(session.messageCount)
      return session
    })

    const deleteSession = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ messages: Schema.propertySignature(Schema.Number).pipe(Schema.fromKey("message_count")) }),
      // One statement: the cascade (messages, their index entries, the todo list) commits or fails with it.
      execute: (sessionId) => sql`DELETE FROM sessions WHERE id = ${sessionId} RETURNING message_count`
    })

    const remove = observedFn("SessionStore.delete")(function*(id: string) {
      const deleted = yield* deleteSession(id).pipe(Effect.mapError(failure("delete")))
      return Option.isNone(deleted) ? yield* new SessionNotFound({ sessionId: id }) : deleted.value
    })

    const chain = SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ id: Schema.String }),
      execute: (sessionId) =>
        sql`WITH RECURSIVE chain (id, parent, depth) AS (
           SELECT id, parent_session_id, 0 FROM sessions WHERE id = ${sessionId}
           UNION ALL
           SELECT s.id, s.parent_session_id, c.depth + 1 FROM sessions s JOIN chain c ON s.id = c.parent WHERE c.depth < 1000
         ) SELECT id FROM chain ORDER BY depth`
    })

    const lineage = observedFn("SessionStore.lineage")(function*(id: string) {
      const rows = yield* chain(id).pipe(Effect.mapError(failure("lineage")))
      return rows.map((r) => r.id)
    })

    return { getRow, create, ensure, get, list, update, fork, delete: remove, lineage }
  })

export type SessionQueries = Effect.Effect.Success<ReturnType<typeof makeSessions>>
