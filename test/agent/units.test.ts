/** The agent loop's pieces: budget notes, call screening, history repair, notification routing, the journal. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Queue, Scope, TestClock } from "effect"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { budgetWarning, stripBudgetWarnings, withBudgetWarning, withoutBudgetWarning } from "../../src/layers/agent/budget.js"
import { makeJournal, makeWindows } from "../../src/layers/agent/journal.js"
import { repairHistory, UNFINISHED_RESULT } from "../../src/layers/agent/messages.js"
import { makeMailbox } from "../../src/layers/agent/notifications.js"
import { INVALID_ARGUMENTS_RESULT, rejectCall, rejectTurn, SKIPPED_FOR_INVALID_NAME, withCallIds } from "../../src/layers/agent/toolCalls.js"
import type { ToolCallRequest } from "../../src/services/Model.js"
import type { ProcessesService, ProcessNotification } from "../../src/services/Processes.js"
import { SessionStoreError } from "../../src/services/SessionStore.js"
import type { NewMessage, SessionStoreService } from "../../src/services/SessionStore.js"

const call = (name: string, args: string, id = "c1"): ToolCallRequest => ({ id, type: "function", function: { name, arguments: args } })

describe("budget notes", () => {
  it("follow Hermes' thresholds and texts", () => {
    expect(budgetWarning(62, 90)).toBeUndefined()
    expect(budgetWarning(63, 90)).toBe("[BUDGET: Iteration 63/90. 27 iterations left. Start consolidating your work.]")
    expect(budgetWarning(81, 90)).toBe("[BUDGET WARNING: Iteration 81/90. Only 9 iteration(s) left. Provide your final response NOW.]")
  })

  it("ride on JSON results as a field and on text as a last line, and come off again", () => {
    const note = budgetWarning(9, 10)!
    const onJson = withBudgetWarning("{\"output\":\"x\"}", note)
    expect(JSON.parse(onJson)).toEqual({ output: "x", _budget_warning: note })
    const onText = withBudgetWarning("plain text", note)
    expect(onText).toBe(`plain text\n\n${note}`)
    expect(withoutBudgetWarning(onJson)).toBe("{\"output\":\"x\"}")
    expect(withoutBudgetWarning(onText)).toBe("plain text")
    expect(stripBudgetWarnings([{ role: "tool", tool_call_id: "a", content: onText }, { role: "user", content: onText }])).toEqual([
      { role: "tool", tool_call_id: "a", content: "plain text" },
      { role: "user", content: onText }
    ])
  })
})

describe("call screening", () => {
  const offered = ["echo", "read_file"]
  it("rejects unknown names (Hermes' plain text) and arguments that are not a JSON object; empty arguments are {}", () => {
    expect(rejectCall(call("nope", "{}"), new Set(offered), offered)).toBe("Tool 'nope' does not exist. Available tools: echo, read_file")
    const empty = rejectCall(call("", "{}"), new Set(offered), offered)!
    expect(empty).toMatch(/^Tool call rejected: the tool name was empty\. .*otherwise reply in plain text\.$/)
    expect(empty).not.toContain("read_file")
    expect(rejectCall(call("echo", "{oops"), new Set(offered), offered)).toBe(INVALID_ARGUMENTS_RESULT)
    expect(rejectCall(call("echo", "[1]"), new Set(offered), offered)).toBe(INVALID_ARGUMENTS_RESULT)
    expect(rejectCall(call("echo", ""), new Set(offered), offered)).toBeUndefined()
    expect(rejectCall(call("echo", "{\"text\":\"x\"}"), new Set(offered), offered)).toBeUndefined()
  })

  it("a turn with an unknown name runs none of its calls: the others are answered as skipped", () => {
    const calls = [{ ...call("echo", "{}"), id: "a" }, { ...call("reed_file", "{}"), id: "b" }, { ...call("echo", "{oops"), id: "c" }]
    expect([...rejectTurn(calls, new Set(offered), offered)]).toEqual([
      ["a", SKIPPED_FOR_INVALID_NAME],
      ["b", "Tool 'reed_file' does not exist. Available tools: echo, read_file"],
      ["c", SKIPPED_FOR_INVALID_NAME]
    ])
    const fine = [{ ...call("echo", "{}"), id: "a" }, { ...call("echo", "{oops"), id: "c" }]
    expect([...rejectTurn(fine, new Set(offered), offered)]).toEqual([["c", INVALID_ARGUMENTS_RESULT]])
  })

  it("gives missing and repeated ids ones of their own", () => {
    const calls = withCallIds([call("a", "{}", ""), call("b", "{}", "x"), call("c", "{}", "x")], 4)
    expect(calls.map((c) => c.id)).toEqual(["call_4_1", "x", "call_4_3"])
    const fine = [call("a", "{}", "p"), call("b", "{}", "q")]
    expect(withCallIds(fine, 1)).toBe(fine)
  })
})

describe("history repair", () => {
  it("answers calls a killed run left without results, so the history is valid for the model", () => {
    const repaired = repairHistory([
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [call("a", "{}", "x"), call("b", "{}", "y")] },
      { role: "tool", tool_call_id: "x", content: "done" },
      { role: "user", content: "again" }
    ])
    expect(repaired.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"])
    expect(repaired[3]).toEqual({ role: "tool", tool_call_id: "y", name: "b", content: UNFINISHED_RESULT })
  })
})

describe("notification routing", () => {
  const note = (processId: string, taskId: string, sessionId: string | undefined): ProcessNotification => ({
    type: "completion",
    processId,
    command: "true",
    taskId,
    sessionId,
    exitCode: 0,
    completionReason: "exited",
    output: ""
  })

  it.effect("goes to the run of the session, else the shallowest run of the task, else waits for one", () =>
    Effect.gen(function*() {
      const queue = yield* Queue.unbounded<ProcessNotification>()
      const processes = { drainNotifications: Effect.map(Queue.takeAll(queue), (c) => [...c]) } as unknown as ProcessesService
      const mailbox = makeMailbox(processes)
      yield* mailbox.open("parent", "task", 0)
      yield* mailbox.open("child", "task", 1)
      yield* Queue.offerAll(queue, [note("p1", "task", "child"), note("p2", "task", undefined), note("p3", "other", "later"), note("p4", "task", "gone")])
      expect((yield* mailbox.take("child")).map((n) => n.processId)).toEqual(["p1"])
      expect((yield* mailbox.take("parent")).map((n) => n.processId)).toEqual(["p2", "p4"])
      expect(yield* mailbox.take("parent")).toEqual([])
      yield* mailbox.open("later", "other", 0)
      expect((yield* mailbox.take("later")).map((n) => n.processId)).toEqual(["p3"])
    }))
})

describe("journal", () => {
  const recording = (fail = false) => {
    const appends: Array<ReadonlyArray<NewMessage>> = []
    const store = {
      append: (_: string, messages: ReadonlyArray<NewMessage>) =>
        fail ? Effect.fail(new SessionStoreError({ operation: "append", message: "disk full" })) : Effect.sync(() => (appends.push(messages), []))
    } as unknown as SessionStoreService
    return { appends, store }
  }
  const msg = (content: string): NewMessage => ({ role: "user", content })

  it.scoped("commits the writes of one window together, in order; flush stores the rest at once", () =>
    Effect.gen(function*() {
      const { appends, store } = recording()
      const journal = makeJournal(store, "s", yield* Effect.scope)
      yield* journal.write([msg("1")])
      yield* journal.write([msg("2"), msg("3")])
      expect(appends).toEqual([])
      yield* TestClock.adjust("10 millis")
      yield* Effect.yieldNow()
      expect(appends.map((batch) => batch.map((m) => m.content))).toEqual([["1", "2", "3"]])
      yield* journal.write([msg("4")])
      const flushing = yield* Effect.fork(journal.flush)
      yield* Fiber.join(flushing)
      expect(appends.map((batch) => batch.map((m) => m.content))).toEqual([["1", "2", "3"], ["4"]])
    }))

  it.scoped("a run that flushed before its window ended is not kept alive by the window still queued", () =>
    Effect.gen(function*() {
      setFlagsFromString("--expose-gc")
      const gc = runInNewContext("gc") as () => void
      const windows = yield* makeWindows(yield* Effect.scope)
      // The first run's window holds the shared timer (the test clock does not move), so the next one waits behind it.
      const first = makeJournal(recording().store, "a", yield* Effect.scope, windows)
      yield* first.write([msg("1")])
      yield* Effect.yieldNow()
      // The second run writes, flushes (its window is cancelled while still queued) and ends.
      const second = Effect.gen(function*() {
        const { appends, store } = recording()
        const scope = yield* Scope.make()
        const journal = makeJournal(store, "b", scope, windows)
        yield* journal.write([msg("2")])
        yield* journal.flush
        yield* Scope.close(scope, Exit.void)
        expect(appends.map((batch) => batch.map((m) => m.content))).toEqual([["2"]])
        return new WeakRef(store)
      })
      const ended = yield* second
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      gc()
      expect(ended.deref()).toBeUndefined()
    }))

  it.scoped("a failed write fails flush and the next write", () =>
    Effect.gen(function*() {
      const { store } = recording(true)
      const journal = makeJournal(store, "s", yield* Effect.scope)
      yield* journal.write([msg("1")])
      yield* TestClock.adjust("10 millis")
      yield* Effect.yieldNow()
      expect(yield* Effect.flip(journal.flush)).toMatchObject({ _tag: "SessionStoreError", message: "disk full" })
      expect(yield* Effect.flip(journal.write([msg("2")]))).toMatchObject({ _tag: "SessionStoreError" })
    }))
})
