/** The agent loop with the tool-search bridge on: a scripted model finds a plugin tool, then runs it through tool_call. */
import { describe, expect, layer as withLayer } from "@effect/vitest"
import { Effect } from "effect"
import { SessionStore } from "../../src/services/SessionStore.js"
import { runAgent, scriptedAgent } from "./helpers.js"

const TOOLSETS = { enabled: ["file", "testing"] }

describe("tool search in the agent loop", () => {
  const agent = scriptedAgent([
    {
      expect: { tools_include: ["read_file", "tool_search", "tool_describe", "tool_call"], tools_exclude: ["echo", "fails"] },
      tool_calls: [{ name: "tool_search", arguments: { queries: ["echo"] } }]
    },
    { expect: { last_contains: "Echo the arguments back." }, tool_calls: [{ name: "tool_call", arguments: { calls: [{ name: "echo", arguments: { text: "via bridge" } }] } }] },
    // A deferred tool called by its own name still runs: it is part of the session.
    { expect: { last_contains: "via bridge" }, tool_calls: [{ name: "echo", arguments: { text: "direct" } }] },
    { expect: { last_contains: "direct" }, content: "Done." }
  ], { tools: { tool_search: { enabled: "on" } } })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("definitions are the core tools plus the bridge; the call goes through to the real tool", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "echo something", toolsets: TOOLSETS })
        expect(result).toMatchObject({ status: "completed", response: "Done.", toolCalls: 3 })
        const sent = agent.requests[0]!.tools!.map((d) => d.function.name)
        expect(sent).toContain("read_file")
        expect(sent).not.toContain("echo")
        const stored = yield* Effect.flatMap(SessionStore, (s) => s.history(result.sessionId))
        const tools = stored.filter((m) => m.role === "tool")
        expect(tools.map((m) => m.toolName)).toEqual(["tool_search", "tool_call", "echo"])
        expect(JSON.parse(tools[1]!.content ?? "")).toMatchObject({ text: "via bridge" })
      }))
  })
})

describe("tool search off", () => {
  const agent = scriptedAgent([
    { expect: { tools_include: ["echo"], tools_exclude: ["tool_search"] }, tool_calls: [{ name: "tool_search", arguments: { queries: ["echo"] } }] },
    { expect: { last_contains: "does not exist" }, content: "No bridge." }
  ], { tools: { tool_search: { enabled: "off" } } })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("the tools are sent as they are and the bridge names are unknown", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "echo", toolsets: TOOLSETS })
        expect(result).toMatchObject({ status: "completed", response: "No bridge." })
      }))
  })
})
