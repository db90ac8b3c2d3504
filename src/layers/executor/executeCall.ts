/**
 * One tool call from raw arguments to the string the model sees, walking
 * forward: look up → decode → gates (availability, hooks, approval) →
 * handler under its timeout → result shaping. Every failure is a tagged
 * ToolError until `finish`, the single place where errors become
 * `{"error": "..."}` text. Defects never escape.
 */
import { Effect, Either, Exit } from "effect"
import type { CallStatus, HooksService } from "../../services/Hooks.js"
import type { ResultStoreService } from "../../services/ResultStore.js"
import type { ToolOutput } from "../../services/Tool.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { ToolDefect, UnknownTool } from "../../services/ToolError.js"
import type { ToolError } from "../../services/ToolError.js"
import type { CallOutcome, ToolCall } from "../../services/ToolExecutor.js"
import type { ToolGateService } from "../../services/ToolGate.js"
import type { RegisteredTool, ToolRegistryService } from "../../services/ToolRegistry.js"
import { callGates } from "./callGates.js"
import { decodeArguments, defectText } from "./decodeArguments.js"
import { runHandler, timeoutMsFor } from "./runHandler.js"
import { multimodalOf } from "./multimodal.js"
import type { Multimodal } from "./multimodal.js"
import { errorJson } from "./sanitizeErrorMessage.js"
import { shapeResult } from "./shapeResult.js"
import type { Tuning } from "./tuning.js"

/** The services a call uses, resolved once when the executor layer is built. */
export interface CallServices {
  readonly registry: ToolRegistryService
  readonly hooks: HooksService
  readonly gate: ToolGateService
  readonly results: ResultStoreService
}

interface Decoded {
  readonly tool: RegisteredTool
  readonly args: unknown
}

const lookup = (
  registry: ToolRegistryService,
  call: ToolCall,
  allowed: ReadonlySet<string> | undefined
): Either.Either<Decoded, ToolError> => {
  const tool = allowed !== undefined && !allowed.has(call.tool) ? undefined : registry.get(call.tool)
  if (tool === undefined) {
    const names = allowed !== undefined ? [...allowed].sort() : registry.names()
    return Either.left(new UnknownTool({ tool: call.tool, available: names }))
  }
  return Either.map(decodeArguments(tool, call.args), (args) => ({ tool, args }))
}

/** An effect that is already a successful Exit (`Effect.succeed(...)`): its value can be read without running it. */
export const isSuccessExit = <A, E>(effect: Effect.Effect<A, E>): effect is Exit.Success<A, E> => Exit.isExit(effect) && Exit.isSuccess(effect)

const statusOf = (error: ToolError | undefined): CallStatus =>
  error === undefined ? "ok" : error._tag === "ToolBlocked" ? "blocked" : "error"

/**
 * Runs the synchronous front of the call (lookup, decode, gates built, a
 * finished handler folded) when called, so call it from inside a running
 * effect (the executor does, from the continuation that read the config). A
 * call that finished here comes back as a successful Exit, with no run-loop
 * steps left; the rest is the effect still to run.
 */
export const executeCall = (
  services: CallServices,
  tuning: Tuning,
  call: ToolCall,
  context: ToolCallContext,
  allowed: ReadonlySet<string> | undefined
): Effect.Effect<CallOutcome> => {
  // The last net: whatever throws outside the handler (a hook, a deep value) still answers the model,
  // whether it throws here or in the effect still to run.
  const defectOutcome = (defect: unknown): Effect.Effect<CallOutcome> => {
    const error = new ToolDefect({ tool: call.tool, detail: defectText(defect) })
    return Effect.succeed<CallOutcome>({ tool: call.tool, toolCallId: context.toolCallId, result: errorJson(error.message, tuning.jsonStyle), status: "error", error, durationMs: 0 })
  }
  let outcome: Effect.Effect<CallOutcome>
  try {
    outcome = front(services, tuning, call, context, allowed)
  } catch (defect) {
    return defectOutcome(defect)
  }
  return isSuccessExit(outcome) ? outcome : Effect.catchAllDefect(outcome, defectOutcome)
}

const front = (
  services: CallServices,
  tuning: Tuning,
  call: ToolCall,
  context: ToolCallContext,
  allowed: ReadonlySet<string> | undefined
): Effect.Effect<CallOutcome> => {
  const startedAt = performance.now()
  const found = lookup(services.registry, call, allowed)

  /** The single fold: a result or a ToolError becomes the outcome; post-call hooks see it. */
  const finish = (decoded: Decoded | undefined, result: string, error: ToolError | undefined): Effect.Effect<CallOutcome> => {
    const status = statusOf(error)
    const durationMs = performance.now() - startedAt
    const outcome: CallOutcome = { tool: call.tool, toolCallId: context.toolCallId, result, status, error, durationMs }
    if (decoded === undefined || !services.hooks.has("post_tool_call")) return Effect.succeed(outcome)
    return Effect.as(
      services.hooks.postToolCall({
        tool: decoded.tool.name,
        args: decoded.args,
        result,
        status,
        errorType: error?._tag,
        errorMessage: error?.message,
        durationMs,
        context
      }),
      outcome
    )
  }

  if (Either.isLeft(found)) return finish(undefined, errorJson(found.left.message, tuning.jsonStyle), found.left)
  const decoded = found.right
  const { args, tool } = decoded

  let multimodal: Multimodal | undefined
  const shape = (output: ToolOutput): Effect.Effect<string, ToolError> => {
    multimodal = multimodalOf(output)
    return multimodal === undefined ? shapeResult(services, tool, args, output, context, tuning) : Effect.succeed(multimodal.summary)
  }
  const onSuccess = (result: string): Effect.Effect<CallOutcome> =>
    multimodal === undefined
      ? finish(decoded, result, undefined)
      : Effect.map(finish(decoded, result, undefined), (o): CallOutcome => ({ ...o, parts: multimodal!.parts }))
  const fold = Effect.matchEffect({
    onFailure: (error: ToolError) => finish(decoded, errorJson(error.message, tuning.jsonStyle), error),
    onSuccess
  })

  const timeoutMs = timeoutMsFor(tool, args, tuning.callTimeoutMs)
  const gates = callGates(services, tool, args, context)
  if (gates !== undefined) return fold(Effect.zipRight(gates, Effect.flatMap(Effect.suspend(() => runHandler(tool, args, context, timeoutMs)), shape)))
  const handled = runHandler(tool, args, context, timeoutMs)
  // A handler that was already done and a result that needed no effect (the common case): fold it here,
  // without stepping through the fiber's run loop. The general path below gives the same outcome.
  if (isSuccessExit(handled)) {
    const shaped = shape(handled.value)
    return isSuccessExit(shaped) ? onSuccess(shaped.value) : fold(shaped)
  }
  return fold(Effect.flatMap(handled, shape))
}
