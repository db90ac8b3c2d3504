/**
 * Processes: background commands started by `terminal(background=true)`,
 * addressed by `proc_<12 hex>` ids. Each keeps a rolling output buffer and its
 * exit status after it ends. Completions (`notify_on_complete`) and watched
 * output (`watch_patterns`, rate-limited) become notifications the agent loop
 * picks up from a queue. Closing a session, or the runtime, kills its processes.
 */
import { Context, Schema } from "effect"
import type { Duration, Effect, Queue } from "effect"
import type { ApprovalGranted, CommandDenied } from "./Approval.js"
import type { TerminalError } from "./TerminalBackend.js"
import type { ToolCallContext } from "./ToolContext.js"

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

export interface KillOutcome {
  readonly info: ProcessInfo
  readonly alreadyExited: boolean
}

export interface ProcessesService {
  /** Approve (path `background`, or `pty`), then start in the task's environment. */
  readonly start: (request: StartRequest) => Effect.Effect<StartedProcess, CommandDenied | TerminalError>
  readonly get: (id: string) => Effect.Effect<ProcessInfo, ProcessNotFound>
  readonly list: (filter?: { readonly taskId?: string; readonly sessionId?: string }) => Effect.Effect<ReadonlyArray<ProcessInfo>>
  /** The rolling output buffer (raw, as the process wrote it). */
  readonly output: (id: string) => Effect.Effect<string, ProcessNotFound>
  /** Wait until the process exits or the timeout passes; the returned status says which. */
  readonly wait: (id: string, timeout: Duration.DurationInput) => Effect.Effect<ProcessInfo, ProcessNotFound>
  readonly kill: (id: string) => Effect.Effect<KillOutcome, ProcessNotFound>
  /** Approve `data` (path `process-write`), then type it into stdin. Returns the characters written. */
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
