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
import { runtimeOf, startClockTimer } from "../../lib/effect/clockTimer.js"

/**
 * The fiber's exit, or undefined when `timeoutMs` passes first on the Effect
 * Clock (TestClock in tests). When the caller is interrupted the timer is
 * stopped too.
 */
const awaitWithin = <A, E>(
  fiber: Fiber.RuntimeFiber<A, E>,
  timeoutMs: number,
  runtime: () => Runtime.Runtime<never>,
  parent: Fiber.RuntimeFiber<unknown, unknown>
): Effect.Effect<Exit.Exit<A, E> | undefined> =>
  Effect.async((resume) => {
    let settled = false
    const onTimeout = () => {
      if (settled) return
      settled = true
      fiber.removeObserver(onExit)
      resume(Effect.succeed(undefined))
    }
    const onExit = (exit: Exit.Exit<A, E>) => {
      if (settled) return
      settled = true
      cancel()
      resume(Effect.succeed(exit))
    }
    const cancel = startClockTimer(parent, runtime, timeoutMs, onTimeout)
    fiber.addObserver(onExit)
    return Effect.sync(() => {
      if (settled) return
      settled = true
      fiber.removeObserver(onExit)
      cancel()
    })
  })

/** `effect`'s exit, or undefined when `timeoutMs` passed first on the caller's Clock (the effect is then interrupted). */
export const runWithin = <A, E>(
  effect: Effect.Effect<A, E>,
  timeoutMs: number,
  contextFor: (caller: Context.Context<never>) => Context.Context<unknown> = (caller) => caller as Context.Context<unknown>
): Effect.Effect<Exit.Exit<A, E> | undefined> =>
  Effect.withFiberRuntime((parent, status) => {
    const fiberRefs = parent.getFiberRefs()
    const runtime = Runtime.make({ context: contextFor(parent.currentContext), fiberRefs, runtimeFlags: status.runtimeFlags })
    const fiber = Runtime.runFork(runtime)(effect, { immediate: true })
    const done = fiber.unsafePoll()
    if (done !== null) return Effect.succeed(done)
    const clockRuntime = () => runtimeOf(parent, status.runtimeFlags)
    return awaitWithin(fiber, timeoutMs, clockRuntime, parent).pipe(
      Effect.onInterrupt(() => Fiber.interrupt(fiber)),
      Effect.flatMap((exit) => (exit !== undefined ? Effect.succeed(exit) : Effect.as(Fiber.interrupt(fiber), undefined)))
    )
  })
