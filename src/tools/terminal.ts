/**
 * `terminal` (toolset `terminal`): run a shell command in the task's
 * environment, in the foreground or as a tracked background process.
 *
 * Every command goes through Approval first (foreground, background and PTY
 * alike); a denial is a normal result with `status: "blocked"`, as in Hermes.
 * Results are Hermes' JSON: `{"output", "exit_code", "error", ...}` with the
 * output capped (40% head, 60% tail), escape sequences stripped and secrets
 * masked.
 */
import { Duration, Effect, Schema } from "effect"
import { CommandDenied } from "../services/Approval.js"
import type { ApprovalGranted } from "../services/Approval.js"
import { Processes, ProcessLimitReached } from "../services/Processes.js"
import { Shell, SHELL_LIMITS } from "../services/Shell.js"
import type { ShellUnavailable, WorkdirNotFound } from "../services/Shell.js"
import { TerminalBackend } from "../services/TerminalBackend.js"
import { ToolContext } from "../services/ToolContext.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { pythonTypeName } from "../lib/tool/lenient.js"
import { exitCodeMeaning, foregroundGuidance, workdirProblem } from "./terminal/guards.js"
import { observedFn } from "../lib/effect/observedFn.js"

export const TerminalParameters = Schema.Struct({
  // Any value decodes: a missing or non-string command gets Hermes' own "Invalid command" result, not a decode error.
  command: Schema.Unknown.annotations({
    description: "The command to run (bash).",
    jsonSchema: { type: "string", description: "The command to run (bash)." }
  }),
  background: Schema.optional(Schema.Boolean.annotations({
    description:
      "Run in the background and return a session_id at once. Pair it with notify_on_complete=true for anything with an end (tests, builds, deploys) so you are told when it exits; " +
      "leave it off only for processes that never exit (servers, watchers). Prefer the foreground with a generous timeout for short commands.",
    default: false
  })),
  // The bound is advertised, not enforced: 0 (or less) means the default, as in Hermes.
  timeout: Schema.optional(Schema.Int.annotations({
    description:
      `Seconds to wait before the command is killed (default ${SHELL_LIMITS.defaultTimeoutSeconds}, foreground at most ${SHELL_LIMITS.maxForegroundTimeoutSeconds}). ` +
      "The call returns as soon as the command finishes, so a high value costs nothing. A longer foreground timeout is refused: use background=true.",
    jsonSchema: { type: "integer", minimum: 1 }
  })),
  workdir: Schema.optional(Schema.String.annotations({
    description: "Absolute directory to run this command in. Defaults to the session's current directory."
  })),
  pty: Schema.optional(Schema.Boolean.annotations({
    description:
      "Run under a pseudo-terminal, for interactive programs that need a TTY (REPLs, coding agents such as Codex or Claude Code, TUIs). Local and SSH backends only. Default false.",
    default: false
  })),
  notify_on_complete: Schema.optional(Schema.Boolean.annotations({
    description:
      "With background=true: you are notified once when the process exits. The right choice for almost every long task with an end; keep working meanwhile. " +
      "Do not combine with watch_patterns (watch_patterns is dropped).",
    default: false
  })),
  watch_patterns: Schema.optional(Schema.Array(Schema.String).annotations({
    description:
      "With background=true: strings to watch for in the output, for rare one-off signals of long-lived processes (e.g. 'Application startup complete'). " +
      "At most one notification per 15 s per process; after 3 windows with dropped matches watching stops and you are notified on exit instead. " +
      "Not for end markers or error patterns in loops: use notify_on_complete. Do not combine with notify_on_complete."
  }))
})

/** Hermes uses the default for a zero timeout (`timeout or default`); a negative one is treated the same. */
export const effectiveTimeout = (timeout: number | undefined): number | undefined =>
  timeout !== undefined && timeout > 0 ? timeout : undefined

export type TerminalArgs = typeof TerminalParameters.Type

/** Time the registry allows a call beyond the command's own timeout, for startup and cleanup. */
const DISPATCH_GRACE_SECONDS = 30

/** A foreground call may wait up to its own timeout (or the configured default, at most 600 s). */
export const terminalDispatchTimeout = (args: TerminalArgs): Duration.Duration =>
  Duration.seconds(
    (args.background === true ? 0 : Math.min(effectiveTimeout(args.timeout) ?? SHELL_LIMITS.maxForegroundTimeoutSeconds, SHELL_LIMITS.maxForegroundTimeoutSeconds)) +
      DISPATCH_GRACE_SECONDS
  )

type Result = { readonly [key: string]: unknown }

const failed = (error: string, status: "error" | "blocked" | "disabled"): Result => ({ output: "", exit_code: -1, error, status })

const BACKGROUND_HINT =
  "background=true without notify_on_complete=true runs SILENTLY: you will not be told when it exits. If this task has an end (tests, a build, a deploy, a poller), " +
  "you almost certainly want notify_on_complete=true; relaunch with it, or check with process(action='poll') / process(action='wait'). " +
  "Ignore this only for processes that never exit (servers, watchers, daemons)."

/** Hermes' note when a flagged command ran because someone (or something) approved it. */
const approvalNote = (grant: ApprovalGranted): string | undefined => {
  const what = grant.key ?? "flagged as dangerous"
  if (grant.decidedBy === "human") return `Command required approval (${what}) and was approved by the user.`
  if (grant.decidedBy === "smart") return `Command was flagged (${what}) and auto-approved by smart approval.`
  return undefined
}

