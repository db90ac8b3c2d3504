/**
 * `delegate_task` (toolset `delegation`): hand one task, or up to
 * `delegation.max_concurrent_children` (3) tasks at once, to child agents.
 * Each child is a fiber running the AgentLoop with its own session (source
 * `subagent`, parent = the caller's session) and its OWN terminal environment
 * (a fresh task id, torn down with the child: its cwd, env and processes are
 * its own), at most `delegation.max_iterations` (50) model calls, an optional
 * timeout, and a restricted toolset: never `clarify`, `memory`,
 * `send_message`, `execute_code` or `cronjob`; `delegate_task` only for an
 * `orchestrator` whose depth stays below `delegation.max_spawn_depth`.
 *
 * As in Hermes, a top-level caller (depth 0) gets the delegation in the
 * background: the call answers at once with `{status: "dispatched",
 * delegation_id, …}` and the children's results re-enter its conversation
 * later as one user message (`[ASYNC DELEGATION COMPLETE — id]`, see
 * `lib/delegation/report.ts`) through the run's `BackgroundWork`. A child
 * that delegates, or a caller already running `max_concurrent_children`
 * background delegations, waits for the result instead
 * (`{"results": [...], "total_duration_seconds"}`, with a `note` for the
 * latter). Children run in the parent run's scope: interrupting the parent
 * interrupts them.
 */
import { randomBytes } from "node:crypto"
import { Clock, Duration, Effect, FiberRef, Layer, Option, Schema } from "effect"
import { AgentLoop, CurrentAgentRun } from "../services/AgentLoop.js"
import type { AgentResult, AgentRunInfo } from "../services/AgentLoop.js"
import { Config, CONFIG_DEFAULTS } from "../services/Config.js"
import type { HermesConfig } from "../services/Config.js"
import { Environments } from "../services/Environments.js"
import { Processes } from "../services/Processes.js"
import { delegationReport } from "../lib/delegation/report.js"
import { registerTool } from "../lib/tool/registerTool.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { observedFn } from "../lib/effect/observedFn.js"

export class DelegationRefused extends Schema.TaggedError<DelegationRefused>()("DelegationRefused", {
  message: Schema.String
}) {}

/** Tools a child never gets (Hermes' list); an orchestrator with depth to spare keeps `delegate_task`. */
export const DELEGATE_BLOCKED_TOOLS: ReadonlyArray<string> = ["delegate_task", "clarify", "memory", "send_message", "execute_code", "cronjob"]

export const DELEGATE_ROLES = ["leaf", "orchestrator"] as const
export type DelegateRole = typeof DELEGATE_ROLES[number]

/** `delegation:` with its defaults and floors applied by the Config schema. */
export type DelegationSettings = HermesConfig["delegation"]

const Toolsets = Schema.NullOr(Schema.Array(Schema.String))

/** Advertised as the enum; any other value is read as `leaf` (Hermes is lenient here). */
const Role = Schema.String.annotations({ jsonSchema: { type: "string", enum: [...DELEGATE_ROLES] } })

const roleDescription =
  "'leaf' (default): a worker that cannot delegate. 'orchestrator': may hand parts of its task to its own subagents " +
  "(only while delegation.max_spawn_depth allows; otherwise it works as a leaf)."

const Task = Schema.Struct({
  goal: Schema.String.annotations({ description: "What this subagent should accomplish" }),
  context: Schema.optional(Schema.NullOr(Schema.String)).annotations({ description: "Background this subagent needs" }),
  role: Schema.optional(Schema.NullOr(Role)).annotations({ description: `Role of this subagent: ${roleDescription}` }),
  toolsets: Schema.optional(Toolsets).annotations({ description: "Toolsets for this task (default: the top-level toolsets, else yours)" })
})

