/**
 * One tool call from raw arguments to the string the model sees. Every
 * failure is a tagged ToolError until `foldOutcome`, the single place where
 * errors become `{"error": "..."}` text. Defects never escape.
 */
import { Cause, Effect, Either, Exit, Fiber, Option, ParseResult, Runtime } from "effect"
import type { HooksService } from "../../services/Hooks.js"
import type { ResultStoreService } from "../../services/ResultStore.js"
import type { ToolOutput } from "../../services/Tool.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import {
  InvalidArguments,
  ToolBlocked,
  ToolDefect,
  ToolFailed,
  ToolInterrupted,
  ToolResultInvalid,
  ToolTimeout,
  ToolUnavailable,
  UnknownTool
} from "../../services/ToolError.js"
import type { ToolError, ToolFailure } from "../../services/ToolError.js"
import type { ToolGateService } from "../../services/ToolGate.js"
import type { CallOutcome, RegisteredTool, ToolCall } from "../../services/ToolRegistry.js"
import { coerceArgs } from "./coerce.js"
import { JsonTooDeep, MAX_JSON_DEPTH, nestsDeeperThan, tooDeepDetail } from "./jsonDepth.js"
import { persistedBlock, truncatedInline } from "./persistedOutput.js"
import { toMillis } from "./provideTool.js"
import { errorJson } from "./sanitize.js"

export interface Limits {
  readonly callTimeoutMs: number
  readonly resultChars: number
}

export interface DispatchDeps {
  readonly lookup: (name: string) => RegisteredTool | undefined
  readonly allNames: () => ReadonlyArray<string>
  readonly availability: (tool: RegisteredTool) => Effect.Effect<string | undefined>
  readonly hooks: HooksService
  readonly gate: ToolGateService
  readonly results: ResultStoreService
  readonly limits: Effect.Effect<Limits>
}

/** Parse what the model sent into an arguments object, or say why not. */
export const parseArguments = (tool: string, raw: unknown): Either.Either<Record<string, unknown>, InvalidArguments> => {
  let value = raw
  if (value === undefined || value === null) return Either.right({})
  if (typeof value === "string") {
    if (value.trim().length === 0) return Either.right({})
    try {
      value = JSON.parse(value)
    } catch (e) {
      return Either.left(
        new InvalidArguments({ tool, path: "", detail: `arguments are not valid JSON (${e instanceof Error ? e.message : String(e)})` })
      )
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return Either.left(new InvalidArguments({ tool, path: "", detail: "arguments must be a JSON object" }))
  }
  // Parsing never overflows, but decoding, error messages and hooks recurse: refuse deep values here.
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    return Either.left(new InvalidArguments({ tool, path: "", detail: `arguments are ${tooDeepDetail(MAX_JSON_DEPTH)}` }))
  }
  return Either.right(value as Record<string, unknown>)
}

const EXPECTED = /^Expected ([\s\S]+), actual ([\s\S]+)$/

/**
 * The first failing argument, with the alternatives of a union merged into one
 * line (`Expected "a" | "b", actual "c"`) so the model sees every valid choice.
 */
const describeParseError = (tool: string, error: ParseResult.ParseError): InvalidArguments => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  if (first === undefined) return new InvalidArguments({ tool, path: "", detail: error.message })
  const path = first.path.map(String).join(".")
  if (first._tag === "Missing") return new InvalidArguments({ tool, path, detail: "is required" })
  const samePath = issues.filter((i) => i.path.map(String).join(".") === path)
  const expected: Array<string> = []
  let actual: string | undefined
  for (const issue of samePath) {
    const m = EXPECTED.exec(issue.message)
    if (m === null) return new InvalidArguments({ tool, path, detail: first.message })
    // An optional field also "expects undefined": noise for the model.
    if (m[1] !== "undefined" && !expected.includes(m[1]!)) expected.push(m[1]!)
    actual = m[2]
  }
  const detail = expected.length === 0 || actual === undefined ? first.message : `Expected ${expected.join(" | ")}, actual ${actual}`
  return new InvalidArguments({ tool, path, detail })
}

const renderOutput = (tool: string, output: ToolOutput): Either.Either<string, ToolResultInvalid> => {
  if (typeof output === "string") return Either.right(output)
  try {
    const text = JSON.stringify(output)
    if (typeof text === "string") return Either.right(text)
  } catch {
    // falls through: cyclic or BigInt values cannot reach the model
  }
  return Either.left(new ToolResultInvalid({ tool, resultType: Array.isArray(output) ? "array" : typeof output }))
}

