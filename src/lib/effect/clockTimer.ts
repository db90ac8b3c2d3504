/**
 * A timer on a fiber's Effect Clock without a fiber of its own when it can:
 * the live Clock sleeps on a plain timer, so with it the deadline is set here,
 * on the timer all such deadlines share (sharedDeadlines.ts; a sleeping fiber
 * per call, forked and then interrupted, cost more CPU than a whole MCP call's
 * client side, and a Node timer per call most of the rest). Any other Clock (TestClock in tests) is
 * slept on in a fiber, as `Effect.sleep` would.
 */
import { Clock, Context, DefaultServices, Effect, Runtime } from "effect"
import type { Fiber, RuntimeFlags } from "effect"
import { startDeadline } from "./sharedDeadlines.js"

/** The longest delay a JS timer takes; the live Clock treats longer ones as never (as here). */
const MAX_TIMER_MILLIS = 2 ** 31 - 1
const LIVE_CLOCK = Context.get(DefaultServices.liveServices, Clock.Clock)

/** A runtime carrying `fiber`'s context and refs, and `flags` (its status's): what a fiber forked from it would run on. */
export const runtimeOf = (fiber: Fiber.RuntimeFiber<unknown, unknown>, flags: RuntimeFlags.RuntimeFlags): Runtime.Runtime<never> =>
  Runtime.make({ context: fiber.currentContext, fiberRefs: fiber.getFiberRefs(), runtimeFlags: flags })

/**
 * Call `onTimeout` once `timeoutMs` pass on `parent`'s Clock; the returned
 * function cancels it. `runtime` is only built for a Clock other than the live one.
 */
export const startClockTimer = (
  parent: Fiber.RuntimeFiber<unknown, unknown>,
  runtime: () => Runtime.Runtime<never>,
  timeoutMs: number,
  onTimeout: () => void
): () => void => {
  const clock = Context.get(parent.getFiberRef(DefaultServices.currentServices), Clock.Clock)
  if (clock === LIVE_CLOCK) {
    if (!(timeoutMs <= MAX_TIMER_MILLIS)) return () => undefined
    return startDeadline(timeoutMs, onTimeout)
  }
  const sleeper = Runtime.runFork(runtime())(Effect.sleep(timeoutMs))
  sleeper.addObserver(onTimeout)
  return () => {
    sleeper.removeObserver(onTimeout)
    sleeper.unsafeInterruptAsFork(parent.id())
  }
}