export const DelegateParameters = Schema.Struct({
  goal: Schema.optional(Schema.NullOr(Schema.String)).annotations({
    description:
      "What the subagent should accomplish. Be specific and self-contained: the subagent knows nothing of your conversation."
  }),
  context: Schema.optional(Schema.NullOr(Schema.String)).annotations({
    description: "Everything the subagent needs to know: file paths, error messages, constraints, the language to answer in."
  }),
  toolsets: Schema.optional(Toolsets).annotations({
    description: "Toolsets to give the subagent, e.g. ['terminal', 'file']. Default: your own tools (a subagent never gets more than you have)."
  }),
  tasks: Schema.optional(Schema.NullOr(Schema.Array(Task))).annotations({
    description: "Batch mode: several independent tasks run in parallel, one subagent each. When given, goal/context/role above are ignored."
  }),
  role: Schema.optional(Schema.NullOr(Role)).annotations({ description: `Role of the subagent (single mode): ${roleDescription}` }),
  background: Schema.optional(Schema.NullOr(Schema.Boolean)).annotations({
    description: "Ignored: a top-level delegation always runs in the background; one made by a subagent waits for its result."
  })
})

const description = (s: DelegationSettings) =>
  "Hand work to subagents that run in their own context and return only a summary, so intermediate tool output never fills " +
  "your context. Give either `goal` (one task) or `tasks` (up to " + s.max_concurrent_children + " tasks run in parallel). " +
  "The call returns at once with a delegation_id and the subagents work in the background: keep working on something else, " +
  "and do not poll. Their results arrive later as a message starting with [ASYNC DELEGATION COMPLETE — <id>] (one message " +
  "for a whole batch). Each subagent gets its own terminal session (its own working directory, environment variables and " +
  "processes, all gone when it finishes) and knows nothing of this conversation: put file paths, errors and constraints " +
  "in `context`. Subagents cannot ask the user " +
  "questions or use memory; " +
  (s.max_spawn_depth > 1 && s.orchestrator_enabled
    ? `one with role 'orchestrator' may delegate further, down to depth ${s.max_spawn_depth}; a 'leaf' cannot.`
    : "they cannot delegate further.") +
  " Their summaries are their own reports: check side effects that matter (files written, commands run) yourself. Use it for " +
  "reasoning-heavy subtasks or parallel independent work, not for a single tool call."

/** The focused system prompt of a child. */
export const childSystemPrompt = (goal: string, context: string | undefined, cwd: string | undefined, role: DelegateRole = "leaf"): string => {
  const parts = [
    "You are a subagent: another agent handed you one task. Work on it alone with the tools you have. Nobody can answer " +
    "questions, so make reasonable assumptions and say which ones you made.",
    `TASK:\n${goal}`
  ]
  if (context !== undefined && context.trim().length > 0) parts.push(`CONTEXT:\n${context.trim()}`)
  if (cwd !== undefined) parts.push(`Working directory: ${cwd}`)
  if (role === "orchestrator") {
    parts.push(
      "You are an orchestrator: you may split this task and hand independent parts to subagents of your own with " +
      "delegate_task (their results come back to you as its result). Delegate only work that is worth a separate context."
    )
  }
  parts.push(
    "When you are done, reply with a summary for the agent that delegated the task: what you did, what you found, and what " +
    "failed or is left. Include exact file paths, commands and values it may need: your reply is all it will see."
  )
  return parts.join("\n\n")
}

interface ChildTask {
  readonly goal: string
  readonly context: string | undefined
  readonly toolsets: ReadonlyArray<string> | undefined
  readonly role: DelegateRole
}

const capSummary = (summary: string, max: number) =>
  summary.length <= max ? summary : `${summary.slice(0, max)}\n\n[summary truncated: ${summary.length} characters in total]`

const seconds = (ms: number) => Math.round(ms / 10) / 100

const roleOf = (value: string | null | undefined): DelegateRole => (value === "orchestrator" ? "orchestrator" : "leaf")