const failureOf = (tool: string, failure: ToolFailure): ToolError =>
  failure instanceof ToolBlocked || failure instanceof ToolTimeout || failure instanceof ToolUnavailable
    ? failure
    : new ToolFailed({ tool, reason: failure._tag, detail: failure.message })

const defectText = (defect: unknown): string =>
  defect instanceof Error ? `${defect.name}: ${defect.message}` : typeof defect === "string" ? defect : String(defect)

/** Every way a handler can end, as a value or a ToolError. */
const classify = (tool: string, exit: Exit.Exit<ToolOutput, ToolFailure>): Effect.Effect<ToolOutput, ToolError> => {
  if (Exit.isSuccess(exit)) return Effect.succeed(exit.value)
  const cause = exit.cause
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return Effect.fail(failureOf(tool, failure.value))
  if (Cause.isInterruptedOnly(cause)) return Effect.fail(new ToolInterrupted({ tool }))
  const defect = Cause.dieOption(cause)
  return Effect.fail(new ToolDefect({ tool, detail: Option.isSome(defect) ? defectText(defect.value) : Cause.pretty(cause) }))
}

/**
 * Run the handler under its timeout. The handler starts at once in its own
 * fiber; one that finishes synchronously (most of them) never arms a timer,
 * since a fork-and-race costs more than the whole rest of dispatch. One that
 * suspends is raced against the Clock (TestClock in tests) and interrupted
 * when it loses, or when the caller is interrupted.
 */
const runHandler = (tool: RegisteredTool, args: unknown, context: ToolCallContext, timeoutMs: number) =>
  Effect.flatMap(Effect.runtime<never>(), (parent): Effect.Effect<ToolOutput, ToolError> => {
    const { effect, services } = tool.prepare(args, context)
    const runtime = Runtime.make({ context: services, fiberRefs: parent.fiberRefs, runtimeFlags: parent.runtimeFlags })
    const fiber = Runtime.runFork(runtime)(effect as Effect.Effect<ToolOutput, ToolFailure>, { immediate: true })
    const done = fiber.unsafePoll()
    if (done !== null) return classify(tool.name, done)
    return Effect.raceFirst(
      Effect.map(Fiber.await(fiber), Option.some),
      Effect.as(Effect.sleep(timeoutMs), Option.none<Exit.Exit<ToolOutput, ToolFailure>>())
    ).pipe(
      Effect.onInterrupt(() => Fiber.interrupt(fiber)),
      Effect.flatMap(Option.match({
        onNone: () =>
          Effect.zipRight(
            Fiber.interrupt(fiber),
            Effect.fail(new ToolTimeout({ tool: tool.name, seconds: Math.round(timeoutMs / 100) / 10 }))
          ),
        onSome: (exit) => classify(tool.name, exit)
      }))
    )
  })

const needsProbe = (tool: RegisteredTool) => tool.check !== undefined || tool.requiresEnv.length > 0

/** Availability, pre-call hooks and the approval seam: only the steps that apply to this call. */
const gates = (deps: DispatchDeps, tool: RegisteredTool, args: unknown, context: ToolCallContext): Effect.Effect<void, ToolError> | undefined => {
  const steps: Array<Effect.Effect<void, ToolError>> = []
  if (needsProbe(tool)) {
    steps.push(Effect.flatMap(deps.availability(tool), (why) =>
      why === undefined ? Effect.void : Effect.fail(new ToolUnavailable({ tool: tool.name, reason: why }))))
  }
  if (deps.hooks.has("pre_tool_call")) {
    steps.push(Effect.flatMap(deps.hooks.preToolCall({ tool: tool.name, args, context }), (verdict) => {
      if (verdict._tag === "Block") return Effect.fail(new ToolBlocked({ tool: tool.name, by: verdict.by, reason: verdict.message }))
      if (verdict._tag === "Proceed") return Effect.void
      return deps.gate
        .requestToolApproval({ tool: tool.name, message: verdict.message, ruleKey: verdict.ruleKey, context })
        .pipe(Effect.mapError((denied) => new ToolBlocked({ tool: tool.name, by: "approval", reason: denied.reason })))
    }))
  }
  return steps.length === 0 ? undefined : steps.length === 1 ? steps[0] : Effect.all(steps, { discard: true })
}

