/**
 * `cronjob` (toolset `cronjob`): schedule agent prompts. One tool with Hermes'
 * actions — create, list, update, pause, resume, remove, run (also `run_now`,
 * `trigger`) — and its parameters and result keys. Jobs live in the state
 * database; `hermes-effect cron run` (or `cron tick`) runs them when due.
 * `run` fires the job now and waits for it, as Hermes does.
 */
import { existsSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { isAbsolute, join } from "node:path"
import { Effect, FiberRef, Layer, Option, Schema } from "effect"
import { defineTool } from "../lib/tool/defineTool.js"
import { registerTool } from "../lib/tool/registerTool.js"
import { CurrentAgentRun } from "../services/AgentLoop.js"
import { Config } from "../services/Config.js"
import { CronJobs, CronScheduler } from "../services/CronJobs.js"
import { ToolRegistry } from "../services/ToolRegistry.js"
import type { CronJob, CronJobPatch, CronModel } from "../services/CronJobs.js"
import { formatJob, refusal, repeatDisplay } from "./cronjobFormat.js"
import { cronPromptThreat } from "./cronjobThreats.js"
import { observedFn } from "../lib/effect/observedFn.js"

const StringList = Schema.Array(Schema.String)

export const CronjobParameters = Schema.Struct({
  action: Schema.String.annotations({ description: "One of: create, list, update, pause, resume, remove, run. create needs 'schedule' and 'prompt' (or skills)." }),
  job_id: Schema.optional(Schema.String.annotations({ description: "The job's id (or its exact name) for update/pause/resume/remove/run. List first; never guess ids." })),
  prompt: Schema.optional(Schema.String.annotations({ description: "For create: a self-contained prompt; the job runs in a fresh session that has none of this chat's context." })),
  schedule: Schema.optional(Schema.String.annotations({
    description: "Required for create. '30m' or 'every 2h' (recurring: every 30 minutes / 2 hours), 'in 30m' (once, 30 minutes from now), " +
      "a cron expression such as '0 9 * * *' (daily at 9:00 in the job's time zone), or an ISO timestamp such as '2026-06-01T09:00:00' (once)."
  })),
  name: Schema.optional(Schema.String.annotations({ description: "Optional human-friendly name" })),
  repeat: Schema.optional(Schema.Int.annotations({ description: "Optional repeat count. Omit for the defaults (once for one-shots, forever for recurring)." })),
  deliver: Schema.optional(Schema.String.annotations({ description: "Where the output goes: 'local' (saved under cron/output only; the default here)." })),
  skills: Schema.optional(StringList.annotations({ description: "Optional skills loaded before the prompt, in order. On update, [] clears." })),
  skill: Schema.optional(Schema.String),
  model: Schema.optional(Schema.Struct({ provider: Schema.optional(Schema.String), model: Schema.String }).annotations({ description: "Optional model for this job's runs: {\"model\": \"name\", \"provider\"?: \"name\"}." })),
  enabled_toolsets: Schema.optional(StringList.annotations({ description: "Optional toolsets the job's agent may use (e.g. [\"web\", \"terminal\"]). Omit for the defaults. On update, [] clears." })),
  workdir: Schema.optional(Schema.String.annotations({ description: "Optional absolute, existing directory the job runs in. On update, '' clears." })),
  include_disabled: Schema.optional(Schema.Boolean),
  reason: Schema.optional(Schema.String)
})

type Args = typeof CronjobParameters.Type


/** `~` expanded; must be absolute and an existing directory. */
const checkWorkdir = (dir: string): string | { readonly error: string } => {
  const expanded = dir === "~" ? homedir() : dir.startsWith("~/") ? join(homedir(), dir.slice(2)) : dir
  if (!isAbsolute(expanded)) return { error: `workdir must be an absolute path, got '${dir}'` }
  if (!existsSync(expanded) || !statSync(expanded).isDirectory()) return { error: `workdir '${dir}' is not an existing directory` }
  return expanded
}

/** A model without a provider is pinned to the provider configured now (Hermes). */
const modelOf = (model: Args["model"]) =>
  Effect.gen(function*() {
    if (model === undefined) return undefined
    const spec = model
    if (spec.provider !== undefined) return { provider: spec.provider, model: spec.model } satisfies CronModel
    const provider = (yield* Effect.flatMap(Config, (c) => c.current)).model?.provider
    return (provider === undefined ? { model: spec.model } : { provider, model: spec.model }) satisfies CronModel
  })

const skillsOf = (args: Args) => args.skills ?? (args.skill === undefined ? undefined : [args.skill])

const LOCAL_NOTICE = " Its output is saved under cron/output/ only; it is not delivered to this chat."
/** No messaging platforms here: the target is kept with the job, the output is saved locally. */
const remoteNotice = (deliver: string) => ` Delivery to '${deliver}' is not available in this runtime; the output is saved under cron/output/ only.`

/**
 * Why a job with these toolsets may not be created or changed by the agent run calling the tool, or undefined: a
 * job runs later as an agent of its own, so a run limited to `cronjob` (or to files) could otherwise hand itself a
 * terminal through a job whose prompt it writes. The job's tools must be among the caller's, as a delegated child's
 * are. The operator (a call outside any agent run) has no limit. `toolsets` empty or absent: the defaults.
 */
const beyondCaller = (toolsets: ReadonlyArray<string> | null | undefined) =>
  Effect.gen(function*() {
    const caller = yield* FiberRef.get(CurrentAgentRun)
    if (caller === undefined) return undefined
    const registry = yield* ToolRegistry
    const definitions = yield* registry.definitions(toolsets === undefined || toolsets === null || toolsets.length === 0 ? undefined : { enabled: toolsets })
    const own = new Set(caller.tools)
    const extra = definitions.map((d) => d.function.name).filter((name) => !own.has(name))
    if (extra.length === 0) return undefined
    const named = toolsets === undefined || toolsets === null || toolsets.length === 0 ? "The default toolsets give" : "These toolsets give"
    return `${named} the job tools this session was not given (${extra.join(", ")}). ` +
      `Set enabled_toolsets to toolsets whose tools this session has (it has: ${caller.tools.join(", ")}).`
  })

const create = (args: Args) =>
  Effect.gen(function*() {
    const store = yield* CronJobs
    if (args.schedule === undefined || args.schedule.trim() === "") return refusal("schedule is required for create")
    const skills = skillsOf(args) ?? []
    const prompt = args.prompt ?? ""
    if (prompt.trim() === "" && skills.length === 0) return refusal("create requires either prompt or at least one skill")
    const threat = cronPromptThreat(prompt)
    if (threat !== undefined) return refusal(threat)
    const beyond = yield* beyondCaller(args.enabled_toolsets)
    if (beyond !== undefined) return refusal(beyond)
    const workdir = args.workdir === undefined || args.workdir === "" ? undefined : checkWorkdir(args.workdir)
    if (typeof workdir === "object") return refusal(workdir.error)
    const model = yield* modelOf(args.model)
    const deliver = args.deliver
    const created = yield* store.create({
      prompt,
      schedule: args.schedule,
      name: args.name,
      skills,
      model,
      enabledToolsets: args.enabled_toolsets,
      deliver,
      workdir,
      repeat: args.repeat
    }).pipe(Effect.either)
    if (created._tag === "Left") return refusal(created.left.message)
    const job = created.right
    return {
      success: true,
      job_id: job.id,
      name: job.name,
      skill: job.skills[0] ?? null,
      skills: job.skills,
      schedule: job.schedule.display,
      repeat: repeatDisplay(job),
      deliver: job.deliver,
      next_run_at: job.nextRunAt === null ? null : new Date(job.nextRunAt).toISOString(),
      job: formatJob(job),
      message: `Cron job '${job.name}' created.${job.deliver === "local" ? LOCAL_NOTICE : remoteNotice(job.deliver)}`
    }
  })

const update = (job: CronJob, args: Args) =>
  Effect.gen(function*() {
    const store = yield* CronJobs
    const threat = args.prompt === undefined ? undefined : cronPromptThreat(args.prompt)
    if (threat !== undefined) return refusal(threat)
    // Whatever is changed (a new prompt above all), the job then runs with its toolsets for this caller's ends.
    const beyond = yield* beyondCaller(args.enabled_toolsets ?? job.enabledToolsets)
    if (beyond !== undefined) return refusal(beyond)
    const workdir = args.workdir === undefined ? undefined : args.workdir === "" ? null : checkWorkdir(args.workdir)
    if (workdir !== null && typeof workdir === "object") return refusal(workdir.error)
    const patch: CronJobPatch = {
      ...(args.name === undefined ? {} : { name: args.name }),
      ...(args.prompt === undefined ? {} : { prompt: args.prompt }),
      ...(args.schedule === undefined ? {} : { schedule: args.schedule }),
      ...(skillsOf(args) === undefined ? {} : { skills: skillsOf(args) }),
      ...(args.model === undefined ? {} : { model: yield* modelOf(args.model) }),
      ...(args.enabled_toolsets === undefined ? {} : { enabledToolsets: args.enabled_toolsets }),
      ...(args.deliver === undefined ? {} : { deliver: args.deliver }),
      ...(workdir === undefined ? {} : { workdir }),
      ...(args.repeat === undefined ? {} : { repeat: args.repeat })
    }
    if (Object.keys(patch).length === 0) return refusal("No updates provided.")
    const updated = yield* store.update(job.id, patch).pipe(Effect.either)
    return updated._tag === "Left" ? refusal(updated.left.message) : { success: true, job: formatJob(updated.right) }
  })

const run = (job: CronJob) =>
  Effect.gen(function*() {
    const store = yield* CronJobs
    const result = yield* Effect.flatMap(CronScheduler, (s) => s.runNow(job.id))
    const after = Option.getOrElse(yield* store.get(job.id), () => job)
    if (result._tag === "Skipped") {
      return { success: true, job: { ...formatJob(after), executed: false, execution_success: false, execution_skipped: result.reason } }
    }
    const ok = result.run.status === "ok"
    return {
      success: true,
      job: {
        ...formatJob(after),
        executed: true,
        execution_success: ok,
        ...(ok ? {} : { execution_error: result.run.error }),
        output_path: result.run.outputPath
      }
    }
  })

export const cronjobTool = defineTool({
  name: "cronjob",
  toolset: "cronjob",
  emoji: "⏰",
  description:
    "Manage scheduled jobs. action='create' schedules a prompt (and/or skills); 'list' shows the jobs; 'update', 'pause', 'resume' and 'remove' " +
    "act on one job by job_id (list first, never guess ids); 'run' fires a job now and returns its outcome. " +
    "Each run is a fresh, unattended session with none of this chat's context: write self-contained prompts. " +
    "The run's final answer is its output. Prefer updating a job over creating a near-duplicate.",
  parameters: CronjobParameters,
  handler: observedFn("cronjob")(function*(args) {
    const store = yield* CronJobs
    const action = args.action.trim().toLowerCase()
    if (action === "create") return yield* create(args)
    if (action === "list") {
      const jobs = yield* store.list({ includeDisabled: args.include_disabled ?? true })
      return { success: true, count: jobs.length, jobs: jobs.map(formatJob) }
    }
    if (args.job_id === undefined || args.job_id.trim() === "") return refusal(`job_id is required for action '${action}'`)
    const found = yield* store.resolve(args.job_id).pipe(Effect.either)
    if (found._tag === "Left") {
      const e = found.left
      return e._tag === "AmbiguousCronJob" ? { success: false, error: e.message, matches: e.matches } : { success: false, error: e.message }
    }
    const job = found.right
    switch (action) {
      case "update":
        return yield* update(job, args)
      case "pause":
        return { success: true, job: formatJob(yield* store.pause(job.id, args.reason).pipe(Effect.orDie)) }
      case "resume": {
        const resumed = yield* store.resume(job.id).pipe(Effect.either)
        return resumed._tag === "Left" ? refusal(resumed.left.message) : { success: true, job: formatJob(resumed.right) }
      }
      case "remove": {
        const removed = yield* store.remove(job.id).pipe(Effect.orDie)
        return {
          success: true,
          message: `Cron job '${removed.name}' removed.`,
          removed_job: { id: removed.id, name: removed.name, schedule: removed.schedule.display }
        }
      }
      case "run":
      case "run_now":
      case "trigger":
        return yield* run(job)
      default:
        return refusal(`Unknown cron action '${args.action}'`)
    }
  })
})

/** Registers `cronjob` beside `delegate_task`: `run` needs the agent loop, which is built after the built-in tools. */
export const CronToolLive = Layer.effectDiscard(Effect.orDie(registerTool(cronjobTool)))
