#!/usr/bin/env node
/**
 * The program edge: run the CLI, turn failures into one line and an exit code
 * (2 for misuse, 1 for other failures), and send logs to stderr so stdout
 * stays machine-readable.
 */
import { ValidationError } from "@effect/cli"
// Module paths, not the barrel: the barrel pulls in cluster and HTTP client code (and undici) at start-up.
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit, Layer, Logger, LogLevel, Option } from "effect"
import { cli } from "./cli.js"
import { StdoutClosed } from "./commands/shared.js"

const logLevel = (() => {
  switch ((process.env["HERMES_EFFECT_LOG"] ?? "warning").toLowerCase()) {
    case "debug":
      return LogLevel.Debug
    case "info":
      return LogLevel.Info
    case "error":
      return LogLevel.Error
    case "none":
      return LogLevel.None
    default:
      return LogLevel.Warning
  }
})()

const logging = Layer.merge(
  Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)),
  Logger.minimumLogLevel(logLevel)
)

const describe = (error: unknown): string => {
  if (error !== null && typeof error === "object") {
    if ("oneLine" in error && typeof error.oneLine === "string") return error.oneLine
    if ("message" in error && typeof error.message === "string" && error.message.length > 0) return error.message
    if ("_tag" in error && typeof error._tag === "string") return error._tag
  }
  return String(error)
}

const fail = (message: string, code: number) =>
  Effect.sync(() => {
    process.stderr.write(`hermes-effect: ${message}\n`)
    process.exitCode = code
  })

/** The reader of our stdout has gone (`… | head`): stop without a message, with SIGPIPE's status (141), as Unix tools do. */
const readerGone = (cause: Cause.Cause<unknown>): boolean => Cause.squash(cause) instanceof StdoutClosed

/** Input the user named but we cannot use: exit 2 like other misuse. */
const USAGE_ERRORS = new Set(["BatchInputError", "ApprovalInputError", "CallInputError"])
const misuse = (error: unknown) =>
  error !== null && typeof error === "object" && "_tag" in error && USAGE_ERRORS.has(String(error._tag))

const program = Effect.suspend(() => cli(process.argv)).pipe(
  Effect.catchAllCause((cause): Effect.Effect<void> => {
    if (Cause.isInterruptedOnly(cause)) return fail("interrupted", 130)
    if (readerGone(cause)) return Effect.sync(() => void (process.exitCode = 141))
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      const error = failure.value
      // @effect/cli has already printed the usage problem; only the exit code is left to set.
      if (ValidationError.isValidationError(error)) {
        return ValidationError.isHelpRequested(error) ? Effect.void : Effect.sync(() => void (process.exitCode = 2))
      }
      return fail(describe(error), misuse(error) ? 2 : 1)
    }
    return fail(`internal error: ${describe(Cause.squash(cause))}`, 1)
  }),
  Effect.provide(Layer.merge(NodeContext.layer, logging))
)

/**
 * The program has ended and every finalizer has run: exit now. Left to the
 * event loop, a short command waited another ~40 ms for V8 to finish the
 * garbage collection it had started (a cold `tools list` allocates ~70 MB)
 * before the process could end. Output Node still holds for an asynchronous
 * pipe (macOS) is let drain first, as a natural exit would.
 */
const exitNow = (code: number) => {
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code)
  process.exitCode = code
}

/** Ctrl-C interrupts the program (finalizers kill what it started); the shell then sees 130, as for any SIGINT. */
const teardown = (exit: Exit.Exit<unknown, unknown>, onExit: (code: number) => void) => {
  const interrupted = Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause)
  const code = interrupted ? 130 : Exit.isFailure(exit) ? 1 : typeof process.exitCode === "number" ? process.exitCode : 0
  onExit(code)
  exitNow(code)
}

NodeRuntime.runMain(program, { disableErrorReporting: true, disablePrettyLogger: true, teardown })
