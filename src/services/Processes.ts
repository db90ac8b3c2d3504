/**
 * Processes: background commands started by `terminal(background=true)`,
 * addressed by `proc_<12 hex>` ids. Each keeps a rolling output buffer and its
 * exit status after it ends. Completions (`notify_on_complete`) and watched
 * output (`watch_patterns`, rate-limited) become notifications the agent loop
 * picks up from a queue. Closing a session, or the runtime, kills its processes.
 *
 * A process is its whole tree: whatever it starts carries `TOOL_PROCESS_VARIABLE`
 * (its id), and when it ends or is killed everything still carrying it is
 * killed too, even what left its process group (setsid, double fork, nohup).
 * How many may run at once is capped per task and per runtime
 * (`terminal.max_background_per_task`, `terminal.max_background`).
 */
import { Context, Schema } from "effect"
import type { Duration, Effect, Queue } from "effect"
import type { ApprovalGranted, CommandDenied } from "./Approval.js"
import type { TerminalError } from "./TerminalBackend.js"
import type { ToolCallContext } from "./ToolContext.js"

/** Set (to the process id) in the environment of every command a background process runs. */
export const TOOL_PROCESS_VARIABLE = "HERMES_EFFECT_TOOL_PROCESS"

export type ProcessStatus = "running" | "exited"
/** Why a process ended: on its own, or killed by `kill` / a session or runtime close. */
export type CompletionReason = "exited" | "killed"

export interface ProcessInfo {
  readonly id: string
  readonly command: string
  readonly cwd: string
  readonly pid: number
  readonly taskId: string
  readonly sessionId: string | undefined
  /** Epoch milliseconds (from the Effect Clock). */
  readonly startedAt: number
  readonly status: ProcessStatus
  readonly exitCode: number | null
  readonly completionReason: CompletionReason | undefined
  readonly pty: boolean
  readonly notifyOnComplete: boolean
  readonly watchPatterns: ReadonlyArray<string>
  /** A watch pattern matched at least once. */
  readonly watchHit: boolean
  /** Output characters seen in total (the buffer keeps only the last 200 000). */
  readonly outputChars: number
}

/** A process just started, with the approval that let it run. */
export interface StartedProcess extends ProcessInfo {
  readonly approval: ApprovalGranted
}

export interface StartRequest {
  readonly command: string
  readonly context: ToolCallContext
  readonly cwd?: string | undefined
  readonly pty?: boolean | undefined
  readonly notifyOnComplete?: boolean | undefined
  readonly watchPatterns?: ReadonlyArray<string> | undefined
}

interface NotificationBase {
  readonly processId: string
  readonly command: string
  readonly taskId: string
  readonly sessionId: string | undefined
}

export type ProcessNotification =
  | NotificationBase & {
    readonly type: "completion"
    readonly exitCode: number
    readonly completionReason: CompletionReason
    /** The last characters of the output. */
    readonly output: string
  }
  | NotificationBase & {
    readonly type: "watch_match"
    readonly pattern: string
    /** The matching line(s) since the last delivered match. */
    readonly output: string
    /** Matches dropped by the rate limit since the last delivered one. */
    readonly suppressed: number
  }
  | NotificationBase & {
    readonly type: "watch_disabled"
    readonly message: string
  }

export class ProcessNotFound extends Schema.TaggedError<ProcessNotFound>()("ProcessNotFound", {
  id: Schema.String
}) {
  override get message(): string {
    return `No process with ID ${this.id}`
  }
}

export class ProcessStdinUnavailable extends Schema.TaggedError<ProcessStdinUnavailable>()("ProcessStdinUnavailable", {
  id: Schema.String,
  reason: Schema.Literal("exited", "closed")
}) {
  override get message(): string {
    return this.reason === "exited"
      ? "Process has already finished"
      : "Process stdin not available (stdin closed)"
  }
}

/** Starting one more background process would pass a cap. */
export class ProcessLimitReached extends Schema.TaggedError<ProcessLimitReached>()("ProcessLimitReached", {
  scope: Schema.Literal("task", "runtime"),
  limit: Schema.Number,
  key: Schema.String
}) {
  override get message(): string {
    const who = this.scope === "task" ? "This task already has" : "The runtime already has"
    const free = this.scope === "task"
      ? "Stop one first: process(action=\"list\") shows them, process(action=\"kill\", session_id=...) stops one."
      : "Stop one of this task's first (process(action=\"list\"), then process(action=\"kill\", session_id=...)), or wait for others to finish."
    return `${who} ${this.limit} background processes running, the most allowed (${this.key} = ${this.limit}). ${free} ` +
      `Only the user can raise ${this.key}.`
  }
}

export interface KillOutcome {
  readonly info: ProcessInfo
  readonly alreadyExited: boolean
}

export interface ProcessesService {
  /** Approve (path `background`, or `pty`), then start in the task's environment. */
  readonly start: (request: StartRequest) => Effect.Effect<StartedProcess, CommandDenied | ProcessLimitReached | TerminalError>
  readonly get: (id: string) => Effect.Effect<ProcessInfo, ProcessNotFound>
  readonly list: (filter?: { readonly taskId?: string; readonly sessionId?: string }) => Effect.Effect<ReadonlyArray<ProcessInfo>>
  /** The rolling output buffer (raw, as the process wrote it). */
  readonly output: (id: string) => Effect.Effect<string, ProcessNotFound>
  /** Wait until the process exits or the timeout passes; the returned status says which. */
  readonly wait: (id: string, timeout: Duration.DurationInput) => Effect.Effect<ProcessInfo, ProcessNotFound>
  readonly kill: (id: string) => Effect.Effect<KillOutcome, ProcessNotFound>
  /**
   * Approve `data` (path `process-write`) together with the unfinished statement it continues, read
   * in the language of the program the process runs, then type it into stdin. Returns the characters written.
   */
  readonly write: (
    id: string,
    data: string,
    context: ToolCallContext
  ) => Effect.Effect<number, ProcessNotFound | ProcessStdinUnavailable | CommandDenied | TerminalError>
  readonly closeStdin: (id: string) => Effect.Effect<void, ProcessNotFound | ProcessStdinUnavailable | TerminalError>
  /** Notifications in the order they happened; the agent loop takes from here. */
  readonly notifications: Queue.Dequeue<ProcessNotification>
  /** Take every pending notification without waiting. */
  readonly drainNotifications: Effect.Effect<ReadonlyArray<ProcessNotification>>
  readonly hasRunning: (taskId: string) => Effect.Effect<boolean>
  /** Kill every running process started under this session id; returns how many. */
  readonly closeSession: (sessionId: string) => Effect.Effect<number>
  readonly closeTask: (taskId: string) => Effect.Effect<number>
}

export class Processes extends Context.Tag("hermes-effect/Processes")<Processes, ProcessesService>() {}
