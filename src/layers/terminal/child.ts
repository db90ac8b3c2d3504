/**
 * Starting one OS process for a backend: over pipes (node:child_process)
 * or under a pseudo-terminal (@lydell/node-pty). Either way the process leads
 * its own process group, output arrives as raw byte chunks, and `onExit` is
 * called once, after the last chunk.
 *
 * When the leader exits, whatever it left running in its group is killed
 * (unless `keepGroup`): a foreground command that leaks children would
 * otherwise hold the output pipe open and outlive the call. Long-lived work
 * belongs in `background`.
 *
 * The host transport runs `bash` (or bwrap, nsenter) with it; the exec transport runs its
 * `ssh` or `docker exec` clients with it (`transportProcess.ts`).
 */
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { constants } from "node:os"
import { Effect } from "effect"
import { TerminalError } from "../../services/TerminalBackend.js"
import { killGroup } from "./processGroup.js"

type NodePty = typeof import("@lydell/node-pty")

let nodePty: NodePty | undefined
/** Loaded on first PTY use, so a platform without the native module only loses PTY. */
const loadPty = (): NodePty => (nodePty ??= createRequire(import.meta.url)("@lydell/node-pty") as NodePty)

export interface ChildSpec {
  readonly file: string
  readonly args: ReadonlyArray<string>
  /** The runtime's own cwd when absent. */
  readonly cwd?: string | undefined
  readonly env: Readonly<Record<string, string>>
  readonly pty: boolean
  /** Pipes only: whether stdin is a pipe we can write (otherwise /dev/null). A PTY is always writable. */
  readonly stdin: boolean
  /** Leave the group alone when the leader exits (a client that daemonised part of itself, e.g. an ssh master). */
  readonly keepGroup?: boolean | undefined
}

export interface ChildEvents {
  readonly onData: (chunk: Buffer) => void
  /** Pipes only: stderr, when it is a separate channel (otherwise it goes to `onData`). */
  readonly onStderr?: ((chunk: Buffer) => void) | undefined
  /** Exit code, 128+n for a signal. Called once, after the last `onData`. */
  readonly onExit: (code: number) => void
}

export interface ChildHandle {
  readonly pid: number
  readonly pty: boolean
  /** False when stdin is not writable (closed, or not a pipe). */
  readonly write: (data: string | Uint8Array) => boolean
  /** EOF: close the pipe, or ^D on a PTY. */
  readonly end: () => boolean
  /** SIGKILL the process and its group at once. */
  readonly kill: () => void
}

/** After the leader exits, how long to wait for the output pipes to drain before closing them. */
export const DRAIN_AFTER_EXIT_MS = 500

export const signalCode = (signal: NodeJS.Signals | null): number =>
  signal === null ? 1 : 128 + (constants.signals[signal] ?? 0)

const startPiped = (spec: ChildSpec, events: ChildEvents): Effect.Effect<ChildHandle, TerminalError> =>
  Effect.async<ChildHandle, TerminalError>((resume) => {
    const child = spawn(spec.file, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: [spec.stdin ? "pipe" : "ignore", "pipe", "pipe"]
    })
    let exitCode: number | undefined
    let closed = false
    let done = false
    let drainTimer: ReturnType<typeof setTimeout> | undefined
    const finish = () => {
      if (done || exitCode === undefined) return
      done = true
      if (drainTimer !== undefined) clearTimeout(drainTimer)
      events.onExit(exitCode)
    }
    child.stdout?.on("data", events.onData)
    child.stderr?.on("data", events.onStderr ?? events.onData)
    child.stdin?.on("error", () => {
      // EPIPE when the process exits before reading its input: nothing to do.
    })
    child.once("error", (error) => {
      if (child.pid === undefined) {
        resume(Effect.fail(new TerminalError({ message: `cannot start ${spec.file}: ${error.message}` })))
      }
    })
    child.once("exit", (code, signal) => {
      exitCode = code ?? signalCode(signal)
      if (child.pid !== undefined && spec.keepGroup !== true) killGroup(child.pid)
      if (closed) return finish()
      drainTimer = setTimeout(() => {
        // Something outside the group (setsid) still holds the pipe: stop reading it.
        child.stdout?.destroy()
        child.stderr?.destroy()
        finish()
      }, DRAIN_AFTER_EXIT_MS)
    })
    child.once("close", () => {
      closed = true
      finish()
    })
    const pid = child.pid
    if (pid === undefined) return
    const stdin = child.stdin
    resume(Effect.succeed({
      pid,
      pty: false,
      write: (data) => {
        if (stdin === null || stdin.destroyed || stdin.writableEnded) return false
        stdin.write(data)
        return true
      },
      end: () => {
        if (stdin === null || stdin.destroyed || stdin.writableEnded) return false
        stdin.end()
        return true
      },
      kill: () => killGroup(pid)
    }))
  })

const startPty = (spec: ChildSpec, events: ChildEvents): Effect.Effect<ChildHandle, TerminalError> =>
  Effect.try({
    try: () => {
      const pty = loadPty()
      // encoding null: raw Buffers, decoded by the consumer like pipe output.
      const term = pty.spawn(spec.file, [...spec.args], {
        name: "xterm-256color",
        cols: 120,
        rows: 30,
        cwd: spec.cwd ?? process.cwd(),
        env: { ...spec.env },
        encoding: null
      })
      let open = true
      term.onData((chunk: string | Buffer) => events.onData(typeof chunk === "string" ? Buffer.from(chunk) : chunk))
      // node-pty reports exit only after the terminal's output is drained.
      term.onExit(({ exitCode, signal }) => {
        open = false
        if (spec.keepGroup !== true) killGroup(term.pid)
        events.onExit(signal !== undefined && signal > 0 ? 128 + signal : exitCode)
      })
      const handle: ChildHandle = {
        pid: term.pid,
        pty: true,
        write: (data) => {
          if (!open) return false
          term.write(typeof data === "string" ? data : Buffer.from(data).toString("utf8"))
          return true
        },
        end: () => {
          if (!open) return false
          term.write("\x04")
          return true
        },
        kill: () => killGroup(term.pid)
      }
      return handle
    },
    catch: (error) => new TerminalError({ message: `cannot start a pseudo-terminal: ${error instanceof Error ? error.message : String(error)}` })
  })

export const startChild = (spec: ChildSpec, events: ChildEvents): Effect.Effect<ChildHandle, TerminalError> =>
  spec.pty ? startPty(spec, events) : startPiped(spec, events)
