/**
 * delegate_task as Hermes runs it now: top-level delegations run in the
 * background and report back as a message; children are sessions under the
 * parent, with their own terminal environment, restricted tools, roles and
 * depth limits, the parent's approver, and the parent's lifetime.
 */
import { describe, expect, layer as withLayer } from "@effect/vitest"
import { Deferred, Effect, Fiber, FiberId, Layer, Schema } from "effect"
import { detectCommand } from "../../src/layers/approval/detect/detect.js"
import { ApproverCallback } from "../../src/layers/approval/approvers/ApproverCallback.js"
import { defineTool } from "../../src/lib/tool/defineTool.js"
import { registerTool } from "../../src/lib/tool/registerTool.js"
import { Environments } from "../../src/services/Environments.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import type { StoredMessage } from "../../src/services/SessionStore.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { eventually, liveProcesses, uniqueSleep } from "../support/processes.js"
import { json, runAgent, scriptedAgent } from "./helpers.js"

const PARENT_TOOLS = { enabled: ["testing", "delegation", "memory", "clarify", "terminal"] }
const SUBAGENT = { system_contains: "You are a subagent" }

const store = SessionStore
/** Tool results as JSON; the loop's own plain-text answers (an unknown tool name, as Hermes sends) as `{ text }`. */
const toolResults = (messages: ReadonlyArray<StoredMessage>) =>
  messages.filter((m) => m.role === "tool").map((m) => (m.content?.trimStart().startsWith("{") === true ? json(m.content) : { text: m.content }))
const history = (id: string) => Effect.flatMap(store, (s) => s.history(id))
const childrenOf = (parent: string) =>
  Effect.map(Effect.flatMap(store, (s) => s.list({ source: "subagent", limit: 1000 })), (page) =>
    page.sessions.filter((s) => s.parentSessionId === parent))

/**
 * `gate`: children wait at it ("wait") until the parent opens it ("open", once `count` are waiting), so a
 * parent that opens it was working while its children ran.
 */
const gateTool = () => {
  const gate = Deferred.unsafeMake<void>(FiberId.none)
  const state = { waiting: 0 }
  const tool = defineTool({
    name: "gate",
    toolset: "testing",
    description: "Wait at, or open, the gate.",
    parameters: Schema.Struct({ action: Schema.Literal("wait", "open"), count: Schema.optional(Schema.Number) }),
    parallel: "safe",
    handler: ({ action, count }) =>
      action === "open"
        ? Effect.gen(function*() {
          while (state.waiting < (count ?? 0)) yield* Effect.sleep("10 millis")
          yield* Deferred.succeed(gate, undefined)
          return { opened: true, waiting: state.waiting }
        })
        : Effect.sync(() => void state.waiting++).pipe(Effect.zipRight(Deferred.await(gate)), Effect.as({ passed: true }))
  })
  return { state, layer: Layer.effectDiscard(Effect.orDie(registerTool(tool))) }
}

