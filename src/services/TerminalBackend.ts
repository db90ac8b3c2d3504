/**
 * TerminalBackend: where commands run. One interface for every backend (local,
 * sandbox, later ssh and containers), modelled on @effect/platform's
 * CommandExecutor: a started process belongs to a Scope and dies with it.
 *
 * A backend makes one `TerminalEnvironment` per task. The environment runs a
 * fresh shell per command, carrying the working directory and exported
 * variables from one command to the next, and gives file access that works
 * the same whatever the backend (the file tools and the result store use it).
 *
 * Commands only reach a shell as an `ApprovedCommand`: a token that nothing
 * but the approval gate (`src/layers/terminal/commandGate.ts`) can mint, so no
 * caller can run or type into a process without asking Approval first.
 */
import { Context, Schema } from "effect"
import type { Effect, Scope, Stream } from "effect"
import type { ApprovalGranted, CommandPath } from "./Approval.js"

declare const ApprovedBrand: unique symbol

/** A command (or stdin text, for `process-write`) that Approval let through for one path. */
export interface ApprovedCommand {
  readonly [ApprovedBrand]: true
  readonly text: string
  readonly path: CommandPath
  readonly grant: ApprovalGranted
}

/** The backend could not start, run or clean up a command. */
export class TerminalError extends Schema.TaggedError<TerminalError>()("TerminalError", {
  message: Schema.String
}) {}

/** A file operation inside an environment failed (missing, outside the writable area, I/O). */
export class EnvironmentFileError extends Schema.TaggedError<EnvironmentFileError>()("EnvironmentFileError", {
  path: Schema.String,
  reason: Schema.Literal("NotFound", "Denied", "IsDirectory", "Io"),
  message: Schema.String
}) {}

/**
 * Output kept by a bounded capture: everything when `omittedBytes` is 0,
 * otherwise the first and last bytes with the middle dropped (never held in memory).
 */
export interface CapturedOutput {
  readonly head: string
  readonly tail: string
  readonly omittedBytes: number
  readonly totalBytes: number
}

export interface RunOptions {
  /** Directory for this command only; the environment's tracked cwd when absent. */
  readonly cwd?: string | undefined
  /** Extra variables for this command only. */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Written to stdin, which is then closed; without it stdin is empty. */
  readonly stdin?: string | undefined
  /** Kill the command (and everything it started) after this many milliseconds. */
  readonly timeoutMs?: number | undefined
  /** Bytes of output kept (40% head, 60% tail); the rest is counted, not stored. */
  readonly maxOutputBytes?: number | undefined
  /** Run under a pseudo-terminal (backends that cannot do so fail). */
  readonly pty?: boolean | undefined
  /**
   * When this effect completes the command is stopped and the result says so
   * (exit code 130): an interrupt that still wants the partial output. Interrupting
   * the fiber instead also kills the command but yields no result.
   */
  readonly interrupt?: Effect.Effect<void> | undefined
}

export interface RunResult {
  readonly output: CapturedOutput
  /** The shell's exit code; 128+n for a signal; 124/130 when timed out/interrupted. */
  readonly exitCode: number
  readonly timedOut: boolean
  readonly interrupted: boolean
  /** The working directory after the command (for the next one). */
  readonly cwd: string
}

export interface SpawnOptions {
  readonly cwd?: string | undefined
  readonly env?: Readonly<Record<string, string>> | undefined
  readonly pty?: boolean | undefined
}

/** A background process. It is killed (with its whole process tree) when its scope closes. */
export interface RunningProcess {
  readonly pid: number
  readonly pty: boolean
  /** Output (stdout and stderr merged), decoded as UTF-8. Ends when the process has exited. Read it once. */
  readonly output: Stream.Stream<string>
  /** Waits for the exit code (128+n for a signal). */
  readonly exitCode: Effect.Effect<number>
  readonly isRunning: Effect.Effect<boolean>
  /** Type into stdin. The text must itself have been approved (path `process-write`). */
  readonly write: (input: ApprovedCommand) => Effect.Effect<void, TerminalError>
  /** Send EOF (closes the pipe, or ^D on a PTY). */
  readonly closeStdin: Effect.Effect<void, TerminalError>
  /** Stop the whole process tree: SIGTERM, then SIGKILL after a short grace. */
  readonly kill: Effect.Effect<void>
}

export interface FileStat {
  readonly type: "file" | "directory" | "other"
  readonly size: number
  readonly mtimeMs: number
  /** Device and inode (`dev:ino`) where the backend can tell: a hard link has its original's identity. */
  readonly identity?: string | undefined
  /** Number of hard links, where known (an ordinary file has 1). */
  readonly links?: number | undefined
}

