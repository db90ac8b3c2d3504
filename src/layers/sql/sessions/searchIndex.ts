/**
 * The search indexes are filled in batches, behind the appends.
 *
 * FTS5 writes a new index segment for every transaction that touches it, and
 * the trigram index costs several times the word index (a token per
 * character). Indexing each turn's few messages in its own commit made appends
 * several times slower, so appends only write `messages`, and each index is
 * caught up to its watermark (`words_upto`, `trigrams_upto`) in chunks:
 *
 * - words: when a store has appended `WORDS_BATCH` messages, before every word
 *   search, and when the store closes;
 * - trigrams: when the store has been idle for a moment (a background fiber),
 *   before every substring search, and on close when little is left.
 *
 * So a search never misses a committed message. Message ids are AUTOINCREMENT,
 * so nothing below a watermark is ever unindexed; the delete triggers remove
 * only rows their index holds.
 */
import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

export type SearchIndexName = "words" | "trigrams"

const TABLE: Record<SearchIndexName, string> = { words: "messages_fts", trigrams: "messages_trigram" }
const WATERMARK: Record<SearchIndexName, string> = { words: "words_upto", trigrams: "trigrams_upto" }

/** Appended messages after which the word index is caught up. */
export const WORDS_BATCH = 2000
/** Message ids per indexing transaction: bounds how long another process's write waits for the lock. */
export const INDEX_CHUNK = 2000

/** Messages committed but not yet in `index` (any process's). */
export const pendingMessages = (sql: SqlClient.SqlClient, index: SearchIndexName): Effect.Effect<number, SqlError> =>
  Effect.map(
    sql<{ pending: number | null }>`SELECT (SELECT max(id) FROM messages) - ${sql(WATERMARK[index])} AS pending FROM search_index_state WHERE id = 1`,
    ([row]) => Math.max(0, row?.pending ?? 0)
  )

/** Index the next chunk above the watermark in one transaction; 0 when the index is up to date. */
export const indexChunk = (sql: SqlClient.SqlClient, index: SearchIndexName): Effect.Effect<number, SqlError> =>
  sql.withTransaction(
    Effect.gen(function*() {
      const column = sql(WATERMARK[index])
      // A write first: the transaction takes the write lock before it reads, so a
      // concurrent process cannot leave it with a stale snapshot (SQLITE_BUSY_SNAPSHOT).
      const [state] = yield* sql<{ upto: number }>`UPDATE search_index_state SET ${column} = ${column} WHERE id = 1 RETURNING ${column} AS upto`
      const [top] = yield* sql<{ hi: number | null }>`SELECT max(id) AS hi FROM messages`
      const lo = state?.upto ?? 0
      const hi = Math.min(top?.hi ?? 0, lo + INDEX_CHUNK)
      if (hi <= lo) return 0
      yield* sql`INSERT INTO ${sql(TABLE[index])} (rowid, content) SELECT id, content FROM messages WHERE id > ${lo} AND id <= ${hi}`
      yield* sql`UPDATE search_index_state SET ${column} = ${hi} WHERE id = 1`
      return hi - lo
    })
  )

/** Index everything above the watermark, chunk by chunk. */
export const catchUp = (sql: SqlClient.SqlClient, index: SearchIndexName): Effect.Effect<number, SqlError> =>
  Effect.iterate({ total: 0, last: -1 }, {
    while: (s) => s.last !== 0,
    body: (s) => Effect.map(indexChunk(sql, index), (n) => ({ total: s.total + n, last: n }))
  }).pipe(Effect.map((s) => s.total))
