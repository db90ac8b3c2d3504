/**
 * The handler under its timeout, every way it can end classified as a value
 * or a ToolError.
 */
import { Cause, Clock, Context, DefaultServices, Duration, Effect, Exit, Fiber, Option, Runtime, Tracer } from "effect"
import type { ToolOutput } from "../../services/Tool.js"
import { ToolContext } from "../../services/ToolContext.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { ToolBlocked, ToolDefect, ToolFailed, ToolInterrupted, ToolTimeout, ToolUnavailable } from "../../services/ToolError.js"
import type { ToolError, ToolFailure } from "../../services/ToolError.js"
import type { RegisteredTool } from "../../services/ToolRegistry.js"
import { defectText } from "./decodeArguments.js"
import { OverlayMap } from "./overlayMap.js"

/** The tool's own timeout for these arguments, else the configured one. */
export const timeoutMsFor = (tool: RegisteredTool, args: unknown, callTimeoutMs: number): number => {
  const own = typeof tool.timeout === "function" ? tool.timeout(args) : tool.timeout
  return own === undefined ? callTimeoutMs : Duration.toMillis(Duration.decode(own))
}

const failureOf = (tool: string, failure: ToolFailure): ToolError =>
  failure instanceof ToolBlocked || failure instanceof ToolTimeout || failure instanceof ToolUnavailable
    ? failure
    : new ToolFailed({ tool, reason: failure._tag, detail: failure.message })

const classify = (tool: string, exit: Exit.Exit<ToolOutput, ToolFailure>): Effect.Effect<ToolOutput, ToolError> => {
  if (Exit.isSuccess(exit)) return Effect.succeed(exit.value)
  const cause = exit.cause
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return Effect.fail(failureOf(tool, failure.value))
  if (Cause.isInterruptedOnly(cause)) return Effect.fail(new ToolInterrupted({ tool }))
  const defect = Cause.dieOption(cause)
  return Effect.fail(new ToolDefect({ tool, detail: Option.isSome(defect) ? defectText(defect.value) : Cause.pretty(cause) }))
}

const PARENT_SPAN = Tracer.ParentSpan.key
const TOOL_CONTEXT = ToolContext.key

/**
 * The tool's services plus this call's ToolContext and the caller's span,
 * laid over the services rather than copied: the handler's spans join the
 * caller's trace.
 */
const handlerContext = (tool: RegisteredTool, context: ToolCallContext, caller: Context.Context<never>): Context.Context<unknown> => {
  const map = new OverlayMap(tool.services.unsafeMap)
  map.set(TOOL_CONTEXT, context)
  const span: unknown = caller.unsafeMap.get(PARENT_SPAN)
  if (span !== undefined) map.set(PARENT_SPAN, span)
  return Context.unsafeMake(map)
}

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
 * The handler fiber's exit, or undefined when `timeoutMs` passes first on the
 * Effect Clock (TestClock in tests). One timer and one observer:
 * `Effect.raceFirst` forked two supervised fibers per call and cost more than
 * an MCP round trip. Whichever side settles first stops the other; when the
 * caller is interrupted the timer is stopped too.
 */
const awaitWithin = (
  fiber: Fiber.RuntimeFiber<ToolOutput, ToolFailure>,
  timeoutMs: number,
  runtime: () => Runtime.Runtime<never>,
  parent: Fiber.RuntimeFiber<unknown, unknown>
): Effect.Effect<Exit.Exit<ToolOutput, ToolFailure> | undefined> =>
  Effect.async((resume) => {
    let settled = false
    const onTimeout = () => {
      if (settled) return
      settled = true
      fiber.removeObserver(onExit)
      resume(Effect.succeed(undefined))
    }
    const onExit = (exit: Exit.Exit<ToolOutput, ToolFailure>) => {
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

/**
 * Call the handler now and run what it returns under its timeout. A handler
 * that returns an already finished effect (`Effect.succeed(...)`, an Exit)
 * has nothing left to run, time out or interrupt: its exit is read as is,
 * the way `Runtime.runSync` does. Any other handler starts at once in its own
 * fiber, on a runtime carrying its services (no per-call `provide`); one that
 * finishes synchronously (most of them) never arms a timer, since a
 * fork-and-race costs more than the whole rest of dispatch. One that suspends
 * is raced against the Clock and interrupted when it loses, or when the
 * caller is interrupted.
 */
export const runHandler = (tool: RegisteredTool, args: unknown, context: ToolCallContext, timeoutMs: number): Effect.Effect<ToolOutput, ToolError> => {
  const effect = tool.handler(args) as Effect.Effect<ToolOutput, ToolFailure>
  // The handler promised ToolOutput and ToolFailure: an Exit it returns carries those.
  if (Exit.isExit(effect)) return classify(tool.name, effect as Exit.Exit<ToolOutput, ToolFailure>)
  return Effect.withFiberRuntime<ToolOutput, ToolError>((parent, status) => {
    const fiberRefs = parent.getFiberRefs()
    const runtime = Runtime.make({ context: handlerContext(tool, context, parent.currentContext), fiberRefs, runtimeFlags: status.runtimeFlags })
    const fiber = Runtime.runFork(runtime)(effect, { immediate: true })
    const done = fiber.unsafePoll()
    if (done !== null) return classify(tool.name, done)
    const clockRuntime = () => Runtime.make({ context: parent.currentContext, fiberRefs, runtimeFlags: status.runtimeFlags })
    return awaitWithin(fiber, timeoutMs, clockRuntime, parent).pipe(
      Effect.onInterrupt(() => Fiber.interrupt(fiber)),
      Effect.flatMap((exit) =>
        exit !== undefined
          ? classify(tool.name, exit)
          : Effect.zipRight(
            Fiber.interrupt(fiber),
            Effect.fail(new ToolTimeout({ tool: tool.name, seconds: Math.round(timeoutMs / 100) / 10 }))
          )
      )
    )
  })
}
