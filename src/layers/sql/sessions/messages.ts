/**
 * Messages: append a turn, read a session's history or a window around one
 * message.
 *
 * An append is one statement (or, past `INSERT_CHUNK` messages, one
 * transaction of them) that computes the next ordinal itself, so several
 * processes may append to one session and still get a gapless order.
 * Concurrent appends share a commit (groupCommit.ts).
 */
import { SqlSchema } from "@effect/sql"
import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Effect, Option, Schema } from "effect"
import { MessageNotFound, SessionNotFound } from "../../../services/SessionStore.js"
import type { HistoryOptions, NewMessage, SessionStoreError, StoredMessage, Usage } from "../../../services/SessionStore.js"
import type { SqliteStatementsService } from "../sqliteClient.js"
import { preparedOr } from "../sqliteClient.js"
import type { BackgroundIndexer } from "./backgroundIndexer.js"
import type { GroupCommit } from "./groupCommit.js"
import { MESSAGE_COLUMNS, messageRows, toolCallsText, toStoredMessage } from "./rows.js"
import type { SessionQueries } from "./sessions.js"
import { failure, sqliteCode } from "./storeErrors.js"
import { observedFn } from "../../../lib/effect/observedFn.js"

/** Rows per INSERT statement: 7 parameters each, well under SQLite's 32 766. */
const INSERT_CHUNK = 500

