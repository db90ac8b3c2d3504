/**
 * read_terminal / close_terminal, headless: the screen of a background
 * session (real processes, PTY and pipes), paging, and closing the view
 * without killing the process.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Processes } from "../../src/services/Processes.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { screenLines } from "../../src/tools/terminalView.js"
import { tempHome, testRuntime } from "../support/runtime.js"

type Json = Record<string, unknown>

const root = tempHome("hermes-terminal-view-")
const cwd = join(root, "cwd")
mkdirSync(cwd)

layer(testRuntime({ terminal: { cwd } }), { excludeTestServices: true, timeout: "60 seconds" })("read_terminal / close_terminal", (it) => {
  const call = (tool: string, args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId } })).pipe(Effect.map((s) => JSON.parse(s) as Json))
  const waitFor = (id: unknown, taskId: string) => call("process", { action: "wait", session_id: id, timeout: 20 }, taskId)

  it.effect("the visible screen is the last rows; start_line/count page the scrollback", () =>
    Effect.gen(function*() {
      const started = yield* call("terminal", { command: "seq 1 60", background: true }, "v1")
      yield* waitFor(started["session_id"], "v1")
      const screen = yield* call("read_terminal", {}, "v1")
      expect(screen).toMatchObject({ process_id: started["session_id"], status: "exited", total_lines: 60, start: 36, end: 60, viewport_rows: 24 })
      expect(String(screen["text"]).split("\n")).toEqual(Array.from({ length: 24 }, (_, i) => String(37 + i)))
      const page = yield* call("read_terminal", { process_id: started["session_id"], start_line: 0, count: 3 }, "v1")
      expect(page).toMatchObject({ start: 0, end: 3, text: "1\n2\n3" })
      const past = yield* call("read_terminal", { start_line: 500, count: 0 }, "v1")
      expect(past).toMatchObject({ start: 60, end: 60, text: "" })
    }))

  it.effect("a PTY session's redrawn line shows its last state", () =>
    Effect.gen(function*() {
      const started = yield* call("terminal", { command: "printf 'loading 10%%\\rloading 100%%\\ndone\\n'", background: true, pty: true }, "v2")
      yield* waitFor(started["session_id"], "v2")
      const screen = yield* call("read_terminal", {}, "v2")
      expect(String(screen["text"]).split("\n").slice(-2)).toEqual(["loading 100%", "done"])
    }))

  it.effect("close_terminal hides the session from the default view but never kills it", () =>
    Effect.gen(function*() {
      const older = yield* call("terminal", { command: "echo older; sleep 30", background: true }, "v3")
      const newer = yield* call("terminal", { command: "echo newer; sleep 30", background: true }, "v3")
      expect((yield* call("read_terminal", {}, "v3"))["process_id"]).toBe(newer["session_id"])
      const closed = yield* call("close_terminal", { process_id: newer["session_id"] }, "v3")
      expect(closed).toMatchObject({ status: "ok", closed: newer["session_id"] })
      const info = yield* Effect.flatMap(Processes, (p) => p.get(String(newer["session_id"])))
      expect(info.status).toBe("running")
      expect((yield* call("read_terminal", {}, "v3"))["process_id"]).toBe(older["session_id"])
      // Reading it by id opens the view again.
      expect((yield* call("read_terminal", { process_id: newer["session_id"] }, "v3"))["process_id"]).toBe(newer["session_id"])
      expect((yield* call("read_terminal", {}, "v3"))["process_id"]).toBe(newer["session_id"])
      expect(yield* call("close_terminal", { process_id: "proc_gone" }, "v3")).toMatchObject({ status: "ok" })
      expect(String((yield* call("close_terminal", { process_id: " " }, "v3"))["error"])).toContain("process_id is required")
      yield* Effect.flatMap(Processes, (p) => p.closeTask("v3"))
    }))

  it.effect("no session, or an unknown id, is an error the model can act on", () =>
    Effect.gen(function*() {
      expect(String((yield* call("read_terminal", {}, "empty"))["error"])).toContain("terminal(background=true)")
      expect((yield* call("read_terminal", { process_id: "proc_nope" }, "empty"))["error"]).toBeDefined()
    }))
})

describe("screenLines", () => {
  it("a carriage return redraws the line; escape sequences are dropped", () => {
    expect(screenLines("a\rb\n\u001b[31mred\u001b[0m\n")).toEqual(["b", "red"])
    expect(screenLines("")).toEqual([])
  })
})
