/**
 * Arguments as Hermes takes them: normalised where running is safe (the model
 * has learnt to rely on it), refused otherwise, and refusals that name the
 * expected type and bound.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ToolExecutor } from "../src/services/ToolExecutor.js"
import { tempHome, testRuntime } from "./support/runtime.js"

const cwd = join(tempHome("hermes-arguments-"), "cwd")
mkdirSync(cwd)

const call = (tool: string, args: unknown) =>
  Effect.flatMap(ToolExecutor, (executor) => executor.dispatch({ tool, args }, { context: { taskId: "args", sessionId: "args" } })).pipe(
    Effect.map((text) => JSON.parse(text) as Record<string, unknown>)
  )

const runtime = () => testRuntime({ terminal: { cwd } }, { mcp: false })

describe("lenient where Hermes is", () => {
  it.effect("todo: an unknown status is pending, a missing id or content gets Hermes' placeholder, a non-object item is kept as invalid", () =>
    Effect.gen(function*() {
      const out = yield* call("todo", {
        todos: [
          { id: "1", content: "first", status: "bogus" },
          { id: "2", content: "second", status: " Completed " },
          { content: "no id", status: "in_progress" },
          { id: "4", status: "pending" },
          5
        ]
      })
      expect(out["todos"]).toEqual([
        { id: "1", content: "first", status: "pending" },
        { id: "2", content: "second", status: "completed" },
        { id: "?", content: "no id", status: "in_progress" },
        { id: "4", content: "(no description)", status: "pending" },
        { id: "?", content: "(invalid item)", status: "pending" }
      ])
    }).pipe(Effect.provide(runtime())))

  it.live("terminal: timeout 0 runs with the default timeout; {} and a non-string command get Hermes' invalid-command result", () =>
    Effect.gen(function*() {
      expect(yield* call("terminal", { command: "echo zero", timeout: 0 })).toEqual({ output: "zero", exit_code: 0, error: null })
      expect(yield* call("terminal", "{\"command\": \"echo text\", \"timeout\": \"0\"}")).toEqual({ output: "text", exit_code: 0, error: null })
      expect(yield* call("terminal", {})).toEqual({ output: "", exit_code: -1, error: "Invalid command: expected string, got NoneType", status: "error" })
      expect(yield* call("terminal", { command: 5 })).toEqual({ output: "", exit_code: -1, error: "Invalid command: expected string, got int", status: "error" })
      expect(yield* call("terminal", { command: ["ls"] })).toMatchObject({ error: "Invalid command: expected string, got list" })
    }).pipe(Effect.provide(runtime())))

  it.effect("memory: without target (or with null) the change goes to 'memory'", () =>
    Effect.gen(function*() {
      const added = yield* call("memory", { action: "add", content: "The build uses pnpm." })
      expect(added).toMatchObject({ success: true, target: "memory", entry_count: 1 })
      const again = yield* call("memory", { action: "add", target: null, content: "Tests use vitest." })
      expect(again).toMatchObject({ success: true, target: "memory", entry_count: 2 })
      const user = yield* call("memory", { action: "add", target: "user", content: "Likes short answers." })
      expect(user).toMatchObject({ success: true, target: "user", entry_count: 1 })
    }).pipe(Effect.provide(runtime())))

  it.live("read_file {} answers File not found; offsets and limits out of range are clamped, not refused", () =>
    Effect.gen(function*() {
      expect((yield* call("read_file", {}))["error"]).toMatch(/^File not found/)
      const file = join(cwd, "lines.txt")
      writeFileSync(file, "a\nb\nc\n")
      const read = yield* call("read_file", { path: file, offset: 0, limit: 5000 })
      expect(read["content"]).toBe("1|a\n2|b\n3|c")
    }).pipe(Effect.provide(runtime())))

  it.live("search_files still takes Hermes' legacy targets grep and find; patch without mode replaces", () =>
    Effect.gen(function*() {
      const file = join(cwd, "needle.txt")
      writeFileSync(file, "hay\nneedle\nhay\n")
      const grep = yield* call("search_files", { pattern: "needle", target: "grep", path: cwd })
      expect(JSON.stringify(grep)).toContain("needle.txt")
      const find = yield* call("search_files", { pattern: "needle*", target: "find", path: cwd })
      expect(JSON.stringify(find)).toContain("needle.txt")
      const patched = yield* call("patch", { path: file, old_string: "needle", new_string: "pin" })
      expect(patched["success"]).toBe(true)
      expect(readFileSync(file, "utf8")).toBe("hay\npin\nhay\n")
    }).pipe(Effect.provide(runtime())))
})

describe("refused where a value cannot mean anything, with the type and bound named", () => {
  it.effect("a constrained number names the integer and its bound, never the description", () =>
    Effect.gen(function*() {
      expect((yield* call("process", { action: "wait", session_id: "proc_x", timeout: 0 }))["error"]).toBe(
        "Invalid argument 'timeout' for tool 'process': expected an integer ≥ 1, got 0; tool was not executed."
      )
      expect((yield* call("process", { action: "log", session_id: "proc_x", limit: 2.5 }))["error"]).toBe(
        "Invalid argument 'limit' for tool 'process': expected an integer ≥ 1, got 2.5; tool was not executed."
      )
      expect((yield* call("terminal", { command: "true", timeout: "soon" }))["error"]).toBe(
        "Invalid argument 'timeout' for tool 'terminal': expected an integer ≥ 1, got \"soon\"; tool was not executed."
      )
    }).pipe(Effect.provide(runtime())))

  it.effect("enums list their values; required values stay required", () =>
    Effect.gen(function*() {
      expect((yield* call("memory", { action: "add", target: "team", content: "x" }))["error"]).toBe(
        "Invalid argument 'target' for tool 'memory': expected one of \"memory\", \"user\", got \"team\"; tool was not executed."
      )
      expect((yield* call("patch", { mode: "rewrite", path: "x" }))["error"]).toBe(
        "Invalid argument 'mode' for tool 'patch': expected one of \"replace\", \"patch\", got \"rewrite\"; tool was not executed."
      )
      expect((yield* call("search_files", { pattern: "x", target: "everything" }))["error"]).toBe(
        "Invalid argument 'target' for tool 'search_files': expected one of \"content\", \"files\", \"grep\", \"find\", got \"everything\"; tool was not executed."
      )
      expect((yield* call("write_file", { path: "x" }))["error"]).toBe("Invalid argument 'content' for tool 'write_file': is required; tool was not executed.")
      expect((yield* call("todo", { merge: "maybe" }))["error"]).toBe(
        "Invalid argument 'merge' for tool 'todo': expected a boolean, got \"maybe\"; tool was not executed."
      )
    }).pipe(Effect.provide(runtime())))
})