const taskList = (args: typeof DelegateParameters.Type, max: number): Effect.Effect<ReadonlyArray<ChildTask>, DelegationRefused> => {
  const refuse = (message: string) => Effect.fail(new DelegationRefused({ message }))
  const tasks = args.tasks ?? []
  if (tasks.length > max) {
    return refuse(
      `Too many tasks: ${tasks.length} provided, but max_concurrent_children is ${max}. Reduce the task count, split them ` +
        "over several delegate_task calls, or raise delegation.max_concurrent_children in config.yaml."
    )
  }
  const list: ReadonlyArray<ChildTask> = tasks.length > 0
    ? tasks.map((t) => ({
      goal: t.goal,
      context: t.context ?? args.context ?? undefined,
      toolsets: t.toolsets ?? args.toolsets ?? undefined,
      role: roleOf(t.role)
    }))
    : typeof args.goal === "string" && args.goal.trim().length > 0
    ? [{ goal: args.goal, context: args.context ?? undefined, toolsets: args.toolsets ?? undefined, role: roleOf(args.role) }]
    : []
  if (list.length === 0) return refuse("Provide either 'goal' (single task) or 'tasks' (batch).")
  const blank = list.findIndex((t) => t.goal.trim().length === 0)
  if (blank >= 0) return refuse(`Task ${blank} is missing a 'goal'.`)
  return Effect.succeed(list)
}

/** An orchestrator keeps delegate_task only when enabled and with depth to spare; otherwise it works as a leaf (as Hermes). */
const canOrchestrate = (role: DelegateRole, childDepth: number, settings: DelegationSettings) =>
  role === "orchestrator" && settings.orchestrator_enabled && childDepth < settings.max_spawn_depth

interface Services {
  readonly agent: typeof AgentLoop.Service
  readonly environments: typeof Environments.Service
  readonly processes: typeof Processes.Service
}

const runChild = (services: Services, parent: AgentRunInfo, settings: DelegationSettings, delegationId: string, task: ChildTask, index: number) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    let sessionId: string | undefined
    let apiCalls = 0
    const childDepth = parent.depth + 1
    const delegates = canOrchestrate(task.role, childDepth, settings)
    // Its own terminal environment: a task id nobody else uses, released when the child ends.
    const taskId = `${parent.taskId}:${delegationId}:${index}`
    const run = services.agent.run({
      prompt: task.goal,
      source: "subagent",
      parentSessionId: parent.sessionId,
      taskId,
      cwd: parent.cwd,
      toolsets: task.toolsets === undefined ? parent.toolsets : { enabled: task.toolsets },
      onlyTools: parent.tools,
      excludeTools: delegates ? DELEGATE_BLOCKED_TOOLS.filter((t) => t !== "delegate_task") : DELEGATE_BLOCKED_TOOLS,
      model: parent.model,
      maxIterations: settings.max_iterations,
      systemPrompt: childSystemPrompt(task.goal, task.context, parent.cwd, delegates ? "orchestrator" : "leaf"),
      depth: childDepth,
      nonInteractive: true,
      onEvent: (event) =>
        Effect.sync(() => {
          if (event._tag === "SessionStarted") sessionId = event.sessionId
          else if (event._tag === "ModelResponded") apiCalls++
        })
    }).pipe(
      Effect.ensuring(
        services.processes.closeTask(taskId).pipe(Effect.zipRight(services.environments.release(taskId)), Effect.ignore)
      )
    )
    const limited = settings.child_timeout_seconds > 0 ? Effect.timeoutOption(run, Duration.seconds(settings.child_timeout_seconds)) : Effect.map(run, Option.some)
    const exit = yield* Effect.either(limited)
    const duration = seconds((yield* Clock.currentTimeMillis) - started)
    const base = { task_index: index, session_id: sessionId ?? null, role: delegates ? "orchestrator" : "leaf", api_calls: apiCalls, duration_seconds: duration }
    if (exit._tag === "Left") {
      return { ...base, status: "error", summary: null, error: exit.left.message, exit_reason: "error" }
    }
    if (Option.isNone(exit.right)) {
      return {
        ...base,
        status: "timeout",
        summary: null,
        error: `Subagent timed out after ${settings.child_timeout_seconds}s with ${apiCalls} API call(s) completed.`,
        exit_reason: "timeout"
      }
    }
    const result: AgentResult = exit.right.value
    const summary = result.response.trim()
    const exitReason = result.status === "completed" ? "completed" : result.status === "budget_exhausted" ? "max_iterations" : result.status
    return {
      ...base,
      status: summary.length > 0 ? "completed" : "failed",
      summary: summary.length > 0 ? capSummary(summary, settings.summary_max_chars) : null,
      ...(summary.length > 0 ? {} : { error: "Subagent did not produce a response." }),
      exit_reason: exitReason,
      api_calls: result.iterations,
      tokens: { input: result.usage.inputTokens, output: result.usage.outputTokens }
    }
  })

