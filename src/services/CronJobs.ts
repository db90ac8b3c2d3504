/**
 * CronJobs: scheduled agent prompts kept in the state database (`cron_jobs`),
 * their run history (`cron_runs`) and the leases that make a due job run once
 * however many schedulers share the home (`cron_leases`). The scheduler that
 * runs due jobs lives in src/layers/cron/scheduler.ts; the `cronjob` tool and
 * the `cron` command are its front ends.
 */
import { Context, Schema } from "effect"
import type { Effect, Option } from "effect"
import type { Schedule } from "../lib/cron/schedule.js"

export type { Schedule } from "../lib/cron/schedule.js"

export type CronJobState = "scheduled" | "paused" | "completed" | "error"

/** `{provider?, model}`: which model the job's runs ask for instead of the configured one. */
export interface CronModel {
  readonly provider?: string | undefined
  readonly model: string
}

export interface CronJob {
  /** 12 hex characters; safe as a path component (output dir). */
  readonly id: string
  readonly name: string
  readonly prompt: string
  /** Skills whose content is put before the prompt, in this order. */
  readonly skills: ReadonlyArray<string>
  readonly model: CronModel | null
  /** Toolsets the run may use (null: the runtime's default). */
  readonly enabledToolsets: ReadonlyArray<string> | null
  /** Where output goes: `local` (saved only) or a target kept for a future gateway. */
  readonly deliver: string
  /** Directory the run's tools start in (null: the scheduler's). */
  readonly workdir: string | null
  readonly schedule: Schedule
  /** IANA time zone cron expressions and naive timestamps are read in. */
  readonly tz: string
  /** Runs before the job is removed (null: forever). */
  readonly repeatTimes: number | null
  readonly repeatCompleted: number
  readonly enabled: boolean
  readonly state: CronJobState
  readonly pausedAt: number | null
  readonly pausedReason: string | null
  readonly createdAt: number
  /** Epoch ms of the next run (null: nothing left to run). */
  readonly nextRunAt: number | null
  readonly lastRunAt: number | null
  readonly lastStatus: "ok" | "error" | null
  readonly lastError: string | null
}

export interface NewCronJob {
  readonly prompt: string
  readonly schedule: string
  readonly name?: string | undefined
  readonly skills?: ReadonlyArray<string> | undefined
  readonly model?: CronModel | undefined
  readonly enabledToolsets?: ReadonlyArray<string> | undefined
  readonly deliver?: string | undefined
  readonly workdir?: string | undefined
  /** Omitted: once for one-shots, forever for recurring; ≤ 0: forever. */
  readonly repeat?: number | undefined
  /** Default: `TZ`, else the system's zone. */
  readonly tz?: string | undefined
}

/** Fields to change; `null` clears where clearing makes sense. */
export interface CronJobPatch {
  readonly name?: string | undefined
  readonly prompt?: string | undefined
  readonly schedule?: string | undefined
  readonly skills?: ReadonlyArray<string> | undefined
  readonly model?: CronModel | null | undefined
  readonly enabledToolsets?: ReadonlyArray<string> | null | undefined
  readonly deliver?: string | undefined
  readonly workdir?: string | null | undefined
  readonly repeat?: number | undefined
  readonly tz?: string | undefined
}

export type CronRunStatus = "ok" | "error"

export interface CronRun {
  readonly id: number
  readonly jobId: string
  readonly jobName: string
  /** The slot the run was for (null for a manual run). */
  readonly scheduledFor: number | null
  readonly startedAt: number
  readonly finishedAt: number
  readonly status: CronRunStatus
  readonly sessionId: string | null
  readonly outputPath: string | null
  readonly error: string | null
  /** The scheduler that ran it (`host:pid`). */
  readonly owner: string
  readonly manual: boolean
}

export interface RunOutcome {
  readonly scheduledFor: number | null
  readonly startedAt: number
  readonly status: CronRunStatus
  readonly sessionId: string | null
  readonly outputPath: string | null
  readonly error: string | null
  readonly manual: boolean
}

export class InvalidSchedule extends Schema.TaggedError<InvalidSchedule>()("InvalidSchedule", {
  input: Schema.String,
  message: Schema.String
}) {}

export class CronJobNotFound extends Schema.TaggedError<CronJobNotFound>()("CronJobNotFound", {
  ref: Schema.String
}) {
  override get message(): string {
    return `Job with ID or name '${this.ref}' not found. Use cronjob(action='list') to inspect jobs.`
  }
}

