/**
 * Keeps the search indexes behind the appends (see searchIndex.ts): counts
 * this store's writes, catches up the word index when a batch has built up,
 * indexes in a background fiber while writes pause, and catches up on close.
 */
import type { SqlClient } from "@effect/sql"
import { Duration, Effect, Queue } from "effect"
import type { Scope } from "effect"
import type { SessionStoreError } from "../../../services/SessionStore.js"
import { catchUp, indexChunk, pendingMessages, WORDS_BATCH } from "./searchIndex.js"
import type { SearchIndexName } from "./searchIndex.js"
import { failure } from "./storeErrors.js"

/** No write for this long, and the background fiber starts indexing what is pending. */
const IDLE_BEFORE_INDEXING = Duration.millis(500)
/** On close, trigrams are indexed only when this few are pending; a backlog waits for an idle moment or a substring search. */
const TRIGRAMS_ON_CLOSE = 2000

export interface BackgroundIndexer {
  /** After a write of `n` messages. A failure here loses nothing (the next search retries), so it is only logged. */
  readonly noteAppended: (n: number) => Effect.Effect<void>
  /** Before a search: index whatever is pending in `index`. */
  readonly ensureIndexed: (index: SearchIndexName) => Effect.Effect<void, SessionStoreError>
}

export const makeBackgroundIndexer = (sql: SqlClient.SqlClient): Effect.Effect<BackgroundIndexer, never, Scope.Scope> =>
  Effect.gen(function*() {
    /** Messages this store appended since it last caught up the word index (other processes' are found by `pendingMessages`). */
    let unindexedWords = 0
    /** Bumped by every write, so the idle indexer backs off while writes keep coming. */
    let writes = 0
    const wake = yield* Queue.sliding<void>(1)
    /** A wake-up is queued and not yet taken: a further one would change nothing, so appends skip the offer. */
    let woken = false

    const indexNow = (index: SearchIndexName, operation: string) =>
      catchUp(sql, index).pipe(
        Effect.tap(() => Effect.sync(() => void (index === "words" && (unindexedWords = 0)))),
        Effect.mapError(failure(operation))
      )

    const ensureIndexed = (index: SearchIndexName) =>
      Effect.flatMap(
        pendingMessages(sql, index).pipe(Effect.mapError(failure("search"))),
        (n) => (n > 0 ? Effect.asVoid(indexNow(index, "search")) : Effect.void)
      )

    const noteAppended = (n: number) =>
      Effect.suspend(() => {
        writes++
        unindexedWords += n
        const signal = woken ? Effect.void : Effect.zipRight(Effect.sync(() => void (woken = true)), Queue.offer(wake, undefined))
        if (unindexedWords < WORDS_BATCH) return Effect.asVoid(signal)
        return indexNow("words", "index").pipe(
          Effect.asVoid,
          Effect.catchAll((e) => Effect.logWarning(`${e.message}; the search index will catch up on the next search`)),
          Effect.zipRight(signal),
          Effect.asVoid
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
      Effect.zipLeft(Effect.sync(() => void (woken = false))),
      Effect.zipRight(indexWhileIdle),
      Effect.catchAll((e) => Effect.logDebug(`background search indexing stopped for now: ${e.message}`))
    )))
    // A backlog left by an earlier process is indexed at the first idle moment. Looking for one is left to that
    // moment too (it finds nothing to do when there is none): a store built and closed without use, as in the CLI's
    // catalogue commands, then never touches the database.
    yield* Queue.offer(wake, undefined)
    woken = true

    return { noteAppended, ensureIndexed }
  })
