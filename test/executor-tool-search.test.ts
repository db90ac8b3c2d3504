import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { registerTool } from "../src/lib/tool/registerTool.js"
import {
  assembleDefinitions,
  BRIDGE_TOOL_NAMES,
  DEFAULT_TOOL_SEARCH,
  toolSearchConfig,
  UNKNOWN_CONTEXT_THRESHOLD_TOKENS
} from "../src/lib/toolSearch/index.js"
import { Hooks } from "../src/services/Hooks.js"
import type { ToolDefinitionJson } from "../src/services/Tool.js"
import { ToolExecutor } from "../src/services/ToolExecutor.js"
import { echoTool, failingTool } from "./support/tools.js"
import { testRuntime } from "./support/runtime.js"

const def = (name: string, description = `The ${name} tool.`, chars = 0): ToolDefinitionJson => ({
  type: "function",
  function: { name, description: description + " ".repeat(chars), parameters: { type: "object", properties: {} } }
})
const names = (defs: ReadonlyArray<ToolDefinitionJson>) => defs.map((d) => d.function.name)
const parse = (s: string) => JSON.parse(s) as Record<string, unknown>

describe("tool_search config and assembly", () => {
  it("reads the section leniently, as Hermes", () => {
    expect(toolSearchConfig(undefined)).toEqual(DEFAULT_TOOL_SEARCH)
    expect(toolSearchConfig(false).enabled).toBe("off")
    expect(toolSearchConfig({ enabled: "yes", max_search_limit: 500, search_default_limit: "3" })).toMatchObject({
      enabled: "on",
      maxSearchLimit: 50,
      searchDefaultLimit: 3
    })
    expect(toolSearchConfig({ enabled: "bogus", threshold_pct: "x" })).toMatchObject({ enabled: "auto", thresholdPct: 10 })
  })

  it("auto defers plugin/MCP tools only once they weigh enough; core tools always stay", () => {
    const small = [def("terminal"), def("read_file"), def("mcp_github_create_issue")]
    expect(assembleDefinitions(small, DEFAULT_TOOL_SEARCH).activated).toBe(false)
    const heavy = [def("terminal"), def("read_file"), def("mcp_github_create_issue", "Open an issue.", UNKNOWN_CONTEXT_THRESHOLD_TOKENS * 4)]
    const on = assembleDefinitions(heavy, DEFAULT_TOOL_SEARCH)
    expect(on.activated).toBe(true)
    expect(on.deferred).toEqual(["mcp_github_create_issue"])
    expect(names(on.definitions)).toEqual(["terminal", "read_file", "tool_search", "tool_describe", "tool_call"])
    // With a known context the threshold is threshold_pct of it.
    expect(assembleDefinitions(small, DEFAULT_TOOL_SEARCH, 100).activated).toBe(true)
    expect(assembleDefinitions(small, toolSearchConfig({ enabled: "on" })).activated).toBe(true)
    expect(assembleDefinitions(heavy, toolSearchConfig({ enabled: "off" })).activated).toBe(false)
    expect(assembleDefinitions([def("terminal")], toolSearchConfig({ enabled: "on" })).activated).toBe(false)
  })
})

