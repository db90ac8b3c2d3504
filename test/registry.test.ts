import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, Ref, Schema, TestClock } from "effect"
import { registerTool, provideTool } from "../src/lib/tool/registerTool.js"
import { ToolRegistry } from "../src/services/ToolRegistry.js"
import { ToolExecutor } from "../src/services/ToolExecutor.js"
import { defineTool } from "../src/lib/tool/defineTool.js"
import type { FunctionSchema } from "../src/services/Tool.js"
import type { ToolFailure } from "../src/services/ToolError.js"
import { echoTool, sleepTool } from "./support/tools.js"
import { testRuntime } from "./support/runtime.js"

interface SimpleExtras {
  readonly check?: Effect.Effect<boolean, unknown>
  readonly requiresEnv?: ReadonlyArray<string>
  readonly dynamicSchema?: Effect.Effect<Partial<FunctionSchema>, unknown>
  readonly handler?: () => Effect.Effect<string, ToolFailure>
}

const simple = (name: string, toolset: string, extra: SimpleExtras = {}) =>
  defineTool({
    name,
    toolset,
    description: `${name} tool.`,
    parameters: Schema.Struct({}),
    handler: extra.handler ?? (() => Effect.succeed(`${name} from ${toolset}`)),
    ...(extra.check === undefined ? {} : { check: extra.check }),
    ...(extra.requiresEnv === undefined ? {} : { requiresEnv: extra.requiresEnv }),
    ...(extra.dynamicSchema === undefined ? {} : { dynamicSchema: extra.dynamicSchema })
  })

describe("registration rules", () => {
  it.effect("same toolset overwrites; another toolset is refused unless override", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const g0 = registry.generation()
      yield* registerTool(simple("alpha", "one"))
      yield* registerTool({ ...simple("alpha", "one"), description: "replaced" })
      expect(registry.get("alpha")?.description).toBe("replaced")
      const refused = yield* Effect.either(registerTool(simple("alpha", "two")))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("ToolShadowed")
      expect(registry.get("alpha")?.toolset).toBe("one")
      yield* registerTool({ ...simple("alpha", "two"), override: true })
      expect(registry.get("alpha")?.toolset).toBe("two")
      expect(registry.generation()).toBe(g0 + 3)
    }).pipe(Effect.provide(testRuntime())))

  it.effect("MCP toolsets may replace each other", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registerTool(simple("mcp__a__x", "mcp-a"))
      yield* registerTool(simple("mcp__a__x", "mcp-b"))
      expect(registry.get("mcp__a__x")?.toolset).toBe("mcp-b")
    }).pipe(Effect.provide(testRuntime())))

  it.effect("a plugin needs allow_tool_override to replace or remove a built-in", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const plugin = { kind: "plugin", plugin: "sneaky" } as const
      const sameToolset = yield* Effect.either(
        registerTool({ ...simple("todo", "todo"), source: plugin })
      )
      expect(Either.isLeft(sameToolset) && sameToolset.left._tag).toBe("ToolOverrideDenied")
      const removal = yield* Effect.either(registry.deregister("todo", plugin))
      expect(Either.isLeft(removal) && removal.left._tag).toBe("ToolOverrideDenied")
      expect(registry.get("todo")?.source.kind).toBe("builtin")
    }).pipe(Effect.provide(testRuntime())))

  it.effect("an operator opt-in lets the plugin override", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registerTool({ ...simple("todo", "todo"), source: { kind: "plugin", plugin: "trusted" }, override: true })
      expect(registry.get("todo")?.source).toEqual({ kind: "plugin", plugin: "trusted" })
    }).pipe(Effect.provide(testRuntime({ plugins: { entries: { trusted: { allow_tool_override: true } } } }))))

  it.effect("deregistering the last tool of a toolset drops its aliases", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registerTool(simple("mcp__gh__issues", "mcp-gh"))
      yield* registry.registerAlias("gh", "mcp-gh")
      expect((yield* registry.resolve({ enabled: ["gh"] })).tools).toEqual(["mcp__gh__issues"])
      expect(yield* registry.deregister("mcp__gh__issues")).toBe(true)
      expect((yield* registry.resolve({ enabled: ["gh"] })).unknown).toEqual(["gh"])
      expect(yield* registry.deregister("mcp__gh__issues")).toBe(false)
    }).pipe(Effect.provide(testRuntime())))
})

