/** The agent loop on scripted conversations: real tools, real SQLite, real processes. */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, layer as withLayer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { PrompterCallback } from "../../src/layers/Prompters.js"
import { INTERRUPTED_RESULT } from "../../src/layers/agent/turnLoop.js"
import { INVALID_ARGUMENTS_RESULT, SKIPPED_FOR_INVALID_NAME } from "../../src/layers/agent/toolCalls.js"
import { Hooks } from "../../src/services/Hooks.js"
import type { PostLlmCallEvent } from "../../src/services/Hooks.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import type { ToolMessage } from "../../src/services/Model.js"
import { eventually, liveProcesses, uniqueSleep } from "../support/processes.js"
import { json, rendezvousTool, runAgent, scriptedAgent } from "./helpers.js"

const TESTING = { enabled: ["file", "terminal", "testing", "clarify"] }

const history = (sessionId: string) => Effect.flatMap(SessionStore, (s) => s.history(sessionId))

describe("a multi-tool turn", () => {
  const dir = mkdtempSync(join(tmpdir(), "hermes-effect-agent-"))
  writeFileSync(join(dir, "a.txt"), "alpha contents\n")
  writeFileSync(join(dir, "b.txt"), "bravo contents\n")
  const meet = rendezvousTool(2)
  const agent = scriptedAgent([
    {
      content: "Reading both.",
      tool_calls: [
        { name: "read_file", arguments: { path: join(dir, "a.txt") } },
        { name: "read_file", arguments: { path: join(dir, "b.txt") } },
        { name: "rendezvous", arguments: { who: "first" } },
        { name: "rendezvous", arguments: { who: "second" } }
      ]
    },
    { expect: { last_role: "tool", contains: "bravo contents" }, content: "Both files read." }
  ], {}, {}, [meet.layer])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("runs the calls as one batch, in parallel, and stores every message in order", () =>
      Effect.gen(function*() {
        const { events, result } = yield* runAgent({ prompt: "read a and b", toolsets: TESTING, cwd: dir })
        expect(result).toMatchObject({ status: "completed", response: "Both files read.", iterations: 2, toolCalls: 4 })
        expect(meet.state.most).toBe(2)
        const stored = yield* history(result.sessionId)
        expect(stored.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "tool", "tool", "assistant"])
        expect(stored[1]!.content).toBe("read a and b")
        expect(stored[2]!.toolCalls?.map((c) => c.function.name)).toEqual(["read_file", "read_file", "rendezvous", "rendezvous"])
        expect(stored.slice(3, 7).map((m) => m.toolCallId)).toEqual(stored[2]!.toolCalls!.map((c) => c.id))
        expect(stored[3]!.content).toContain("alpha contents")
        expect(stored[4]!.content).toContain("bravo contents")
        expect(stored[6]!.content).toBe("second met 1 others")
        // The model saw the same conversation the store holds.
        expect(agent.requests[1]!.messages.map((m) => m.role)).toEqual(stored.slice(0, 7).map((m) => m.role))
        const finishedIds = events.flatMap((e) => (e._tag === "ToolFinished" ? [e.toolCallId] : []))
        expect([...finishedIds].sort()).toEqual(stored[2]!.toolCalls!.map((c) => c.id).sort())
        const session = yield* Effect.flatMap(SessionStore, (s) => s.get(result.sessionId))
        expect(session).toMatchObject({ source: "cli", messageCount: 8, toolCallCount: 4 })
      }))
  })
})

