/**
 * `process` (toolset `terminal`): manage background processes started with
 * `terminal(background=true)`: list, poll, log, wait, kill, and write/submit/
 * close their stdin. Text typed into a process is a command like any other
 * and goes through Approval first, together with the unfinished line it
 * continues and in the language of the program reading it. Results are Hermes' JSON shapes; output
 * is stripped of escape sequences and has secrets masked.
 */
import { Clock, Duration, Effect, Schema } from "effect"
import { CommandDenied } from "../services/Approval.js"
import { Processes, ProcessNotFound, ProcessStdinUnavailable } from "../services/Processes.js"
import type { ProcessInfo } from "../services/Processes.js"
import { Shell, SHELL_LIMITS } from "../services/Shell.js"
import { ToolContext } from "../services/ToolContext.js"
import { redactToolOutput, stripAnsiOutput, tailText } from "../lib/text.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { observedFn } from "../lib/effect/observedFn.js"

export const PROCESS_ACTIONS = ["list", "poll", "log", "wait", "kill", "write", "submit", "close"] as const

/** Models sometimes send the id as a number. */
const SessionId = Schema.transform(Schema.Union(Schema.String, Schema.Number), Schema.String, {
  strict: true,
  decode: (value) => String(value),
  encode: (value) => value
}).annotations({
  jsonSchema: { type: "string", description: "The session_id from terminal(background=true), e.g. proc_4dae56ca81f6. Required for every action but list." }
})

export const ProcessParameters = Schema.Struct({
  // A plain string (not a literal union) so an unknown action gets Hermes' own message.
  action: Schema.String.annotations({
    jsonSchema: {
      type: "string",
      enum: [...PROCESS_ACTIONS],
      description:
        "list: this task's processes. poll: status and recent output. log: output by lines (offset/limit). wait: block until exit or timeout. " +
        "kill: stop it and its children. write: send raw text to stdin (no newline). submit: send text plus Enter (answers prompts). close: send EOF."
    }
  }),
  session_id: Schema.optional(SessionId),
  data: Schema.optional(Schema.String.annotations({
    description: "Text for write/submit: plain text and newlines (control keys such as Tab, Escape or Backspace are refused; Ctrl-C is allowed on a PTY)."
  })),
  timeout: Schema.optional(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)).annotations({
    description: `Most seconds to wait (wait only; capped at the terminal timeout, ${SHELL_LIMITS.defaultTimeoutSeconds} by default).`
  })),
  offset: Schema.optional(Schema.Int.annotations({ description: "First line to show (log only; default: the last `limit` lines)." })),
  limit: Schema.optional(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)).annotations({ description: "Most lines to show (log only; default 200)." }))
})

export type ProcessArgs = typeof ProcessParameters.Type

type Result = { readonly [key: string]: unknown }

const notFound = (error: ProcessNotFound): Result => ({ status: "not_found", error: error.message })

const clean = (text: string, command: string) => redactToolOutput(text, command)

const preview = (output: string, info: ProcessInfo, chars: number) => clean(tailText(output, chars), info.command)

const exitFields = (info: ProcessInfo): Result =>
  info.status === "exited"
    ? { exit_code: info.exitCode, ...(info.completionReason === undefined ? {} : { completion_reason: info.completionReason }) }
    : {}

/** Long enough for the longest `wait` the configuration allows, plus a margin. */
export const processDispatchTimeout = (args: ProcessArgs): Duration.Duration =>
  Duration.seconds(
    args.action === "wait"
      ? Math.min(args.timeout ?? SHELL_LIMITS.maxForegroundTimeoutSeconds, SHELL_LIMITS.maxForegroundTimeoutSeconds) + 30
      : 60
  )