export const makeMessages = (
  sql: SqlClient.SqlClient,
  sessions: Pick<SessionQueries, "getRow">,
  indexer: BackgroundIndexer,
  writes: GroupCommit,
  /** The state database's prepared statements; without them (another SqlClient) appends go through `sql.unsafe`. */
  statements: Option.Option<SqliteStatementsService>
) => {
  const columns = sql.literal(MESSAGE_COLUMNS)

  /**
   * The append statement for `n` rows, built once per size: ordinals continue
   * from the session's highest (computed once, before any row is inserted),
   * the counters follow by trigger, and a missing session fails the foreign key.
   * Prepared once per size (SqliteStatements), so an append binds parameters and runs.
   */
  type Inserted = { readonly id: number; readonly ordinal: number }
  const appendStatements = new Map<number, (params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Inserted>, SqlError>>()
  const statementFor = (n: number) => {
    let run = appendStatements.get(n)
    if (run === undefined) {
      const text = `WITH base (n) AS MATERIALIZED (SELECT coalesce(max(ordinal), -1) FROM messages WHERE session_id = ?)
      INSERT INTO messages (session_id, ordinal, role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, created_at)
      SELECT ?, base.n + v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, ?
      FROM base, (VALUES ${Array.from({ length: n }, (_, i) => `(${i + 1}, ?, ?, ?, ?, ?, ?, ?)`).join(", ")}) AS v ORDER BY v.column1
      RETURNING id, ordinal`
      run = preparedOr<Inserted>(sql, statements, text)
      if (appendStatements.size < 64) appendStatements.set(n, run)
    }
    return run
  }

  /** One statement appends a chunk; its parameters are bound in place, not compiled from a template per row. */
  const appendChunk = (sessionId: string, now: number, part: ReadonlyArray<NewMessage>, usage: Usage, isFirstChunk: boolean) => {
    const params: Array<string | number | null> = [sessionId, sessionId, now]
    part.forEach((m, i) => {
      // The turn's token usage is kept on its first message and summed into the session.
      const first = isFirstChunk && i === 0
      params.push(
        m.role,
        m.content,
        toolCallsText(m.toolCalls ?? null),
        m.toolCallId ?? null,
        m.toolName ?? null,
        first ? Math.max(0, Math.floor(usage.inputTokens ?? 0)) : 0,
        first ? Math.max(0, Math.floor(usage.outputTokens ?? 0)) : 0
      )
    })
    // Typed, not decoded: the two integer columns of our own RETURNING clause, on the append hot path.
    return statementFor(part.length)(params)
  }

  const appendFailed = (sessionId: string) => (e: SqlError): Effect.Effect<never, SessionNotFound | SessionStoreError> =>
    sqliteCode(e) === "SQLITE_CONSTRAINT_FOREIGNKEY" ? Effect.fail(new SessionNotFound({ sessionId })) : Effect.fail(failure("append")(e))

  const appended = (sessionId: string, messages: ReadonlyArray<NewMessage>, now: number, rows: ReadonlyArray<Inserted>) => {
    // RETURNING's order is not promised; it is in insertion order in practice, so the copy and sort are rarely needed.
    const ordered = rows.every((r, i) => i === 0 || rows[i - 1]!.ordinal < r.ordinal) ? rows : [...rows].sort((a, b) => a.ordinal - b.ordinal)
    const first = ordered[0]!.ordinal
    return Effect.as(
      indexer.noteAppended(messages.length),
      messages.map((m, i): StoredMessage => ({
        id: ordered[i]!.id,
        sessionId,
        ordinal: first + i,
        role: m.role,
        content: m.content,
        toolCalls: m.toolCalls ?? null,
        toolCallId: m.toolCallId ?? null,
        toolName: m.toolName ?? null,
        createdAt: now
      }))
    )
  }

  /**
   * No span per append: creating one costs about as much as the rest of the service's work on a turn
   * (bench/sessions.mjs), and the turn's few steps are a plain chain rather than a generator for the same reason.
   */
  const append = (
    sessionId: string,
    messages: ReadonlyArray<NewMessage>,
    usage: Usage = {}
  ): Effect.Effect<ReadonlyArray<StoredMessage>, SessionNotFound | SessionStoreError> => {
    if (messages.length === 0) return Effect.as(sessions.getRow(sessionId, "append"), [])
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (messages.length <= INSERT_CHUNK) {
        return Effect.matchEffect(writes.write(appendChunk(sessionId, now, messages, usage, true)), {
          onFailure: appendFailed(sessionId),
          onSuccess: (rows) => appended(sessionId, messages, now, rows)
        })
      }
      const starts = Array.from({ length: Math.ceil(messages.length / INSERT_CHUNK) }, (_, i) => i * INSERT_CHUNK)
      const chunk = (start: number) => appendChunk(sessionId, now, messages.slice(start, start + INSERT_CHUNK), usage, start === 0)
      // One statement undoes itself on failure (above); only a turn larger than a chunk needs a transaction (a savepoint when grouped).
      return Effect.matchEffect(
        writes.write(sql.withTransaction(Effect.map(Effect.forEach(starts, chunk), (parts) => parts.flat()))),
        { onFailure: appendFailed(sessionId), onSuccess: (rows) => appended(sessionId, messages, now, rows) }
      )
    })
  }

  const history = observedFn("SessionStore.history")(function*(sessionId: string, options: HistoryOptions = {}) {
    const from = Math.max(0, options.fromOrdinal ?? 0)
    const limit = options.limit ?? -1
    const rows = yield* sql`SELECT ${columns} FROM messages WHERE session_id = ${sessionId} AND ordinal >= ${from} ORDER BY ordinal LIMIT ${limit}`.pipe(
      Effect.flatMap((rows) => messageRows.all(rows, toStoredMessage)),
      Effect.mapError(failure("history"))
    )
    if (rows.length === 0) yield* sessions.getRow(sessionId, "history")
    return rows
  })

  const anchorOrdinal = SqlSchema.findOne({
    Request: Schema.Struct({ sessionId: Schema.String, messageId: Schema.Number }),
    Result: Schema.Struct({ ordinal: Schema.Number }),
    execute: (r) => sql`SELECT ordinal FROM messages WHERE id = ${r.messageId} AND session_id = ${r.sessionId}`
  })

  const windowRows = (sessionId: string, from: number, to: number) =>
    sql`SELECT ${columns} FROM messages WHERE session_id = ${sessionId} AND ordinal BETWEEN ${from} AND ${to} ORDER BY ordinal`.pipe(
      Effect.flatMap((rows) => messageRows.all(rows, toStoredMessage))
    )

  const around = observedFn("SessionStore.around")(function*(sessionId: string, messageId: number, window: number) {
    const anchor = yield* anchorOrdinal({ sessionId, messageId }).pipe(Effect.mapError(failure("around")))
    const session = yield* sessions.getRow(sessionId, "around")
    if (Option.isNone(anchor)) return yield* new MessageNotFound({ sessionId, messageId })
    const at = anchor.value.ordinal
    const w = Math.max(0, Math.floor(window))
    const messages = yield* windowRows(sessionId, at - w, at + w).pipe(Effect.mapError(failure("around")))
    return {
      anchor: messages.find((m) => m.id === messageId)!,
      messages,
      before: Math.max(0, at - w),
      after: Math.max(0, session.messageCount - 1 - (at + w))
    }
  })

  return { append, history, around }
}