/** Oversized results are saved and replaced by a preview the model can follow up on. */
const capResult = (deps: DispatchDeps, tool: RegisteredTool, result: string, context: ToolCallContext, limits: Limits) => {
  const threshold = tool.maxResultChars === Infinity ? Infinity : Math.min(tool.maxResultChars ?? limits.resultChars, limits.resultChars)
  if (result.length <= threshold) return Effect.succeed(result)
  return deps.results
    .persist({ content: result, tool: tool.name, taskId: context.taskId, toolCallId: context.toolCallId })
    .pipe(
      Effect.map((path) => persistedBlock(result, path)),
      Effect.catchAll((error) =>
        Effect.as(Effect.logWarning(`could not save an oversized result of ${tool.name}: ${error.detail}`), truncatedInline(result))
      )
    )
}

interface Decoded {
  readonly tool: RegisteredTool
  readonly args: unknown
}

/** The synchronous part: find the tool, parse, coerce and decode its arguments. */
const prepare = (
  deps: DispatchDeps,
  call: ToolCall,
  allowed: ReadonlySet<string> | undefined
): Either.Either<Decoded, ToolError> => {
  const tool = allowed !== undefined && !allowed.has(call.tool) ? undefined : deps.lookup(call.tool)
  if (tool === undefined) {
    const names = allowed !== undefined ? [...allowed].sort() : deps.allNames()
    return Either.left(new UnknownTool({ tool: call.tool, available: names }))
  }
  const raw = parseArguments(tool.name, call.args)
  if (Either.isLeft(raw)) return Either.left(raw.left)
  try {
    const decoded = tool.decode(coerceArgs(tool.jsonSchema, raw.right))
    if (Either.isLeft(decoded)) return Either.left(describeParseError(tool.name, decoded.left))
    return Either.right({ tool, args: decoded.right })
  } catch (e) {
    // A JSON string inside the arguments that nests too deep, or any other throw while decoding: an answer, not a crash.
    if (e instanceof JsonTooDeep) return Either.left(new InvalidArguments({ tool: tool.name, path: "", detail: `a JSON string in the arguments is ${e.message}` }))
    return Either.left(new InvalidArguments({ tool: tool.name, path: "", detail: `arguments could not be decoded (${defectText(e)})` }))
  }
}

export const executeCall = (
  deps: DispatchDeps,
  call: ToolCall,
  context: ToolCallContext,
  allowed: ReadonlySet<string> | undefined
): Effect.Effect<CallOutcome> =>
  Effect.suspend(() => {
    const startedAt = performance.now()
    const prepared = prepare(deps, call, allowed)

    const finish = (decoded: Decoded | undefined, result: string, error: ToolError | undefined): Effect.Effect<CallOutcome> => {
      const status = error === undefined ? "ok" : error._tag === "ToolBlocked" ? "blocked" : "error"
      const durationMs = performance.now() - startedAt
      const outcome: CallOutcome = { tool: call.tool, toolCallId: context.toolCallId, result, status, error, durationMs }
      if (decoded === undefined || !deps.hooks.has("post_tool_call")) return Effect.succeed(outcome)
      return Effect.as(
        deps.hooks.postToolCall({
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
    const failed = (decoded: Decoded | undefined, error: ToolError) => finish(decoded, errorJson(error.message), error)

    if (Either.isLeft(prepared)) return failed(undefined, prepared.left)
    const decoded = prepared.right
    const { args, tool } = decoded

    const run = Effect.flatMap(deps.limits, (limits) => {
      const own = tool.timeoutFor(args)
      return runHandler(tool, args, context, own === undefined ? limits.callTimeoutMs : toMillis(own)).pipe(
        Effect.flatMap((output) => {
          const rendered = renderOutput(tool.name, output)
          if (Either.isLeft(rendered)) return Effect.fail(rendered.left)
          const transformed = deps.hooks.has("transform_tool_result")
            ? deps.hooks.transformToolResult({ tool: tool.name, args, result: rendered.right, context })
            : Effect.succeed(rendered.right)
          return Effect.flatMap(transformed, (result) => capResult(deps, tool, result, context, limits))
        })
      )
    })
    const checked = gates(deps, tool, args, context)
    return (checked === undefined ? run : Effect.zipRight(checked, run)).pipe(
      Effect.matchEffect({
        onFailure: (error) => failed(decoded, error),
        onSuccess: (result) => finish(decoded, result, undefined)
      })
    )
  }).pipe(
    // The last net: whatever throws outside the handler (a hook, a deep value) still answers the model.
    Effect.catchAllDefect((defect) => {
      const error = new ToolDefect({ tool: call.tool, detail: defectText(defect) })
      return Effect.succeed<CallOutcome>({ tool: call.tool, toolCallId: context.toolCallId, result: errorJson(error.message), status: "error", error, durationMs: 0 })
    })
  )
