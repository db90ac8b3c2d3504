/**
 * An effect under a timeout without a fork-and-race: it starts at once in a
 * fiber of its own (on the caller's context, or the one given), and one that
 * finishes synchronously (most tool handlers, most batches of them) never
 * arms a timer. One that suspends waits on one timer and one observer;
 * `Effect.timeout` forked two supervised fibers per call, which cost more
 * than the rest of a dispatch (or a whole MCP round trip). Whichever side
 * settles first stops the other; a timed-out or interrupted effect is
 * interrupted, and awaited, before this returns.
 */
import { Effect, Fiber, Runtime } from "effect"
import type { Context, Exit } from "effect"
import { runtimeOf, startClockTimer } from "./clockTimer.js"

/**
 * Waits for `fiber` in one `Effect.async`: its exit (mapped by `settle`), or
 * `settle(undefined)` once `timeoutMs` pass on the Effect Clock (TestClock in
 * tests) after interrupting it. When the caller is interrupted the timer is
 * stopped and the fiber interrupted and awaited, by the async's own canceller
 * (no `onInterrupt` around it: each extra step allocated on every call).
 */
const awaitWithin = <A, E, B, E2>(
  fiber: Fiber.RuntimeFiber<A, E>,
  timeoutMs: number,
  runtime: () => Runtime.Runtime<never>,
  parent: Fiber.RuntimeFiber<unknown, unknown>,
  settle: (exit: Exit.Exit<A, E> | undefined) => Effect.Effect<B, E2>
): Effect.Effect<B, E2> =>
  Effect.async<B, E2>((resume) => {
    let settled = false
    const onTimeout = () => {
      if (settled) return
      settled = true
      fiber.removeObserver(onExit)
      resume(Effect.zipRight(Fiber.interrupt(fiber), settle(undefined)))
    }
    const onExit = (exit: Exit.Exit<A, E>) => {
      if (settled) return
      settled = true
      cancel()
      resume(settle(exit))
    }
    const cancel = startClockTimer(parent, runtime, timeoutMs, onTimeout)
    fiber.addObserver(onExit)
    return Effect.suspend(() => {
      if (settled) return Effect.void
      settled = true
      fiber.removeObserver(onExit)
      cancel()
      return Fiber.interrupt(fiber)
    })
  })

/**
 * `effect`'s exit, or undefined when `timeoutMs` passed first on the caller's
 * Clock (the effect is then interrupted), handed to `settle`, whose effect is
 * the result: a caller that maps the exit saves a step on every call.
 */
export const runWithinThen = <A, E, B, E2>(
  effect: Effect.Effect<A, E>,
  timeoutMs: number,
  contextFor: (caller: Context.Context<never>) => Context.Context<unknown>,
  settle: (exit: Exit.Exit<A, E> | undefined) => Effect.Effect<B, E2>
): Effect.Effect<B, E2> =>
  Effect.withFiberRuntime((parent, status) => {
    const fiberRefs = parent.getFiberRefs()
    const runtime = Runtime.make({ context: contextFor(parent.currentContext), fiberRefs, runtimeFlags: status.runtimeFlags })
    const fiber = Runtime.runFork(runtime)(effect, { immediate: true })
    const done = fiber.unsafePoll()
    if (done !== null) return settle(done)
    return awaitWithin(fiber, timeoutMs, () => runtimeOf(parent, status.runtimeFlags), parent, settle)
  })

/** `effect`'s exit, or undefined when `timeoutMs` passed first on the caller's Clock (the effect is then interrupted). */
export const runWithin = <A, E>(
  effect: Effect.Effect<A, E>,
  timeoutMs: number,
  contextFor: (caller: Context.Context<never>) => Context.Context<unknown> = (caller) => caller as Context.Context<unknown>
): Effect.Effect<Exit.Exit<A, E> | undefined> => runWithinThen(effect, timeoutMs, contextFor, Effect.succeed)
