/** A call's handler runs in the caller's trace: its spans are children of the span the call was made under. */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { defineTool } from "../src/lib/tool/defineTool.js"
import { registerTool } from "../src/lib/tool/registerTool.js"
import { ToolExecutor } from "../src/services/ToolExecutor.js"
import { tempHome, testRuntime } from "./support/runtime.js"
import { parentId, recordingTracer } from "./support/tracing.js"

const spanTool = (name: string, suspend: boolean) =>
  defineTool({
    name,
    toolset: "testing",
    description: "Opens a span inside its handler.",
    parameters: Schema.Struct({}),
    handler: () => Effect.withSpan(suspend ? Effect.as(Effect.yieldNow(), "ok") : Effect.succeed("ok"), `${name}.inner`)
  })

describe("executor tracing", () => {
  it.layer(testRuntime())((it) => {
    for (const suspend of [false, true]) {
      it.effect(`a ${suspend ? "suspending" : "synchronous"} handler's span is a child of the caller's span`, () =>
        Effect.gen(function*() {
          const name = suspend ? "span_async" : "span_sync"
          yield* registerTool(spanTool(name, suspend))
          const executor = yield* ToolExecutor
          const { spans, tracer } = yield* recordingTracer
          const turn = yield* Effect.withSpan(
            Effect.zipRight(executor.dispatch({ tool: name, args: {} }), Effect.currentSpan),
            "turn"
          ).pipe(Effect.withTracer(tracer))
          const inner = spans.find((s) => s.name === `${name}.inner`)
          expect(inner).toBeDefined()
          expect(parentId(inner)).toBe(turn.spanId)
          expect(inner?.traceId).toBe(turn.traceId)
        }))
    }
  })

  // Spans on the per-call paths are made only under an installed tracer (observedFn): there, one terminal command is
  // one chain of them under the caller's span, down to the approval of the command.
  layer(testRuntime({ terminal: { cwd: tempHome("hermes-tracing-cwd-") } }), { excludeTestServices: true })((it) => {
    it.effect("a terminal call is one chain of spans under an installed tracer, down to the approval", () =>
      Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const { spans, tracer } = yield* recordingTracer
        const plain = yield* executor.dispatch({ tool: "terminal", args: { command: "echo plain" } }, { context: { taskId: "traced" } })
        expect(JSON.parse(plain)).toMatchObject({ output: "plain", exit_code: 0 })
        const turn = yield* Effect.withSpan(
          Effect.zipRight(executor.dispatch({ tool: "terminal", args: { command: "echo traced" } }, { context: { taskId: "traced" } }), Effect.currentSpan),
          "turn"
        ).pipe(Effect.withTracer(tracer))
        const named = (name: string) => spans.find((s) => s.name === name)
        expect(parentId(named("terminal"))).toBe(turn.spanId)
        expect(parentId(named("Shell.run"))).toBe(named("terminal")?.spanId)
        expect(parentId(named("Approval.check"))).toBe(named("Shell.run")?.spanId)
        expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([turn.traceId]))
      }))
  })
})
