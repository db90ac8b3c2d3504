/**
 * One run of a claimed job: a fresh agent session (source `cron`) on the job's
 * prompt, skills, toolsets and model, headless; its answer written to
 * `<home>/cron/output/<job>/<stamp>.md` and recorded in `cron_runs`. The lease
 * is renewed while the agent works; an interrupted run releases it, so the
 * job is due again at once, and a killed process's lease simply expires.
 */
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Cause, Clock, Duration, Effect, Exit, Option, Schedule } from "effect"
import { wallClock } from "../../lib/cron/schedule.js"
import { endTask } from "../agent/endTask.js"
import { AgentLoop } from "../../services/AgentLoop.js"
import { Config } from "../../services/Config.js"
import { CronJobs } from "../../services/CronJobs.js"
import type { CronJob, CronRun } from "../../services/CronJobs.js"
import { Skills } from "../../services/Skills.js"

/** Tools a cron run never gets: it cannot schedule more jobs or ask anyone anything. */
export const CRON_EXCLUDED_TOOLS: ReadonlyArray<string> = ["cronjob", "clarify", "send_message"]

const CRON_HINT =
  "[Scheduled job: you run unattended, started by the scheduler; nobody can answer questions. " +
  "Your final answer is saved as this run's output. If there is nothing new to report, answer exactly [SILENT].]"

export interface RunJobOptions {
  readonly owner: string
  readonly leaseMs: number
  /** Started by `run` / `run-now` rather than by the schedule. */
  readonly manual: boolean
  /** The slot this run is for (the job's next run when it was claimed). */
  readonly scheduledFor: number | null
}

const pad = (n: number) => String(n).padStart(2, "0")

/** `YYYY-MM-DD_HH-MM-SS` in UTC: file names sort by time. */
const fileStamp = (ms: number) => {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}_${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}`
}

/** The prompt the agent gets: the cron hint, the attached skills, then the job's own prompt. */
const buildPrompt = (job: CronJob) =>
  Effect.gen(function*() {
    const skills = yield* Skills
    const parts = [CRON_HINT]
    for (const name of job.skills) {
      const view = yield* skills.view(name).pipe(Effect.option)
      if (view._tag === "Some" && view.value._tag === "Document") {
        parts.push(`[Skill '${name}']\n${view.value.content}`)
      } else {
        parts.push(`[Skill '${name}' could not be loaded; say in your answer that it was skipped.]`)
      }
    }
    if (job.prompt.trim().length > 0) parts.push(job.skills.length > 0 ? `Instruction to carry out with the skills above:\n${job.prompt}` : job.prompt)
    return parts.join("\n\n")
  })

const outputDoc = (job: CronJob, startedAt: number, sessionId: string, response: string, error: string | null) =>
  [
    `# Cron Job: ${job.name}${error === null ? "" : " (FAILED)"}`,
    "",
    `- Job: ${job.id}`,
    `- Run at: ${new Date(startedAt).toISOString()} (${wallClock(startedAt, job.tz)} ${job.tz})`,
    `- Schedule: ${job.schedule.display}`,
    `- Session: ${sessionId}`,
    "",
    "## Prompt",
    "",
    job.prompt,
    "",
    ...(error === null ? ["## Response", "", response] : ["## Error", "", "```", error, "```"]),
    ""
  ].join("\n")

/** Output documents kept per job (Hermes' `cron.output_retention` default); older ones are deleted. */
export const OUTPUT_RETENTION = 50

/** Write the output document (dirs 0700, file 0600); a second run in the same second gets a suffix. */
const writeOutput = (root: string, job: CronJob, startedAt: number, text: string) =>
  Effect.try({
    try: () => {
      const dir = join(root, "cron", "output", job.id)
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      const stamp = fileStamp(startedAt)
      let file = join(dir, `${stamp}.md`)
      for (let i = 2; existsSync(file); i++) file = join(dir, `${stamp}_${String(i).padStart(3, "0")}.md`)
      writeFileSync(file, text, { mode: 0o600, flag: "wx" })
      // Names sort by time, so the oldest documents come first.
      const docs = readdirSync(dir).filter((name) => name.endsWith(".md")).sort()
      for (const old of docs.slice(0, Math.max(0, docs.length - OUTPUT_RETENTION))) rmSync(join(dir, old), { force: true })
      return file
    },
    catch: (e) => (e instanceof Error ? e.message : String(e))
  })

/** The failure's own message, else the first line of the defect. */
const describe = (cause: Cause.Cause<{ readonly message: string }>): string =>
  Option.match(Cause.failureOption(cause), {
    onSome: (e) => e.message,
    onNone: () => Cause.pretty(cause).split("\n")[0] ?? "run failed"
  })

/** Run a job this scheduler has claimed, and record the run. */
export const runClaimedJob = Effect.fn("CronScheduler.runJob")(function*(job: CronJob, options: RunJobOptions) {
  const store = yield* CronJobs
  const agent = yield* AgentLoop
  const config = yield* Config
  const startedAt = yield* Clock.currentTimeMillis
  const sessionId = `cron_${job.id}_${fileStamp(startedAt).replace(/-/g, "")}_${randomBytes(2).toString("hex")}`
  const heartbeat = store.renew(job.id, options.owner, options.leaseMs).pipe(
    Effect.repeat(Schedule.spaced(Duration.millis(Math.max(1000, Math.floor(options.leaseMs / 3))))),
    Effect.asVoid
  )
  const exit = yield* Effect.scoped(Effect.gen(function*() {
    yield* Effect.forkScoped(Effect.delay(heartbeat, Duration.millis(Math.max(1000, Math.floor(options.leaseMs / 3)))))
    const prompt = yield* buildPrompt(job)
    return yield* agent.run({
      prompt,
      sessionId,
      source: "cron",
      ...(job.workdir === null ? {} : { cwd: job.workdir }),
      ...(job.enabledToolsets === null ? {} : { toolsets: { enabled: job.enabledToolsets } }),
      excludeTools: CRON_EXCLUDED_TOOLS,
      ...(job.model === null ? {} : { model: job.model.model }),
      nonInteractive: true
    })
  })).pipe(
    // A run is a task of its own (its id is the session's): what it started ends with it.
    Effect.ensuring(endTask(sessionId)),
    // Stopped (Ctrl-C, scheduler shutdown): give the job back at once rather than when the lease runs out.
    Effect.onInterrupt(() => store.release(job.id, options.owner)),
    Effect.exit
  )
  const response = Exit.isSuccess(exit) ? exit.value.response : ""
  const error = Exit.isFailure(exit)
    ? describe(exit.cause)
    : response.trim().length === 0
    ? "the agent gave an empty response"
    : null
  const written = yield* writeOutput(config.home.root, job, startedAt, outputDoc(job, startedAt, sessionId, response, error)).pipe(Effect.either)
  const run: CronRun = yield* store.finish(job.id, options.owner, {
    scheduledFor: options.scheduledFor,
    startedAt,
    status: error === null && written._tag === "Right" ? "ok" : "error",
    sessionId,
    outputPath: written._tag === "Right" ? written.right : null,
    error: error ?? (written._tag === "Left" ? `could not write the output: ${written.left}` : null),
    manual: options.manual
  })
  return run
})