/** One entry of a directory listing; symlinks are reported as such, not followed. */
export interface DirEntry {
  readonly name: string
  readonly type: "file" | "directory" | "symlink" | "other"
}

/** A byte range of a file (both optional: from the start, to the end). */
export interface ReadFileOptions {
  readonly offset?: number | undefined
  readonly length?: number | undefined
}

export interface WriteFileOptions {
  /**
   * Replace the file in one step: write a temporary file beside the target, then rename it over.
   * A reader sees the old or the new content, never a mix; the existing file's mode is kept, and
   * a symlink target is written through (the link stays a link).
   */
  readonly atomic?: boolean | undefined
  /**
   * The link-resolved path the caller judged this write at (approval, protected paths). When the target
   * resolves elsewhere by the time it is written (a symlink on the way swapped meanwhile), nothing is
   * written and the write fails with reason "Denied".
   */
  readonly expectedReal?: string | undefined
}

export interface BackendInfo {
  readonly kind: string
  /** True when commands cannot touch the host (approval may relax non-hardline prompts). */
  readonly isolated: boolean
}

/** One task's environment. */
export interface TerminalEnvironment extends BackendInfo {
  readonly taskId: string
  /** The tracked working directory (updated after every command). */
  readonly cwd: Effect.Effect<string>
  /** Directory the environment starts in and falls back to. */
  readonly home: string
  /** Commands and background processes running now; an environment with any is never idle. */
  readonly active: Effect.Effect<number>
  /** The exported variables the next command starts with (what approval resolves `$NAME` against). */
  readonly variables: Effect.Effect<Readonly<Record<string, string>>>
  /**
   * The shell functions the next command's shell already holds, once a command has run in a persistent shell
   * (which also keeps plain, unexported variables); undefined while every command so far started a fresh shell.
   */
  readonly shellFunctions?: Effect.Effect<ReadonlyArray<string> | undefined> | undefined
  readonly run: (command: ApprovedCommand, options?: RunOptions) => Effect.Effect<RunResult, TerminalError>
  readonly spawn: (command: ApprovedCommand, options?: SpawnOptions) => Effect.Effect<RunningProcess, TerminalError, Scope.Scope>
  /** Paths are resolved against the tracked cwd. A range reads only those bytes (large files in chunks). */
  readonly readFile: (path: string, options?: ReadFileOptions) => Effect.Effect<Uint8Array, EnvironmentFileError>
  /** Creates missing parent directories. */
  readonly writeFile: (path: string, data: Uint8Array | string, options?: WriteFileOptions) => Effect.Effect<void, EnvironmentFileError>
  readonly stat: (path: string) => Effect.Effect<FileStat, EnvironmentFileError>
  /** Entries of a directory, unsorted, without `.` and `..`. */
  readonly readDir: (path: string) => Effect.Effect<ReadonlyArray<DirEntry>, EnvironmentFileError>
  /**
   * The path with every symlink resolved, as the environment's commands see it. Like
   * `realpath -m`: never fails; components that do not exist are kept as written.
   */
  readonly realPath: (path: string) => Effect.Effect<string>
  /** The target of a symlink as stored in it; undefined when the path is not a symlink (or is missing). */
  readonly readLink: (path: string) => Effect.Effect<string | undefined>
  /** Rename a file or directory (replacing a file at `to`); both ends must be writable. */
  readonly rename: (from: string, to: string) => Effect.Effect<void, EnvironmentFileError>
  /** Delete a file or symlink (not a directory). */
  readonly remove: (path: string) => Effect.Effect<void, EnvironmentFileError>
  /** Absolute path as the environment's commands see it. */
  readonly resolvePath: (path: string) => Effect.Effect<string>
}

export interface EnvironmentSpec {
  readonly taskId: string
  /** Starting directory; the backend's default (process cwd, workspace, …) when absent. */
  readonly cwd?: string | undefined
  /**
   * Variables every process of this environment starts with, over the backend's own (the
   * tool-run marker). Put in each process's initial environment where the backend can
   * (local, sandbox), so even a subshell that leaves the process group still carries them.
   */
  readonly env?: Readonly<Record<string, string>> | undefined
}

export interface TerminalBackendService extends BackendInfo {
  /** Whether this backend can run here (e.g. bwrap installed and permitted). */
  readonly available: Effect.Effect<boolean>
  /** A new environment; closing the scope kills everything it started and removes its state. */
  readonly makeEnvironment: (spec: EnvironmentSpec) => Effect.Effect<TerminalEnvironment, TerminalError, Scope.Scope>
}

export class TerminalBackend extends Context.Tag("hermes-effect/TerminalBackend")<TerminalBackend, TerminalBackendService>() {}
