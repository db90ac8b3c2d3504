/**
 * `delegate_task` (toolset `delegation`): hand one task, or up to
 * `delegation.max_concurrent_children` (3) tasks at once, to child agents.
 * Each child is a fiber running the AgentLoop with its own session (source
 * `subagent`, parent = the caller's session), the caller's terminal
 * environment (same task id), at most `delegation.max_iterations` (50) model
 * calls, an optional timeout, and a restricted toolset: never `clarify`,
 * `memory`, `send_message` or `execute_code`, and `delegate_task` only while
 * the child's depth stays below `delegation.max_spawn_depth` (1: children do
 * not delegate). Commands that need approval are decided by the
 * non-interactive approver in children. The result follows Hermes:
 * `{"results": [{task_index, status, summary, …}], "total_duration_seconds"}`,
 * each summary capped at `delegation.summary_max_chars` (24 000).
 * Interrupting the call interrupts every child with it.
 */
import { Clock, Duration, Effect, FiberRef, Layer, Option, Schema } from "effect"
import { AgentLoop, CurrentAgentRun } from "../services/AgentLoop.js"
import type { AgentResult, AgentRunInfo } from "../services/AgentLoop.js"
import { Config, CONFIG_DEFAULTS } from "../services/Config.js"
import type { HermesConfig } from "../services/Config.js"
import { registerTool } from "../lib/tool/registerTool.js"
import { defineTool } from "../lib/tool/defineTool.js"

export class DelegationRefused extends Schema.TaggedError<DelegationRefused>()("DelegationRefused", {
  message: Schema.String
}) {}

/** Tools a child never gets (Hermes' list). */
export const DELEGATE_BLOCKED_TOOLS: ReadonlyArray<string> = ["delegate_task", "clarify", "memory", "send_message", "execute_code"]

/** `delegation:` with its defaults and floors applied by the Config schema. */
export type DelegationSettings = HermesConfig["delegation"]

const Toolsets = Schema.NullOr(Schema.Array(Schema.String))

const Task = Schema.Struct({
  goal: Schema.String.annotations({ description: "What this subagent should accomplish" }),
  context: Schema.optional(Schema.NullOr(Schema.String)).annotations({ description: "Background this subagent needs" }),
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
    description: "Batch mode: several independent tasks run in parallel, one subagent each. When given, goal/context/toolsets above are ignored."
  })
})

const description = (s: DelegationSettings) =>
  "Hand work to subagents that run in their own context and return only a summary, so intermediate tool output never fills " +
  "your context. Give either `goal` (one task) or `tasks` (up to " + s.max_concurrent_children + " tasks run in parallel; results " +
  "come back together, one entry per task). Subagents share your terminal environment and working directory, but know nothing " +
  "of this conversation: put file paths, errors and constraints in `context`. They cannot ask the user questions, cannot use " +
  "memory, and " + (s.max_spawn_depth > 1 ? `may delegate further down to depth ${s.max_spawn_depth}.` : "cannot delegate further.") +
  " Their summaries are their own reports: check side effects that matter (files written, commands run) yourself. Use it for " +
  "reasoning-heavy subtasks or parallel independent work, not for a single tool call."

/** The focused system prompt of a child. */
export const childSystemPrompt = (goal: string, context: string | undefined, cwd: string | undefined): string => {
  const parts = [
    "You are a subagent: another agent handed you one task. Work on it alone with the tools you have. Nobody can answer " +
    "questions, so make reasonable assumptions and say which ones you made.",
    `TASK:\n${goal}`
  ]
  if (context !== undefined && context.trim().length > 0) parts.push(`CONTEXT:\n${context.trim()}`)
  if (cwd !== undefined) parts.push(`Working directory: ${cwd}`)
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
}

const capSummary = (summary: string, max: number) =>
  summary.length <= max ? summary : `${summary.slice(0, max)}\n\n[summary truncated: ${summary.length} characters in total]`

const seconds = (ms: number) => Math.round(ms / 10) / 100

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
    ? tasks.map((t) => ({ goal: t.goal, context: t.context ?? args.context ?? undefined, toolsets: t.toolsets ?? args.toolsets ?? undefined }))
    : typeof args.goal === "string" && args.goal.trim().length > 0
    ? [{ goal: args.goal, context: args.context ?? undefined, toolsets: args.toolsets ?? undefined }]
    : []
  if (list.length === 0) return refuse("Provide either 'goal' (single task) or 'tasks' (batch).")
  const blank = list.findIndex((t) => t.goal.trim().length === 0)
  if (blank >= 0) return refuse(`Task ${blank} is missing a 'goal'.`)
  return Effect.succeed(list)
}

const runChild = (agent: typeof AgentLoop.Service, parent: AgentRunInfo, settings: DelegationSettings, task: ChildTask, index: number) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    let sessionId: string | undefined
    let apiCalls = 0
    const childDepth = parent.depth + 1
    const run = agent.run({
      prompt: task.goal,
      source: "subagent",
      parentSessionId: parent.sessionId,
      taskId: parent.taskId,
      cwd: parent.cwd,
      toolsets: task.toolsets === undefined ? parent.toolsets : { enabled: task.toolsets },
      onlyTools: parent.tools,
      excludeTools: childDepth < settings.max_spawn_depth ? DELEGATE_BLOCKED_TOOLS.filter((t) => t !== "delegate_task") : DELEGATE_BLOCKED_TOOLS,
      model: parent.model,
      maxIterations: settings.max_iterations,
      systemPrompt: childSystemPrompt(task.goal, task.context, parent.cwd),
      depth: childDepth,
      nonInteractive: true,
      onEvent: (event) =>
        Effect.sync(() => {
          if (event._tag === "SessionStarted") sessionId = event.sessionId
          else if (event._tag === "ModelResponded") apiCalls++
        })
    })
    const limited = settings.child_timeout_seconds > 0 ? Effect.timeoutOption(run, Duration.seconds(settings.child_timeout_seconds)) : Effect.map(run, Option.some)
    const exit = yield* Effect.either(limited)
    const duration = seconds((yield* Clock.currentTimeMillis) - started)
    const base = { task_index: index, session_id: sessionId ?? null, api_calls: apiCalls, duration_seconds: duration }
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
  handler: Effect.fn("delegate_task")(function*(args) {
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
    const agent = yield* AgentLoop
    const started = yield* Clock.currentTimeMillis
    const results = yield* Effect.forEach(tasks, (task, i) => runChild(agent, parent, settings, task, i), {
      concurrency: settings.max_concurrent_children
    })
    return { results, total_duration_seconds: seconds((yield* Clock.currentTimeMillis) - started) }
  })
})

/** Registers `delegate_task`; needs the AgentLoop, so it is wired after it (HermesRuntime does). */
export const DelegateToolLive = Layer.effectDiscard(Effect.orDie(registerTool(delegateTool)))
