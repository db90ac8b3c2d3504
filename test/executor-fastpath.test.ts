/**
 * The pieces that keep dispatch cheap: the handler's Context laid over the
 * tool's services (reads, copies and Context operations see the merged view),
 * per-tool coercion plans (same answers as walking the schema), and handlers
 * returning a finished effect or suspending still folding, timing out and
 * failing the usual way.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Data, Effect, Either, Exit, Fiber, Schema, TestClock } from "effect"
import { coerceArgs, coercionPlanOf } from "../src/layers/executor/coerceArgs.js"
import { OverlayMap } from "../src/layers/executor/overlayMap.js"
import { defineTool } from "../src/lib/tool/defineTool.js"
import { registerTool } from "../src/lib/tool/registerTool.js"
import { ToolContext } from "../src/services/ToolContext.js"
import { ToolExecutor } from "../src/services/ToolExecutor.js"
import { ToolRegistry } from "../src/services/ToolRegistry.js"
import type { CallCancellation, RegisteredTool } from "../src/services/ToolRegistry.js"
import { testRuntime } from "./support/runtime.js"

class Base extends Context.Tag("test/Base")<Base, string>() {}
class Extra extends Context.Tag("test/Extra")<Extra, number>() {}

describe("OverlayMap", () => {
  it("reads fall through to the base; own entries win; iteration, size and copies see both once", () => {
    const base = new Map<string, unknown>([["a", 1], ["b", 2]])
    const map = new OverlayMap(base)
    map.set("b", 20)
    map.set("c", 3)
    expect([map.get("a"), map.get("b"), map.get("c"), map.get("d")]).toEqual([1, 20, 3, undefined])
    expect([map.has("a"), map.has("c"), map.has("d")]).toEqual([true, true, false])
    expect(map.size).toBe(3)
    expect([...map]).toEqual([["a", 1], ["b", 20], ["c", 3]])
    expect([...map.keys()]).toEqual(["a", "b", "c"])
    expect([...map.values()]).toEqual([1, 20, 3])
    expect(Object.fromEntries(new Map(map))).toEqual({ a: 1, b: 20, c: 3 })
    const seen: Array<string> = []
    map.forEach((v, k) => seen.push(`${k}=${String(v)}`))
    expect(seen).toEqual(["a=1", "b=20", "c=3"])
    // Deleting a base entry never touches the shared base.
    expect(map.delete("a")).toBe(true)
    expect([map.has("a"), base.has("a"), map.size]).toEqual([false, true, 2])
  })

  it("works as a Context: lookups, add and merge", () => {
    const base = Context.make(Base, "base")
    const map = new OverlayMap(base.unsafeMap)
    map.set(Extra.key, 7)
    const context = Context.unsafeMake<Base | Extra>(map)
    expect(Context.get(context, Base)).toBe("base")
    expect(Context.get(context, Extra)).toBe(7)
    const added = Context.add(context, ToolContext, { taskId: "t" })
    expect(Context.get(added, Base)).toBe("base")
    expect(Context.get(added, Extra)).toBe(7)
    expect(Context.get(Context.merge(Context.empty(), context), Extra)).toBe(7)
  })
})

describe("coercion plans", () => {
  const schema = {
    type: "object",
    properties: {
      n: { type: "integer" },
      flag: { type: "boolean" },
      tags: { type: "array", items: { type: "string" } },
      maybe: { type: ["number", "null"] },
      nested: { type: "object", properties: { list: { type: "array", items: { type: "integer" } } } },
      text: { type: "string" }
    }
  }
  it("compiles once per schema and coerces as the schema says", () => {
    expect(coercionPlanOf(schema)).toBe(coercionPlanOf(schema))
    expect(coerceArgs(schema, { n: "42", flag: "TRUE", tags: "solo", maybe: "null", nested: { list: "[1,2]" }, text: "7", other: "1" }))
      .toEqual({ n: 42, flag: true, tags: ["solo"], maybe: null, nested: { list: [1, 2] }, text: "7", other: "1" })
    const untouched = { n: 1, text: "x" }
    expect(coerceArgs(schema, untouched)).toBe(untouched)
    expect(coerceArgs({ type: "object" }, untouched)).toBe(untouched)
  })
})

const tool = (name: string, handler: (args: { readonly n: number }) => Effect.Effect<string | { readonly n: number }, never, ToolContext>) =>
  defineTool({ name, toolset: "testing", description: "test", parameters: Schema.Struct({ n: Schema.Number }), handler, timeout: "2 seconds" })

/** A registered tool answered by `promiseHandler` (as MCP tools are); its `handler` is never used by dispatch. */
const promiseTool = (name: string, promiseHandler: NonNullable<RegisteredTool["promiseHandler"]>): RegisteredTool => ({
  name,
  toolset: "testing",
  description: "test",
  jsonSchema: { type: "object", properties: {} },
  requiresEnv: [],
  emoji: "",
  maxResultChars: undefined,
  parallel: "sequential",
  pathArgument: "path",
  override: false,
  source: { kind: "builtin" },
  decode: Either.right,
  handler: () => Effect.die("dispatch must call promiseHandler"),
  promiseHandler,
  services: Context.empty() as Context.Context<unknown>,
  timeout: "2 seconds",
  check: undefined,
  dynamicSchema: undefined
})

