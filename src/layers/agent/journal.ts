/**
 * Write-behind for one run's messages, with group commit. The loop hands
 * each turn to the journal and goes on; the first write starts a short window
 * (`GROUP_COMMIT_WINDOW`) after which everything handed over by then is
 * appended in one transaction. With a real model a turn takes far longer than
 * the window, so each turn is committed while the model thinks and no commit
 * sits between a tool result and the next request; with a fast model (tests,
 * replays, batches) many turns share one commit. Order is kept.
 *
 * `flush` stores everything handed over and reports a failed write; the loop
 * flushes before it returns, however it ends (interrupted or failed too).
 * A failed write also fails the next `write`. A crash loses at most the
 * turns of the last window.
 *
 * Windows are timed by one fiber shared by the loop's runs (`makeWindows`),
 * not a fiber per run: a run that flushes before its window ends (a fast
 * model) forks nothing. When the run's scope closes first, a window still
 * waiting is dropped, as its writes were before they had a window.
 */
import { Deferred, Duration, Effect, Queue, Scope } from "effect"
import type { NewMessage, SessionNotFound, SessionStoreError, SessionStoreService, Usage } from "../../services/SessionStore.js"

type StoreError = SessionNotFound | SessionStoreError

export const GROUP_COMMIT_WINDOW = Duration.millis(10)

/** One open window: its deadline, and what ends it. */
interface Window {
  readonly deadline: number
  /**
   * Dropped when the window is cancelled. A cancelled window stays in the ticker's queue until the ticker reaches
   * it, which under load (timers fire late while fibers keep the thread busy) is hundreds of runs later; holding its
   * write there kept each finished run's messages and scope alive long enough to be promoted to the old heap.
   */
  write: Effect.Effect<void> | undefined
  state: "waiting" | "cancelled" | Deferred.Deferred<void>
}

export interface Windows {
  /** Time a window: `write` runs once it ends, unless it is cancelled first. */
  readonly open: (write: Effect.Effect<void>) => Effect.Effect<Window>
}

/** Deadlines are in opening order (one window length), so a queue taken in order is a timer wheel of one slot. */
export const makeWindows = (scope: Scope.Scope): Effect.Effect<Windows> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<Window>()
    const ticker = Effect.forever(Effect.gen(function*() {
      const window = yield* Queue.take(queue)
      const wait = window.deadline - (yield* Effect.clockWith((clock) => clock.currentTimeMillis))
      if (wait > 0 && window.state === "waiting") yield* Effect.sleep(Duration.millis(wait))
      const write = window.write
      if (window.state !== "waiting" || write === undefined) return
      const done = yield* Deferred.make<void>()
      window.state = done
      window.write = undefined
      // Once taken, a window's write finishes even when the loop stops.
      yield* Effect.ensuring(Effect.uninterruptible(write), Deferred.succeed(done, undefined))
    }))
    // Started here, not by the first run: its writes must not run under that run's fiber refs (span, annotations).
    yield* Effect.forkIn(ticker, scope)
    return {
      open: (write) =>
        Effect.clockWith((clock) => clock.currentTimeMillis).pipe(
          Effect.map((now): Window => ({ deadline: now + Duration.toMillis(GROUP_COMMIT_WINDOW), write, state: "waiting" })),
          Effect.tap((window) => Queue.offer(queue, window))
        )
    }
  })

export interface Journal {
  readonly write: (messages: ReadonlyArray<NewMessage>, usage?: Usage) => Effect.Effect<void, StoreError>
  readonly flush: Effect.Effect<void, StoreError>
}

/** `windows`: the loop's shared timer; without one the journal times its own windows. */
export const makeJournal = (store: SessionStoreService, sessionId: string, scope: Scope.Scope, windows?: Windows): Journal => {
  let pending: Array<NewMessage> = []
  let inputTokens = 0
  let outputTokens = 0
  let window: Window | undefined
  let failed: StoreError | undefined
  let own: Windows | undefined
  let closing = false

  const drain: Effect.Effect<void, StoreError> = Effect.suspend(() => {
    if (pending.length === 0) return Effect.void
    const batch = pending
    const usage = { inputTokens, outputTokens }
    pending = []
    inputTokens = 0
    outputTokens = 0
    return Effect.zipRight(store.append(sessionId, batch, usage), drain)
  })

  const background = drain.pipe(
    Effect.catchAll((e) => Effect.sync(() => void (failed = e))),
    Effect.ensuring(Effect.sync(() => void (window = undefined)))
  )

  /** Ends the open window: a waiting one is dropped, a running one is waited for. */
  const close = Effect.suspend(() => {
    const open = window
    if (open === undefined) return Effect.void
    if (open.state === "waiting") {
      open.state = "cancelled"
      open.write = undefined
      window = undefined
      return Effect.void
    }
    return open.state === "cancelled" ? Effect.void : Deferred.await(open.state)
  })

  const timer = Effect.suspend(() => {
    if (windows !== undefined) return Effect.succeed(windows)
    if (own !== undefined) return Effect.succeed(own)
    return Effect.tap(makeWindows(scope), (w) => void (own = w))
  })

  return {
    write: (messages, usage) =>
      Effect.suspend(() => {
        if (failed !== undefined) return Effect.fail(failed)
        pending.push(...messages)
        inputTokens += usage?.inputTokens ?? 0
        outputTokens += usage?.outputTokens ?? 0
        if (window !== undefined) return Effect.void
        const opened = Effect.flatMap(timer, (w) => w.open(background)).pipe(Effect.map((w) => void (window = w)))
        if (closing) return opened
        closing = true
        // The run's end drops a window still waiting, as it interrupted the writer fiber that had one.
        return Effect.zipRight(Scope.addFinalizer(scope, close), opened)
      }),
    // Cut the window short (or wait for the write in progress), then write the rest here.
    flush: close.pipe(
      Effect.zipRight(Effect.suspend(() => (failed === undefined ? Effect.void : Effect.fail(failed)))),
      Effect.zipRight(Effect.uninterruptible(drain))
    )
  }
}
