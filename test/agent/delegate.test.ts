/** delegate_task: children as fibers with their own sessions, restricted tools, limits and unattended approvals. */
import { describe, expect, layer as withLayer } from "@effect/vitest"
import { Effect } from "effect"
import { detectCommand } from "../../src/layers/approval/detect/detect.js"
import { ApproverCallback } from "../../src/layers/approval/approvers/ApproverCallback.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import type { StoredMessage } from "../../src/services/SessionStore.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { json, rendezvousTool, runAgent, scriptedAgent } from "./helpers.js"

const PARENT_TOOLS = { enabled: ["testing", "delegation", "memory", "clarify", "terminal"] }
const SUBAGENT = { system_contains: "You are a subagent" }

const store = SessionStore
/** Tool results as JSON; the loop's own plain-text answers (an unknown tool name, as Hermes sends) as `{ text }`. */
const toolResults = (messages: ReadonlyArray<StoredMessage>) =>
  messages.filter((m) => m.role === "tool").map((m) => (m.content?.trimStart().startsWith("{") === true ? json(m.content) : { text: m.content }))

describe("delegate_task", () => {
  const meet = rendezvousTool(3)
  const agent = scriptedAgent([
    {
      when: { first_user_contains: "fan out" },
      tool_calls: [{
        name: "delegate_task",
        arguments: { tasks: [{ goal: "child one" }, { goal: "child two", context: "use echo" }, { goal: "child three", toolsets: ["testing"] }] }
      }]
    },
    { when: { first_user_contains: "too many" }, tool_calls: [{ name: "delegate_task", arguments: { tasks: [{ goal: "a" }, { goal: "b" }, { goal: "c" }, { goal: "d" }] } }] },
    {
      when: SUBAGENT,
      expect: { tools_exclude: ["delegate_task", "clarify", "memory"], tools_include: ["rendezvous", "echo"] },
      tool_calls: [{ name: "rendezvous", arguments: { who: "child" } }, { name: "echo", arguments: { text: "from the child" } }]
    },
    { when: SUBAGENT, expect: { last_role: "tool" }, content: "child summary" },
    { when: { first_user_contains: "fan out" }, expect: { last_role: "tool", last_contains: "child summary" }, content: "All children done." },
    { when: { first_user_contains: "too many" }, expect: { last_contains: "Too many tasks" }, content: "Fewer, then." }
  ], {}, {}, [meet.layer])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("runs up to 3 children at once, each in its own session under the parent, sharing its terminal task", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "fan out", toolsets: PARENT_TOOLS, taskId: "shared-task" })
        expect(result).toMatchObject({ status: "completed", response: "All children done." })
        expect(meet.state.most).toBe(3)
        const parentHistory = yield* Effect.flatMap(store, (s) => s.history(result.sessionId))
        const outcome = toolResults(parentHistory)[0]!
        const entries = outcome["results"] as Array<Record<string, unknown>>
        expect(entries.map((e) => [e["task_index"], e["status"], e["summary"], e["exit_reason"]])).toEqual([
          [0, "completed", "child summary", "completed"],
          [1, "completed", "child summary", "completed"],
          [2, "completed", "child summary", "completed"]
        ])
        expect(entries.every((e) => e["api_calls"] === 2)).toBe(true)
        expect(typeof outcome["total_duration_seconds"]).toBe("number")
        for (const entry of entries) {
          const id = entry["session_id"] as string
          const session = yield* Effect.flatMap(store, (s) => s.get(id))
          expect(session).toMatchObject({ source: "subagent", parentSessionId: result.sessionId })
          expect(yield* Effect.flatMap(store, (s) => s.lineage(id))).toEqual([id, result.sessionId])
          const child = yield* Effect.flatMap(store, (s) => s.history(id))
          expect(child[0]!.content).toContain("You are a subagent")
          expect(child[1]).toMatchObject({ role: "user" })
          // Children run in the parent's terminal environment.
          const echo = child.filter((m) => m.role === "tool")[1]!
          expect(json(echo.content)).toMatchObject({ text: "from the child", task: "shared-task" })
        }
        const second = entries[1]!["session_id"] as string
        expect((yield* Effect.flatMap(store, (s) => s.history(second)))[0]!.content).toContain("CONTEXT:\nuse echo")
      }))

    it.effect("refuses more tasks than max_concurrent_children, and answers outside an agent run", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "too many", toolsets: PARENT_TOOLS })
        expect(result.response).toBe("Fewer, then.")
        const error = result.messages.find((m) => m.role === "tool")!.content
        expect(json(error)["error"]).toMatch(/^Too many tasks: 4 provided, but max_concurrent_children is 3\./)
        const executor = yield* ToolExecutor
        const outside = yield* executor.dispatch({ tool: "delegate_task", args: { goal: "x" } }, { context: { taskId: "t" } })
        expect(json(outside)).toEqual({ error: "delegate_task requires a parent agent context." })
      }))
  })
})

