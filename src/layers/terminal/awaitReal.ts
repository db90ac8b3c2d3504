import { Deferred, Effect, Option } from "effect"

/**
 * Wait for a deferred at most `ms` of real time (process teardown is real, not
 * TestClock time). Runs inside finalizers: the racers are made interruptible
 * explicitly, or the loser (inheriting the finalizer's uninterruptibility)
 * would hold the race until it finished too.
 */
export const awaitReal = <A>(deferred: Deferred.Deferred<A>, ms: number): Effect.Effect<Option.Option<A>> =>
  Effect.raceFirst(
    Effect.interruptible(Effect.map(Deferred.await(deferred), Option.some)),
    Effect.interruptible(Effect.async<Option.Option<A>>((resume) => {
      const timer = setTimeout(() => resume(Effect.succeedNone), ms)
      return Effect.sync(() => clearTimeout(timer))
    }))
  )