describe("availability", () => {
  it.effect("checks are cached 30 s, flakes within 60 s of success are ignored, then tools disappear", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const executor = yield* ToolExecutor
      const healthy = yield* Ref.make(true)
      const probes = yield* Ref.make(0)
      const check = Effect.zipRight(Ref.update(probes, (n) => n + 1), Ref.get(healthy))
      yield* registerTool(simple("probe_me", "probed", { check }))
      const names = Effect.map(registry.definitions({ enabled: ["probed"] }), (d) => d.map((x) => x.function.name))

      expect(yield* names).toEqual(["probe_me"])
      yield* Ref.set(healthy, false)
      expect(yield* names).toEqual(["probe_me"]) // cached
      expect(yield* Ref.get(probes)).toBe(1)

      yield* TestClock.adjust("31 seconds")
      expect(yield* names).toEqual(["probe_me"]) // a flake: failed 31 s after the last success
      expect(yield* Ref.get(probes)).toBe(2)
      expect(yield* names).toEqual(["probe_me"]) // flakes are not cached: probed again
      expect(yield* Ref.get(probes)).toBe(3)

      yield* TestClock.adjust("30 seconds")
      expect(yield* names).toEqual([]) // 61 s since the last success: unavailable, and cached
      const blocked = JSON.parse(yield* executor.dispatch({ tool: "probe_me", args: {} })) as { error: string }
      expect(blocked.error).toBe("Tool 'probe_me' is not available right now: its availability check failed")
      expect(yield* Ref.get(probes)).toBe(4)
    }).pipe(Effect.provide(testRuntime())))

  it.effect("tools sharing one check are probed once, and answer together", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const healthy = yield* Ref.make(true)
      const probes = yield* Ref.make(0)
      const check = Effect.zipRight(Ref.update(probes, (n) => n + 1), Ref.get(healthy))
      yield* Effect.all([registerTool(simple("shared_a", "shared", { check })), registerTool(simple("shared_b", "shared", { check }))])
      yield* registerTool(simple("own_check", "shared", { check: Effect.zipRight(Ref.update(probes, (n) => n + 1), Effect.succeed(true)) }))
      const names = Effect.map(registry.definitions({ enabled: ["shared"] }), (d) => d.map((x) => x.function.name))
      expect(yield* names).toEqual(["own_check", "shared_a", "shared_b"])
      expect(yield* Ref.get(probes)).toBe(2)
      yield* Ref.set(healthy, false)
      yield* TestClock.adjust("61 seconds")
      expect(yield* names).toEqual(["own_check"])
      expect(yield* Ref.get(probes)).toBe(4)
    }).pipe(Effect.provide(testRuntime())))

  it.effect("a check that dies or hangs counts as unavailable without stalling the listing", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registerTool(simple("dies_in_check", "bad", { check: Effect.die("boom") }))
      yield* registerTool(simple("hangs_in_check", "bad", { check: Effect.never }))
      yield* registerTool(simple("fine", "bad", { check: Effect.succeed(true) }))
      const fiber = yield* Effect.fork(registry.definitions({ enabled: ["bad"] }))
      yield* TestClock.adjust("5 seconds")
      const defs = yield* Fiber.join(fiber)
      expect(defs.map((d) => d.function.name)).toEqual(["fine"])
    }).pipe(Effect.provide(testRuntime())))

  it.effect("requiresEnv gates the tool", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registerTool(simple("needs_key", "keyed", { requiresEnv: ["HERMES_EFFECT_TEST_KEY_THAT_IS_UNSET"] }))
      expect(yield* registry.isAvailable("needs_key")).toBe(false)
    }).pipe(Effect.provide(testRuntime())))
})

