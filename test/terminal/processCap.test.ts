/**
 * Background processes are capped per task (`terminal.max_background_per_task`)
 * and per runtime (`terminal.max_background`): one more is a tool error that
 * names the cap, its key and how to free a place; a finished or killed
 * process frees its place.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Processes } from "../../src/services/Processes.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome, testRuntime } from "../support/runtime.js"

type Json = Record<string, unknown>

const root = tempHome("hermes-process-cap-")
const cwd = join(root, "cwd")
mkdirSync(cwd)

layer(testRuntime({ terminal: { cwd, max_background_per_task: 2, max_background: 3 } }), { excludeTestServices: true, timeout: "60 seconds" })(
  "background process caps",
  (it) => {
    const call = (tool: string, args: Json, taskId: string) =>
      Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId } })).pipe(Effect.map((s) => JSON.parse(s) as Json))
    const start = (taskId: string, command = "sleep 1000") => call("terminal", { command, background: true }, taskId)

    it.effect("per task, then per runtime; killing or finishing frees a place", () =>
      Effect.gen(function*() {
        const a1 = yield* start("a")
        yield* start("a")
        const refused = yield* start("a")
        expect(refused).toMatchObject({ output: "", exit_code: -1, status: "error" })
        expect(String(refused["error"])).toContain("2 background processes")
        expect(String(refused["error"])).toContain("terminal.max_background_per_task")
        expect(String(refused["error"])).toContain("process(action=\"kill\"")
        expect(refused["session_id"]).toBeUndefined()

        // Another task has its own count, up to the runtime's cap.
        yield* start("b")
        const full = yield* start("b")
        expect(full).toMatchObject({ exit_code: -1, status: "error" })
        expect(String(full["error"])).toContain("terminal.max_background = 3")

        // Refused starts ran nothing.
        expect((yield* Effect.flatMap(Processes, (p) => p.list())).filter((p) => p.status === "running")).toHaveLength(3)

        expect(yield* call("process", { action: "kill", session_id: a1["session_id"] }, "a")).toMatchObject({ status: "killed" })
        const again = yield* start("b", "sleep 0.2")
        expect(again["session_id"]).toMatch(/^proc_/)
        yield* call("process", { action: "wait", session_id: again["session_id"], timeout: 10 }, "b")
        expect((yield* start("a"))["session_id"]).toMatch(/^proc_/)
        yield* Effect.flatMap(Processes, (p) => Effect.all([p.closeTask("a"), p.closeTask("b")]))
      }))

    it.effect("concurrent starts cannot pass the cap together", () =>
      Effect.gen(function*() {
        const results = yield* Effect.all(Array.from({ length: 6 }, () => start("c")), { concurrency: "unbounded" })
        expect(results.filter((r) => typeof r["session_id"] === "string")).toHaveLength(2)
        expect(results.filter((r) => r["status"] === "error")).toHaveLength(4)
        yield* Effect.flatMap(Processes, (p) => p.closeTask("c"))
      }))
  }
)