describe("delegate_task in the background", () => {
  const gate = gateTool()
  const agent = scriptedAgent([
    {
      when: { first_user_contains: "fan out", message_count: 2 },
      tool_calls: [{
        name: "delegate_task",
        arguments: { tasks: [{ goal: "child one" }, { goal: "child two", context: "use echo" }, { goal: "child three", role: "orchestrator" }] }
      }]
    },
    { when: { first_user_contains: "too many" }, tool_calls: [{ name: "delegate_task", arguments: { tasks: [{ goal: "a" }, { goal: "b" }, { goal: "c" }, { goal: "d" }] } }] },
    {
      when: SUBAGENT,
      // Default max_spawn_depth 1: even an orchestrator works as a leaf.
      expect: { tools_exclude: ["delegate_task", "clarify", "memory"], tools_include: ["gate", "echo"] },
      tool_calls: [{ name: "gate", arguments: { action: "wait" } }, { name: "echo", arguments: { text: "from the child" } }]
    },
    { when: SUBAGENT, expect: { last_role: "tool" }, delay_ms: 200, content: "child summary" },
    { when: { first_user_contains: "fan out", last_contains: "dispatched" }, tool_calls: [{ name: "gate", arguments: { action: "open", count: 3 } }] },
    { when: { first_user_contains: "fan out", last_role: "tool" }, content: "Waiting for the subagents." },
    { when: { first_user_contains: "fan out", last_contains: "--- ✓ TASK 3/3" }, content: "All children done." },
    { when: { first_user_contains: "too many" }, expect: { last_contains: "Too many tasks" }, content: "Fewer, then." }
  ], {}, {}, [gate.layer])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("returns at once; the parent keeps working; the batch result re-enters as one message; children are linked sessions", () =>
      Effect.gen(function*() {
        const { events, result } = yield* runAgent({ prompt: "fan out", toolsets: PARENT_TOOLS, taskId: "parent-task" })
        expect(result).toMatchObject({ status: "completed", response: "All children done." })
        const stored = yield* history(result.sessionId)
        // The parent opened the gate while the three children were waiting at it.
        expect(toolResults(stored)[1]).toEqual({ opened: true, waiting: 3 })
        const dispatched = toolResults(stored)[0]!
        expect(dispatched).toMatchObject({ status: "dispatched", mode: "background", count: 3, goals: ["child one", "child two", "child three"] })
        const id = dispatched["delegation_id"] as string
        expect(id).toMatch(/^deleg_[0-9a-f]{8}$/)
        expect(dispatched["note"]).toContain(`[ASYNC DELEGATION BATCH COMPLETE — ${id}]`)

        expect(stored.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool", "assistant", "user", "assistant"])
        expect(stored[6]!.content).toBe("Waiting for the subagents.")
        const report = stored[7]!.content!
        expect(report.startsWith(`[ASYNC DELEGATION BATCH COMPLETE — ${id}]\n`)).toBe(true)
        expect(report).toContain("A background fan-out of 3 subagent(s) you dispatched earlier has finished.")
        expect(report).toContain("--- ✓ TASK 1/3: child one (status=completed")
        expect(report).toContain("--- ✓ TASK 2/3: child two (status=completed")
        expect(report.split("child summary").length - 1).toBe(3)
        expect(events.some((e) => e._tag === "Notice" && e.kind === "delegation")).toBe(true)

        const children = yield* childrenOf(result.sessionId)
        expect(children).toHaveLength(3)
        for (const child of children) {
          expect(yield* Effect.flatMap(store, (s) => s.lineage(child.id))).toEqual([child.id, result.sessionId])
          const messages = yield* history(child.id)
          expect(messages[0]!.content).toContain("You are a subagent")
          // Each child has a terminal task of its own, not the parent's.
          const echo = toolResults(messages)[1]!
          expect(echo["text"]).toBe("from the child")
          expect(echo["task"]).toMatch(new RegExp(`^parent-task:${id}:[0-2]$`))
        }
        const tasks = new Set(yield* Effect.forEach(children, (c) => Effect.map(history(c.id), (m) => toolResults(m)[1]!["task"])))
        expect(tasks.size).toBe(3)
        // Every child's environment was released when it ended.
        expect((yield* Effect.flatMap(Environments, (e) => e.tasks)).filter((t) => t.includes(id))).toEqual([])
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

describe("over capacity", () => {
  const gate = gateTool()
  const agent = scriptedAgent([
    { when: { first_user_contains: "two jobs", message_count: 2 }, tool_calls: [{ name: "delegate_task", arguments: { goal: "first job" } }] },
    { when: { system_contains: "TASK:\nfirst job" }, tool_calls: [{ name: "gate", arguments: { action: "wait" } }] },
    { when: { system_contains: "TASK:\nfirst job" }, content: "first done" },
    { when: { system_contains: "TASK:\nsecond job" }, content: "second done" },
    { when: { first_user_contains: "two jobs", last_contains: "dispatched" }, tool_calls: [{ name: "delegate_task", arguments: { goal: "second job" } }] },
    { when: { first_user_contains: "two jobs", last_contains: "second done" }, tool_calls: [{ name: "gate", arguments: { action: "open", count: 1 } }] },
    { when: { first_user_contains: "two jobs", last_role: "tool" }, content: "waiting" },
    { when: { first_user_contains: "two jobs", last_contains: "first done" }, content: "both done" }
  ], { delegation: { max_concurrent_children: 1 } }, {}, [gate.layer])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("with max_concurrent_children background delegations running, the next one runs in the foreground with a note", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "two jobs", toolsets: PARENT_TOOLS })
        expect(result.response).toBe("both done")
        const [first, second] = toolResults(yield* history(result.sessionId))
        expect(first).toMatchObject({ status: "dispatched", count: 1 })
        expect((second!["results"] as Array<Record<string, unknown>>)[0]).toMatchObject({ status: "completed", summary: "second done" })
        expect(second!["note"]).toContain("1 background delegation(s) were already running")
      }))
  })
})

