import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Ref, Schema, TestClock } from "effect"
import { defineTool } from "../src/lib/tool/defineTool.js"
import { registerTool } from "../src/lib/tool/registerTool.js"
import { Hooks } from "../src/services/Hooks.js"
import { ToolRegistry } from "../src/services/ToolRegistry.js"
import { ToolExecutor } from "../src/services/ToolExecutor.js"
import { ToolGateAllow } from "../src/layers/toolGate/ToolGateAllow.js"
import { bigTool, dyingTool, echoTool, failingTool, sleepTool } from "./support/tools.js"
import { testRuntime } from "./support/runtime.js"
import { pythonJson } from "../src/lib/pythonJson.js"

const withTestTools = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.zipRight(
    Effect.all([registerTool(echoTool), registerTool(failingTool), registerTool(dyingTool), registerTool(sleepTool), registerTool(bigTool)]),
    self
  )

const parse = (s: string): Record<string, unknown> => JSON.parse(s) as Record<string, unknown>

describe("dispatch", () => {
  it.layer(testRuntime())((it) => {
    it.effect("runs a tool with a JSON-string argument and renders objects as JSON", () =>
      withTestTools(Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const out = yield* executor.dispatch({ tool: "echo", args: "{\"text\": \"hi\"}" }, { context: { taskId: "t1" } })
        expect(parse(out)).toEqual({ text: "hi", task: "t1" })
      })))

    it.effect("coerces strings the way Hermes does before decoding", () =>
      withTestTools(Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const out = yield* executor.dispatch({
          tool: "echo",
          args: { text: "x", count: "42", loud: "TRUE", tags: "solo", limit: "null" }
        })
        expect(parse(out)).toMatchObject({ count: 42, loud: true, tags: ["solo"], limit: null })
        const fromJson = yield* executor.dispatch({ tool: "echo", args: { text: "x", tags: "[\"a\",\"b\"]" } })
        expect(parse(fromJson)["tags"]).toEqual(["a", "b"])
      })))

    it.effect("unknown tool lists the available names", () =>
      withTestTools(Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const out = parse(yield* executor.dispatch({ tool: "nope", args: {} }))
        expect(out["error"]).toMatch(/^Tool 'nope' does not exist\. Available tools: .*echo/)
        const scoped = parse(yield* executor.dispatch({ tool: "fails", args: {} }, { allowed: new Set(["echo"]) }))
        expect(scoped["error"]).toBe("Tool 'fails' does not exist. Available tools: echo")
      })))

    it.effect("invalid arguments name the path and what was expected", () =>
      withTestTools(Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const missing = parse(yield* executor.dispatch({ tool: "echo", args: {} }))
        expect(missing["error"]).toBe("Invalid argument 'text' for tool 'echo': is required; tool was not executed.")
        const wrong = parse(yield* executor.dispatch({ tool: "echo", args: { text: "x", count: "many" } }))
        expect(wrong["error"]).toBe("Invalid argument 'count' for tool 'echo': expected an integer, got \"many\"; tool was not executed.")
        const notJson = parse(yield* executor.dispatch({ tool: "echo", args: "{text:" }))
        expect(notJson["error"]).toMatch(/^Invalid arguments for tool 'echo': arguments are not valid JSON/)
        const notObject = parse(yield* executor.dispatch({ tool: "echo", args: "[1]" }))
        expect(notObject["error"]).toBe("Invalid arguments for tool 'echo': arguments must be a JSON object; tool was not executed.")
      })))

    it.effect("typed handler failures and defects fold to error JSON", () =>
      withTestTools(Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const failed = yield* executor.execute({ tool: "fails", args: { why: "disk full" } })
        expect(failed.status).toBe("error")
        expect(failed.error?._tag).toBe("ToolFailed")
        expect(parse(failed.result)).toEqual({ error: "it broke: disk full" })
        const died = yield* executor.execute({ tool: "dies", args: {} })
        expect(died.error?._tag).toBe("ToolDefect")
        expect(parse(died.result)).toEqual({ error: "Tool execution failed: TypeError: undefined is not a function" })
      })))

    it.effect("a result that cannot become JSON folds to a contract error", () =>
      Effect.gen(function*() {
        const executor = yield* ToolExecutor
        yield* registerTool(defineTool({
          name: "bigint_result",
          toolset: "testing",
          description: "Returns a BigInt.",
          parameters: Schema.Struct({}),
          handler: () => Effect.succeed({ n: BigInt(1) })
        }))
        const outcome = yield* executor.execute({ tool: "bigint_result", args: {} })
        expect(outcome.error?._tag).toBe("ToolResultInvalid")
        expect(JSON.parse(outcome.result)).toEqual({ error: "Tool handler returned unsupported result type: object" })
      }))

    it.effect("a handler that outlives its timeout is interrupted and reported", () =>
      withTestTools(Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const fiber = yield* Effect.fork(executor.execute({ tool: "sleep", args: { ms: 10_000_000 } }))
        yield* TestClock.adjust("301 seconds")
        const outcome = yield* Fiber.join(fiber)
        expect(outcome.error?._tag).toBe("ToolTimeout")
        expect(parse(outcome.result)).toEqual({ error: "Error executing tool 'sleep': timed out after 300s" })
      })))

    it.effect("oversized results are saved and replaced by a persisted-output preview", () =>
      withTestTools(Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const out = yield* executor.dispatch({ tool: "big", args: { chars: 150_000 }, toolCallId: "call/1" }, { context: { taskId: "big-task" } })
        expect(out.startsWith("<persisted-output>\nThis tool result was too large (150,000 characters, 146.5 KB).\n")).toBe(true)
        const path = /Full output saved to: (.+)/.exec(out)?.[1]
        expect(path).toBeDefined()
        expect(path).toMatch(/workspace\/big-task\/hermes-results\/call_1_[0-9a-f]{12}\.txt$/)
        expect(readFileSync(path!, "utf8").length).toBe(150_000)
        expect(out.endsWith("\n...\n</persisted-output>")).toBe(true)
        expect(out).toContain("Preview (first 1500 chars):\nline 0000\n")
      })))
  })
})

