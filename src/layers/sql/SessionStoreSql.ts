/**
 * SessionStore on the state database (any SqlClient with our schema: the
 * home's `state.db`, or `:memory:` for tests).
 *
 * Writes that belong together are one transaction whose first statement is a
 * write, so it holds SQLite's write lock before it reads anything: appends
 * (counters + messages), forks (session + copied history), todo writes
 * (session + list). Message ordinals are assigned inside that transaction, so
 * several processes may append to one session and still get a gapless order.
 */
import { randomBytes } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Duration, Effect, Layer, Queue } from "effect"
import { MessageNotFound, SessionExists, SessionNotFound, SessionStore, SessionStoreError } from "../../services/SessionStore.js"
import type {
  ListSessionsOptions,
  MessageRole,
  NewMessage,
  NewSession,
  ProcessCheckpoint,
  SearchHit,
  SearchOptions,
  Session,
  SessionPatch,
  SessionSummary,
  StoredMessage,
  ToolCallRecord
} from "../../services/SessionStore.js"
import { catchUp, indexChunk, pendingMessages, WORDS_BATCH } from "./searchIndex.js"
import type { SearchIndexName } from "./searchIndex.js"
import { hasCjk, quoteTerms, substringSnippet, substringTerms, terms, usesFtsSyntax } from "./searchQuery.js"
import { StateDatabaseMemory } from "./StateDatabase.js"
import { toMessageLines, toShareGpt } from "./trajectory.js"

interface SessionRow {
  readonly id: string
  readonly source: string
  readonly parent_session_id: string | null
  readonly cwd: string | null
  readonly model: string | null
  readonly title: string | null
  readonly created_at: number
  readonly updated_at: number
  readonly message_count: number
  readonly tool_call_count: number
  readonly input_tokens: number
  readonly output_tokens: number
  readonly preview?: string | null
}

interface MessageRow {
  readonly id: number
  readonly session_id: string
  readonly ordinal: number
  readonly role: MessageRole
  readonly content: string | null
  readonly tool_calls: string | null
  readonly tool_call_id: string | null
  readonly tool_name: string | null
  readonly created_at: number
}

interface HitRow {
  readonly id: number
  readonly session_id: string
  readonly ordinal: number
  readonly role: MessageRole
  readonly created_at: number
  readonly snippet?: string | null
  readonly content?: string | null
  readonly source: string
  readonly model: string | null
  readonly title: string | null
  readonly session_created_at: number
}

interface CheckpointRow {
  readonly id: string
  readonly session_id: string | null
  readonly task_id: string
  readonly command: string
  readonly cwd: string | null
  readonly pid: number | null
  readonly status: string
  readonly exit_code: number | null
  readonly started_at: number
  readonly updated_at: number
  readonly output_tail: string
}

const SESSION_COLUMNS =
  "id, source, parent_session_id, cwd, model, title, created_at, updated_at, message_count, tool_call_count, input_tokens, output_tokens"
const MESSAGE_COLUMNS = "id, session_id, ordinal, role, content, tool_calls, tool_call_id, tool_name, created_at"
const MESSAGE_INSERT_COLUMNS = "session_id, ordinal, role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, created_at"
/** Rows per INSERT statement: 7 parameters each, well under SQLite's 32 766. */
const INSERT_CHUNK = 500
/** No write for this long, and the background fiber starts indexing what is pending. */
const IDLE_BEFORE_INDEXING = Duration.millis(500)
/** Relevance is ranked among this many most recent matches (see `search`). */
export const RANK_WINDOW = 2000
/** On close, trigrams are indexed only when this few are pending; a backlog waits for an idle moment or a substring search. */
const TRIGRAMS_ON_CLOSE = 2000

const toSession = (r: SessionRow): Session => ({
  id: r.id,
  source: r.source,
  parentSessionId: r.parent_session_id,
  cwd: r.cwd,
  model: r.model,
  title: r.title,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  messageCount: r.message_count,
  toolCallCount: r.tool_call_count,
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens
})

const parseToolCalls = (text: string | null): ReadonlyArray<ToolCallRecord> | null => {
  if (text === null) return null
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? (value as ReadonlyArray<ToolCallRecord>) : null
  } catch {
    return null
  }
}