export class AmbiguousCronJob extends Schema.TaggedError<AmbiguousCronJob>()("AmbiguousCronJob", {
  ref: Schema.String,
  matches: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String, schedule: Schema.String, next_run_at: Schema.NullOr(Schema.String) }))
}) {
  override get message(): string {
    return `Job name '${this.ref}' matches ${this.matches.length} jobs; use the job_id instead.`
  }
}

export interface CronJobsService {
  readonly create: (job: NewCronJob) => Effect.Effect<CronJob, InvalidSchedule>
  /** Every job, or only enabled ones; ordered by next run. */
  readonly list: (options?: { readonly includeDisabled?: boolean | undefined }) => Effect.Effect<ReadonlyArray<CronJob>>
  readonly get: (id: string) => Effect.Effect<Option.Option<CronJob>>
  /** An id, else an exact name (case-insensitive). */
  readonly resolve: (ref: string) => Effect.Effect<CronJob, CronJobNotFound | AmbiguousCronJob>
  readonly update: (id: string, patch: CronJobPatch) => Effect.Effect<CronJob, CronJobNotFound | InvalidSchedule>
  readonly pause: (id: string, reason?: string | undefined) => Effect.Effect<CronJob, CronJobNotFound>
  /** Enabled again with its next run computed from now. */
  readonly resume: (id: string) => Effect.Effect<CronJob, CronJobNotFound | InvalidSchedule>
  readonly remove: (id: string) => Effect.Effect<CronJob, CronJobNotFound>
  /** Enabled jobs whose next run has come and that nobody holds a live lease on. */
  readonly due: Effect.Effect<ReadonlyArray<CronJob>>
  /** When the scheduler should look again: the earliest next run or lease expiry (epoch ms). */
  readonly nextWake: Effect.Effect<Option.Option<number>>
  /**
   * Take the job for `owner` until now + `leaseMs`, in one statement: only when it is enabled,
   * due (or `force`) and nobody holds an unexpired lease. None: someone else has it, or it is not runnable.
   */
  readonly claim: (id: string, owner: string, leaseMs: number, options?: { readonly force?: boolean }) => Effect.Effect<Option.Option<CronJob>>
  /** Extend the lease while the run goes on; false when it is no longer ours. */
  readonly renew: (id: string, owner: string, leaseMs: number) => Effect.Effect<boolean>
  /** Drop our lease without recording a run (an interrupted run: due again at once). */
  readonly release: (id: string, owner: string) => Effect.Effect<void>
  /**
   * Record a run, advance the job (next slot after now, so missed slots run once, not in a burst;
   * removed once its repeat count is reached) and drop the lease, in one transaction.
   */
  readonly finish: (id: string, owner: string, outcome: RunOutcome) => Effect.Effect<CronRun>
  readonly history: (options?: { readonly jobId?: string | undefined; readonly limit?: number | undefined }) => Effect.Effect<ReadonlyArray<CronRun>>
}

export class CronJobs extends Context.Tag("hermes-effect/CronJobs")<CronJobs, CronJobsService>() {}

export interface SchedulerOptions {
  /** Who holds the leases (default `host:pid`). */
  readonly owner?: string | undefined
  /** How long a claim lasts without renewal (default 5 minutes; a live run renews it every third). */
  readonly leaseMs?: number | undefined
  /** The daemon looks at the table at least this often (default 60 s). */
  readonly pollMs?: number | undefined
  /** Due jobs run at the same time by one scheduler (default 4). */
  readonly concurrency?: number | undefined
  /** Sees each run as it is recorded. */
  readonly onRun?: ((run: CronRun) => Effect.Effect<void>) | undefined
}

export type RunNowResult =
  | { readonly _tag: "Ran"; readonly run: CronRun }
  | { readonly _tag: "Skipped"; readonly reason: string }

/** Runs due jobs as fresh agent sessions (src/layers/cron/scheduler.ts). */
export interface CronSchedulerService {
  /** Run every job that is due now, once; the runs this scheduler made. */
  readonly tick: (options?: SchedulerOptions) => Effect.Effect<ReadonlyArray<CronRun>>
  /** Fire one job now, whatever its schedule; skipped when paused, gone or running elsewhere. */
  readonly runNow: (jobId: string, options?: SchedulerOptions) => Effect.Effect<RunNowResult>
  /** Run jobs as they come due until interrupted. */
  readonly daemon: (options?: SchedulerOptions) => Effect.Effect<never>
}

export class CronScheduler extends Context.Tag("hermes-effect/CronScheduler")<CronScheduler, CronSchedulerService>() {}
