/**
 * The live ToolExecutor: runs calls against the ToolRegistry's catalogue,
 * tuned from config `tools:` (timeouts, result cap, max_parallel). One call
 * walks forward through `executeCall`; a batch is planned into sequential and
 * parallel segments first and bounded by the batch timeout.
 */
import { realpathSync } from "node:fs"
import { isAbsolute, resolve as resolvePath } from "node:path"
import { Effect, Exit, Layer } from "effect"
import { expandHome } from "../../lib/text.js"
import { Config } from "../../services/Config.js"
import type { HermesConfig } from "../../services/Config.js"
import { Hooks } from "../../services/Hooks.js"
import { ResultStore } from "../../services/ResultStore.js"
import { DEFAULT_TASK_ID } from "../../services/ToolContext.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { ToolTimeout } from "../../services/ToolError.js"
import { ToolExecutor } from "../../services/ToolExecutor.js"
import type { CallOutcome, DispatchOptions, ToolCall, ToolExecutorService } from "../../services/ToolExecutor.js"
import { ToolGate } from "../../services/ToolGate.js"
import { ToolRegistry } from "../../services/ToolRegistry.js"
import { executeCall, isSuccessExit } from "./executeCall.js"
import type { CallServices } from "./executeCall.js"
import { BRIDGE_TOOL_NAMES, toolSearchConfig } from "../../lib/toolSearch/index.js"
import { bridgeCall } from "./bridge.js"
import { planBatch } from "./planBatch.js"
import { runWithin } from "../../lib/effect/runWithin.js"
import { errorJson } from "./sanitizeErrorMessage.js"
import { tuningOf } from "./tuning.js"
import type { Tuning } from "./tuning.js"
import { enforceTurnBudget } from "./turnBudget.js"
import { observedSpan } from "../../lib/effect/observedFn.js"

/** realpath when the path exists, else the lexical absolute path (the planner only compares). */
const canonicalPath = (cwd: string) => (p: string): string => {
  // $HOME rather than os.homedir() (which falls back to the passwd entry), as before.
  const abs = resolvePath(cwd, expandHome(p, process.env["HOME"] ?? ""))
  try {
    return realpathSync(abs)
  } catch {
    return isAbsolute(abs) ? abs : resolvePath(abs)
  }
}

const contextFor = (call: ToolCall, options: DispatchOptions | undefined): ToolCallContext => {
  const base = options?.context
  const toolCallId = call.toolCallId ?? base?.toolCallId
  // Only the keys that have a value, in this order (assigned, not spread: this runs on every call).
  const context: { -readonly [K in keyof ToolCallContext]: ToolCallContext[K] } = { taskId: base?.taskId ?? DEFAULT_TASK_ID }
  if (base?.sessionId !== undefined) context.sessionId = base.sessionId
  if (toolCallId !== undefined) context.toolCallId = toolCallId
  if (base?.cwd !== undefined) context.cwd = base.cwd
  return context
}

export const ToolExecutorLive = Layer.effect(
  ToolExecutor,
  Effect.gen(function*() {
    const config = yield* Config
    const services: CallServices = {
      registry: yield* ToolRegistry,
      hooks: yield* Hooks,
      gate: yield* ToolGate,
      results: yield* ResultStore
    }
    // Tuning is derived once per config value (a reload yields a new one).
    let lastConfig: HermesConfig | undefined
    let lastTuning: Tuning | undefined
    const tuningFor = (c: HermesConfig): Tuning => {
      if (c !== lastConfig || lastTuning === undefined) {
        lastTuning = tuningOf(c)
        lastConfig = c
      }
      return lastTuning
    }
    const tuning = Effect.map(config.current, tuningFor)

    /** The call under config `c`, run up to where it must wait (see executeCall): often already a finished Exit. */
    const executeUnder = (c: HermesConfig, call: ToolCall, options: DispatchOptions | undefined): Effect.Effect<CallOutcome> =>
      (BRIDGE_TOOL_NAMES.has(call.tool)
        ? bridgeCall(services.registry, toolSearchConfig(c.tools.tool_search), call, options?.allowed, (inner) => execute(inner, options))
        : undefined) ??
        executeCall(services, tuningFor(c), call, contextFor(call, options), options?.allowed)

    // No span per call: creating one costs about as much as the whole dispatch; batches get one.
    const execute: ToolExecutorService["execute"] = (call, options) => Effect.flatMap(config.current, (c) => executeUnder(c, call, options))

    const executeBatch: ToolExecutorService["executeBatch"] = (calls, options) =>
      Effect.gen(function*() {
        const limits = yield* tuning
        const outcomes: Array<CallOutcome | undefined> = calls.map(() => undefined)
        const runOne = (i: number) =>
          Effect.map(execute(calls[i]!, options), (outcome) => {
            outcomes[i] = outcome
          })
        const plan = () =>
          planBatch(calls, {
            policyOf: (name) => services.registry.get(name),
            resolvePath: canonicalPath(options?.context?.cwd ?? process.cwd())
          })
        // One call (most turns): nothing to plan (its path is not resolved either), and no loops to set up around it.
        const all = calls.length === 1 ? runOne(0) : Effect.forEach(
          plan(),
          (segment) =>
            segment.parallel
              ? Effect.forEach(segment.indices, runOne, {
                concurrency: Math.min(segment.indices.length, limits.maxParallel),
                discard: true
              })
              : Effect.forEach(segment.indices, runOne, { discard: true }),
          { discard: true }
        )
        // A batch whose calls all finish synchronously never arms the timer (see runWithin).
        if (limits.batchTimeoutMs > 0) {
          const exit = yield* runWithin(all, limits.batchTimeoutMs)
          // Calls never fail (errors are folded into outcomes): a failure here is a defect, and dies as it did.
          if (exit !== undefined && Exit.isFailure(exit)) return yield* Effect.failCause(exit.cause)
        } else yield* all
        // Calls the batch timeout cut short still answer, in order, with a timeout error.
        const answered = outcomes.map((outcome, i): CallOutcome => {
          if (outcome !== undefined) return outcome
          const call = calls[i]!
          const error = new ToolTimeout({ tool: call.tool, seconds: limits.batchTimeoutMs / 1000 })
          return {
            tool: call.tool,
            toolCallId: call.toolCallId,
            result: errorJson(error.message, limits.jsonStyle),
            status: "error",
            error,
            durationMs: limits.batchTimeoutMs
          }
        })
        return yield* enforceTurnBudget(services.results, answered, limits.turnBudgetChars, options?.context?.taskId ?? DEFAULT_TASK_ID)
      }).pipe(observedSpan("ToolExecutor.executeBatch", { attributes: { calls: calls.length } }))

    return ToolExecutor.of({
      execute,
      // A call that finished synchronously answers without another run-loop step.
      dispatch: (call, options) =>
        Effect.flatMap(config.current, (c) => {
          const outcome = executeUnder(c, call, options)
          return isSuccessExit(outcome) ? Effect.succeed(outcome.value.result) : Effect.map(outcome, (o) => o.result)
        }),
      executeBatch
    })
  })
)
