/**
 * A run's background work (async delegation): units forked in the run's
 * scope, their reports queued for the loop. The loop drains the queue before
 * each model call and, once the model has answered, waits on it while units
 * are still going, so a report is never dropped and a headless run does not
 * end before its children report.
 */
import { Effect, Queue } from "effect"
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
  Effect.sync(() => {
    // Most runs start no background work: the queue is made on the first start.
    let reports: Queue.Queue<string> | undefined
    let running = 0
    // `??=`: two first starts racing keep one queue.
    const queue = Effect.suspend(() => (reports === undefined ? Effect.map(Queue.unbounded<string>(), (q) => (reports ??= q)) : Effect.succeed(reports)))
    const start = (work: Effect.Effect<string>) =>
      Effect.flatMap(queue, (q) => {
        running++
        return Effect.asVoid(Effect.forkIn(
          work.pipe(
            // A defect still reports: the parent hears that the unit broke instead of waiting forever.
            Effect.catchAllDefect((defect) => Effect.succeed(`[Background work failed: ${String(defect)}]`)),
            Effect.flatMap((report) => Queue.offer(q, report)),
            // Decremented after the offer, so running + queued never reads 0 while a report is on its way.
            Effect.ensuring(Effect.sync(() => void running--))
          ),
          scope
        ))
      })
    const take = Effect.suspend(() => (reports === undefined ? Effect.succeed([]) : Effect.map(Queue.takeAll(reports), (chunk) => [...chunk])))
    return {
      work: { start, running: Effect.sync(() => running) },
      take,
      pending: Effect.suspend(() => (reports === undefined ? Effect.succeed(running) : Effect.map(Queue.size(reports), (queued) => running + queued))),
      next: Effect.flatMap(queue, (q) => Effect.flatMap(Queue.take(q), (first) => Effect.map(take, (rest) => [first, ...rest])))
    }
  })
