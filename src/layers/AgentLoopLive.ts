/**
 * The AgentLoop on the runtime's services: the model, the tool catalogue and
 * its executor (batch dispatch), the session store, hooks, and
 * background-process news. Memory and skills feed the system prompt when
 * those services are present. See
 * `src/layers/agent/turnLoop.ts` for the loop itself.
 */
import { Effect, Layer } from "effect"
import { AgentLoop } from "../services/AgentLoop.js"
import { Config } from "../services/Config.js"
import { Hooks } from "../services/Hooks.js"
import { Model } from "../services/Model.js"
import { Processes } from "../services/Processes.js"
import { SessionStore } from "../services/SessionStore.js"
import { ToolExecutor } from "../services/ToolExecutor.js"
import { ToolRegistry } from "../services/ToolRegistry.js"
import { makeCallWatch } from "./agent/callWatch.js"
import { makeWindows } from "./agent/journal.js"
import { makeMailbox } from "./agent/notifications.js"
import { buildSystemPrompt, promptServices } from "./agent/systemPrompt.js"
import { runAgent } from "./agent/turnLoop.js"
import type { LoopDeps } from "./agent/turnLoop.js"
import { observedFn } from "../lib/effect/observedFn.js"

export const AgentLoopLive: Layer.Layer<AgentLoop, never, Model | ToolRegistry | ToolExecutor | SessionStore | Hooks | Processes | Config> = Layer.scoped(
  AgentLoop,
  Effect.gen(function*() {
    const hooks = yield* Hooks
    const scope = yield* Effect.scope
    const services = yield* promptServices
    const deps: LoopDeps = {
      model: yield* Model,
      registry: yield* ToolRegistry,
      executor: yield* ToolExecutor,
      store: yield* SessionStore,
      hooks,
      config: yield* Config,
      mailbox: makeMailbox(yield* Processes),
      calls: yield* makeCallWatch(hooks, scope),
      windows: yield* makeWindows(scope),
      systemPrompt: (input) => buildSystemPrompt(input, services)
    }
    return AgentLoop.of({
      run: observedFn("AgentLoop.run")(function*(request) {
        return yield* runAgent(deps, request)
      })
    })
  })
)
