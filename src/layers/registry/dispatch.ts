/**
 * One tool call from raw arguments to the string the model sees. Every
 * failure is a tagged ToolError until `foldOutcome`, the single place where
 * errors become `{"error": "..."}` text. Defects never escape.
 */
import { Cause, Effect, Either, Exit, Option, ParseResult } from "effect"
import type { HooksService } from "../../services/Hooks.js"
import type { ResultStoreService } from "../../services/ResultStore.js"
import type { ToolOutput } from "../../services/Tool.js"
import { ToolContext } from "../../services/ToolContext.js"
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
import { persistedBlock, truncatedInline } from "./persistedOutput.js"
import { toMillis } from "./provideTool.js"
import { errorJson } from "./sanitize.js"

export interface DispatchDeps {
  readonly lookup: (name: string) => RegisteredTool | undefined
  readonly allNames: () => ReadonlyArray<string>
  readonly availability: (tool: RegisteredTool) => Effect.Effect<string | undefined>
  readonly hooks: HooksService
  readonly gate: ToolGateService
  readonly results: ResultStoreService
  readonly limits: Effect.Effect<{ readonly callTimeoutMs: number; readonly resultChars: number }>
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

/** Run the handler and translate every way it can end into a value or a ToolError. */
const runHandler = (tool: RegisteredTool, args: unknown, context: ToolCallContext, timeoutMs: number) =>
  Effect.flatMap(
    Effect.exit(
      tool.run(args).pipe(
        Effect.provideService(ToolContext, context),
        Effect.timeoutOption(timeoutMs)
      )
    ),
    (exit): Effect.Effect<ToolOutput, ToolError> => {
      if (Exit.isSuccess(exit)) {
        return Option.match(exit.value, {
          onNone: () => Effect.fail(new ToolTimeout({ tool: tool.name, seconds: Math.round(timeoutMs / 100) / 10 })),
          onSome: Effect.succeed
        })
      }
      const cause = exit.cause
      const failure = Cause.failureOption(cause)
      if (Option.isSome(failure)) return Effect.fail(failureOf(tool.name, failure.value))
      if (Cause.isInterruptedOnly(cause)) return Effect.fail(new ToolInterrupted({ tool: tool.name }))
      const defect = Cause.dieOption(cause)
      return Effect.fail(
        new ToolDefect({ tool: tool.name, detail: Option.isSome(defect) ? defectText(defect.value) : Cause.pretty(cause) })
      )
    }
  )

interface Started {
  readonly tool: RegisteredTool
  readonly args: unknown
}

/** Everything up to and including the handler; fails with a ToolError. */
const callPipeline = (
  deps: DispatchDeps,
  call: ToolCall,
  context: ToolCallContext,
  allowed: ReadonlySet<string> | undefined,
  started: { current: Started | undefined }
): Effect.Effect<string, ToolError> =>
  Effect.gen(function*() {
    const tool = allowed !== undefined && !allowed.has(call.tool) ? undefined : deps.lookup(call.tool)
    if (tool === undefined) {
      const names = allowed !== undefined ? [...allowed].sort() : deps.allNames()
      return yield* Effect.fail(new UnknownTool({ tool: call.tool, available: names }))
    }
    const raw = yield* parseArguments(tool.name, call.args)
    const decoded = tool.decode(coerceArgs(tool.jsonSchema, raw))
    if (Either.isLeft(decoded)) return yield* Effect.fail(describeParseError(tool.name, decoded.left))
    const args = decoded.right
    started.current = { tool, args }

    const unavailable = yield* deps.availability(tool)
    if (unavailable !== undefined) return yield* Effect.fail(new ToolUnavailable({ tool: tool.name, reason: unavailable }))

    if (deps.hooks.has("pre_tool_call")) {
      const verdict = yield* deps.hooks.preToolCall({ tool: tool.name, args, context })
      if (verdict._tag === "Block") {
        return yield* Effect.fail(new ToolBlocked({ tool: tool.name, by: verdict.by, reason: verdict.message }))
      }
      if (verdict._tag === "Approve") {
        yield* deps.gate
          .requestToolApproval({ tool: tool.name, message: verdict.message, ruleKey: verdict.ruleKey, context })
          .pipe(Effect.mapError((denied) => new ToolBlocked({ tool: tool.name, by: "approval", reason: denied.reason })))
      }
    }

    const limits = yield* deps.limits
    const own = tool.timeoutFor(args)
    const timeoutMs = own === undefined ? limits.callTimeoutMs : toMillis(own)
    const output = yield* runHandler(tool, args, context, timeoutMs)
    return yield* renderOutput(tool.name, output)
  })

/** Oversized results are saved and replaced by a preview the model can follow up on. */
const capResult = (deps: DispatchDeps, tool: RegisteredTool, result: string, context: ToolCallContext) =>
  Effect.gen(function*() {
    const { resultChars } = yield* deps.limits
    const threshold = tool.maxResultChars === Infinity ? Infinity : Math.min(tool.maxResultChars ?? resultChars, resultChars)
    if (result.length <= threshold) return result
    return yield* deps.results
      .persist({ content: result, tool: tool.name, taskId: context.taskId, toolCallId: context.toolCallId })
      .pipe(
        Effect.map((path) => persistedBlock(result, path)),
        Effect.catchAll((error) =>
          Effect.as(Effect.logWarning(`could not save an oversized result of ${tool.name}: ${error.detail}`), truncatedInline(result))
        )
      )
  })

export const executeCall = (
  deps: DispatchDeps,
  call: ToolCall,
  context: ToolCallContext,
  allowed: ReadonlySet<string> | undefined
): Effect.Effect<CallOutcome> =>
  Effect.suspend(() => {
    const startedAt = performance.now()
    const started: { current: Started | undefined } = { current: undefined }
    return Effect.flatMap(Effect.either(callPipeline(deps, call, context, allowed, started)), (either) =>
      Effect.gen(function*() {
        const current = started.current
        let result: string
        let error: ToolError | undefined
        if (Either.isRight(either)) {
          result = either.right
          if (current !== undefined && deps.hooks.has("transform_tool_result")) {
            result = yield* deps.hooks.transformToolResult({ tool: current.tool.name, args: current.args, result, context })
          }
          if (current !== undefined) result = yield* capResult(deps, current.tool, result, context)
        } else {
          error = either.left
          result = errorJson(error.message)
        }
        const status = error === undefined ? "ok" : error._tag === "ToolBlocked" ? "blocked" : "error"
        const durationMs = performance.now() - startedAt
        if (current !== undefined && deps.hooks.has("post_tool_call")) {
          yield* deps.hooks.postToolCall({
            tool: current.tool.name,
            args: current.args,
            result,
            status,
            errorType: error?._tag,
            errorMessage: error?.message,
            durationMs,
            context
          })
        }
        return { tool: call.tool, toolCallId: context.toolCallId, result, status, error, durationMs } satisfies CallOutcome
      })
    )
  })