describe("failing and malformed calls", () => {
  const RECOVERS = { first_user_contains: "recover" }
  const agent = scriptedAgent([
    { when: RECOVERS, tool_calls: [{ name: "fails", arguments: { why: "disk full" } }] },
    {
      when: RECOVERS,
      expect: { last_contains: "it broke: disk full" },
      tool_calls: [{ name: "reed_file", arguments: { path: "x" } }, { name: "echo", arguments: { text: "skipped" } }]
    },
    { when: RECOVERS, expect: { last_role: "tool", last_contains: "Skipped: another tool call" }, tool_calls: [{ name: "echo", arguments: "{oops" }] },
    { when: RECOVERS, expect: { last_role: "tool", last_contains: "Invalid tool arguments" }, tool_calls: [{ name: "echo", arguments: { text: "fixed" } }] },
    { when: RECOVERS, expect: { last_contains: "fixed" }, content: "Recovered." },
    // The stubborn session skips the turns above and gets this one four times.
    { when: { first_user_contains: "stubborn" }, tool_calls: [{ name: "nope" }], repeat: 4 }
  ])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("a failing tool and malformed calls are answered with errors the model can fix, then the run recovers", () =>
      Effect.gen(function*() {
        const { events, result } = yield* runAgent({ prompt: "recover please", toolsets: TESTING, sessionId: "malformed-1" })
        expect(result).toMatchObject({ status: "completed", response: "Recovered.", iterations: 5 })
        const tools = (yield* history(result.sessionId)).filter((m) => m.role === "tool")
        expect(json(tools[0]!.content)).toEqual({ error: "it broke: disk full" })
        // Hermes' loop answers an unknown name in plain text and runs no call of that turn.
        expect(tools[1]!.content).toMatch(/^Tool 'reed_file' does not exist\. Available tools: .*\becho\b.*\bread_file\b/)
        expect(tools[2]!.content).toBe(SKIPPED_FOR_INVALID_NAME)
        expect(tools[3]!.content).toBe(INVALID_ARGUMENTS_RESULT)
        expect(json(tools[4]!.content)).toMatchObject({ text: "fixed" })
        expect(events.filter((e) => e._tag === "Notice" && e.kind === "invalid_tool_call")).toHaveLength(3)
      }))

    it.effect("after 3 retries a fourth malformed turn stops the run, with every answer stored", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "stubborn", toolsets: TESTING, sessionId: "malformed-2" })
        expect(result).toMatchObject({ status: "invalid_tool_calls", iterations: 4 })
        const stored = yield* history(result.sessionId)
        expect(stored.filter((m) => m.role === "assistant")).toHaveLength(result.iterations)
        expect(stored[stored.length - 1]!.role).toBe("tool")
      }))
  })
})

describe("the iteration budget", () => {
  const agent = scriptedAgent([
    { tool_calls: [{ name: "echo", arguments: { text: "step" } }], repeat: 10 },
    { expect: { last_contains: "You have used all 10 iterations" }, content: "Summary: ten steps done." }
  ], { agent: { max_turns: 10 } })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("warns at 70% and 90% in the last tool result, then asks for a summary without tools", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "loop", toolsets: TESTING })
        expect(result).toMatchObject({ status: "budget_exhausted", response: "Summary: ten steps done.", iterations: 11, toolCalls: 10 })
        const tools = (yield* history(result.sessionId)).filter((m) => m.role === "tool").map((m) => json(m.content))
        expect(tools.slice(0, 6).every((t) => !("_budget_warning" in t))).toBe(true)
        expect(tools[6]!["_budget_warning"]).toBe("[BUDGET: Iteration 7/10. 3 iterations left. Start consolidating your work.]")
        expect(tools[7]!["_budget_warning"]).toBe("[BUDGET: Iteration 8/10. 2 iterations left. Start consolidating your work.]")
        expect(tools[8]!["_budget_warning"]).toBe("[BUDGET WARNING: Iteration 9/10. Only 1 iteration(s) left. Provide your final response NOW.]")
        expect(tools[6]).toMatchObject({ text: "step" })
        const last = agent.requests[agent.requests.length - 1]!
        expect(last.tools).toBeUndefined()
        expect(agent.requests[9]!.tools?.length).toBeGreaterThan(0)
      }))
  })
})

describe("interruption mid-tool", () => {
  const sleep = uniqueSleep()
  const agent = scriptedAgent([
    { tool_calls: [{ name: "echo", arguments: { text: "before" } }, { name: "terminal", arguments: { command: sleep.command } }] }
  ])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("kills the running command and stores the results that arrived", () =>
      Effect.gen(function*() {
        const fiber = yield* Effect.fork(runAgent({ prompt: "sleep", toolsets: TESTING, sessionId: "interrupted-1" }))
        const seen = yield* eventually(() => liveProcesses(sleep.marker), (ps) => ps.length > 0, 10_000)
        expect(seen.length).toBeGreaterThan(0)
        yield* Fiber.interrupt(fiber)
        expect(yield* eventually(() => liveProcesses(sleep.marker), (ps) => ps.length === 0)).toEqual([])
        const stored = yield* history("interrupted-1")
        expect(stored.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool"])
        expect(json(stored[3]!.content)).toMatchObject({ text: "before" })
        expect(stored[4]!.content).toBe(INTERRUPTED_RESULT)
        expect(stored[4]!.toolName).toBe("terminal")
      }))
  })
})

