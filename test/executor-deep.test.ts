/**
 * Deeply nested JSON from a model: every path that takes model JSON answers
 * with an error naming the nesting limit instead of overflowing the stack
 * (dispatch never fails; the rest of a batch or a turn is still answered).
 */
import { describe, expect, it, layer as withLayer } from "@effect/vitest"
import { Effect } from "effect"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../src/lib/jsonDepth.js"
import { registerTool } from "../src/lib/tool/registerTool.js"
import { ToolExecutor } from "../src/services/ToolExecutor.js"
import { json, runAgent, scriptedAgent } from "./agent/helpers.js"
import { echoTool } from "./support/tools.js"
import { testRuntime } from "./support/runtime.js"

const arrays = (n: number, inner = "") => `${"[".repeat(n)}${inner}${"]".repeat(n)}`
const objects = (n: number, inner = "1") => `${"{\"a\":".repeat(n)}${inner}${"}".repeat(n)}`
/** A value nesting `n` levels of arrays, built without recursion. */
const deepValue = (n: number): unknown => {
  let value: unknown = []
  for (let i = 1; i < n; i++) value = [value]
  return value
}

const LIMIT = new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`)
const errorOf = (result: string) => {
  const parsed = JSON.parse(result) as { error?: unknown }
  expect(Object.keys(parsed)).toEqual(["error"])
  return String(parsed.error)
}

describe("nestsDeeperThan", () => {
  it("counts the outer array or object as level 1 and never recurses", () => {
    expect(nestsDeeperThan(1, 1)).toBe(false)
    expect(nestsDeeperThan([], 1)).toBe(false)
    expect(nestsDeeperThan([[]], 1)).toBe(true)
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false)
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true)
    expect(nestsDeeperThan(deepValue(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false)
    expect(nestsDeeperThan(deepValue(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(JSON.parse(arrays(1_000_000)), MAX_JSON_DEPTH)).toBe(true)
    const cyclic: Record<string, unknown> = {}
    cyclic["self"] = cyclic
    expect(nestsDeeperThan(cyclic, MAX_JSON_DEPTH)).toBe(true)
  })
})

describe("dispatch of deeply nested arguments", () => {
  withLayer(testRuntime(), { timeout: "60 seconds" })((it) => {
    it.effect("answers an error naming the limit, for text and object arguments, arrays and objects, at any depth", () =>
      Effect.gen(function*() {
        yield* registerTool(echoTool)
        const executor = yield* ToolExecutor
        for (const depth of [3_000, 100_000]) {
          const inTodos = yield* executor.dispatch({ tool: "todo", args: `{"todos": ${arrays(depth)}}` })
          expect(errorOf(inTodos)).toMatch(LIMIT)
          const unknownKey = yield* executor.dispatch({ tool: "todo", args: `{"todos": [], "x": ${objects(depth)}}` })
          expect(errorOf(unknownKey)).toMatch(LIMIT)
          const asValue = yield* executor.execute({ tool: "echo", args: { text: "hi", tags: deepValue(depth) } })
          expect(asValue.status).toBe("error")
          expect(asValue.error?._tag).toBe("InvalidArguments")
          expect(errorOf(asValue.result)).toMatch(LIMIT)
          // A JSON string where the schema wants an array is parsed by coercion: same limit.
          const asString = yield* executor.dispatch({ tool: "echo", args: { text: "hi", tags: arrays(depth) } })
          expect(errorOf(asString)).toMatch(LIMIT)
        }
        const cyclic: Record<string, unknown> = { text: "hi" }
        cyclic["tags"] = [cyclic]
        expect(errorOf(yield* executor.dispatch({ tool: "echo", args: cyclic }))).toMatch(LIMIT)
      }))

    it.effect("nesting within the limit is decoded as usual", () =>
      Effect.gen(function*() {
        yield* registerTool(echoTool)
        const executor = yield* ToolExecutor
        // The arguments object is level 1, so an extra key may hold MAX - 1 levels.
        const fits = yield* executor.dispatch({ tool: "echo", args: `{"text": "hi", "extra": ${arrays(MAX_JSON_DEPTH - 1)}}` })
        expect(JSON.parse(fits)).toMatchObject({ text: "hi" })
        const over = yield* executor.dispatch({ tool: "echo", args: `{"text": "hi", "extra": ${arrays(MAX_JSON_DEPTH)}}` })
        expect(errorOf(over)).toMatch(LIMIT)
      }))

    it.effect("one deep call in a batch is answered with the error; the calls around it run", () =>
      Effect.gen(function*() {
        yield* registerTool(echoTool)
        const executor = yield* ToolExecutor
        const outcomes = yield* executor.executeBatch([
          { tool: "echo", args: { text: "before" }, toolCallId: "a" },
          { tool: "echo", args: `{"text": "deep", "tags": ${arrays(100_000)}}`, toolCallId: "b" },
          { tool: "echo", args: { text: "after" }, toolCallId: "c" }
        ])
        expect(outcomes.map((o) => o.status)).toEqual(["ok", "error", "ok"])
        expect(JSON.parse(outcomes[0]!.result)).toMatchObject({ text: "before" })
        expect(errorOf(outcomes[1]!.result)).toMatch(LIMIT)
        expect(JSON.parse(outcomes[2]!.result)).toMatchObject({ text: "after" })
      }))
  })
})

describe("an agent turn with deeply nested arguments", () => {
  const agent = scriptedAgent([
    {
      content: "Two calls.",
      tool_calls: [
        { name: "echo", arguments: `{"text": "deep", "tags": ${arrays(100_000)}}` },
        { name: "echo", arguments: { text: "fine" } }
      ]
    },
    { expect: { last_role: "tool" }, content: "Done." }
  ])
  withLayer(agent.layer, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
    it.effect("answers the deep call with the limit error and finishes the run", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "go", toolsets: { enabled: ["testing"] } })
        expect(result.status).toBe("completed")
        const answers = agent.requests[1]!.messages.filter((m) => m.role === "tool").map((m) => String(m.content))
        expect(answers).toHaveLength(2)
        expect(errorOf(answers[0]!)).toMatch(LIMIT)
        expect(json(answers[1]!)).toMatchObject({ text: "fine" })
      }))
  })
})
