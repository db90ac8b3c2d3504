/**
 * The seam between the one environment engine (`engine.ts`) and a backend.
 *
 * The engine owns what every backend shares: the tracked cwd, the export
 * snapshots a command starts from (and who still reads them), bounded
 * capture, timeouts, interrupts, background processes, path resolution. A
 * `Transport` says only how to reach the target: start one command's wrapper
 * there, stop its process tree, collect what it left (cwd, exports), and
 * read or write the target's files.
 *
 * Two transports exist: `hostTransport.ts` (processes on this machine: local,
 * and sandbox through bwrap) and `execTransport.ts` (a client that runs an argv
 * on the target: ssh, `docker|podman exec`; such a backend only supplies an
 * `ExecChannel`).
 */
import type { Deferred, Effect } from "effect"
import type { TerminalEnvironment, TerminalError } from "../../services/TerminalBackend.js"

/** One command for the target, as the engine asks for it. */
export interface CommandRun {
  /** Unique within the environment: names the run's state files. */
  readonly runId: string
  readonly command: string
  /** The export snapshot to source first, if any. */
  readonly snapshot: string | undefined
  readonly cwd: string
  /** Where to go when the tracked `cwd` no longer exists (undefined: an explicit cwd, which must exist). */
  readonly fallbackCwd: string | undefined
  /** Variables for this command only (left out of the next snapshot). */
  readonly env: Readonly<Record<string, string>> | undefined
  /** Report the cwd and exports back for the next command (foreground yes, background no). */
  readonly persist: boolean
  /**
   * Approval let the command run although it was dangerous (a person, the allowlist, a session grant): such a command
   * may have left a persistent shell hooks that rewrite what its end reports (a DEBUG trap under extdebug, a function
   * named `builtin`), so the shell is replaced after it, from what it reported; the runtime's view is then the truth.
   */
  readonly untrusted?: boolean | undefined
  readonly pty: boolean
  /** Pipes: keep stdin writable (otherwise /dev/null). A PTY is always writable. */
  readonly stdin: boolean
}

export interface CommandEvents {
  readonly onData: (chunk: Buffer) => void
  /** The command reported its own end (code); the process carrying it may still be held open by a leftover. */
  readonly onEnd: (code: number) => void
  /** The exit code, once, after the last `onData` and just before `Launched.exited` completes. */
  readonly onExit: (code: number) => void
}

/** What a finished command left behind. */
export interface Outcome {
  /** The directory it ended in (undefined: unknown, keep the previous one). */
  readonly cwd?: string | undefined
  /** The next export snapshot; `variables` when already parsed (otherwise read on demand). */
  readonly snapshot?: { readonly file: string; readonly variables?: Readonly<Record<string, string>> | undefined } | undefined
  /** A persistent shell's functions for the next command (undefined: unchanged, as after a process of its own). */
  readonly functions?: ReadonlyArray<string> | undefined
}

export interface Launched {
  readonly pid: number
  readonly pty: boolean
  /** False when stdin is not writable (closed, or not a pipe). */
  readonly write: (data: string | Uint8Array) => boolean
  /** EOF: close the pipe, or ^D on a PTY. */
  readonly end: () => boolean
  /** The command's exit code, once the process is gone and its output delivered. */
  readonly exited: Deferred.Deferred<number>
  /** Why the exit is the transport's failure rather than the command's (a lost connection), or undefined. */
  readonly problem: () => string | undefined
  /** Stop the whole process tree and wait (bounded) for the exit; nothing when already exited. */
  readonly stop: Effect.Effect<void>
  /** The environment is closing with this still running. */
  readonly release: Effect.Effect<void>
  /** After the exit: the cwd and exports it left (persisting runs), and its per-run files dropped. Once. */
  readonly collect: Effect.Effect<Outcome>
}

export type TargetFiles = Pick<
  TerminalEnvironment,
  "readFile" | "writeFile" | "stat" | "readDir" | "realPath" | "readLink" | "rename" | "remove"
>

/** How the environment's paths are resolved (`~`, relative to the tracked cwd). */
export interface PathResolution {
  /** Absolute and normalised, as the environment's commands see it. */
  readonly resolve: (path: string) => string
  /** Absolute but not normalised: `..` after a symlink must be resolved against the link's target. */
  readonly rawAbsolute: (path: string) => string
}

export interface Transport {
  /** Starting and fallback directory, as commands see it. */
  readonly home: string
  /** What `~` means in file paths. */
  readonly userHome: string
  /** Variables commands start with, before any snapshot of their own. */
  readonly env: Readonly<Record<string, string>>
  /** The snapshot the first command sources, if any. */
  readonly initialSnapshot: string | undefined
  /** Whether `onEnd` can come before the process closes (a side channel); the hot local path skips the watch otherwise. */
  readonly reportsEnd: boolean
  readonly start: (run: CommandRun, events: CommandEvents) => Effect.Effect<Launched, TerminalError>
  /** A snapshot nobody reads any more. */
  readonly releaseSnapshot: (file: string) => void
  /** The variables of a snapshot the transport did not parse itself (undefined: unreadable). */
  readonly readVariables: (file: string) => Effect.Effect<Readonly<Record<string, string>> | undefined>
  readonly files: (paths: PathResolution) => TargetFiles
}

/** A program and its arguments. */
export interface Invocation {
  readonly file: string
  readonly args: ReadonlyArray<string>
}

/**
 * What an exec-style backend (ssh, container) supplies: how to run an argv on
 * the target through a local client. `execTransport.ts` builds the rest.
 */
export interface ExecChannel {
  /** How to run `argv` on the target. `done` is called once that client has exited. */
  readonly open: (
    argv: ReadonlyArray<string>,
    options: { readonly tty: boolean; readonly stdin: boolean }
  ) => Invocation & { readonly done: () => void }
  /** Environment of the local client processes. */
  readonly env: Readonly<Record<string, string>>
  /** Why a client's exit is a transport failure (not the command's), or undefined. */
  readonly failure: (code: number, diagnostics: string) => string | undefined
}
