/**
 * The handler under its timeout, every way it can end classified as a value
 * or a ToolError.
 */
import { Cause, Context, Duration, Effect, Exit, Option, Tracer } from "effect"
import type { ToolOutput } from "../../services/Tool.js"
import { ToolContext } from "../../services/ToolContext.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { ToolBlocked, ToolDefect, ToolFailed, ToolInterrupted, ToolTimeout, ToolUnavailable } from "../../services/ToolError.js"
import type { ToolError, ToolFailure } from "../../services/ToolError.js"
import type { RegisteredTool } from "../../services/ToolRegistry.js"
import { defectText } from "./decodeArguments.js"
import { OverlayMap } from "./overlayMap.js"
import { runPromiseHandler } from "./runPromiseHandler.js"
import { runWithinThen } from "../../lib/effect/runWithin.js"

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

/**
 * Call the handler now and run what it returns under its timeout. A handler
 * that returns an already finished effect (`Effect.succeed(...)`, an Exit)
 * has nothing left to run, time out or interrupt: its exit is read as is,
 * the way `Runtime.runSync` does. Any other handler starts at once in its own
 * fiber, on a runtime carrying its services (no per-call `provide`); one that
 * finishes synchronously (most of them) never arms a timer, since a
 * fork-and-race costs more than the whole rest of dispatch. One that suspends
 * is raced against the Clock and interrupted when it loses, or when the
 * caller is interrupted. A tool with a `promiseHandler` skips the fiber: its
 * promise is awaited in the caller's (runPromiseHandler.ts).
 */
export const runHandler = (tool: RegisteredTool, args: unknown, context: ToolCallContext, timeoutMs: number): Effect.Effect<ToolOutput, ToolError> => {
  // How the call ends, whichever path ran it: its exit classified, or undefined once the timeout passed.
  const settle = (exit: Exit.Exit<ToolOutput, ToolFailure> | undefined): Effect.Effect<ToolOutput, ToolError> =>
    exit !== undefined
      ? classify(tool.name, exit)
      : Effect.fail(new ToolTimeout({ tool: tool.name, seconds: Math.round(timeoutMs / 100) / 10 }))
  const promiseHandler = tool.promiseHandler
  if (promiseHandler !== undefined) {
    return runPromiseHandler((cancellation) => promiseHandler(args, cancellation), timeoutMs, settle, (e) => new ToolDefect({ tool: tool.name, detail: defectText(e) }))
  }
  const effect = tool.handler(args) as Effect.Effect<ToolOutput, ToolFailure>
  // The handler promised ToolOutput and ToolFailure: an Exit it returns carries those.
  if (Exit.isExit(effect)) return classify(tool.name, effect as Exit.Exit<ToolOutput, ToolFailure>)
  return runWithinThen(effect, timeoutMs, (caller) => handlerContext(tool, context, caller), settle)
}
