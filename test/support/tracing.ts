/** Tracing in tests: a tracer that records every span it starts, over the default one. */
import { Effect, Option, Tracer } from "effect"

/** The current tracer, wrapped to record every span it starts (install it with `Effect.withTracer`). */
export const recordingTracer = Effect.map(Effect.tracer, (base) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = base.span(...args)
      spans.push(span)
      return span
    },
    context: base.context
  })
  return { spans, tracer }
})

/** The id of a span's parent, when it has one. */
export const parentId = (span: Tracer.Span | undefined) =>
  Option.getOrUndefined(Option.map(Option.fromNullable(span).pipe(Option.flatMap((s) => s.parent)), (p) => p.spanId))
