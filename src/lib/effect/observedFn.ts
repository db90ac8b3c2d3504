/**
 * Spans on the per-call paths only when someone can see them. In Effect 3 a
 * span costs ~12 µs a call (`Effect.fn`: two stack captures, random ids, and a
 * copy of the whole context to make the span the parent of what runs in it),
 * several times a trivial tool's whole dispatch; a command through the
 * terminal tool made three, an agent run four. With the native tracer (no
 * tracer installed) nothing ever reads them. Under any other tracer
 * (OpenTelemetry, a test's) the span is made as `Effect.withSpan` makes it:
 * the same name, attributes and parent, without a captured code location.
 */
import { Context, DefaultServices, Effect, Tracer } from "effect"

/** The tracer every runtime has until one is installed: its spans go nowhere. */
const NATIVE_TRACER = Context.get(DefaultServices.liveServices, Tracer.Tracer)

/** Spans made here carry no code location: it would be this module's, not the caller's. */
const withoutLocation = (options: Tracer.SpanOptions | undefined): Tracer.SpanOptions => ({ ...options, captureStackTrace: false })

/** `Effect.withSpan(name, options)` when a tracer is installed, else `self` as it is. */
export const observedSpan = (name: string, options?: Tracer.SpanOptions) => {
  const spanOptions = withoutLocation(options)
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    // The fiber's own tracer, read in place: `Effect.tracer` then `flatMap` is two more run-loop steps a call.
    Effect.withFiberRuntime((fiber) => (fiber.currentTracer === NATIVE_TRACER ? self : Effect.withSpan(self, name, spanOptions)))
}

type Body = (this: unknown, ...args: Array<unknown>) => Generator<unknown, unknown, unknown>
type Made = (this: unknown, ...args: Array<unknown>) => Effect.Effect<unknown, unknown, unknown>
type Pipeable = (effect: Effect.Effect<unknown, unknown, unknown>, ...args: Array<unknown>) => unknown

/**
 * `Effect.fn(name)` for generator bodies (pipeables included), whose span is
 * made only when a tracer is installed (`observedSpan`). For the functions
 * every call goes through: tool handlers, approval, the shell, the agent loop,
 * the session store.
 */
export const observedFn = (name: string, options?: Tracer.SpanOptions): Effect.fn.Gen => {
  const span = observedSpan(name, options)
  // One implementation for every overload of Effect.fn.Gen: the same body and pipeables, run by fnUntraced.
  const untracedOf = Effect.fnUntraced as unknown as (body: Body, ...pipeables: Array<Pipeable>) => Made
  const make = (body: Body, ...pipeables: Array<Pipeable>): Made => {
    const untraced = untracedOf(body, ...pipeables)
    return function(this: unknown, ...args: Array<unknown>) {
      return span(untraced.apply(this, args))
    }
  }
  return make as unknown as Effect.fn.Gen
}
