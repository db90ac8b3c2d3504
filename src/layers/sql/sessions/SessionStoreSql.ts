/**
 * SessionStore on the state database (any SqlClient with our schema: the
 * home's `state.db`, or `:memory:` for tests), composed from one module per
 * concern: sessions, messages, search (with its background indexer) and
 * process checkpoints.
 *
 * Writes that belong together are one transaction whose first statement is a
 * write, so it holds SQLite's write lock before it reads anything: appends
 * (counters + messages), forks (session + copied history), todo writes
 * (session + list). Concurrent sessions' creates and appends share one
 * transaction (groupCommit.ts): each caller returns once its write committed.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { SessionStore } from "../../../services/SessionStore.js"
import type { ExportFormat } from "../../../services/SessionStore.js"
import { SqliteStatements } from "../sqliteClient.js"
import { StateDatabaseMemory } from "../StateDatabase.js"
import { makeBackgroundIndexer } from "./backgroundIndexer.js"
import { makeCheckpoints } from "./checkpoints.js"
import { makeGroupCommit } from "./groupCommit.js"
import { makeMessages } from "./messages.js"
import { makeSearch } from "./search.js"
import { makeSessions } from "./sessions.js"
import { toMessageLines, toShareGpt } from "./trajectory.js"
import { observedFn } from "../../../lib/effect/observedFn.js"

export { RANK_WINDOW } from "./search.js"
export { newSessionId } from "./sessions.js"

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const indexer = yield* makeBackgroundIndexer(sql)
  const writes = yield* makeGroupCommit(sql)
  const statements = yield* Effect.serviceOption(SqliteStatements)
  const sessions = yield* makeSessions(sql, indexer, writes, statements)
  const messages = makeMessages(sql, sessions, indexer, writes, statements)
  const { search } = makeSearch(sql, indexer)

  const exportSession = observedFn("SessionStore.export")(function*(sessionId: string, format: ExportFormat = "sharegpt") {
    const session = yield* sessions.getRow(sessionId, "export")
    const history = yield* messages.history(sessionId)
    return format === "messages" ? toMessageLines(history) : JSON.stringify(toShareGpt(session, history))
  })

  return SessionStore.of({
    create: sessions.create,
    ensure: sessions.ensure,
    get: sessions.get,
    list: sessions.list,
    update: sessions.update,
    fork: sessions.fork,
    delete: sessions.delete,
    lineage: sessions.lineage,
    append: messages.append,
    history: messages.history,
    around: messages.around,
    search,
    export: exportSession,
    ...makeCheckpoints(sql)
  })
})

/** SessionStore on whatever state database is provided (StateDatabaseLive, StateDatabaseMemory). */
export const SessionStoreSql: Layer.Layer<SessionStore, never, SqlClient.SqlClient> = Layer.scoped(SessionStore, make)

/** SessionStore on a private in-memory database: tests of services that keep sessions. */
export const SessionStoreMemory = SessionStoreSql.pipe(Layer.provideMerge(StateDatabaseMemory))