describe("hooks", () => {
  it.effect("a pre hook can block; post hooks see the outcome; transforms replace the result", () =>
    withTestTools(Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const hooks = yield* Hooks
      const seen = yield* Ref.make<ReadonlyArray<string>>([])
      yield* hooks.register("policy", {
        pre_tool_call: (e) => Effect.succeed(e.tool === "fails" ? { action: "block" as const, message: "fails is not allowed here" } : undefined),
        post_tool_call: (e) => Ref.update(seen, (s) => [...s, `${e.tool}:${e.status}`]),
        transform_tool_result: (e) => Effect.succeed(e.tool === "echo" ? `[redacted ${e.result.length}]` : undefined)
      })
      const blocked = yield* executor.execute({ tool: "fails", args: {} })
      expect(blocked.status).toBe("blocked")
      expect(parse(blocked.result)).toEqual({ error: "fails is not allowed here" })
      // The hook sees the result as the model would: Python json.dumps text (37 characters here).
      expect(yield* executor.dispatch({ tool: "echo", args: { text: "secret" } })).toBe("[redacted 37]")
      expect(yield* Ref.get(seen)).toEqual(["fails:blocked", "echo:ok"])
    })).pipe(Effect.provide(testRuntime())))

  it.effect("a pre hook that crashes blocks the call instead of allowing it", () =>
    withTestTools(Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const hooks = yield* Hooks
      yield* hooks.register("broken", { pre_tool_call: () => Effect.die(new Error("bad policy file")) })
      const out = yield* executor.execute({ tool: "echo", args: { text: "x" } })
      expect(out.status).toBe("blocked")
      expect(parse(out.result)["error"]).toBe("pre_tool_call hook of 'broken' failed, so the call was blocked: bad policy file")
    })).pipe(Effect.provide(testRuntime())))

  it.effect("approval requests are denied when no approver exists, allowed with one", () =>
    Effect.gen(function*() {
      const ask = (runtime: Layer.Layer<ToolRegistry | ToolExecutor | Hooks, unknown>) =>
        withTestTools(Effect.gen(function*() {
          const hooks = yield* Hooks
          yield* hooks.register("asker", { pre_tool_call: () => Effect.succeed({ action: "approve" as const, message: "echo needs a human" }) })
          return yield* Effect.flatMap(ToolExecutor, (r) => r.execute({ tool: "echo", args: { text: "x" } }))
        })).pipe(Effect.provide(runtime))
      const denied = yield* ask(testRuntime())
      expect(denied.status).toBe("blocked")
      expect(parse(denied.result)["error"]).toMatch(/nobody is present to approve it, so it was denied\. Do not retry/)
      const allowed = yield* ask(testRuntime({}, { toolGate: ToolGateAllow }))
      expect(allowed.status).toBe("ok")
    }))
})

