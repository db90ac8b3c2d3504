/**
 * Group commit: writes from many fibers (concurrent sessions' appends and
 * creates) share one transaction, so they pay for one commit instead of one
 * each. A commit, not the insert, is most of a small write's cost in SQLite.
 *
 * Each caller still returns only after its own write committed, and sees only
 * its own outcome: a write that fails on a constraint is undone by SQLite
 * alone (a single statement, or a savepoint of its own) and the others commit.
 * Any other failure, or a failed commit, rolls the shared transaction back and
 * every write of it runs again on its own, as if it had never been grouped.
 *
 * The first caller to find no write in progress leads: it yields once so the
 * other ready fibers can queue theirs, then writes out the queue (its own
 * write included) until it is empty; the others wait for their outcome. No
 * writer fiber: a lone caller pays one yield, and none when it led alone last
 * time too (one fiber writing turn after turn); any other fiber's write brings
 * the yield back. A write inside the caller's own transaction runs in it (the
 * group could not get the connection it holds).
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Context, Data, Deferred, Effect, Exit, Option } from "effect"
import { sqliteCode } from "./storeErrors.js"

export interface GroupCommit {
  /** Run `write` (one statement, or a transaction of its own) and return once it is committed. */
  readonly write: <A>(write: Effect.Effect<A, SqlError>) => Effect.Effect<A, SqlError>
}

interface Pending {
  /** Runs the write and keeps its outcome; false when that failure may have ended the transaction. */
  readonly attempt: Effect.Effect<boolean>
  /** Hands the kept outcome to the caller. */
  readonly settle: Effect.Effect<void>
}

/** Undone by SQLite without touching the rest of the transaction. */
const statementLevel = (exit: Exit.Exit<unknown, SqlError>): boolean =>
  Exit.isSuccess(exit) || Option.exists(Cause.failureOption(exit.cause), (e) => sqliteCode(e).startsWith("SQLITE_CONSTRAINT"))

/** The batch met a failure that may have ended its transaction. */
class Regroup extends Data.TaggedError("Regroup") {}

export const makeGroupCommit = (sql: SqlClient.SqlClient): Effect.Effect<GroupCommit> =>
  Effect.sync(() => {
    let pending: Array<Pending> = []
    /** Whether a caller is writing the queue out: later callers only add to it and wait. */
    let leading = false
    /** The fiber whose last lead found no other writer: its next lead skips the yield. */
    let loneLeader: number | undefined

    const alone = (item: Pending) => Effect.zipRight(item.attempt, item.settle)

    const together = (items: ReadonlyArray<Pending>) =>
      sql.withTransaction(Effect.forEach(items, (item) =>
        // Anything worse than a constraint may have ended the transaction already: start over one by one.
        Effect.flatMap(item.attempt, (kept) => (kept ? Effect.void : Effect.fail(new Regroup()))), { discard: true })).pipe(
          Effect.matchCauseEffect({
            onSuccess: () => Effect.forEach(items, (item) => item.settle, { discard: true }),
            onFailure: () => Effect.forEach(items, alone, { discard: true })
          })
        )

    /**
     * The leader lets the other ready fibers queue their writes first (SQLite calls are synchronous, so writes made
     * in place would never overlap), then writes out whatever is queued until nothing is. Uninterruptible: others wait on it.
     */
    const lead = (leader: number): Effect.Effect<void> => {
      let written = 0
      return Effect.zipRight(
        loneLeader === leader ? Effect.void : Effect.yieldNow(),
        Effect.suspend(function drain(): Effect.Effect<void> {
          if (pending.length === 0) {
            leading = false
            loneLeader = written === 1 ? leader : undefined
            return Effect.void
          }
          const items = pending
          pending = []
          written += items.length
          return Effect.zipRight(items.length === 1 ? alone(items[0]!) : together(items), Effect.suspend(drain))
        })
      )
    }

    const write = <A>(statement: Effect.Effect<A, SqlError>): Effect.Effect<A, SqlError> =>
      Effect.withFiberRuntime((fiber) => {
        if (Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)._tag === "Some") return statement
        let outcome: Exit.Exit<A, SqlError> = Exit.die("group commit: write settled before it ran")
        const attempt = Effect.map(Effect.exit(statement), (exit) => {
          outcome = exit
          return statementLevel(exit)
        })
        if (leading) {
          loneLeader = undefined
          // Settled by the leader; made in place so it exists before the leader can reach it.
          const done = Deferred.unsafeMake<A, SqlError>(fiber.id())
          pending.push({ attempt, settle: Effect.suspend(() => Effect.asVoid(Deferred.done(done, outcome))) })
          return Deferred.await(done)
        }
        // The leader reads its own outcome once the queue is written out: no Deferred to settle.
        pending.push({ attempt, settle: Effect.void })
        leading = true
        return Effect.uninterruptible(Effect.zipRight(lead(fiber.id().id), Effect.suspend(() => outcome)))
      })

    return { write }
  })
