/**
 * Shell: how tools run a command in a task's environment without knowing the
 * layers behind it. `run` is the terminal tool's foreground path in one call:
 * the task's environment → the workdir in it → Approval → the command →
 * output shaped for the model (capped 40% head / 60% tail, escape sequences
 * stripped, secrets masked). `approve` is the approval gate itself, for tools
 * that run their own command line in an environment they already hold.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import { CONFIG_DEFAULTS, MAX_FOREGROUND_TIMEOUT_SECONDS } from "./Config.js"
import type { ApprovalGranted, CodeLanguage, CommandDenied, CommandPath } from "./Approval.js"
import type { ApprovedCommand, TerminalEnvironment, TerminalError } from "./TerminalBackend.js"
import type { ToolCallContext } from "./ToolContext.js"

/** Fixed limits the terminal tools state in their schemas and dispatch timeouts. */
export const SHELL_LIMITS = {
  /** `terminal.timeout` when not set (the Config schema's default). */
  defaultTimeoutSeconds: CONFIG_DEFAULTS.terminal.timeout,
  /** No foreground command (or `process wait`) runs longer. */
  maxForegroundTimeoutSeconds: MAX_FOREGROUND_TIMEOUT_SECONDS
} as const

/** The `terminal` settings tools read, defaults applied. */
export interface ShellSettings {
  /** A foreground command's timeout when the call gives none, and the longest `process wait`. */
  readonly timeoutSeconds: number
}

/** The task's environment could not be created. */
export class ShellUnavailable extends Schema.TaggedError<ShellUnavailable>()("ShellUnavailable", {
  message: Schema.String
}) {}

/** The requested workdir does not exist or is not a directory (`path` as the environment resolved it). */
export class WorkdirNotFound extends Schema.TaggedError<WorkdirNotFound>()("WorkdirNotFound", {
  path: Schema.String
}) {}

/** The task's environment, with the call's workdir resolved in it. */
export interface ShellTarget {
  readonly env: TerminalEnvironment
  /** Absolute, an existing directory; undefined when the call named none (the tracked cwd applies). */
  readonly workdir: string | undefined
}

export interface ShellRunOptions {
  /** Directory for this command only (as the model wrote it; resolved in the environment). */
  readonly workdir?: string | undefined
  /** Seconds before the command is killed; `settings.timeoutSeconds` when absent. */
  readonly timeoutSeconds?: number | undefined
  /** Run under a pseudo-terminal (approved on the `pty` path). */
  readonly pty?: boolean | undefined
}

export interface ShellOutput {
  /** Shaped for the model; timeouts and interrupts are noted at its end. */
  readonly output: string
  readonly exitCode: number
  readonly timedOut: boolean
  readonly interrupted: boolean
  /** Who let the command through. */
  readonly grant: ApprovalGranted
}

export type ShellRunError = ShellUnavailable | WorkdirNotFound | CommandDenied | TerminalError

export interface ShellService {
  readonly settings: Effect.Effect<ShellSettings>
  /** The calling task's environment, and `workdir` (when given and non-empty) resolved and checked in it. */
  readonly target: (context: ToolCallContext, workdir?: string) => Effect.Effect<ShellTarget, ShellUnavailable | WorkdirNotFound>
  /** Ask Approval for `text` on `path` in `env`; the only way to an `ApprovedCommand`. */
  readonly approve: (
    env: TerminalEnvironment,
    context: ToolCallContext,
    text: string,
    path: CommandPath,
    language?: CodeLanguage
  ) => Effect.Effect<ApprovedCommand, CommandDenied>
  /**
   * Ask Approval for `judged` and run `runs` instead: a launcher the runtime builds to run exactly the bytes `judged`
   * names, handed over in memory (execute_code), so nothing can change them between the judgement and the run.
   */
  readonly approveLauncher: (
    env: TerminalEnvironment,
    context: ToolCallContext,
    judged: string,
    runs: string,
    path: CommandPath
  ) => Effect.Effect<ApprovedCommand, CommandDenied>
  /** Run `command` in the foreground in the calling task's environment. */
  readonly run: (context: ToolCallContext, command: string, options?: ShellRunOptions) => Effect.Effect<ShellOutput, ShellRunError>
}

export class Shell extends Context.Tag("hermes-effect/Shell")<Shell, ShellService>() {}