describe("definitions", () => {
  it.effect("OpenAI format, sorted, schema derived from the Schema, dynamic overrides merged", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registerTool(echoTool)
      yield* registerTool(simple("zeta", "testing", { dynamicSchema: Effect.succeed({ description: "live description" }) }))
      yield* registerTool(simple("broken_dynamic", "testing", { dynamicSchema: Effect.fail("nope") }))
      const defs = yield* registry.definitions({ enabled: ["testing"] })
      expect(defs.map((d) => d.function.name)).toEqual(["broken_dynamic", "echo", "zeta"])
      expect(defs[1]).toEqual({
        type: "function",
        function: {
          name: "echo",
          description: "Echo the arguments back.",
          parameters: {
            type: "object",
            required: ["text"],
            properties: {
              text: { type: "string" },
              // The sanitising pass drops effect's `title: "int"` and flattens the nullable union.
              count: { type: "integer", description: "an integer" },
              loud: { type: "boolean" },
              tags: { type: "array", items: { type: "string" } },
              limit: { type: "number" }
            }
          }
        }
      })
      expect(defs[2]?.function.description).toBe("live description")
      expect(defs[0]?.function.description).toBe("broken_dynamic tool.")
      // memoized: same array back while nothing changed
      expect(yield* registry.definitions({ enabled: ["testing"] })).toBe(defs)
      yield* registerTool(simple("omega", "testing"))
      expect((yield* registry.definitions({ enabled: ["testing"] })).length).toBe(4)
    }).pipe(Effect.provide(testRuntime())))

  it.effect("disabled toolsets are subtracted last and config selects defaults", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registerTool(echoTool)
      const names = (yield* registry.definitions()).map((d) => d.function.name)
      expect(names).toEqual(["echo"])
      const none = yield* registry.definitions({ enabled: ["testing", "todo"], disabled: ["testing"] })
      expect(none.map((d) => d.function.name)).toEqual(["todo"])
    }).pipe(Effect.provide(testRuntime({ toolsets: ["testing"] }))))
})

describe("runtime options", () => {
  it.effect("toolsets picks the default selection over config", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registerTool(echoTool)
      expect((yield* registry.definitions()).map((d) => d.function.name)).toEqual(["todo"])
      expect((yield* registry.definitions({ enabled: ["testing"] })).map((d) => d.function.name)).toEqual(["echo"])
    }).pipe(Effect.provide(testRuntime({ toolsets: ["testing"] }, { toolsets: { enabled: ["todo"] } }))))
})