describe("delegation depth", () => {
  const agent = scriptedAgent([
    { when: { first_user_contains: "top" }, tool_calls: [{ name: "delegate_task", arguments: { goal: "middle work" } }] },
    {
      when: { system_contains: "TASK:\nmiddle work" },
      expect: { tools_include: ["delegate_task"] },
      tool_calls: [{ name: "delegate_task", arguments: { goal: "leaf work" } }]
    },
    { when: { system_contains: "TASK:\nleaf work" }, expect: { tools_exclude: ["delegate_task"] }, content: "leaf done" },
    { when: { system_contains: "TASK:\nmiddle work" }, expect: { last_contains: "leaf done" }, content: "middle done" },
    { when: { first_user_contains: "top" }, expect: { last_contains: "middle done" }, content: "top done" }
  ], { delegation: { max_spawn_depth: 2 } })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("children delegate only while their depth is below max_spawn_depth", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "top", toolsets: PARENT_TOOLS })
        expect(result.response).toBe("top done")
        const middle = ((toolResults(yield* Effect.flatMap(store, (s) => s.history(result.sessionId)))[0]!["results"]) as Array<Record<string, unknown>>)[0]!
        const middleId = middle["session_id"] as string
        const leaf = ((toolResults(yield* Effect.flatMap(store, (s) => s.history(middleId)))[0]!["results"]) as Array<Record<string, unknown>>)[0]!
        expect(leaf).toMatchObject({ status: "completed", summary: "leaf done" })
        expect(yield* Effect.flatMap(store, (s) => s.lineage(leaf["session_id"] as string))).toEqual([leaf["session_id"], middleId, result.sessionId])
      }))
  })
})

describe("approval in children", () => {
  const command = "rm -rf /tmp/hermes-effect-delegate-test-never-exists"
  const asked: Array<string> = []
  const agent = scriptedAgent([
    { when: { first_user_contains: "clean" }, tool_calls: [{ name: "terminal", arguments: { command } }] },
    { when: { first_user_contains: "clean" }, tool_calls: [{ name: "delegate_task", arguments: { goal: "clean up too" } }] },
    { when: SUBAGENT, tool_calls: [{ name: "terminal", arguments: { command } }] },
    { when: SUBAGENT, expect: { last_contains: "BLOCKED" }, content: "the command was blocked" },
    { when: { first_user_contains: "clean" }, content: "done" }
  ], {}, { approver: ApproverCallback((p) => (asked.push(p.command), "once")) })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("the parent's approver answers the parent; a child's command goes to the non-interactive approver", () =>
      Effect.gen(function*() {
        expect(detectCommand(command, { home: "/root", hermesHome: "/tmp/h" }).dangerous).toBe(true)
        const { result } = yield* runAgent({ prompt: "clean", toolsets: PARENT_TOOLS })
        expect(result.response).toBe("done")
        expect(asked).toEqual([command])
        const [parentRun, delegation] = toolResults(yield* Effect.flatMap(store, (s) => s.history(result.sessionId)))
        expect(parentRun).toMatchObject({ exit_code: 0 })
        const entry = (delegation!["results"] as Array<Record<string, unknown>>)[0]!
        expect(entry["summary"]).toBe("the command was blocked")
        const child = toolResults(yield* Effect.flatMap(store, (s) => s.history(entry["session_id"] as string)))
        expect(String(child[0]!["error"])).toContain("nobody is present to approve it")
      }))
  })
})