export const processTool = defineTool({
  name: "process",
  toolset: "terminal",
  emoji: "⚙️",
  description:
    "Manage background processes started with terminal(background=true): list, poll (status and new output), log (output by lines), " +
    "wait (until exit or timeout; partial output on timeout), kill, write (raw stdin, no newline), submit (stdin plus Enter, to answer prompts), close (EOF on stdin).",
  parameters: ProcessParameters,
  timeout: processDispatchTimeout,
  handler: observedFn("process")(function*(args) {
    const processes = yield* Processes
    const context = yield* ToolContext
    const action = args.action
    if (!(PROCESS_ACTIONS as ReadonlyArray<string>).includes(action)) {
      return { error: `Unknown process action: ${action}. Use: ${PROCESS_ACTIONS.join(", ")}` }
    }
    const now = yield* Clock.currentTimeMillis
    const uptime = (info: ProcessInfo) => Math.max(0, Math.floor((now - info.startedAt) / 1000))

    if (action === "list") {
      const all = yield* processes.list({ taskId: context.taskId, ...(context.sessionId === undefined ? {} : { sessionId: context.sessionId }) })
      const rows = yield* Effect.forEach(all, (info) =>
        Effect.map(Effect.orElseSucceed(processes.output(info.id), () => ""), (output) => ({
          session_id: info.id,
          command: clean(info.command.slice(0, 200), info.command),
          cwd: info.cwd,
          pid: info.pid,
          started_at: new Date(info.startedAt).toISOString(),
          uptime_seconds: uptime(info),
          status: info.status,
          output_preview: preview(output, info, 200),
          ...(info.watchPatterns.length > 0 ? { watch_patterns: info.watchPatterns, watch_hit: info.watchHit } : {}),
          ...(info.notifyOnComplete ? { notify_on_complete: true } : {}),
          ...(info.sessionId !== undefined && info.taskId !== context.taskId ? { session_scoped: true } : {}),
          ...exitFields(info)
        })))
      return { processes: rows }
    }

    const id = args.session_id ?? ""
    if (id.length === 0) return { error: `session_id is required for ${action}` }

    const withProcess = <A extends Result>(
      body: (info: ProcessInfo) => Effect.Effect<A, ProcessNotFound | ProcessStdinUnavailable | CommandDenied>
    ): Effect.Effect<Result> =>
      Effect.flatMap(processes.get(id), body).pipe(
        Effect.catchTags({
          ProcessNotFound: (e) => Effect.succeed(notFound(e)),
          ProcessStdinUnavailable: (e) =>
            Effect.succeed<Result>({ status: e.reason === "exited" ? "already_exited" : "error", error: e.message }),
          CommandDenied: (e) => Effect.succeed<Result>({ status: "blocked", error: e.reason })
        })
      )

    switch (action) {
      case "poll":
        return yield* withProcess((info) =>
          Effect.map(processes.output(id), (output) => ({
            session_id: info.id,
            command: clean(info.command, info.command),
            status: info.status,
            pid: info.pid,
            uptime_seconds: uptime(info),
            output_preview: preview(output, info, 1000),
            ...exitFields(info)
          })))
      case "log":
        return yield* withProcess((info) =>
          Effect.map(processes.output(id), (output) => {
            const lines = stripAnsiOutput(output).split("\n")
            if (lines[lines.length - 1] === "") lines.pop()
            const limit = args.limit ?? 200
            const selected = args.offset === undefined ? lines.slice(-limit) : lines.slice(Math.max(0, args.offset), Math.max(0, args.offset) + limit)
            return {
              session_id: info.id,
              command: clean(info.command, info.command),
              status: info.status,
              output: clean(selected.join("\n"), info.command),
              total_lines: lines.length,
              showing: `${selected.length} lines`
            }
          }))
      case "wait": {
        const max = (yield* Effect.flatMap(Shell, (shell) => shell.settings)).timeoutSeconds
        const requested = args.timeout ?? max
        const seconds = Math.min(requested, max)
        const clampNote = requested > max ? `Requested wait of ${requested}s was clamped to configured limit of ${max}s` : undefined
        return yield* withProcess(() =>
          Effect.gen(function*() {
            const info = yield* processes.wait(id, Duration.seconds(seconds))
            const output = yield* processes.output(id)
            if (info.status === "exited") {
              return {
                status: "exited",
                command: clean(info.command, info.command),
                ...exitFields(info),
                output: preview(output, info, 2000),
                ...(clampNote === undefined ? {} : { timeout_note: clampNote })
              }
            }
            const waited = `Waited ${seconds}s; the process is still running (this is not an error).` +
              (info.notifyOnComplete
                ? " notify_on_complete is set: you will be notified when it exits, so do other work instead of waiting again."
                : " Poll again later, or start it with notify_on_complete=true next time to be told when it exits.")
            return {
              status: "timeout",
              command: clean(info.command, info.command),
              output: preview(output, info, 1000),
              process_running: true,
              timeout_note: clampNote === undefined ? waited : `${clampNote}. ${waited}`
            }
          }))
      }
      case "kill":
        return yield* withProcess(() =>
          Effect.gen(function*() {
            const { alreadyExited, info } = yield* processes.kill(id)
            const output = preview(yield* processes.output(id), info, 2000)
            return alreadyExited
              ? { status: "already_exited", command: clean(info.command, info.command), ...exitFields(info), output }
              : { status: "killed", session_id: info.id, completion_reason: "killed", exit_code: info.exitCode, output }
          }))
      case "write":
      case "submit": {
        const text = (args.data ?? "") + (action === "submit" ? "\n" : "")
        return yield* withProcess(() =>
          processes.write(id, text, context).pipe(
            // The backend could not write: the pipe is gone.
            Effect.catchTag("TerminalError", () => Effect.fail(new ProcessStdinUnavailable({ id, reason: "closed" }))),
            Effect.map((written) => ({ status: "ok", bytes_written: written }))
          ))
      }
      case "close":
        return yield* withProcess((info) =>
          Effect.map(
            Effect.catchTag(processes.closeStdin(id), "TerminalError", () => Effect.fail(new ProcessStdinUnavailable({ id, reason: "closed" }))),
            () => ({ status: "ok", message: info.pty ? "EOF sent" : "stdin closed" })
          ))
    }
    return { error: `Unknown process action: ${action}. Use: ${PROCESS_ACTIONS.join(", ")}` }
  })
})
