/** Runtimes and small tools for the agent-loop tests: a scripted model, real SQLite, real tools. */
import { Deferred, Effect, FiberId, Layer, Schema } from "effect"
import { ModelScripted } from "../../src/layers/model/scripted.js"
import type { ScriptTurnInput } from "../../src/layers/model/script.js"
import { registerTool } from "../../src/lib/tool/registerTool.js"
import type { RuntimeOptions } from "../../src/layers/HermesRuntime.js"
import { AgentLoop } from "../../src/services/AgentLoop.js"
import type { AgentEvent, AgentRequest } from "../../src/services/AgentLoop.js"
import type { HermesConfigInput } from "../../src/services/Config.js"
import type { ModelRequest } from "../../src/services/Model.js"
import { Processes } from "../../src/services/Processes.js"
import { ToolContext } from "../../src/services/ToolContext.js"
import type { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { defineTool } from "../../src/lib/tool/defineTool.js"
import { echoTool, failingTool } from "../support/tools.js"
import { testRuntime } from "../support/runtime.js"

export interface ScriptedAgent {
  /** Every request the model saw, in order. */
  readonly requests: Array<ModelRequest>
  readonly layer: ReturnType<typeof testRuntime>
}

/** A test runtime whose model replays `turns`, with the echo/fails test tools plus `extra` registered. */
export const scriptedAgent = (
  turns: ReadonlyArray<ScriptTurnInput | string>,
  config: HermesConfigInput = {},
  options: Omit<RuntimeOptions, "config" | "model"> = {},
  extra: ReadonlyArray<Layer.Layer<never, never, ToolRegistry>> = []
): ScriptedAgent => {
  const requests: Array<ModelRequest> = []
  const base = testRuntime(config, { mcp: false, ...options, model: ModelScripted({ turns, name: "agent-test" }, { onRequest: (r) => requests.push(r) }) })
  const tools = Layer.effectDiscard(Effect.orDie(Effect.all([registerTool(echoTool), registerTool(failingTool), registerTool(settleTool)], { discard: true })))
  const layer = Layer.mergeAll(tools, ...extra).pipe(Layer.provideMerge(base))
  return { requests, layer }
}

/** Run the agent, collecting its events. */
export const runAgent = (request: AgentRequest) =>
  Effect.gen(function*() {
    const agent = yield* AgentLoop
    const events: Array<AgentEvent> = []
    const result = yield* agent.run({ ...request, onEvent: (e) => Effect.sync(() => void events.push(e)) })
    return { result, events }
  })

/**
 * `rendezvous`: a parallel-safe tool that returns only once `size` calls are
 * inside it at the same time, so a test that gets its results proves the
 * calls ran concurrently (run one by one, they would wait forever).
 */
export const rendezvousTool = (size: number) => {
  const state = { inside: 0, most: 0 }
  const everyone = Deferred.unsafeMake<void>(FiberId.none)
  const tool = defineTool({
    name: "rendezvous",
    toolset: "testing",
    description: "Wait until the others arrive.",
    parameters: Schema.Struct({ who: Schema.String }),
    parallel: "safe",
    handler: ({ who }) =>
      Effect.gen(function*() {
        state.inside++
        state.most = Math.max(state.most, state.inside)
        if (state.inside >= size) yield* Deferred.succeed(everyone, undefined)
        yield* Deferred.await(everyone)
        state.inside--
        return `${who} met ${size - 1} others`
      })
  })
  return { state, layer: Layer.effectDiscard(Effect.orDie(registerTool(tool))) }
}

/** `settle`: waits (without `process wait`, which would swallow the notification) until this session's processes have exited. */
export const settleTool = defineTool({
  name: "settle",
  toolset: "testing",
  description: "Wait for background processes to end.",
  parameters: Schema.Struct({}),
  handler: () =>
    Effect.gen(function*() {
      const processes = yield* Processes
      const ctx = yield* ToolContext
      const running = Effect.map(processes.list({ sessionId: ctx.sessionId ?? ctx.taskId }), (ps) => ps.filter((p) => p.status === "running").length)
      while ((yield* running) > 0) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      return "settled"
    })
})

export const json = (text: string | null): Record<string, unknown> => JSON.parse(text ?? "null") as Record<string, unknown>