describe("clarify with a test prompter", () => {
  const asked: Array<string> = []
  const agent = scriptedAgent([
    { tool_calls: [{ name: "clarify", arguments: { question: "Which colour?", choices: ["red", "blue"] } }] },
    { expect: { last_contains: "blue" }, content: "Blue it is." }
  ], {}, { prompter: PrompterCallback((q) => (asked.push(q.question), q.choices![1]!)) })

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("asks the prompter and gives the model its answer", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "paint it", toolsets: TESTING })
        expect(result.response).toBe("Blue it is.")
        expect(asked).toEqual(["Which colour?"])
        const tool = result.messages.find((m): m is ToolMessage => m.role === "tool")!
        expect(json(tool.content)).toEqual({ question: "Which colour?", choices_offered: ["red", "blue"], user_response: "blue" })
      }))
  })
})

describe("resume from the store", () => {
  const agent = scriptedAgent([
    { content: "First answer." },
    { expect: { contains: "First answer.", last_contains: "second question" }, content: "Second answer." }
  ])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("continues a session with its history, keeping one system prompt", () =>
      Effect.gen(function*() {
        const first = yield* runAgent({ prompt: "first question", toolsets: TESTING, sessionId: "resumable" })
        expect(first.result.response).toBe("First answer.")
        const second = yield* runAgent({ prompt: "second question", toolsets: TESTING, sessionId: "resumable", resume: true })
        expect(second.result.response).toBe("Second answer.")
        expect(second.events[0]).toMatchObject({ _tag: "SessionStarted", sessionId: "resumable", resumed: true })
        const stored = yield* history("resumable")
        expect(stored.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant"])
        expect(agent.requests[1]!.messages[0]).toEqual(agent.requests[0]!.messages[0])
        const missing = yield* Effect.flip(runAgent({ prompt: "x", sessionId: "no-such-session", resume: true }))
        expect(missing).toMatchObject({ _tag: "SessionNotFound", sessionId: "no-such-session" })
      }))
  })
})

describe("background-process notifications", () => {
  const agent = scriptedAgent([
    { tool_calls: [{ name: "terminal", arguments: { command: "echo finished-marker", background: true, notify_on_complete: true } }] },
    { tool_calls: [{ name: "settle" }] },
    { expect: { last_role: "user", last_contains: "finished-marker" }, content: "The job finished." }
  ])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("are injected between turns as a user message", () =>
      Effect.gen(function*() {
        const { events, result } = yield* runAgent({ prompt: "start a job", toolsets: TESTING })
        expect(result.response).toBe("The job finished.")
        const stored = yield* history(result.sessionId)
        const note = stored.find((m) => m.role === "user" && (m.content ?? "").startsWith("[Background process update]"))
        expect(note?.content).toMatch(/exited with code 0\.\nCommand: echo finished-marker\nLast output:\nfinished-marker/)
        expect(events.some((e) => e._tag === "Notice" && e.kind === "process")).toBe(true)
      }))
  })
})

describe("LLM hooks and streaming", () => {
  const agent = scriptedAgent([{ expect: { last_contains: "Remember: be brief." }, chunks: ["Bri", "ef."] }])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("pre_llm_call adds context to the turn (not stored), post_llm_call sees the answer, deltas stream", () =>
      Effect.gen(function*() {
        const hooks = yield* Hooks
        const after: Array<PostLlmCallEvent> = []
        yield* hooks.register("test", {
          pre_llm_call: (e) => Effect.succeed(e.isFirstTurn ? "Remember: be brief." : undefined),
          post_llm_call: (e) => Effect.sync(() => void after.push(e))
        })
        const { events, result } = yield* runAgent({ prompt: "say something", stream: true })
        expect(result.response).toBe("Brief.")
        expect(events.flatMap((e) => (e._tag === "TextDelta" ? [e.text] : []))).toEqual(["Bri", "ef."])
        expect(agent.requests[0]!.messages[1]).toEqual({ role: "user", content: "say something\n\nRemember: be brief." })
        const stored = yield* history(result.sessionId)
        expect(stored[1]!.content).toBe("say something")
        expect(after.map((e) => [e.userMessage, e.assistantResponse])).toEqual([["say something", "Brief."]])
      }))
  })
})
