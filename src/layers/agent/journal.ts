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
 */
import { Duration, Effect, Fiber, Scope } from "effect"
import type { NewMessage, SessionNotFound, SessionStoreError, SessionStoreService, Usage } from "../../services/SessionStore.js"

type StoreError = SessionNotFound | SessionStoreError

export const GROUP_COMMIT_WINDOW = Duration.millis(10)

export interface Journal {
  readonly write: (messages: ReadonlyArray<NewMessage>, usage?: Usage) => Effect.Effect<void, StoreError>
  readonly flush: Effect.Effect<void, StoreError>
}

export const makeJournal = (store: SessionStoreService, sessionId: string, scope: Scope.Scope): Journal => {
  let pending: Array<NewMessage> = []
  let inputTokens = 0
  let outputTokens = 0
  let writer: Fiber.RuntimeFiber<void, StoreError> | undefined
  let failed: StoreError | undefined

  const drain: Effect.Effect<void, StoreError> = Effect.suspend(() => {
    if (pending.length === 0) return Effect.void
    const batch = pending
    const usage = { inputTokens, outputTokens }
    pending = []
    inputTokens = 0
    outputTokens = 0
    return Effect.zipRight(store.append(sessionId, batch, usage), drain)
  })

  // Interruptible only while it waits: once it has taken a batch, it finishes writing it.
  const background = Effect.sleep(GROUP_COMMIT_WINDOW).pipe(
    Effect.zipRight(Effect.uninterruptible(drain)),
    Effect.tapError((e) => Effect.sync(() => void (failed = e))),
    Effect.ensuring(Effect.sync(() => void (writer = undefined)))
  )

  return {
    write: (messages, usage) =>
      Effect.suspend(() => {
        if (failed !== undefined) return Effect.fail(failed)
        pending.push(...messages)
        inputTokens += usage?.inputTokens ?? 0
        outputTokens += usage?.outputTokens ?? 0
        if (writer !== undefined) return Effect.void
        return Effect.asVoid(Effect.tap(Effect.forkIn(background, scope), (fiber) => Effect.sync(() => void (writer = fiber))))
      }),
    // Cut the window short (or wait for the write in progress), then write the rest here.
    flush: Effect.suspend(() => (writer === undefined ? Effect.void : Effect.asVoid(Fiber.interrupt(writer)))).pipe(
      Effect.zipRight(Effect.suspend(() => (failed === undefined ? Effect.void : Effect.fail(failed)))),
      Effect.zipRight(Effect.uninterruptible(drain))
    )
  }
}