const toMessage = (r: MessageRow): StoredMessage => ({
  id: r.id,
  sessionId: r.session_id,
  ordinal: r.ordinal,
  role: r.role,
  content: r.content,
  toolCalls: parseToolCalls(r.tool_calls),
  toolCallId: r.tool_call_id,
  toolName: r.tool_name,
  createdAt: r.created_at
})

const toCheckpoint = (r: CheckpointRow): ProcessCheckpoint => ({
  id: r.id,
  sessionId: r.session_id,
  taskId: r.task_id,
  command: r.command,
  cwd: r.cwd,
  pid: r.pid,
  status: r.status,
  exitCode: r.exit_code,
  startedAt: r.started_at,
  updatedAt: r.updated_at,
  outputTail: r.output_tail
})

const sqliteCode = (e: SqlError): string => {
  const cause = e.cause
  return cause !== null && typeof cause === "object" && "code" in cause && typeof cause.code === "string" ? cause.code : ""
}

const failure = (operation: string) => (e: SqlError) => {
  const cause = e.cause instanceof Error ? e.cause.message : e.message
  return new SessionStoreError({ operation, message: `session store: ${operation} failed: ${cause}` })
}

const clamp = (value: number | undefined, fallback: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Math.floor(Number.isFinite(value) ? value! : fallback)))

const pad = (n: number) => String(n).padStart(2, "0")

