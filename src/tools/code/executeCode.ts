/**
 * `execute_code` (toolset `code_execution`): run a Python script that calls
 * tools itself, so a chain of calls (search, read, filter, summarise) costs
 * one model turn. Only what the script prints comes back. The script runs in
 * the task's terminal environment; its calls go through the ToolExecutor like
 * the model's own (hooks, approval, result caps), capped per script.
 */
import { Duration, Effect, FiberRef, Schema } from "effect"
import { CurrentAgentRun } from "../../services/AgentLoop.js"
import { CODE_EXECUTION_LIMITS, CodeExecution, SCRIPT_TOOLS } from "../../services/CodeExecution.js"
import { ToolContext } from "../../services/ToolContext.js"
import { ToolRegistry } from "../../services/ToolRegistry.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { scriptToolsDescription } from "./description.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const ExecuteCodeParameters = Schema.Struct({
  code: Schema.String.annotations({
    description: "Python code to run. Import what you need from hermes_tools and print the final result to stdout."
  })
})

export type ExecuteCodeArgs = typeof ExecuteCodeParameters.Type

/** Time the registry allows beyond the script's own timeout: writing the files, reading stderr, cleanup. */
const DISPATCH_GRACE_SECONDS = 30

/** The script tools this runtime has and can run now, in Hermes' order. */
const scriptTools = Effect.flatMap(ToolRegistry, (registry) =>
  Effect.filter(SCRIPT_TOOLS, (name) => registry.get(name) === undefined ? Effect.succeed(false) : registry.isAvailable(name)))

export const executeCodeTool = defineTool<ExecuteCodeArgs, typeof ExecuteCodeParameters.Encoded, CodeExecution | ToolRegistry>({
  name: "execute_code",
  toolset: "code_execution",
  emoji: "🐍",
  maxResultChars: 100_000,
  description: scriptToolsDescription(SCRIPT_TOOLS),
  parameters: ExecuteCodeParameters,
  timeout: Duration.seconds(CODE_EXECUTION_LIMITS.timeoutSeconds + DISPATCH_GRACE_SECONDS),
  dynamicSchema: Effect.map(scriptTools, (tools) => ({ description: scriptToolsDescription(tools) })),
  handler: observedFn("execute_code")(function*(args) {
    if (args.code.trim().length === 0) return { error: "No code provided." }
    const context = yield* ToolContext
    // Only tools this run offers the model: a run without `terminal` (toolsets the operator chose) gets none from a script.
    const run = yield* FiberRef.get(CurrentAgentRun)
    const allowed = (yield* scriptTools).filter((tool) => run === undefined || run.tools.includes(tool))
    const runner = yield* CodeExecution
    return { ...(yield* runner.run({ code: args.code, context, allowed })) }
  })
})