describe("batch dispatch", () => {
  it.effect("parallel-safe calls run together, barriers alone, results in the model's order", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const running = yield* Ref.make(0)
      const peak = yield* Ref.make(0)
      const order = yield* Ref.make<ReadonlyArray<string>>([])
      const tracked = (name: string, parallel: "safe" | "sequential") =>
        defineTool({
          name,
          toolset: "tracked",
          description: name,
          parallel,
          parameters: Schema.Struct({ label: Schema.String }),
          handler: (args) =>
            Effect.gen(function*() {
              const now = yield* Ref.updateAndGet(running, (n) => n + 1)
              yield* Ref.update(peak, (p) => Math.max(p, now))
              yield* Effect.sleep("10 millis")
              yield* Ref.update(order, (o) => [...o, args.label])
              yield* Ref.update(running, (n) => n - 1)
              return args.label
            })
        })
      yield* registerTool(tracked("look", "safe"))
      yield* registerTool(tracked("act", "sequential"))
      const calls = [
        { tool: "look", args: { label: "a" } },
        { tool: "look", args: { label: "b" } },
        { tool: "look", args: { label: "c" } },
        { tool: "act", args: { label: "d" } },
        { tool: "look", args: { label: "e" } }
      ]
      const fiber = yield* Effect.fork(executor.executeBatch(calls))
      yield* TestClock.adjust("1 second")
      const outcomes = yield* Fiber.join(fiber)
      expect(outcomes.map((o) => o.result)).toEqual(["a", "b", "c", "d", "e"])
      expect(yield* Ref.get(peak)).toBe(3)
      expect((yield* Ref.get(order)).slice(3)).toEqual(["d", "e"])
    }).pipe(Effect.provide(testRuntime())))

  it.live("on the live clock too: a batch cut short has its running calls interrupted before it answers", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const released = yield* Ref.make(false)
      yield* registerTool(defineTool({
        name: "holds",
        toolset: "testing",
        description: "Holds a resource until interrupted.",
        parameters: Schema.Struct({}),
        handler: () => Effect.as(Effect.ensuring(Effect.never, Ref.set(released, true)), "never")
      }))
      yield* registerTool(echoTool)
      const started = Date.now()
      const outcomes = yield* executor.executeBatch([{ tool: "echo", args: { text: "first" } }, { tool: "holds", args: {} }])
      expect(outcomes.map((o) => o.status)).toEqual(["ok", "error"])
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(yield* Ref.get(released)).toBe(true)
      // A batch that finishes at once is not held up by its timer.
      expect((yield* executor.executeBatch([{ tool: "echo", args: { text: "quick" } }])).map((o) => o.status)).toEqual(["ok"])
    }).pipe(Effect.provide(testRuntime({ tools: { batch_timeout_seconds: 0.2, call_timeout_seconds: 60 } }))))

  it.effect("the batch timeout answers unfinished calls with a timeout error, in order", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      yield* registerTool(sleepTool)
      yield* registerTool(echoTool)
      const fiber = yield* Effect.fork(executor.executeBatch([
        { tool: "echo", args: { text: "first" } },
        { tool: "sleep", args: { ms: 60_000 } },
        { tool: "echo", args: { text: "never reached" } }
      ]))
      yield* TestClock.adjust("31 seconds")
      const outcomes = yield* Fiber.join(fiber)
      expect(outcomes.map((o) => o.status)).toEqual(["ok", "error", "error"])
      expect(JSON.parse(outcomes[2]!.result)).toEqual({ error: "Error executing tool 'echo': timed out after 30s" })
    }).pipe(Effect.provide(testRuntime({ tools: { batch_timeout_seconds: 30 } }))))

  it.effect("interrupting the batch interrupts every running call", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Ref.make(0)
      yield* registerTool(defineTool({
        name: "wait_forever",
        toolset: "tracked",
        description: "waits",
        parallel: "safe",
        parameters: Schema.Struct({ n: Schema.Number }),
        handler: (args) =>
          Effect.zipRight(
            args.n === 1 ? Deferred.succeed(started, undefined) : Effect.void,
            Effect.never.pipe(Effect.onInterrupt(() => Ref.update(interrupted, (k) => k + 1)))
          )
      }))
      const fiber = yield* Effect.fork(executor.executeBatch([1, 2, 3].map((n) => ({ tool: "wait_forever", args: { n } }))))
      yield* Deferred.await(started)
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(fiber)
      expect(yield* Ref.get(interrupted)).toBe(3)
    }).pipe(Effect.provide(testRuntime())))

  it.effect("a handler interrupted from inside reports ToolInterrupted", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      yield* registerTool(simple("self_cancel", "tracked", { handler: () => Effect.interrupt }))
      const outcome = yield* executor.execute({ tool: "self_cancel", args: {} })
      expect(outcome.error?._tag).toBe("ToolInterrupted")
    }).pipe(Effect.provide(testRuntime())))
})

describe("provideTool", () => {
  it.effect("captures the services of the registering layer", () =>
    Effect.gen(function*() {
      const stored = yield* provideTool(echoTool)
      expect(stored.name).toBe("echo")
      expect(stored.decode({ text: "x" })._tag).toBe("Right")
    }))
})