describe("a child's own terminal environment", () => {
  const sleep = uniqueSleep()
  const agent = scriptedAgent([
    {
      when: { first_user_contains: "move", message_count: 2 },
      tool_calls: [{ name: "terminal", arguments: { command: "pwd" } }, { name: "delegate_task", arguments: { goal: "go elsewhere" } }]
    },
    {
      when: SUBAGENT,
      tool_calls: [
        { name: "terminal", arguments: { command: "cd /tmp && export DELEG_CHILD_VAR=set && pwd" } },
        { name: "terminal", arguments: { command: sleep.command, background: true } }
      ]
    },
    // The pattern expands to the marker only in pgrep's own argv (which pgrep skips), never in the shell's.
    { when: SUBAGENT, tool_calls: [{ name: "terminal", arguments: { command: `pgrep -fc "${sleep.command.slice("sleep ".length)}"` } }] },
    { when: SUBAGENT, content: "moved to /tmp" },
    { when: { first_user_contains: "move", last_role: "tool" }, content: "Let it work." },
    {
      when: { first_user_contains: "move", last_contains: "[ASYNC DELEGATION COMPLETE — " },
      tool_calls: [{ name: "terminal", arguments: { command: "pwd; echo \"var=${DELEG_CHILD_VAR:-unset}\"" } }]
    },
    { when: { first_user_contains: "move" }, content: "Still home." }
  ])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("cd/export in a child leave the parent alone; the child's background process dies with it", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "move", toolsets: PARENT_TOOLS })
        expect(result.response).toBe("Still home.")
        const results = toolResults(yield* history(result.sessionId))
        const before = String(results[0]!["output"]).trim()
        expect(before).not.toBe("/tmp")
        const after = String(results[2]!["output"]).trim().split("\n")
        expect(after).toEqual([before, "var=unset"])
        const [child] = yield* childrenOf(result.sessionId)
        const childResults = toolResults(yield* history(child!.id))
        expect(String(childResults[0]!["output"]).trim()).toBe("/tmp")
        expect(typeof childResults[1]!["session_id"]).toBe("string")
        expect(String(childResults[2]!["output"]).trim()).toBe("1")
        // The report re-entered the parent with the child's summary.
        const report = (yield* history(result.sessionId)).find((m) => m.role === "user" && m.content!.startsWith("[ASYNC DELEGATION COMPLETE"))!
        expect(report.content).toContain("Original goal: go elsewhere")
        expect(report.content).toMatch(/Status: completed {3}API calls: 3 {3}Duration: [\d.]+s\n--- RESULT ---\nmoved to \/tmp$/)
        expect(yield* eventually(() => liveProcesses(sleep.marker), (ps) => ps.length === 0)).toEqual([])
      }))
  })
})

describe("interrupting the parent", () => {
  const sleep = uniqueSleep()
  const gate = gateTool()
  const agent = scriptedAgent([
    { when: { first_user_contains: "stop", message_count: 2 }, tool_calls: [{ name: "delegate_task", arguments: { goal: "hang around" } }] },
    {
      when: SUBAGENT,
      tool_calls: [{ name: "terminal", arguments: { command: sleep.command, background: true } }, { name: "gate", arguments: { action: "wait" } }]
    },
    { when: { first_user_contains: "stop" }, content: "Waiting." }
  ], {}, {}, [gate.layer])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("interrupts the running child and tears its environment down (no orphans)", () =>
      Effect.gen(function*() {
        const fiber = yield* Effect.fork(runAgent({ prompt: "stop", toolsets: PARENT_TOOLS, sessionId: "deleg-interrupted" }))
        const seen = yield* eventually(() => liveProcesses(sleep.marker), (ps) => ps.length > 0, 10_000)
        expect(seen.length).toBeGreaterThan(0)
        yield* eventually(() => gate.state.waiting, (n) => n === 1, 10_000)
        yield* Fiber.interrupt(fiber)
        expect(yield* eventually(() => liveProcesses(sleep.marker), (ps) => ps.length === 0)).toEqual([])
        const [child] = yield* childrenOf("deleg-interrupted")
        expect(child).toBeDefined()
        expect((yield* Effect.flatMap(Environments, (e) => e.tasks)).filter((t) => t.includes(":deleg_"))).toEqual([])
      }))
  })
})

describe("roles and depth", () => {
  const agent = scriptedAgent([
    {
      when: { first_user_contains: "top", message_count: 2 },
      tool_calls: [{ name: "delegate_task", arguments: { tasks: [{ goal: "middle work", role: "orchestrator" }, { goal: "plain work", role: "bogus" }] } }]
    },
    {
      when: { system_contains: "TASK:\nmiddle work" },
      expect: { tools_include: ["delegate_task"], system_contains: "You are an orchestrator" },
      tool_calls: [{ name: "delegate_task", arguments: { goal: "leaf work", role: "orchestrator" } }]
    },
    { when: { system_contains: "TASK:\nleaf work" }, expect: { tools_exclude: ["delegate_task"] }, content: "leaf done" },
    { when: { system_contains: "TASK:\nmiddle work" }, expect: { last_contains: "leaf done" }, content: "middle done" },
    { when: { system_contains: "TASK:\nplain work" }, expect: { tools_exclude: ["delegate_task"] }, content: "plain done" },
    { when: { first_user_contains: "top", last_role: "tool" }, content: "waiting" },
    { when: { first_user_contains: "top", last_contains: "BATCH COMPLETE" }, content: "top done" }
  ], { delegation: { max_spawn_depth: 2 } })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("an orchestrator delegates (synchronously, below the top) while depth allows; a leaf never does", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "top", toolsets: PARENT_TOOLS })
        expect(result.response).toBe("top done")
        const report = (yield* history(result.sessionId)).find((m) => m.role === "user" && m.content!.includes("BATCH COMPLETE"))!.content!
        expect(report).toContain("--- ✓ TASK 1/2: middle work (status=completed, role=orchestrator")
        expect(report).toContain("--- ✓ TASK 2/2: plain work (status=completed, role=leaf")
        const middle = (yield* childrenOf(result.sessionId)).find((c) => c.preview?.includes("middle work"))!
        const sync = toolResults(yield* history(middle.id))[0]!
        const leaf = (sync["results"] as Array<Record<string, unknown>>)[0]!
        expect(leaf).toMatchObject({ status: "completed", summary: "leaf done", role: "leaf" })
        expect(yield* Effect.flatMap(store, (s) => s.lineage(leaf["session_id"] as string))).toEqual([leaf["session_id"], middle.id, result.sessionId])
      }))
  })
})

