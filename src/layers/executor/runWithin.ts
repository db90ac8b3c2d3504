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
import { Clock, Context, DefaultServices, Effect, Fiber, Runtime } from "effect"
import type { Exit } from "effect"

/** The longest delay a JS timer takes; the live Clock treats longer ones as never (as here). */
const MAX_TIMER_MILLIS = 2 ** 31 - 1
const LIVE_CLOCK = Context.get(DefaultServices.liveServices, Clock.Clock)

/**
 * Call `onTimeout` once `timeoutMs` pass on the caller's Clock; the returned
 * function cancels it. The live Clock sleeps on a plain timer, so with it the
 * timer is set here: a sleeping fiber per call (forked, then interrupted)
 * cost more CPU than the rest of an MCP call's client side. Any other Clock
 * (TestClock in tests) is slept on in a fiber, as `Effect.sleep` would.
 */
const startTimer = (
  parent: Fiber.RuntimeFiber<unknown, unknown>,
  runtime: () => Runtime.Runtime<never>,
  timeoutMs: number,
  onTimeout: () => void
): () => void => {
  const clock = Context.get(parent.getFiberRef(DefaultServices.currentServices), Clock.Clock)
  if (clock === LIVE_CLOCK) {
    if (!(timeoutMs <= MAX_TIMER_MILLIS)) return () => undefined
    const handle = setTimeout(onTimeout, timeoutMs)
    return () => clearTimeout(handle)
  }
  const sleeper = Runtime.runFork(runtime())(Effect.sleep(timeoutMs))
  sleeper.addObserver(onTimeout)
  return () => {
    sleeper.removeObserver(onTimeout)
    sleeper.unsafeInterruptAsFork(parent.id())
  }
}

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
    const cancel = startTimer(parent, runtime, timeoutMs, onTimeout)
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
    const clockRuntime = () => Runtime.make({ context: parent.currentContext, fiberRefs, runtimeFlags: status.runtimeFlags })
    return awaitWithin(fiber, timeoutMs, clockRuntime, parent).pipe(
      Effect.onInterrupt(() => Fiber.interrupt(fiber)),
      Effect.flatMap((exit) => (exit !== undefined ? Effect.succeed(exit) : Effect.as(Fiber.interrupt(fiber), undefined)))
    )
  })
