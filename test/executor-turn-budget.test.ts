import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { registerTool } from "../src/lib/tool/registerTool.js"
import { ResultStore } from "../src/services/ResultStore.js"
import { ToolExecutor } from "../src/services/ToolExecutor.js"
import type { CallOutcome } from "../src/services/ToolExecutor.js"
import { enforceTurnBudget } from "../src/layers/executor/turnBudget.js"
import { bigTool } from "./support/tools.js"
import { testRuntime } from "./support/runtime.js"

const PERSISTED = "<persisted-output>"
const savedPath = (result: string): string | undefined => /Full output saved to: (.+)/.exec(result)?.[1]

describe("per-turn result budget", () => {
  it.effect("over 200 000 chars in one turn, the largest results are persisted until the turn fits", () =>
    Effect.gen(function*() {
      yield* registerTool(bigTool)
      const executor = yield* ToolExecutor
      const outcomes = yield* executor.executeBatch([
        { tool: "big", args: { chars: 90_000 }, toolCallId: "a" },
        { tool: "big", args: { chars: 95_000 }, toolCallId: "b" },
        { tool: "big", args: { chars: 30_000 }, toolCallId: "c" }
      ], { context: { taskId: "turn" } })
      expect(outcomes.map((o) => o.result.startsWith(PERSISTED))).toEqual([false, true, false])
      expect(outcomes[0]!.result.length).toBeGreaterThan(89_000)
      const path = savedPath(outcomes[1]!.result)
      expect(readFileSync(path!, "utf8").length).toBeGreaterThan(94_000)
      expect(outcomes[1]!.result).toMatch(/This tool result was too large \(94,99\d characters/)
      expect(outcomes.reduce((n, o) => n + o.result.length, 0)).toBeLessThanOrEqual(200_000)
    }).pipe(Effect.provide(testRuntime())))

  it.effect("read_file results (never persisted on their own) still count and spill; the limit is configurable", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "turn-budget-"))
      const file = join(dir, "data.txt")
      writeFileSync(file, Array.from({ length: 4000 }, (_, i) => `row ${i} ${"x".repeat(40)}`).join("\n"))
      const executor = yield* ToolExecutor
      const outcomes = yield* executor.executeBatch([
        { tool: "read_file", args: { path: file, limit: 2000 }, toolCallId: "r1" },
        { tool: "read_file", args: { path: file, offset: 2001, limit: 100 }, toolCallId: "r2" }
      ], { context: { taskId: "turn", cwd: dir } })
      expect(outcomes[0]!.result.startsWith(PERSISTED)).toBe(true)
      expect(outcomes[1]!.result.startsWith(PERSISTED)).toBe(false)
      expect(JSON.parse(readFileSync(savedPath(outcomes[0]!.result)!, "utf8"))).toHaveProperty("content")
    }).pipe(Effect.provide(testRuntime({ tools: { turn_budget_chars: 50_000 } }))))

  it.effect("a budget of 0 disables it", () =>
    Effect.gen(function*() {
      yield* registerTool(bigTool)
      const executor = yield* ToolExecutor
      const outcomes = yield* executor.executeBatch([
        { tool: "big", args: { chars: 150_000 }, toolCallId: "p" },
        { tool: "big", args: { chars: 99_000 }, toolCallId: "q" },
        { tool: "big", args: { chars: 99_000 }, toolCallId: "s" }
      ])
      expect(outcomes[0]!.result.startsWith(PERSISTED)).toBe(true)
      expect(outcomes.slice(1).every((o) => !o.result.startsWith(PERSISTED) && o.result.length > 98_000)).toBe(true)
    }).pipe(Effect.provide(testRuntime({ tools: { turn_budget_chars: 0 } }))))

  it.effect("results already persisted count but are never persisted twice; multimodal results are never spilled", () =>
    Effect.gen(function*() {
      const store = yield* ResultStore
      const outcome = (result: string, extra: Partial<CallOutcome> = {}): CallOutcome =>
        ({ tool: "big", toolCallId: undefined, result, status: "ok", error: undefined, durationMs: 0, ...extra })
      const already = outcome(`${PERSISTED}\n${"p".repeat(150_000)}\n</persisted-output>`)
      const image = outcome("x".repeat(120_000), { parts: [{ type: "text", text: "see image" }] })
      const input = [already, image]
      expect(yield* enforceTurnBudget(store, input, 200_000, "t")).toBe(input)
      const small = outcome("y".repeat(10))
      const out = yield* enforceTurnBudget(store, [already, small, image], 100, "t")
      expect(out[0]).toBe(already)
      expect(out[2]).toBe(image)
      expect(out[1]!.result.startsWith(PERSISTED)).toBe(true)
    }).pipe(Effect.provide(testRuntime())))
})
