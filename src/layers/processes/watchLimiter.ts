/**
 * Rate limits for `watch_patterns` notifications (Hermes' numbers):
 * - per process, at most one notification per 15 s; matches inside the
 *   cooldown are dropped, and each cooldown window with drops is a strike;
 *   3 strike windows in a row disable watching, and the process falls back
 *   to one notification on exit;
 * - across all processes, at most 15 notifications per 10 s window, after
 *   which everything is dropped for 30 s.
 * Pure state machines over a clock reading, so tests need no timers.
 */

export const WATCH_MIN_INTERVAL_MS = 15_000
export const WATCH_STRIKE_LIMIT = 3
export const WATCH_GLOBAL_MAX_PER_WINDOW = 15
export const WATCH_GLOBAL_WINDOW_MS = 10_000
export const WATCH_GLOBAL_COOLDOWN_MS = 30_000

export type WatchVerdict =
  | { readonly _tag: "Deliver"; readonly suppressed: number }
  | { readonly _tag: "Drop" }
  | { readonly _tag: "Disable" }

export interface ProcessWatchState {
  lastDelivered: number | undefined
  /** Matches dropped since the last delivery. */
  suppressed: number
  /** The current cooldown window already counted a strike. */
  windowStruck: boolean
  consecutiveStrikes: number
  disabled: boolean
}

export const makeWatchState = (): ProcessWatchState => ({
  lastDelivered: undefined,
  suppressed: 0,
  windowStruck: false,
  consecutiveStrikes: 0,
  disabled: false
})

export interface GlobalWatchState {
  windowStart: number
  count: number
  cooldownUntil: number
}

export const makeGlobalWatchState = (): GlobalWatchState => ({ windowStart: 0, count: 0, cooldownUntil: 0 })

/** Whether the global breaker lets one more notification through at `now` (and counts it). */
const globalAllows = (global: GlobalWatchState, now: number): boolean => {
  if (now < global.cooldownUntil) return false
  if (now - global.windowStart >= WATCH_GLOBAL_WINDOW_MS) {
    global.windowStart = now
    global.count = 0
  }
  if (global.count >= WATCH_GLOBAL_MAX_PER_WINDOW) {
    global.cooldownUntil = now + WATCH_GLOBAL_COOLDOWN_MS
    return false
  }
  global.count++
  return true
}

/** One matching line (or batch of lines) arrived for a process at `now`. */
export const onWatchMatch = (state: ProcessWatchState, global: GlobalWatchState, now: number): WatchVerdict => {
  if (state.disabled) return { _tag: "Drop" }
  const cooling = state.lastDelivered !== undefined && now - state.lastDelivered < WATCH_MIN_INTERVAL_MS
  if (cooling) {
    state.suppressed++
    if (!state.windowStruck) {
      state.windowStruck = true
      state.consecutiveStrikes++
      if (state.consecutiveStrikes >= WATCH_STRIKE_LIMIT) {
        state.disabled = true
        return { _tag: "Disable" }
      }
    }
    return { _tag: "Drop" }
  }
  if (!globalAllows(global, now)) {
    state.suppressed++
    return { _tag: "Drop" }
  }
  // A window that passed without drops breaks the run of strikes.
  if (state.lastDelivered !== undefined && !state.windowStruck) state.consecutiveStrikes = 0
  state.windowStruck = false
  state.lastDelivered = now
  const suppressed = state.suppressed
  state.suppressed = 0
  return { _tag: "Deliver", suppressed }
}
