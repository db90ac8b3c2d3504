/**
 * When to try a model request again, and how long to wait first: exponential
 * backoff (jittered) from `retryBase`, or exactly what the server's
 * Retry-After / retry-after-ms header asks, never longer than `retryMax`.
 * Waits run on the Effect Clock, so tests drive them with TestClock.
 */
import { Data, Duration, Schedule } from "effect"
import type { ModelError } from "../../services/Model.js"

/** A failed attempt worth repeating. `final` builds the error reported once retries run out. */
export class Retryable extends Data.TaggedError("Retryable")<{
  readonly final: (attempts: number) => ModelError
  readonly why: string
  readonly retryAfter: Duration.Duration | undefined
}> {}

/** Statuses a later attempt may fix: rate limits, timeouts at a proxy, server errors. */
export const retryableStatus = (status: number): boolean => status === 408 || status === 409 || status === 429 || status >= 500

/** `Retry-After` (seconds or an HTTP date) or `retry-after-ms`, relative to `now` (ms). */
export const retryAfter = (headers: Readonly<Record<string, string | undefined>>, now: number): Duration.Duration | undefined => {
  const ms = headers["retry-after-ms"]
  if (ms !== undefined) {
    const value = Number(ms)
    if (Number.isFinite(value) && value >= 0) return Duration.millis(value)
  }
  const raw = headers["retry-after"]?.trim()
  if (raw === undefined || raw.length === 0) return undefined
  const seconds = Number(raw)
  if (Number.isFinite(seconds)) return seconds >= 0 ? Duration.seconds(seconds) : undefined
  const at = Date.parse(raw)
  return Number.isNaN(at) ? undefined : Duration.millis(Math.max(0, at - now))
}

export interface RetryPolicy {
  readonly maxRetries: number
  readonly retryBase: Duration.Duration
  readonly retryMax: Duration.Duration
}

export const retrySchedule = <E>(policy: RetryPolicy): Schedule.Schedule<unknown, E> =>
  Schedule.identity<E>().pipe(
    Schedule.intersect(Schedule.jittered(Schedule.exponential(policy.retryBase, 2))),
    Schedule.intersect(Schedule.recurs(policy.maxRetries)),
    Schedule.modifyDelay(([[failure]], delay) => {
      const wanted = failure instanceof Retryable && failure.retryAfter !== undefined ? failure.retryAfter : delay
      return Duration.min(wanted, policy.retryMax)
    })
  )
