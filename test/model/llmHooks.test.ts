/** `pre_llm_call` / `post_llm_call`: context joining, failure semantics, and plugins registering them. */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel, Ref } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer } from "../../src/layers/HermesRuntime.js"
import { makeHooks } from "../../src/layers/HooksLive.js"
import { Hooks } from "../../src/services/Hooks.js"
import type { PostLlmCallEvent, PreLlmCallEvent } from "../../src/services/Hooks.js"
import { Plugins } from "../../src/services/Plugins.js"
import { tempHome } from "../support/runtime.js"

const pre: PreLlmCallEvent = {
  userMessage: "fix the build",
  messages: [{ role: "system", content: "sys" }],
  isFirstTurn: true,
  model: "m",
  turnId: "turn-1",
  context: { taskId: "t", sessionId: "s" }
}

const post: PostLlmCallEvent = {
  userMessage: "fix the build",
  assistantResponse: "fixed",
  messages: [{ role: "user", content: "fix the build" }, { role: "assistant", content: "fixed" }],
  model: "m",
  context: { taskId: "t", sessionId: "s" }
}

/** Capture warnings logged while running `self`. */
const withLogs = <A, E>(self: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make(({ message }) => void lines.push(String(Array.isArray(message) ? message.join(" ") : message)))
    const value = yield* self.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)), Logger.withMinimumLogLevel(LogLevel.Debug))
    return [value, lines] as const
  })

describe("LLM hooks", () => {
  it.effect("pre_llm_call joins every string and {context} in registration order; other returns add nothing", () =>
    Effect.gen(function*() {
      const hooks = makeHooks()
      expect(hooks.has("pre_llm_call")).toBe(false)
      expect(yield* hooks.preLlmCall(pre)).toBeUndefined()
      const seen = yield* Ref.make<ReadonlyArray<string>>([])
      yield* hooks.register("memory", { pre_llm_call: (e) => Effect.as(Ref.update(seen, (s) => [...s, e.userMessage]), "Recalled: the user prefers pnpm.") })
      yield* hooks.register("weather", { pre_llm_call: () => Effect.succeed({ context: "It is raining." }) })
      yield* hooks.register("noise", { pre_llm_call: () => Effect.succeed({ other: 1 } as never) })
      const remove = yield* hooks.register("blank", { pre_llm_call: () => Effect.succeed("   ") })
      expect(hooks.has("pre_llm_call")).toBe(true)
      expect(yield* hooks.preLlmCall(pre)).toBe("Recalled: the user prefers pnpm.\n\nIt is raining.")
      expect(yield* Ref.get(seen)).toEqual(["fix the build"])
      yield* remove
      expect(yield* hooks.preLlmCall(pre)).toBe("Recalled: the user prefers pnpm.\n\nIt is raining.")
    }))

  it.effect("a failing pre_llm_call hook loses only its own context and is logged", () =>
    Effect.gen(function*() {
      const hooks = makeHooks()
      yield* hooks.register("broken", { pre_llm_call: () => Effect.fail(new Error("vector store down")) })
      yield* hooks.register("dies", { pre_llm_call: () => Effect.die("bug") })
      yield* hooks.register("fine", { pre_llm_call: () => Effect.succeed("still here") })
      const [context, logs] = yield* withLogs(hooks.preLlmCall(pre))
      expect(context).toBe("still here")
      expect(logs).toContain("pre_llm_call hook of 'broken' failed; its context was skipped: vector store down")
      expect(logs.some((l) => l.startsWith("pre_llm_call hook of 'dies' failed"))).toBe(true)
    }))

  it.effect("post_llm_call observers all run; a failure is logged and ignored", () =>
    Effect.gen(function*() {
      const hooks = makeHooks()
      const seen = yield* Ref.make<ReadonlyArray<string>>([])
      yield* hooks.register("a", { post_llm_call: () => Effect.fail("nope") })
      yield* hooks.register("b", { post_llm_call: (e) => Ref.update(seen, (s) => [...s, `${e.assistantResponse} (${e.messages.length})`]) })
      const [, logs] = yield* withLogs(hooks.postLlmCall(post))
      expect(yield* Ref.get(seen)).toEqual(["fixed (2)"])
      expect(logs).toContain("post_llm_call hook of 'a' failed: nope")
    }))

  it.effect("plugins register pre_llm_call / post_llm_call like the tool hooks, with plain or async returns", () => {
    const home = tempHome("hermes-llm-hooks-")
    const dir = join(home, "plugins", "recall")
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, "index.mjs"), `
      export function register(ctx) {
        ctx.registerHook("pre_llm_call", async (e) => ({ context: "remembered for " + e.context.sessionId }))
        ctx.registerHook("post_llm_call", (e) => { globalThis.__recallSeen = e.assistantResponse })
      }`)
    const runtime = layer({
      builtins: false,
      config: ConfigTest({ plugins: { enabled: ["recall"] } }, { root: home, pluginsDir: join(home, "plugins"), workspaceDir: join(home, "ws") })
    })
    return Effect.gen(function*() {
      const status = yield* (yield* Plugins).status
      expect(status.find((p) => p.name === "recall")).toMatchObject({ state: "loaded", hooks: ["pre_llm_call", "post_llm_call"] })
      const hooks = yield* Hooks
      expect(yield* hooks.preLlmCall(pre)).toBe("remembered for s")
      yield* hooks.postLlmCall(post)
      expect((globalThis as Record<string, unknown>)["__recallSeen"]).toBe("fixed")
    }).pipe(Effect.provide(runtime))
  })
})