describe("approval in children", () => {
  const command = "rm -rf /tmp/hermes-effect-delegate-test-never-exists"
  const asked: Array<string> = []
  const agent = scriptedAgent([
    { when: { first_user_contains: "clean", message_count: 2 }, tool_calls: [{ name: "terminal", arguments: { command } }] },
    { when: { first_user_contains: "clean", last_role: "tool", last_contains: "exit_code" }, tool_calls: [{ name: "delegate_task", arguments: { goal: "tidy as well" } }] },
    { when: SUBAGENT, tool_calls: [{ name: "terminal", arguments: { command } }] },
    { when: SUBAGENT, expect: { last_contains: "BLOCKED" }, content: "the command was blocked" },
    { when: { first_user_contains: "clean", last_role: "tool" }, content: "waiting" },
    { when: { first_user_contains: "clean" }, expect: { last_contains: "the command was blocked" }, content: "done" }
  ], {}, { approver: ApproverCallback((p) => (asked.push(p.description), p.description.startsWith("subagent: ") ? "deny" : "once")) })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("a child's command goes to the parent's approver, marked as the subagent's", () =>
      Effect.gen(function*() {
        expect(detectCommand(command, { home: "/root", hermesHome: "/tmp/h" }).dangerous).toBe(true)
        const { result } = yield* runAgent({ prompt: "clean", toolsets: PARENT_TOOLS })
        expect(result.response).toBe("done")
        expect(asked).toHaveLength(2)
        expect(asked[0]!.startsWith("subagent: ")).toBe(false)
        expect(asked[1]!.startsWith("subagent: ")).toBe(true)
        const [child] = yield* childrenOf(result.sessionId)
        const childResults = toolResults(yield* history(child!.id))
        expect(String(childResults[0]!["error"])).toContain("BLOCKED")
      }))
  })
})

describe("approval in children with nobody to ask", () => {
  const command = "rm -rf /tmp/hermes-effect-delegate-test-never-exists-2"
  const agent = scriptedAgent([
    { when: { first_user_contains: "clean", message_count: 2 }, tool_calls: [{ name: "delegate_task", arguments: { goal: "tidy" } }] },
    { when: SUBAGENT, tool_calls: [{ name: "terminal", arguments: { command } }] },
    { when: SUBAGENT, content: "refused" },
    { when: { first_user_contains: "clean", last_role: "tool" }, content: "waiting" },
    { when: { first_user_contains: "clean" }, content: "done" }
  ])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("a non-interactive parent's child is refused", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "clean", toolsets: PARENT_TOOLS })
        expect(result.response).toBe("done")
        const [child] = yield* childrenOf(result.sessionId)
        expect(String(toolResults(yield* history(child!.id))[0]!["error"])).toContain("nobody is present to approve it")
      }))
  })
})

describe("orchestrators disabled", () => {
  const agent = scriptedAgent([
    { when: { first_user_contains: "top", message_count: 2 }, tool_calls: [{ name: "delegate_task", arguments: { goal: "middle work", role: "orchestrator" } }] },
    { when: SUBAGENT, expect: { tools_exclude: ["delegate_task"] }, content: "worked as a leaf" },
    { when: { first_user_contains: "top", last_role: "tool" }, content: "waiting" },
    { when: { first_user_contains: "top" }, expect: { last_contains: "Role: leaf" }, content: "done" }
  ], { delegation: { max_spawn_depth: 2, orchestrator_enabled: false } })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("delegation.orchestrator_enabled: false makes every child a leaf", () =>
      Effect.map(runAgent({ prompt: "top", toolsets: PARENT_TOOLS }), ({ result }) => expect(result.response).toBe("done")))
  })
})