describe("persisted results", () => {
  it.effect("tools pinned to Infinity are never persisted", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      yield* registerTool({ ...bigTool, name: "pinned", maxResultChars: Infinity })
      const out = yield* executor.dispatch({ tool: "pinned", args: { chars: 120_000 } })
      expect(out.length).toBe(120_000)
      expect(existsSync("/nonexistent")).toBe(false)
    }).pipe(Effect.provide(testRuntime())))
})

describe("result JSON text (tools.result_json)", () => {
  const dispatchBoth = Effect.gen(function*() {
    const executor = yield* ToolExecutor
    return {
      ok: yield* executor.dispatch({ tool: "echo", args: { text: "é", tags: ["a", "b"] } }, { context: { taskId: "t" } }),
      failed: yield* executor.dispatch({ tool: "fails", args: { why: "x" } })
    }
  })

  it.effect("is Python's json.dumps text by default, for results and errors", () =>
    withTestTools(Effect.gen(function*() {
      const { failed, ok } = yield* dispatchBoth
      expect(JSON.parse(ok)).toEqual({ text: "é", tags: ["a", "b"], task: "t" })
      expect(ok).toBe(pythonJson(JSON.parse(ok)))
      expect(failed).toBe(pythonJson({ error: "it broke: x" }))
    })).pipe(Effect.provide(testRuntime())))

  it.effect("is JSON.stringify's text with result_json: compact", () =>
    withTestTools(Effect.gen(function*() {
      const { failed, ok } = yield* dispatchBoth
      expect(JSON.parse(ok)).toEqual({ text: "é", tags: ["a", "b"], task: "t" })
      expect(ok).toBe(JSON.stringify(JSON.parse(ok)))
      expect(failed).toBe(JSON.stringify({ error: "it broke: x" }))
    })).pipe(Effect.provide(testRuntime({ tools: { result_json: "compact" } }))))
})

describe("handler timeouts on the live clock", () => {
  it.live("a handler that outlives its own timeout is interrupted and reported; one that answers in time is not", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      let interrupted = false
      yield* registerTool(defineTool({
        name: "slow_live",
        toolset: "testing",
        description: "Answers after `ms` milliseconds.",
        parameters: Schema.Struct({ ms: Schema.Number }),
        timeout: "50 millis",
        handler: ({ ms }) => Effect.as(Effect.onInterrupt(Effect.sleep(ms), () => Effect.sync(() => {
          interrupted = true
        })), "done")
      }))
      const late = yield* executor.execute({ tool: "slow_live", args: { ms: 60_000 } })
      expect(late.error?._tag).toBe("ToolTimeout")
      expect(parse(late.result)).toEqual({ error: "Error executing tool 'slow_live': timed out after 0.1s" })
      expect(interrupted).toBe(true)
      const inTime = yield* executor.execute({ tool: "slow_live", args: { ms: 5 } })
      expect(inTime.result).toBe("done")
      expect(inTime.status).toBe("ok")
    }).pipe(Effect.provide(testRuntime())))
})