describe("dispatch paths", () => {
  it.layer(testRuntime())((it) => {
    it.effect("a finished handler, a synchronous one and a suspending one answer alike", () =>
      Effect.gen(function*() {
        yield* registerTool(tool("fast_done", ({ n }) => Effect.succeed({ n })))
        yield* registerTool(tool("fast_sync", ({ n }) => Effect.map(ToolContext, (c) => `${c.taskId}:${n}`)))
        yield* registerTool(tool("fast_async", ({ n }) => Effect.as(Effect.yieldNow(), `later ${n}`)))
        const executor = yield* ToolExecutor
        expect(JSON.parse(yield* executor.dispatch({ tool: "fast_done", args: "{\"n\": \"3\"}" }))).toEqual({ n: 3 })
        expect(yield* executor.dispatch({ tool: "fast_sync", args: { n: 4 } }, { context: { taskId: "task-9" } })).toBe("task-9:4")
        expect(yield* executor.dispatch({ tool: "fast_async", args: { n: 5 } })).toBe("later 5")
      }))

    it.effect("a suspending handler still times out on the Effect clock", () =>
      Effect.gen(function*() {
        yield* registerTool(tool("fast_stall", () => Effect.as(Effect.never, "never")))
        const executor = yield* ToolExecutor
        const fiber = yield* Effect.fork(executor.execute({ tool: "fast_stall", args: { n: 1 } }))
        yield* TestClock.adjust("3 seconds")
        const outcome = yield* fiber.await.pipe(Effect.flatten)
        expect(outcome.status).toBe("error")
        expect(outcome.error?._tag).toBe("ToolTimeout")
        expect(JSON.parse(outcome.result)).toEqual({ error: expect.stringContaining("timed out") })
      }))

    it.effect("resolve to an Exit or an effect to run; a typed failure folds, a rejection is a defect", () =>
      Effect.gen(function*() {
        const registry = yield* ToolRegistry
        const ran: Array<string> = []
        yield* registry.register(promiseTool("p_ok", async () => Exit.succeed({ result: "fine" })))
        yield* registry.register(promiseTool("p_then", () => Promise.resolve(Effect.as(Effect.sync(() => ran.push("after")), { result: "ran after" }))))
        yield* registry.register(promiseTool("p_fail", async () => Exit.fail(new ToolFailedForTest({ message: "server said no" }))))
        yield* registry.register(promiseTool("p_reject", () => Promise.reject(new Error("boom"))))
        yield* registry.register(promiseTool("p_throw", () => {
          throw new Error("thrown before any promise")
        }))
        const executor = yield* ToolExecutor
        expect(JSON.parse(yield* executor.dispatch({ tool: "p_ok", args: {} }))).toEqual({ result: "fine" })
        expect(JSON.parse(yield* executor.dispatch({ tool: "p_then", args: {} }))).toEqual({ result: "ran after" })
        expect(ran).toEqual(["after"])
        const failed = yield* executor.execute({ tool: "p_fail", args: {} })
        expect([failed.error?._tag, JSON.parse(failed.result).error]).toEqual(["ToolFailed", expect.stringContaining("server said no")])
        for (const name of ["p_reject", "p_throw"]) {
          const outcome = yield* executor.execute({ tool: name, args: {} })
          expect(outcome.error?._tag).toBe("ToolDefect")
        }
      }))

    it.effect("time out on the Effect clock and cancel the call; an interrupted caller cancels it too", () =>
      Effect.gen(function*() {
        const registry = yield* ToolRegistry
        const cancellations: Array<CallCancellation> = []
        yield* registry.register(promiseTool("p_stall", (_, cancellation) => {
          cancellations.push(cancellation)
          return new Promise(() => {})
        }))
        const executor = yield* ToolExecutor
        const timed = yield* Effect.fork(executor.execute({ tool: "p_stall", args: {} }))
        yield* TestClock.adjust("1 second")
        expect(cancellations[0]?.cancelled).toBe(false)
        yield* TestClock.adjust("2 seconds")
        const outcome = yield* Fiber.join(timed)
        expect(outcome.error?._tag).toBe("ToolTimeout")
        expect(cancellations[0]?.cancelled).toBe(true)

        const heard: Array<string> = []
        const interrupted = yield* Effect.fork(executor.execute({ tool: "p_stall", args: {} }))
        yield* Effect.yieldNow()
        cancellations[1]?.onCancel(() => heard.push("cancelled"))
        yield* Fiber.interrupt(interrupted)
        expect(heard).toEqual(["cancelled"])
        // A listener added after the fact runs at once.
        cancellations[1]?.onCancel(() => heard.push("late"))
        expect(heard).toEqual(["cancelled", "late"])
      }))
  })
})

class ToolFailedForTest extends Data.TaggedError("ToolFailedForTest")<{ readonly message: string }> {}
