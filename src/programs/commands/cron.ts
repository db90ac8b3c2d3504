/**
 * `hermes-effect cron list | create | pause | resume | remove | run-now | history | tick | run`:
 * scheduled jobs in `$HERMES_EFFECT_HOME/state.db`. Managing jobs opens only the
 * config and the database; `tick`, `run` and `run-now` start the whole runtime
 * (nobody to ask for approvals) and run each job as a fresh `cron` session.
 * Any number of `tick`/`run` processes may share a home: each due job runs once.
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Layer, Option } from "effect"
import { wallClock } from "../../lib/cron/schedule.js"
import { CronJobs, CronScheduler } from "../../services/CronJobs.js"
import type { CronJob, CronRun, SchedulerOptions } from "../../services/CronJobs.js"
import { formatJob, repeatDisplay } from "../../tools/cronjobFormat.js"
import { configLayer, stateDatabaseLayer } from "./lazy.js"
import { jsonOption, splitList, table, withRuntime, writeErr, writeOut } from "./shared.js"

const withJobs = <A, E>(program: Effect.Effect<A, E, CronJobs>) =>
  Effect.provide(
    program,
    Layer.unwrapEffect(Effect.promise(() => import("../../layers/cron/CronJobsSql.js")).pipe(Effect.map((m) => m.CronJobsSql))).pipe(
      Layer.provideMerge(stateDatabaseLayer),
      Layer.provide(configLayer)
    )
  )

const when = (ms: number | null, tz: string) => (ms === null ? "-" : `${wallClock(ms, tz)}`)

const jobArg = Args.text({ name: "job" }).pipe(Args.withDescription("Job id, or its exact name"))

const resolveJob = (ref: string) => Effect.flatMap(CronJobs, (store) => store.resolve(ref))

const printJob = (job: CronJob, json: boolean) =>
  writeOut(json ? JSON.stringify(formatJob(job), null, 2) : `${job.id}  ${job.name}  [${job.schedule.display}, ${job.state}]  next ${when(job.nextRunAt, job.tz)} ${job.tz}`)

const list = Command.make("list", { all: Options.boolean("all").pipe(Options.withDescription("Include paused and finished jobs")), json: jsonOption }, (opts) =>
  withJobs(Effect.gen(function*() {
    const jobs = yield* Effect.flatMap(CronJobs, (s) => s.list({ includeDisabled: opts.all }))
    if (opts.json) return yield* writeOut(JSON.stringify(jobs.map(formatJob), null, 2))
    if (jobs.length === 0) return yield* writeOut("no scheduled jobs")
    const rows = jobs.map((j) => [j.id, j.name.slice(0, 40), j.schedule.display, repeatDisplay(j), j.state, `${when(j.nextRunAt, j.tz)} ${j.tz}`, j.lastStatus ?? "-"])
    yield* writeOut(table([["ID", "NAME", "SCHEDULE", "REPEAT", "STATE", "NEXT RUN", "LAST"], ...rows]))
  }))).pipe(Command.withDescription("List scheduled jobs (--all includes paused ones, --json)"))

const create = Command.make(
  "create",
  {
    schedule: Args.text({ name: "schedule" }).pipe(Args.withDescription("'every 30m', '30m', 'in 2h', '0 9 * * 1-5' or an ISO time")),
    prompt: Args.text({ name: "prompt" }).pipe(Args.withDescription("What the agent is asked on each run")),
    name: Options.text("name").pipe(Options.optional),
    skills: Options.text("skills").pipe(Options.withDescription("Comma-separated skills loaded before the prompt"), Options.optional),
    toolsets: Options.text("toolsets").pipe(Options.withDescription("Comma-separated toolsets the job may use"), Options.optional),
    model: Options.text("model").pipe(Options.withDescription("Model name for this job's runs"), Options.optional),
    repeat: Options.integer("repeat").pipe(Options.withDescription("Runs before the job is removed (default: once for one-shots, else forever)"), Options.optional),
    tz: Options.text("tz").pipe(Options.withDescription("IANA time zone of the schedule (default: TZ, else the system's)"), Options.optional),
    workdir: Options.text("workdir").pipe(Options.withDescription("Directory the job runs in"), Options.optional),
    json: jsonOption
  },
  (opts) =>
    withJobs(Effect.gen(function*() {
      const store = yield* CronJobs
      const job = yield* store.create({
        schedule: opts.schedule,
        prompt: opts.prompt,
        name: Option.getOrUndefined(opts.name),
        skills: splitList(opts.skills),
        enabledToolsets: splitList(opts.toolsets),
        model: Option.match(opts.model, { onNone: () => undefined, onSome: (model) => ({ model }) }),
        repeat: Option.getOrUndefined(opts.repeat),
        tz: Option.getOrUndefined(opts.tz),
        workdir: Option.getOrUndefined(opts.workdir)
      })
      yield* printJob(job, opts.json)
    }))
).pipe(Command.withDescription("Schedule a prompt: cron create \"every 1h\" \"Summarise new issues\""))

const pause = Command.make("pause", { job: jobArg, reason: Options.text("reason").pipe(Options.optional) }, (opts) =>
  withJobs(Effect.gen(function*() {
    const job = yield* resolveJob(opts.job)
    yield* printJob(yield* Effect.flatMap(CronJobs, (s) => s.pause(job.id, Option.getOrUndefined(opts.reason))), false)
  }))).pipe(Command.withDescription("Pause a job (it keeps its settings; resume brings it back)"))

const resume = Command.make("resume", { job: jobArg }, (opts) =>
  withJobs(Effect.gen(function*() {
    const job = yield* resolveJob(opts.job)
    yield* printJob(yield* Effect.flatMap(CronJobs, (s) => s.resume(job.id)), false)
  }))).pipe(Command.withDescription("Resume a paused job; its next run counts from now"))

const remove = Command.make("remove", { job: jobArg }, (opts) =>
  withJobs(Effect.gen(function*() {
    const job = yield* resolveJob(opts.job)
    yield* Effect.flatMap(CronJobs, (s) => s.remove(job.id))
    yield* writeOut(`Cron job '${job.name}' removed.`)
  }))).pipe(Command.withDescription("Remove a job (its run history stays)"))

const describeRun = (run: CronRun) =>
  `${run.status === "ok" ? "✓" : "✗"} ${run.jobId} ${run.jobName.slice(0, 40)}  ${new Date(run.startedAt).toISOString()}  ${run.finishedAt - run.startedAt} ms` +
  (run.outputPath === null ? "" : `  → ${run.outputPath}`) + (run.error === null ? "" : `  (${run.error.slice(0, 160)})`)

const history = Command.make("history", { job: Args.text({ name: "job" }).pipe(Args.optional), limit: Options.integer("limit").pipe(Options.withDefault(20)), json: jsonOption }, (opts) =>
  withJobs(Effect.gen(function*() {
    const store = yield* CronJobs
    // A removed job keeps its history: an id that no longer resolves is still looked up as an id.
    const ref = Option.getOrUndefined(opts.job)
    const jobId = ref === undefined ? undefined : yield* store.resolve(ref).pipe(Effect.map((j) => j.id), Effect.orElseSucceed(() => ref))
    const runs = yield* store.history({ jobId, limit: opts.limit })
    if (opts.json) return yield* writeOut(JSON.stringify(runs, null, 2))
    yield* writeOut(runs.length === 0 ? "no runs" : runs.map(describeRun).join("\n"))
  }))).pipe(Command.withDescription("Recent runs, newest first (optionally of one job)"))

const leaseOption = Options.integer("lease-seconds").pipe(
  Options.withDescription("How long a claimed job stays ours without renewal; a killed scheduler's job is retried after it (default 300)"),
  Options.optional
)

const schedulerOptions = (lease: Option.Option<number>, extra: SchedulerOptions = {}): SchedulerOptions => ({
  ...extra,
  ...(Option.isSome(lease) ? { leaseMs: Math.max(1, lease.value) * 1000 } : {}),
  onRun: (run) => writeErr(describeRun(run))
})

const runNow = Command.make("run-now", { job: jobArg, lease: leaseOption }, (opts) =>
  withRuntime(Effect.gen(function*() {
    const job = yield* Effect.flatMap(CronJobs, (s) => s.resolve(opts.job))
    const result = yield* Effect.flatMap(CronScheduler, (s) => s.runNow(job.id, schedulerOptions(opts.lease)))
    if (result._tag === "Skipped") return yield* writeErr(result.reason)
  }))).pipe(Command.withDescription("Run a job now, whatever its schedule, and wait for it"))

const tick = Command.make("tick", { lease: leaseOption }, (opts) =>
  withRuntime(Effect.gen(function*() {
    const runs = yield* Effect.flatMap(CronScheduler, (s) => s.tick(schedulerOptions(opts.lease)))
    yield* writeErr(`${runs.length} job${runs.length === 1 ? "" : "s"} run`)
  }))).pipe(Command.withDescription("Run the jobs that are due, once, then exit (for system cron or a systemd timer)"))

const run = Command.make(
  "run",
  {
    lease: leaseOption,
    poll: Options.integer("poll-seconds").pipe(Options.withDescription("Look for new jobs at least this often (default 60)"), Options.optional),
    concurrency: Options.integer("concurrency").pipe(Options.withDescription("Jobs run at the same time (default 4)"), Options.optional)
  },
  (opts) =>
    withRuntime(Effect.gen(function*() {
      yield* writeErr("cron scheduler running (Ctrl-C stops it; running jobs are released for the next scheduler)")
      return yield* Effect.flatMap(CronScheduler, (s) =>
        s.daemon(schedulerOptions(opts.lease, {
          ...(Option.isSome(opts.poll) ? { pollMs: Math.max(1, opts.poll.value) * 1000 } : {}),
          ...(Option.isSome(opts.concurrency) ? { concurrency: opts.concurrency.value } : {})
        })))
    }))
).pipe(Command.withDescription("Run the scheduler in the foreground: each job runs when it is due"))

export const cronCommand = Command.make("cron").pipe(
  Command.withDescription("Scheduled jobs: agent prompts run on a schedule (list, create, pause, resume, remove, run-now, history, tick, run)"),
  Command.withSubcommands([list, create, pause, resume, remove, runNow, history, tick, run])
)