/** The task's environment could not be made, or the workdir is not a directory in it. */
const targetFailed = (error: ShellUnavailable | WorkdirNotFound): Result =>
  error._tag === "ShellUnavailable"
    ? failed(`Terminal tool disabled: environment creation failed (${error.message})`, "disabled")
    : failed(`workdir does not exist or is not a directory: ${error.path}`, "error")

const WATCH_IGNORED = "watch_patterns ignored because notify_on_complete=true; the two together produce duplicate notifications"

type TerminalServices = Processes | Shell | TerminalBackend

/** Hermes' usage rules for the terminal, in our words: the model relies on them to pick the right tool. */
const TERMINAL_DESCRIPTION = [
  "Run a shell command (bash) in this task's environment; the working directory and exported variables carry over between calls. Returns JSON with output, exit_code and error.",
  "Do not use it to read, search or edit files: use read_file instead of cat/head/tail, search_files instead of grep/rg/find/ls, patch instead of sed/awk, and write_file instead of echo or cat heredocs.",
  "Foreground (the default) suits commands that finish: set a generous timeout, the call returns as soon as the command ends. Never start long-lived processes in the foreground and never background them with '&', nohup, disown or setsid:",
  "run servers, watchers and other long jobs with background=true (add notify_on_complete=true when the job has an end), then use the process tool to poll, read the log, wait, send input or kill.",
  "Programs that need a TTY take pty=true; to converse with one (a REPL, a coding agent, an installer that prompts) start it with background=true and pty=true and answer through process(action='submit').",
  "Pagers and editors (less, more, vim, nano) wait for keys that never come: use non-interactive forms instead (git --no-pager, PAGER=cat, -y for installers, write_file or patch for edits).",
  "Dangerous commands are checked before they run and may need the user's approval."
].join(" ")

export const terminalTool = defineTool<TerminalArgs, typeof TerminalParameters.Encoded, TerminalServices>({
  name: "terminal",
  toolset: "terminal",
  emoji: "💻",
  maxResultChars: 100_000,
  description: TERMINAL_DESCRIPTION,
  parameters: TerminalParameters,
  timeout: terminalDispatchTimeout,
  check: Effect.flatMap(TerminalBackend, (backend) => backend.available),
  handler: observedFn("terminal")(function*(args) {
    const context = yield* ToolContext
    const background = args.background === true
    if (typeof args.command !== "string") return failed(`Invalid command: expected string, got ${pythonTypeName(args.command)}`, "error")
    const command = args.command
    const timeout = effectiveTimeout(args.timeout)

    if (!background && timeout !== undefined && timeout > SHELL_LIMITS.maxForegroundTimeoutSeconds) {
      return {
        error: `Foreground timeout ${timeout}s exceeds the maximum of ${SHELL_LIMITS.maxForegroundTimeoutSeconds}s. Use background=true with notify_on_complete=true for long-running commands.`
      }
    }
    if (!background) {
      const guidance = foregroundGuidance(command)
      if (guidance !== undefined) return failed(guidance, "error")
    }
    if (args.workdir !== undefined) {
      const problem = workdirProblem(args.workdir)
      if (problem !== undefined) return failed(problem, "blocked")
    }

    const shell = yield* Shell
    if (background) {
      const target = yield* Effect.either(shell.target(context, args.workdir))
      if (target._tag === "Left") return targetFailed(target.left)
      const processes = yield* Processes
      const watch = args.watch_patterns !== undefined && args.watch_patterns.length > 0 ? args.watch_patterns : undefined
      const notify = args.notify_on_complete === true
      const started = yield* Effect.either(processes.start({
        command,
        context,
        cwd: target.right.workdir,
        pty: args.pty === true,
        notifyOnComplete: notify,
        watchPatterns: notify ? undefined : watch
      }))
      if (started._tag === "Left") {
        const error = started.left
        return error instanceof CommandDenied
          ? failed(error.reason, "blocked")
          : error instanceof ProcessLimitReached
          ? failed(error.message, "error")
          : { output: "", exit_code: -1, error: `Failed to start background process: ${error.message}` }
      }
      const proc = started.right
      const result: Record<string, unknown> = {
        output: "Background process started",
        session_id: proc.id,
        pid: proc.pid,
        exit_code: 0,
        error: null
      }
      const note = approvalNote(proc.approval)
      if (note !== undefined) result["approval"] = note
      if (!notify && watch === undefined) result["hint"] = BACKGROUND_HINT
      if (notify) result["notify_on_complete"] = true
      if (notify && watch !== undefined) result["watch_patterns_ignored"] = WATCH_IGNORED
      if (!notify && watch !== undefined) result["watch_patterns"] = watch
      return result
    }

    const ran = yield* Effect.either(shell.run(context, command, { workdir: args.workdir, timeoutSeconds: timeout, pty: args.pty === true }))
    if (ran._tag === "Left") {
      const error = ran.left
      switch (error._tag) {
        case "CommandDenied":
          return failed(error.reason, "blocked")
        case "TerminalError":
          return { output: "", exit_code: -1, error: `Command execution failed: ${error.message}` }
        default:
          return targetFailed(error)
      }
    }
    const run = ran.right
    const result: Record<string, unknown> = { output: run.output, exit_code: run.exitCode, error: null }
    const note = approvalNote(run.grant)
    if (note !== undefined) result["approval"] = run.interrupted ? `${note.replace(/\.$/, "")}, then interrupted.` : note
    const meaning = run.timedOut || run.interrupted ? undefined : exitCodeMeaning(command, run.exitCode)
    if (meaning !== undefined) result["exit_code_meaning"] = meaning
    return result
  })
})
