/**
 * A run's background work (async delegation): units forked in the run's
 * scope, their reports queued for the loop. The loop drains the queue before
 * each model call and, once the model has answered, waits on it while units
 * are still going, so a report is never dropped and a headless run does not
 * end before its children report.
 */
import { Effect, Queue, Ref } from "effect"
import type { Scope } from "effect"
import type { BackgroundWork } from "../../services/AgentLoop.js"

export interface RunBackground {
  readonly work: BackgroundWork
  /** Reports that arrived, without waiting. */
  readonly take: Effect.Effect<ReadonlyArray<string>>
  /** Units started and not yet taken (running, or reported but not delivered). */
  readonly pending: Effect.Effect<number>
  /** Waits for at least one report, then takes every one that arrived. */
  readonly next: Effect.Effect<ReadonlyArray<string>>
}

export const makeRunBackground = (scope: Scope.Scope): Effect.Effect<RunBackground> =>
  Effect.gen(function*() {
    const reports = yield* Queue.unbounded<string>()
    const running = yield* Ref.make(0)
    const start = (work: Effect.Effect<string>) =>
      Ref.update(running, (n) => n + 1).pipe(
        Effect.zipRight(Effect.forkIn(
          work.pipe(
            // A defect still reports: the parent hears that the unit broke instead of waiting forever.
            Effect.catchAllDefect((defect) => Effect.succeed(`[Background work failed: ${String(defect)}]`)),
            Effect.flatMap((report) => Queue.offer(reports, report)),
            // Decremented after the offer, so running + queued never reads 0 while a report is on its way.
            Effect.ensuring(Ref.update(running, (n) => n - 1))
          ),
          scope
        )),
        Effect.asVoid
      )
    const take = Effect.map(Queue.takeAll(reports), (chunk) => [...chunk])
    return {
      work: { start, running: Ref.get(running) },
      take,
      pending: Effect.zipWith(Ref.get(running), Queue.size(reports), (a, b) => a + b),
      next: Effect.flatMap(Queue.take(reports), (first) => Effect.map(take, (rest) => [first, ...rest]))
    }
  })