describe("the bridge in the executor", () => {
  const withTools = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.zipRight(Effect.all([registerTool(echoTool), registerTool(failingTool)]), self)
  const allowed = new Set(["echo", "fails", "terminal", ...BRIDGE_TOOL_NAMES])

  it.effect("tool_search finds deferrable tools by name and description; tool_describe gives their schemas", () =>
    withTools(Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const found = parse(yield* executor.dispatch({ tool: "tool_search", args: { queries: ["echo arguments", "zebra"] } }, { allowed }))
      expect(found["total_available"]).toBe(2)
      expect(found["results"]).toEqual([{ query: "echo arguments", matches: ["echo"] }, { query: "zebra", matches: [] }])
      expect(found["tools"]).toEqual({ echo: { description: "Echo the arguments back.", required: ["text"] } })
      const single = parse(yield* executor.dispatch({ tool: "tool_search", args: { queries: "fail" } }, { allowed }))
      expect(single["results"]).toEqual([{ query: "fail", matches: ["fails"] }])
      expect(parse(yield* executor.dispatch({ tool: "tool_search", args: {} }, { allowed }))["error"]).toBe(
        "queries is required and must be an array of strings"
      )
      const described = parse(yield* executor.dispatch({ tool: "tool_describe", args: { names: ["echo", "terminal", "nope"] } }, { allowed }))
      expect(Object.keys(described["tools"] as object)).toEqual(["echo"])
      expect((described["tools"] as Record<string, { parameters: { required: Array<string> } }>)["echo"]!.parameters.required).toEqual(["text"])
      expect(described["not_found"]).toEqual(["nope"])
      expect(Object.keys(described["errors"] as object)).toEqual(["terminal"])
    })).pipe(Effect.provide(testRuntime())))

  it.effect("tool_call runs the real tool on the usual path: decoding, hooks, scope", () =>
    withTools(Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const ran = yield* executor.execute({ tool: "tool_call", args: { calls: [{ name: "echo", arguments: { text: "hi", count: "2" } }] }, toolCallId: "c1" }, { allowed, context: { taskId: "ts" } })
      expect(ran).toMatchObject({ tool: "echo", toolCallId: "c1", status: "ok" })
      expect(parse(ran.result)).toEqual({ text: "hi", count: 2, task: "ts" })
      // Older Hermes shape, and a JSON-string argument object.
      expect(parse(yield* executor.dispatch({ tool: "tool_call", args: JSON.stringify({ name: "echo", arguments: { text: "old" } }) }, { allowed }))["text"]).toBe("old")
      const invalid = parse(yield* executor.dispatch({ tool: "tool_call", args: { calls: [{ name: "echo", arguments: {} }] } }, { allowed }))
      expect(invalid["error"]).toBe("Invalid argument 'text' for tool 'echo': is required; tool was not executed.")
      const core = parse(yield* executor.dispatch({ tool: "tool_call", args: { calls: [{ name: "terminal", arguments: { command: "true" } }] } }, { allowed }))
      expect(core["error"]).toBe("'terminal' is not available in this session. Use tool_search to find tools you can call.")
      const outside = parse(yield* executor.dispatch({ tool: "tool_call", args: { calls: [{ name: "fails", arguments: {} }] } }, { allowed: new Set(["tool_call"]) }))
      expect(outside["error"]).toContain("'fails' is not available in this session")
      const two = parse(yield* executor.dispatch({ tool: "tool_call", args: { calls: [{ name: "echo", arguments: {} }, { name: "echo", arguments: {} }] } }, { allowed }))
      expect(two["error"]).toContain("one tool at a time")

      const hooks = yield* Hooks
      const seen: Array<string> = []
      yield* hooks.register("policy", {
        pre_tool_call: (event) => Effect.sync(() => {
          seen.push(event.tool)
          return event.tool === "echo" ? { action: "block" as const, message: "no echo today" } : undefined
        })
      })
      const blocked = yield* executor.execute({ tool: "tool_call", args: { calls: [{ name: "echo", arguments: { text: "x" } }] } }, { allowed })
      expect(blocked.status).toBe("blocked")
      expect(parse(blocked.result)["error"]).toContain("no echo today")
      expect(seen).toEqual(["echo"])
    })).pipe(Effect.provide(testRuntime())))

  it.effect("a session that was not offered the bridge cannot call it", () =>
    withTools(Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const out = parse(yield* executor.dispatch({ tool: "tool_search", args: { queries: ["echo"] } }, { allowed: new Set(["echo"]) }))
      expect(out["error"]).toBe("Tool 'tool_search' does not exist. Available tools: echo")
    })).pipe(Effect.provide(testRuntime())))
})
