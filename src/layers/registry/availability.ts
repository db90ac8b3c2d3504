/**
 * Availability probes with Hermes' caching: a verdict lives 30 s; a failure
 * within 60 s of the last success is treated as a flake (tool stays available,
 * failure not cached); a probe that fails, dies or times out means unavailable.
 * Time comes from the Effect Clock so tests drive it with TestClock.
 */
import { Clock, Effect, Exit } from "effect"
import { runWithin } from "../../lib/effect/runWithin.js"

export const CHECK_TTL_MS = 30_000
export const CHECK_GRACE_MS = 60_000

type Check = Effect.Effect<boolean, unknown>

export interface AvailabilityCache {
  readonly probe: (check: Check) => Effect.Effect<boolean>
  /** Probe several checks at once (deduplicated), each bounded by the timeout. */
  readonly probeAll: (checks: Iterable<Check>) => Effect.Effect<ReadonlyMap<Check, boolean>>
  readonly invalidate: () => void
}

export const makeAvailabilityCache = (timeoutMs: () => number): AvailabilityCache => {
  const cached = new Map<Check, { readonly at: number; readonly value: boolean }>()
  const lastGood = new Map<Check, number>()

  /** The cached verdict while it is fresh, else undefined. */
  const fresh = (check: Check, now: number): boolean | undefined => {
    const hit = cached.get(check)
    return hit !== undefined && now - hit.at < CHECK_TTL_MS ? hit.value : undefined
  }

  // Dispatch asks before every call of a checked tool: a fresh verdict is one Clock read.
  const probe = (check: Check): Effect.Effect<boolean> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const hit = fresh(check, now)
      return hit === undefined ? run(check) : Effect.succeed(hit)
    })

  const run = (check: Check): Effect.Effect<boolean> =>
    Effect.gen(function*() {
      // Started at once in a fiber of its own: a check that answers without waiting (most of them: an env var, a
      // config key, a cached path) arms no timer; `Effect.timeout` forked two more fibers and slept in one.
      const exit = yield* runWithin(check, timeoutMs())
      const ok = exit !== undefined && Exit.isSuccess(exit) && exit.value === true
      const after = yield* Clock.currentTimeMillis
      if (ok) {
        lastGood.set(check, after)
        cached.set(check, { at: after, value: true })
        return true
      }
      const good = lastGood.get(check)
      if (good !== undefined && after - good < CHECK_GRACE_MS) {
        yield* Effect.logDebug("availability check failed within the grace period; treating as a flake")
        return true
      }
      cached.set(check, { at: after, value: false })
      yield* Effect.logDebug("availability check failed; dependent tools are unavailable")
      return false
    })

  // Fresh verdicts are read in place: the agent loop asks for every tool's availability on every prompt, and
  // forking a fiber per cached check cost ~0.5 ms there. Only stale or unknown checks are probed, concurrently.
  const probeAll = (checks: Iterable<Check>): Effect.Effect<ReadonlyMap<Check, boolean>> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const verdicts = new Map<Check, boolean>()
      const stale = new Set<Check>()
      for (const check of checks) {
        if (verdicts.has(check) || stale.has(check)) continue
        const value = fresh(check, now)
        if (value === undefined) stale.add(check)
        else verdicts.set(check, value)
      }
      if (stale.size === 0) return Effect.succeed(verdicts)
      return Effect.map(
        Effect.forEach(stale, (check) => Effect.map(probe(check), (ok) => [check, ok] as const), { concurrency: "unbounded" }),
        (pairs) => {
          for (const [check, ok] of pairs) verdicts.set(check, ok)
          return verdicts
        }
      )
    })

  return {
    probe,
    probeAll,
    invalidate: () => {
      cached.clear()
      lastGood.clear()
    }
  }
}