const runAll = (services: Services, parent: AgentRunInfo, settings: DelegationSettings, delegationId: string, tasks: ReadonlyArray<ChildTask>) =>
  Effect.forEach(tasks, (task, i) => runChild(services, parent, settings, delegationId, task, i), {
    concurrency: settings.max_concurrent_children
  })

export const delegateTool = defineTool({
  name: "delegate_task",
  toolset: "delegation",
  emoji: "🔀",
  description: description(CONFIG_DEFAULTS.delegation),
  parameters: DelegateParameters,
  // Children have their own limits (iterations, child_timeout_seconds); the per-call timeout would cut them short.
  timeout: Duration.infinity,
  dynamicSchema: Effect.map(Config, (config) => config.current).pipe(
    Effect.flatten,
    Effect.map((c) => ({ description: description(c.delegation) }))
  ),
  handler: observedFn("delegate_task")(function*(args) {
    const parent = yield* FiberRef.get(CurrentAgentRun)
    if (parent === undefined) return yield* new DelegationRefused({ message: "delegate_task requires a parent agent context." })
    const settings = (yield* Effect.flatMap(Config, (c) => c.current)).delegation
    if (parent.depth >= settings.max_spawn_depth) {
      return yield* new DelegationRefused({
        message: `Delegation depth limit reached (depth=${parent.depth}, max_spawn_depth=${settings.max_spawn_depth}). ` +
          "Raise delegation.max_spawn_depth in config.yaml if deeper nesting is required."
      })
    }
    const tasks = yield* taskList(args, settings.max_concurrent_children)
    const services: Services = { agent: yield* AgentLoop, environments: yield* Environments, processes: yield* Processes }
    const delegationId = `deleg_${randomBytes(4).toString("hex")}`
    const started = yield* Clock.currentTimeMillis
    const busy = yield* parent.background.running
    // Hermes: the top level delegates in the background; a subagent's delegation waits, and so does one over capacity.
    if (parent.depth === 0 && busy < settings.max_concurrent_children) {
      const record = {
        id: delegationId,
        goals: tasks.map((t) => t.goal),
        context: args.tasks !== undefined && args.tasks !== null && args.tasks.length > 0 ? args.context ?? undefined : tasks[0]!.context,
        toolsets: tasks[0]!.toolsets,
        roles: tasks.map((t) => (canOrchestrate(t.role, parent.depth + 1, settings) ? "orchestrator" : "leaf")),
        model: parent.model,
        dispatchedAt: started
      }
      const work = Effect.flatMap(runAll(services, parent, settings, delegationId, tasks), (outcomes) =>
        Effect.map(Clock.currentTimeMillis, (now) => delegationReport(record, outcomes, now)))
      yield* parent.background.start(work)
      return {
        status: "dispatched",
        mode: "background",
        count: tasks.length,
        delegation_id: delegationId,
        goals: record.goals,
        note: `${tasks.length === 1 ? "The subagent is" : `${tasks.length} subagents are`} working in the background. ` +
          `The result arrives later as a message starting with [ASYNC DELEGATION ${tasks.length === 1 ? "" : "BATCH "}COMPLETE — ${delegationId}]; ` +
          "carry on with other work meanwhile and do not wait or poll for it."
      }
    }
    const results = yield* runAll(services, parent, settings, delegationId, tasks)
    const total = seconds((yield* Clock.currentTimeMillis) - started)
    if (parent.depth > 0) return { results, total_duration_seconds: total }
    return {
      results,
      total_duration_seconds: total,
      note: `Ran in the foreground: ${busy} background delegation(s) were already running, the most ` +
        `delegation.max_concurrent_children (${settings.max_concurrent_children}) allows.`
    }
  })
})

/** Registers `delegate_task`; needs the AgentLoop, so it is wired after it (HermesRuntime does). */
export const DelegateToolLive = Layer.effectDiscard(Effect.orDie(registerTool(delegateTool)))
