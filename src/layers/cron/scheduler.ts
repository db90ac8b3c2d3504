/**
 * The scheduler: `tick` runs what is due once (for system cron or a systemd
 * timer), `daemon` keeps doing it (`hermes-effect cron run`), `runNow` fires
 * one job on request. Every run starts with a claim on the job's lease row, so
 * any number of schedulers on one home run each due job once; the clock is
 * Effect's, so tests drive it with TestClock.
 */
import { hostname } from "node:os"
import { Clock, Duration, Effect, FiberSet, Layer, Option, Queue } from "effect"
import type { AgentLoop } from "../../services/AgentLoop.js"
import type { Config } from "../../services/Config.js"
import { CronJobs, CronScheduler } from "../../services/CronJobs.js"
import type { CronJob, CronRun, RunNowResult, SchedulerOptions } from "../../services/CronJobs.js"
import type { Skills } from "../../services/Skills.js"
import type { Environments } from "../../services/Environments.js"
import type { Processes } from "../../services/Processes.js"
import { runClaimedJob } from "./runJob.js"

/** A lease outlives a crash by at most this long; a live run renews it every third of it. */
export const DEFAULT_LEASE_MS = 5 * 60_000
/** The daemon looks at the table at least this often (jobs created by other processes). */
export const DEFAULT_POLL_MS = 60_000
/** Due jobs one scheduler runs at the same time. */
export const DEFAULT_CONCURRENCY = 4

export const schedulerOwner = () => `${hostname()}:${process.pid}`

const settings = (options: SchedulerOptions) => ({
  owner: options.owner ?? schedulerOwner(),
  leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
  pollMs: options.pollMs ?? DEFAULT_POLL_MS,
  concurrency: Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY),
  onRun: options.onRun ?? (() => Effect.void)
})

/** Claim a due job and run it; None when another scheduler got it first. */
const claimAndRun = (job: CronJob, s: ReturnType<typeof settings>) =>
  Effect.gen(function*() {
    const store = yield* CronJobs
    const claimed = yield* store.claim(job.id, s.owner, s.leaseMs)
    if (Option.isNone(claimed)) return Option.none<CronRun>()
    const run = yield* runClaimedJob(claimed.value, { owner: s.owner, leaseMs: s.leaseMs, manual: false, scheduledFor: claimed.value.nextRunAt })
    yield* s.onRun(run)
    return Option.some(run)
  })

/** Run every job that is due now, once; the runs this scheduler made. */
export const tick = Effect.fn("CronScheduler.tick")(function*(options: SchedulerOptions = {}) {
  const s = settings(options)
  const store = yield* CronJobs
  const due = yield* store.due
  const runs = yield* Effect.forEach(due, (job) => claimAndRun(job, s), { concurrency: s.concurrency })
  return runs.flatMap((r) => (Option.isSome(r) ? [r.value] : []))
})

/** Fire a job now, whatever its schedule (`run`, `run-now`): skipped when paused, gone, or running elsewhere. */
export const runNow = Effect.fn("CronScheduler.runNow")(function*(jobId: string, options: SchedulerOptions = {}) {
  const s = settings(options)
  const store = yield* CronJobs
  const claimed = yield* store.claim(jobId, s.owner, s.leaseMs, { force: true })
  if (Option.isNone(claimed)) {
    const job = yield* store.get(jobId)
    const reason = Option.isNone(job)
      ? "Job no longer exists; nothing to run."
      : !job.value.enabled
      ? "Job is paused/disabled; resume it before running."
      : "Job is already being fired by the scheduler; not run again."
    return { _tag: "Skipped", reason } as RunNowResult
  }
  const run = yield* runClaimedJob(claimed.value, { owner: s.owner, leaseMs: s.leaseMs, manual: true, scheduledFor: null })
  yield* s.onRun(run)
  return { _tag: "Ran", run } as RunNowResult
})

/** What a run needs: the store, the agent, skills and home, and the task's processes and environment to end. */
type SchedulerServices = CronJobs | AgentLoop | Skills | Config | Environments | Processes

/**
 * Run jobs as they come due, until interrupted. Runs go on in the background (up to
 * `concurrency`); the loop sleeps until the earliest next run or lease expiry (at most
 * `pollMs`), and wakes early when a run finishes, since that moves its job's next run.
 */
export const daemon = (options: SchedulerOptions = {}): Effect.Effect<never, never, SchedulerServices> =>
  Effect.scoped(Effect.gen(function*() {
    const s = settings(options)
    const store = yield* CronJobs
    const running = yield* FiberSet.make<unknown, never>()
    const wake = yield* Queue.sliding<void>(1)
    const active = new Set<string>()
    for (;;) {
      const due = (yield* store.due).filter((job) => !active.has(job.id))
      for (const job of due) {
        if (active.size >= s.concurrency) break
        active.add(job.id)
        yield* FiberSet.run(
          running,
          claimAndRun(job, s).pipe(
            Effect.catchAllCause((cause) => Effect.logError(`cron job ${job.id} failed`, cause)),
            Effect.ensuring(Effect.sync(() => active.delete(job.id)).pipe(Effect.zipRight(Queue.offer(wake, undefined))))
          )
        )
      }
      const now = yield* Clock.currentTimeMillis
      const next = yield* store.nextWake
      const sleepMs = Option.match(next, { onNone: () => s.pollMs, onSome: (at) => Math.min(s.pollMs, Math.max(0, at - now)) })
      // Nothing to wait for but a job that is due and ours, or held by a dead scheduler: don't spin.
      const pause = sleepMs === 0 ? Math.min(1000, s.pollMs) : sleepMs
      yield* Effect.raceFirst(Effect.sleep(Duration.millis(pause)), Queue.take(wake))
    }
  }))

/** The scheduler on this runtime's store, agent loop, skills and home. */
export const CronSchedulerLive: Layer.Layer<CronScheduler, never, SchedulerServices> = Layer.effect(
  CronScheduler,
  Effect.map(Effect.context<SchedulerServices>(), (services) =>
    CronScheduler.of({
      tick: (options) => Effect.provide(tick(options), services),
      runNow: (jobId, options) => Effect.provide(runNow(jobId, options), services),
      daemon: (options) => Effect.provide(daemon(options), services)
    }))
)