/** Hermes' id shape: local `YYYYMMDD_HHMMSS_` plus six random hex digits. */
export const newSessionId = (now: number): string => {
  const d = new Date(now)
  const date = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`
  const time = `${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`
  return `${date}_${time}_${randomBytes(3).toString("hex")}`
}

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ")

const appendSql = new Map<number, string>()
/**
 * One statement appends `n` messages: ordinals continue from the session's
 * highest (computed once, before any row is inserted), the counters follow by
 * trigger, and a missing session fails the foreign key. The text is cached per size.
 */
const appendMessagesSql = (n: number): string => {
  let text = appendSql.get(n)
  if (text === undefined) {
    const rows = Array.from({ length: n }, (_, i) => `(${i + 1}, ?, ?, ?, ?, ?, ?, ?)`).join(", ")
    text = `WITH base (n) AS MATERIALIZED (SELECT coalesce(max(ordinal), -1) FROM messages WHERE session_id = ?)
      INSERT INTO messages (${MESSAGE_INSERT_COLUMNS})
      SELECT ?, base.n + v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, ?
      FROM base, (VALUES ${rows}) AS v ORDER BY v.column1
      RETURNING id, ordinal`
    appendSql.set(n, text)
  }
  return text
}

interface Where {
  readonly clause: string
  readonly params: ReadonlyArray<unknown>
}

const where = (parts: ReadonlyArray<readonly [string, ReadonlyArray<unknown>] | undefined>): Where => {
  const used = parts.filter((p): p is readonly [string, ReadonlyArray<unknown>] => p !== undefined)
  return { clause: used.map(([c]) => ` AND ${c}`).join(""), params: used.flatMap(([, p]) => p) }
}

const inList = (column: string, values: ReadonlyArray<string> | undefined, negate = false) =>
  values === undefined || values.length === 0 ? undefined : ([`${column} ${negate ? "NOT IN" : "IN"} (${placeholders(values.length)})`, values] as const)

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  /** Messages this store appended since it last caught up the word index (other processes' are found by `pendingMessages`). */
  let unindexedWords = 0
  /** Bumped by every write, so the idle indexer backs off while writes keep coming. */
  let writes = 0
  const wake = yield* Queue.sliding<void>(1)

  const indexNow = (index: SearchIndexName, operation: string) =>
    catchUp(sql, index).pipe(
      Effect.tap(() => Effect.sync(() => void (index === "words" && (unindexedWords = 0)))),
      Effect.mapError(failure(operation))
    )

  const ensureIndexed = (index: SearchIndexName) =>
    Effect.flatMap(pendingMessages(sql, index).pipe(Effect.mapError(failure("search"))), (n) => (n > 0 ? indexNow(index, "search") : Effect.void))

  /** After a write: catch up the word index when a batch has built up; a failure here loses nothing (the next search retries). */
  const noteAppended = (n: number) =>
    Effect.suspend(() => {
      writes++
      unindexedWords += n
      const signal = Queue.offer(wake, undefined)
      if (unindexedWords < WORDS_BATCH) return signal
      return indexNow("words", "index").pipe(
        Effect.asVoid,
        Effect.catchAll((e) => Effect.logWarning(`${e.message}; the search index will catch up on the next search`)),
        Effect.zipRight(signal)
      )
    })

  // Registered before the indexer fiber, so it runs after that fiber is interrupted.
  yield* Effect.addFinalizer(() =>
    writes === 0 ? Effect.void : Effect.ignore(Effect.gen(function*() {
      yield* catchUp(sql, "words")
      if ((yield* pendingMessages(sql, "trigrams")) <= TRIGRAMS_ON_CLOSE) yield* catchUp(sql, "trigrams")
    }))
  )

  // The idle indexer: once writes pause, index chunk by chunk (words first) until done or writes resume.
  const indexWhileIdle = Effect.gen(function*() {
    for (;;) {
      const seen = writes
      yield* Effect.sleep(IDLE_BEFORE_INDEXING)
      while (writes === seen) {
        const words = yield* indexChunk(sql, "words")
        if (words === 0 && (yield* indexChunk(sql, "trigrams")) === 0) return
        yield* Effect.yieldNow()
      }
    }
  })
  yield* Effect.forkScoped(Effect.forever(Queue.take(wake).pipe(
    Effect.zipRight(indexWhileIdle),
    Effect.catchAll((e) => Effect.logDebug(`background search indexing stopped for now: ${e.message}`))
  )))
  // A backlog left by an earlier process is indexed at the first idle moment.
  if ((yield* Effect.orElseSucceed(pendingMessages(sql, "trigrams"), () => 0)) > 0) yield* Queue.offer(wake, undefined)

  const getRow = (id: string, operation: string) =>
    Effect.flatMap(
      sql.unsafe<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`, [id]).pipe(Effect.mapError(failure(operation))),
      ([row]) => (row === undefined ? Effect.fail(new SessionNotFound({ sessionId: id })) : Effect.succeed(toSession(row)))
    )

  const insertSession = (input: NewSession, operation: string, ignoreExisting: boolean) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const id = input.id ?? newSessionId(now)
      const rows = yield* sql.unsafe<SessionRow>(
        `INSERT INTO sessions (id, source, parent_session_id, cwd, model, title, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)${ignoreExisting ? " ON CONFLICT (id) DO NOTHING" : ""} RETURNING ${SESSION_COLUMNS}`,
        [id, input.source, input.parentSessionId ?? null, input.cwd ?? null, input.model ?? null, input.title ?? null, now, now]
      ).pipe(
        Effect.catchAll((e): Effect.Effect<never, SessionExists | SessionNotFound | SessionStoreError> => {
          const code = sqliteCode(e)
          if (code === "SQLITE_CONSTRAINT_PRIMARYKEY") return Effect.fail(new SessionExists({ sessionId: id }))
          if (code === "SQLITE_CONSTRAINT_FOREIGNKEY") return Effect.fail(new SessionNotFound({ sessionId: input.parentSessionId ?? "" }))
          return Effect.fail(failure(operation)(e))
        })
      )
      return { id, row: rows[0] }
    })

  const create = Effect.fn("SessionStore.create")(function*(input: NewSession) {
    const { row } = yield* insertSession(input, "create", false).pipe(
      Effect.catchTag("SessionNotFound", (e) =>
        Effect.fail(new SessionStoreError({ operation: "create", message: `parent ${e.message}` })))
    )
    return toSession(row!)
  })

  const ensure = Effect.fn("SessionStore.ensure")(function*(id: string, defaults: Omit<NewSession, "id">) {
    const { row } = yield* insertSession({ ...defaults, id }, "ensure", true).pipe(
      Effect.catchTags({
        // ON CONFLICT DO NOTHING: an existing session returns no row instead of failing.
        SessionExists: () => Effect.succeed({ id, row: undefined }),
        SessionNotFound: (e) => Effect.fail(new SessionStoreError({ operation: "ensure", message: `parent ${e.message}` }))
      })
    )
    if (row !== undefined) return toSession(row)
    return yield* getRow(id, "ensure").pipe(
      Effect.catchTag("SessionNotFound", () =>
        Effect.fail(new SessionStoreError({ operation: "ensure", message: `session ${id} was deleted while it was being created` })))
    )
  })

  const get = Effect.fn("SessionStore.get")(function*(id: string) {
    return yield* getRow(id, "get")
  })

  const list = Effect.fn("SessionStore.list")(function*(options: ListSessionsOptions = {}) {
    const limit = clamp(options.limit, 20, 1, 1000)
    const offset = clamp(options.offset, 0, 0, Number.MAX_SAFE_INTEGER)
    const filter = where([
      options.source === undefined ? undefined : ["s.source = ?", [options.source]],
      inList("s.source", options.excludeSources, true),
      options.cwd === undefined ? undefined : ["s.cwd = ?", [options.cwd]]
    ])
    const order = options.orderBy === "updated" ? "s.updated_at DESC, s.id DESC" : "s.created_at DESC, s.id DESC"
    const rows = yield* sql.unsafe<SessionRow>(
      `SELECT ${SESSION_COLUMNS.split(", ").map((c) => `s.${c}`).join(", ")},
        (SELECT substr(content, 1, 200) FROM messages WHERE session_id = s.id AND role = 'user' ORDER BY ordinal LIMIT 1) AS preview
       FROM sessions s WHERE 1 = 1${filter.clause} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...filter.params, limit, offset]
    ).pipe(Effect.mapError(failure("list")))
    const [count] = yield* sql.unsafe<{ total: number }>(`SELECT count(*) AS total FROM sessions s WHERE 1 = 1${filter.clause}`, filter.params).pipe(
      Effect.mapError(failure("list"))
    )
    const total = count?.total ?? 0
    const sessions = rows.map((r): SessionSummary => ({ ...toSession(r), preview: r.preview ?? null }))
    return { sessions, total, nextOffset: offset + rows.length < total ? offset + rows.length : null }
  })

  const update = Effect.fn("SessionStore.update")(function*(id: string, patch: SessionPatch) {
    const sets = (["title", "model", "cwd"] as const).filter((k) => patch[k] !== undefined)
    if (sets.length === 0) return yield* getRow(id, "update")
    const rows = yield* sql.unsafe<SessionRow>(
      `UPDATE sessions SET ${sets.map((k) => `${k} = ?`).join(", ")} WHERE id = ? RETURNING ${SESSION_COLUMNS}`,
      [...sets.map((k) => patch[k] ?? null), id]
    ).pipe(Effect.mapError(failure("update")))
    const row = rows[0]
    return row === undefined ? yield* new SessionNotFound({ sessionId: id }) : toSession(row)
  })

  const fork = Effect.fn("SessionStore.fork")(function*(
    id: string,
    options: { readonly id?: string; readonly source?: string; readonly title?: string; readonly upToOrdinal?: number } = {}
  ) {
    const now = yield* Clock.currentTimeMillis
    const childId = options.id ?? newSessionId(now)
    const upTo = options.upToOrdinal ?? Number.MAX_SAFE_INTEGER
    const row = yield* sql.withTransaction(Effect.gen(function*() {
      const created = yield* sql.unsafe<{ id: string }>(
        `INSERT INTO sessions (id, source, parent_session_id, cwd, model, title, created_at, updated_at)
         SELECT ?, coalesce(?, source), id, cwd, model, coalesce(?, title), ?, ? FROM sessions WHERE id = ? RETURNING id`,
        [childId, options.source ?? null, options.title ?? null, now, now, id]
      ).pipe(
        Effect.catchAll((e): Effect.Effect<never, SessionExists | SessionStoreError> =>
          sqliteCode(e) === "SQLITE_CONSTRAINT_PRIMARYKEY" ? Effect.fail(new SessionExists({ sessionId: childId })) : Effect.fail(failure("fork")(e))
        )
      )
      if (created.length === 0) return yield* new SessionNotFound({ sessionId: id })
      yield* sql.unsafe(
        `INSERT INTO messages (${MESSAGE_INSERT_COLUMNS})
         SELECT ?, ordinal, role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, created_at
         FROM messages WHERE session_id = ? AND ordinal <= ? ORDER BY ordinal`,
        [childId, id, upTo]
      )
      // The copies count into the child's counters through the insert trigger.
      const [updated] = yield* sql.unsafe<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`, [childId])
      return updated!
    })).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(failure("fork")(e))))
    yield* noteAppended(row.message_count)
    return toSession(row)
  })

  const remove = Effect.fn("SessionStore.delete")(function*(id: string) {
    // One statement: the cascade (messages, their index entries, the todo list) commits or fails with it.
    const rows = yield* sql.unsafe<{ message_count: number }>("DELETE FROM sessions WHERE id = ? RETURNING message_count", [id]).pipe(
      Effect.mapError(failure("delete"))
    )
    const row = rows[0]
    return row === undefined ? yield* new SessionNotFound({ sessionId: id }) : { messages: row.message_count }
  })

  const lineage = Effect.fn("SessionStore.lineage")(function*(id: string) {
    const rows = yield* sql.unsafe<{ id: string }>(
      `WITH RECURSIVE chain (id, parent, depth) AS (
         SELECT id, parent_session_id, 0 FROM sessions WHERE id = ?
         UNION ALL
         SELECT s.id, s.parent_session_id, c.depth + 1 FROM sessions s JOIN chain c ON s.id = c.parent WHERE c.depth < 1000
       ) SELECT id FROM chain ORDER BY depth`,
      [id]
    ).pipe(Effect.mapError(failure("lineage")))
    return rows.map((r) => r.id)
  })

  const append = Effect.fn("SessionStore.append")(function*(
    sessionId: string,
    messages: ReadonlyArray<NewMessage>,
    usage: { readonly inputTokens?: number | undefined; readonly outputTokens?: number | undefined } = {}
  ) {
    if (messages.length === 0) {
      yield* getRow(sessionId, "append")
      return []
    }
    const now = yield* Clock.currentTimeMillis
    const chunk = (start: number) =>
      Effect.suspend(() => {
        const part = messages.slice(start, start + INSERT_CHUNK)
        const params: Array<unknown> = [sessionId, sessionId, now]
        part.forEach((m, i) => {
          // The turn's token usage is kept on its first message and summed into the session.
          const first = start + i === 0
          params.push(
            m.role,
            m.content,
            m.toolCalls === undefined || m.toolCalls === null ? null : JSON.stringify(m.toolCalls),
            m.toolCallId ?? null,
            m.toolName ?? null,
            first ? Math.max(0, Math.floor(usage.inputTokens ?? 0)) : 0,
            first ? Math.max(0, Math.floor(usage.outputTokens ?? 0)) : 0
          )
        })
        return sql.unsafe<{ id: number; ordinal: number }>(appendMessagesSql(part.length), params)
      })
    const starts = Array.from({ length: Math.ceil(messages.length / INSERT_CHUNK) }, (_, i) => i * INSERT_CHUNK)
    // One statement is one transaction; only a turn larger than a chunk needs an explicit one.
    const rows = yield* (starts.length === 1 ? chunk(0) : sql.withTransaction(Effect.map(Effect.forEach(starts, chunk), (parts) => parts.flat()))).pipe(
      Effect.catchAll((e): Effect.Effect<never, SessionNotFound | SessionStoreError> =>
        sqliteCode(e) === "SQLITE_CONSTRAINT_FOREIGNKEY" ? Effect.fail(new SessionNotFound({ sessionId })) : Effect.fail(failure("append")(e))
      )
    )
    const ordered = [...rows].sort((a, b) => a.ordinal - b.ordinal)
    const inserted = { first: ordered[0]!.ordinal, ids: ordered.map((r) => r.id) }
    yield* noteAppended(messages.length)
    return messages.map((m, i): StoredMessage => ({
      id: inserted.ids[i]!,
      sessionId,
      ordinal: inserted.first + i,
      role: m.role,
      content: m.content,
      toolCalls: m.toolCalls ?? null,
      toolCallId: m.toolCallId ?? null,
      toolName: m.toolName ?? null,
      createdAt: now
    }))
  })

  const history = Effect.fn("SessionStore.history")(function*(
    sessionId: string,
    options: { readonly fromOrdinal?: number | undefined; readonly limit?: number | undefined } = {}
  ) {
    const rows = yield* sql.unsafe<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND ordinal >= ? ORDER BY ordinal LIMIT ?`,
      [sessionId, Math.max(0, options.fromOrdinal ?? 0), options.limit ?? -1]
    ).pipe(Effect.mapError(failure("history")))
    if (rows.length === 0) yield* getRow(sessionId, "history")
    return rows.map(toMessage)
  })

  const around = Effect.fn("SessionStore.around")(function*(sessionId: string, messageId: number, window: number) {
    const [anchor] = yield* sql.unsafe<{ ordinal: number }>("SELECT ordinal FROM messages WHERE id = ? AND session_id = ?", [messageId, sessionId]).pipe(
      Effect.mapError(failure("around"))
    )
    const session = yield* getRow(sessionId, "around")
    if (anchor === undefined) return yield* new MessageNotFound({ sessionId, messageId })
    const w = Math.max(0, Math.floor(window))
    const rows = yield* sql.unsafe<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND ordinal BETWEEN ? AND ? ORDER BY ordinal`,
      [sessionId, anchor.ordinal - w, anchor.ordinal + w]
    ).pipe(Effect.mapError(failure("around")))
    const messages = rows.map(toMessage)
    return {
      anchor: messages.find((m) => m.id === messageId)!,
      messages,
      before: Math.max(0, anchor.ordinal - w),
      after: Math.max(0, session.messageCount - 1 - (anchor.ordinal + w))
    }
  })

  const hitFrom = (match: "fts" | "substring", query: string) => (r: HitRow): SearchHit => ({
    messageId: r.id,
    sessionId: r.session_id,
    ordinal: r.ordinal,
    role: r.role,
    snippet: match === "fts" ? r.snippet ?? "" : substringSnippet(r.content ?? "", query),
    createdAt: r.created_at,
    source: r.source,
    model: r.model,
    title: r.title,
    sessionCreatedAt: r.session_created_at,
    match
  })

  const HIT_COLUMNS = "m.id, m.session_id, m.ordinal, m.role, m.created_at, s.source, s.model, s.title, s.created_at AS session_created_at"

  const search = Effect.fn("SessionStore.search")(function*(query: string, options: SearchOptions = {}) {
    const text = query.trim()
    if (terms(text).length === 0) return []
    const limit = clamp(options.limit, 20, 1, 500)
    const offset = clamp(options.offset, 0, 0, Number.MAX_SAFE_INTEGER)
    const filter = where([
      inList("m.role", options.roles),
      inList("s.source", options.sources),
      inList("s.source", options.excludeSources, true),
      options.sessionId === undefined ? undefined : ["m.session_id = ?", [options.sessionId]]
    ])

    const words = (match: string) => {
      if (options.sort === "newest" || options.sort === "oldest") {
        return sql.unsafe<HitRow>(
          `SELECT ${HIT_COLUMNS}, snippet(messages_fts, 0, '>>>', '<<<', '...', 32) AS snippet
           FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
           WHERE messages_fts MATCH ?${filter.clause}
           ORDER BY messages_fts.rowid ${options.sort === "newest" ? "DESC" : "ASC"} LIMIT ? OFFSET ?`,
          [match, ...filter.params, limit, offset]
        )
      }
      // BM25 over the RANK_WINDOW most recent matches (filters apply within them): exact for all
      // but very common terms, whose ranking cost would otherwise grow with the whole history.
      return sql.unsafe<HitRow>(
        `SELECT ${HIT_COLUMNS}, snippet(messages_fts, 0, '>>>', '<<<', '...', 32) AS snippet
         FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
         WHERE messages_fts MATCH ?${filter.clause}
           AND messages_fts.rowid >= coalesce((
             SELECT f2.rowid FROM messages_fts f2 WHERE f2.messages_fts MATCH ?
             ORDER BY f2.rowid DESC LIMIT 1 OFFSET ${RANK_WINDOW - 1}), 0)
         ORDER BY messages_fts.rank LIMIT ? OFFSET ?`,
        [match, ...filter.params, match, limit, offset]
      )
    }

    const substrings = Effect.zipRight(ensureIndexed("trigrams"), Effect.suspend(() => {
      const parts = substringTerms(text)
      const exact = parts.flatMap((p) => (p.exact === undefined ? [] : [p.exact]))
      return sql.unsafe<HitRow>(
        `SELECT ${HIT_COLUMNS}, m.content
         FROM messages_trigram t JOIN messages m ON m.id = t.rowid JOIN sessions s ON s.id = m.session_id
         WHERE ${parts.map(() => "t.content LIKE ?").join(" AND ")}${exact.map(() => " AND instr(lower(m.content), lower(?)) > 0").join("")}${filter.clause}
         ORDER BY t.rowid ${options.sort === "oldest" ? "ASC" : "DESC"}
         LIMIT ? OFFSET ?`,
        [...parts.map((p) => p.pattern), ...exact, ...filter.params, limit, offset]
      ).pipe(Effect.map((rows) => rows.map(hitFrom("substring", text))), Effect.mapError(failure("search")))
    }))

    if (hasCjk(text)) return yield* substrings
    yield* ensureIndexed("words")
    const hits = yield* words(text).pipe(
      Effect.catchAll(() => words(quoteTerms(text))),
      Effect.map((rows) => rows.map(hitFrom("fts", text))),
      Effect.mapError(failure("search"))
    )
    if (hits.length > 0 || offset > 0 || usesFtsSyntax(text)) return hits
    return yield* substrings
  })

  const exportSession = Effect.fn("SessionStore.export")(function*(sessionId: string, format: "sharegpt" | "messages" = "sharegpt") {
    const session = yield* getRow(sessionId, "export")
    const messages = yield* history(sessionId)
    return format === "messages" ? toMessageLines(messages) : JSON.stringify(toShareGpt(session, messages))
  })

  const checkpointProcess = Effect.fn("SessionStore.checkpointProcess")(function*(cp: ProcessCheckpoint) {
    yield* sql.unsafe(
      `INSERT INTO process_checkpoints (id, session_id, task_id, command, cwd, pid, status, exit_code, started_at, updated_at, output_tail)
       VALUES (?, (SELECT id FROM sessions WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, task_id = excluded.task_id, command = excluded.command,
         cwd = excluded.cwd, pid = excluded.pid, status = excluded.status, exit_code = excluded.exit_code,
         started_at = excluded.started_at, updated_at = excluded.updated_at, output_tail = excluded.output_tail`,
      [cp.id, cp.sessionId, cp.taskId, cp.command, cp.cwd, cp.pid, cp.status, cp.exitCode, cp.startedAt, cp.updatedAt, cp.outputTail]
    ).pipe(Effect.mapError(failure("checkpoint")))
  })

  const processCheckpoints = Effect.fn("SessionStore.processCheckpoints")(function*(options: { readonly status?: string } = {}) {
    const rows = yield* sql.unsafe<CheckpointRow>(
      `SELECT * FROM process_checkpoints${options.status === undefined ? "" : " WHERE status = ?"} ORDER BY started_at, id`,
      options.status === undefined ? [] : [options.status]
    ).pipe(Effect.mapError(failure("checkpoints")))
    return rows.map(toCheckpoint)
  })

  const removeProcessCheckpoint = Effect.fn("SessionStore.removeProcessCheckpoint")(function*(id: string) {
    yield* sql.unsafe("DELETE FROM process_checkpoints WHERE id = ?", [id]).pipe(Effect.mapError(failure("checkpoint")))
  })

  return SessionStore.of({
    create,
    ensure,
    get,
    list,
    update,
    fork,
    delete: remove,
    lineage,
    append,
    history,
    around,
    search,
    export: exportSession,
    checkpointProcess,
    processCheckpoints,
    removeProcessCheckpoint
  })
})

/** SessionStore on whatever state database is provided (StateDatabaseLive, StateDatabaseMemory). */
export const SessionStoreSql: Layer.Layer<SessionStore, never, SqlClient.SqlClient> = Layer.scoped(SessionStore, make)

/** SessionStore on a private in-memory database: tests of services that keep sessions. */
export const SessionStoreMemory = SessionStoreSql.pipe(Layer.provideMerge(StateDatabaseMemory))
