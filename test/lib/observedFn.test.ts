/**
 * observedFn / observedSpan: Effect.fn's span only when a tracer is
 * installed. Under the native tracer the function runs without one; under any
 * other tracer its span has Effect.fn's name, attributes and parent.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import { observedFn, observedSpan } from "../../src/lib/effect/observedFn.js"
import { recordingTracer } from "../support/tracing.js"

class Counter {
  count = 2
  add = observedFn("Counter.add")(function*(this: Counter, n: number) {
    const span = yield* Effect.option(Effect.currentSpan)
    return { total: this.count + n, span: Option.map(span, (s) => s.name) }
  })
}

const failing = observedFn("Failing.run")(function*(reason: string) {
  yield* Effect.void
  return yield* Effect.fail(new Error(reason))
})

const piped = observedFn("Piped.run", { attributes: { kind: "test" } })(
  function*(n: number) {
    return n * 2
  },
  (effect, n) => Effect.map(effect, (doubled) => `${n} doubled is ${doubled}`)
)

describe("observedFn", () => {
  it.effect("runs without a span when no tracer is installed, with `this`, arguments and result as given", () =>
    Effect.gen(function*() {
      const counter = new Counter()
      const out = yield* counter.add(3)
      expect(out).toEqual({ total: 5, span: Option.none() })
      expect(yield* piped(4)).toBe("4 doubled is 8")
    }))

  it.effect("under an installed tracer, makes Effect.fn's span: its name and attributes, a child of the caller's span", () =>
    Effect.gen(function*() {
      const { spans, tracer } = yield* recordingTracer
      const counter = new Counter()
      const [out, caller] = yield* Effect.withSpan(Effect.all([counter.add(1), Effect.currentSpan]), "caller").pipe(Effect.withTracer(tracer))
      expect(out).toEqual({ total: 3, span: Option.some("Counter.add") })
      const span = spans.find((s) => s.name === "Counter.add")
      expect(Option.map(span!.parent, (p) => p.spanId)).toEqual(Option.some(caller.spanId))
      expect(span!.status._tag).toBe("Ended")

      yield* piped(1).pipe(Effect.withTracer(tracer))
      expect(spans.find((s) => s.name === "Piped.run")?.attributes.get("kind")).toBe("test")
    }))

  it.effect("a failure is the body's, with or without a tracer, and ends the span", () =>
    Effect.gen(function*() {
      const { spans, tracer } = yield* recordingTracer
      const message = (exit: Exit.Exit<unknown, Error>) =>
        Exit.isFailure(exit) ? Option.map(Cause.failureOption(exit.cause), (e) => e.message) : Option.none()
      expect(message(yield* Effect.exit(failing("plain")))).toEqual(Option.some("plain"))
      expect(message(yield* Effect.exit(failing("traced").pipe(Effect.withTracer(tracer))))).toEqual(Option.some("traced"))
      const span = spans.find((s) => s.name === "Failing.run")
      expect(span?.status._tag === "Ended" && Exit.isFailure(span.status.exit)).toBe(true)
    }))
})

describe("observedSpan", () => {
  it.effect("wraps in a span only under an installed tracer", () =>
    Effect.gen(function*() {
      const { spans, tracer } = yield* recordingTracer
      const inner = Effect.map(Effect.option(Effect.currentSpan), Option.map((s) => s.name))
      expect(yield* observedSpan("Batch.run")(inner)).toEqual(Option.none())
      expect(yield* observedSpan("Batch.run", { attributes: { calls: 2 } })(inner).pipe(Effect.withTracer(tracer))).toEqual(Option.some("Batch.run"))
      expect(spans.find((s) => s.name === "Batch.run")?.attributes.get("calls")).toBe(2)
    }))
})
