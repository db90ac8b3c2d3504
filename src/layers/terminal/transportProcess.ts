/**
 * Local client processes of a transport backend: the `ssh` or `docker exec`
 * process that carries one command (or helper script) to the target.
 *
 * Over pipes, stdout is the command's output and stderr is the side channel:
 * lines that start with the environment's token are markers (exit code, final
 * directory), anything else is a diagnostic from the client (ssh errors, a
 * vanished container) and is shown with the output. Under a PTY there is one
 * stream and no markers (`child.ts` runs the client under node-pty).
 *
 * Killing a client stops only the local process: the command on the target is
 * stopped through the target (`KILL_SCRIPT`).
 */
import { spawn } from "node:child_process"
import { constants } from "node:os"
import { Effect } from "effect"
import { TerminalError } from "../../services/TerminalBackend.js"
import { startChild } from "./child.js"
import { killGroup } from "./processGroup.js"
import type { Invocation } from "./transport.js"


export interface ClientSpec extends Invocation {
  readonly env: Readonly<Record<string, string>>
  readonly pty: boolean
  /** Pipes: keep stdin writable (otherwise /dev/null). A PTY is always writable. */
  readonly stdin: boolean
  /** Side-channel token (pipes only). */
  readonly token?: string | undefined
}

export type Marker =
  | { readonly _tag: "Exit"; readonly code: number }
  | { readonly _tag: "Cwd"; readonly cwd: string }

export interface ClientEvents {
  readonly onData: (chunk: Buffer) => void
  readonly onMarker: (marker: Marker) => void
  /** The client's exit code (128+n for a signal) and its last diagnostics. Called once, after all data. */
  readonly onExit: (code: number, diagnostics: string) => void
}

export interface ClientHandle {
  readonly pid: number
  readonly pty: boolean
  /** False when stdin is not writable. */
  readonly write: (data: string) => boolean
  /** EOF: close the pipe, or ^D on a PTY. */
  readonly end: () => boolean
  /** SIGKILL the local client and its process group. */
  readonly kill: () => void
}

/** After the client exits, how long to wait for its pipes to drain. */
const DRAIN_AFTER_EXIT_MS = 500
/** Diagnostics kept for error messages. */
const DIAGNOSTICS_CHARS = 4000

const signalCode = (signal: NodeJS.Signals | null): number =>
  signal === null ? 1 : 128 + (constants.signals[signal] ?? 0)

/** Splits the side channel into marker lines and diagnostics. */
const sideChannel = (token: string | undefined, events: ClientEvents) => {
  let partial = ""
  let diagnostics = ""
  const line = (text: string) => {
    if (token !== undefined && text.startsWith(token)) {
      const body = text.slice(token.length)
      if (body.startsWith("E")) {
        const code = Number(body.slice(1))
        if (Number.isInteger(code)) events.onMarker({ _tag: "Exit", code })
      } else if (body.startsWith("C")) {
        events.onMarker({ _tag: "Cwd", cwd: body.slice(1) })
      }
      return
    }
    // The wrapper starts each marker on a fresh line: a lone newline before it is not output.
    if (text.length === 0 && token !== undefined) return
    diagnostics = (diagnostics + text + "\n").slice(-DIAGNOSTICS_CHARS)
    events.onData(Buffer.from(`${text}\n`))
  }
  return {
    push: (chunk: Buffer) => {
      const lines = (partial + chunk.toString("utf8")).split("\n")
      partial = lines.pop() ?? ""
      for (const l of lines) line(l)
    },
    flush: () => {
      if (partial.length > 0) {
        const rest = partial
        partial = ""
        diagnostics = (diagnostics + rest).slice(-DIAGNOSTICS_CHARS)
        if (token === undefined || !rest.startsWith(token)) events.onData(Buffer.from(rest))
      }
      return diagnostics.trim()
    }
  }
}

const startPiped = (spec: ClientSpec, events: ClientEvents): Effect.Effect<ClientHandle, TerminalError> =>
  Effect.async<ClientHandle, TerminalError>((resume) => {
    const child = spawn(spec.file, [...spec.args], {
      env: spec.env,
      detached: true,
      stdio: [spec.stdin ? "pipe" : "ignore", "pipe", "pipe"]
    })
    const side = sideChannel(spec.token, events)
    let exitCode: number | undefined
    let closed = false
    let done = false
    let drainTimer: ReturnType<typeof setTimeout> | undefined
    const finish = () => {
      if (done || exitCode === undefined) return
      done = true
      if (drainTimer !== undefined) clearTimeout(drainTimer)
      events.onExit(exitCode, side.flush())
    }
    child.stdout?.on("data", events.onData)
    child.stderr?.on("data", side.push)
    child.stdin?.on("error", () => {
      // EPIPE when the client exits before reading its input: nothing to do.
    })
    child.once("error", (error) => {
      if (child.pid === undefined) {
        resume(Effect.fail(new TerminalError({ message: `cannot start ${spec.file}: ${error.message}` })))
      }
    })
    child.once("exit", (code, signal) => {
      exitCode = code ?? signalCode(signal)
      if (child.pid !== undefined) killGroup(child.pid)
      if (closed) return finish()
      drainTimer = setTimeout(() => {
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
    const writable = () => stdin !== null && !stdin.destroyed && !stdin.writableEnded
    resume(Effect.succeed({
      pid,
      pty: false,
      write: (data) => {
        if (!writable()) return false
        stdin?.write(data)
        return true
      },
      end: () => {
        if (!writable()) return false
        stdin?.end()
        return true
      },
      kill: () => killGroup(pid)
    }))
  })

const startPty = (spec: ClientSpec, events: ClientEvents): Effect.Effect<ClientHandle, TerminalError> =>
  Effect.map(
    startChild(
      { file: spec.file, args: spec.args, cwd: "/", env: spec.env, pty: true, stdin: true },
      { onData: events.onData, onExit: (code) => events.onExit(code, "") }
    ),
    (child): ClientHandle => ({ ...child, kill: () => killGroup(child.pid) })
  )

export const startClient = (spec: ClientSpec, events: ClientEvents): Effect.Effect<ClientHandle, TerminalError> =>
  spec.pty ? startPty(spec, events) : startPiped(spec, events)

export interface ClientResult {
  readonly code: number
  readonly stdout: Buffer
  /** stderr, trimmed. */
  readonly stderr: string
}

/**
 * Run a client to completion: optional stdin, stdout collected, a real-time
 * limit. Interrupting (or the limit) kills the local client.
 */
export const runClient = (
  invocation: Invocation,
  env: Readonly<Record<string, string>>,
  input: Uint8Array | string | undefined,
  timeoutMs: number
): Effect.Effect<ClientResult, TerminalError> =>
  Effect.async<ClientResult, TerminalError>((resume) => {
    const child = spawn(invocation.file, [...invocation.args], {
      env,
      detached: true,
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"]
    })
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    let settled = false
    let code: number | undefined
    let drainTimer: ReturnType<typeof setTimeout> | undefined
    const settle = (result: Effect.Effect<ClientResult, TerminalError>) => {
      if (settled) return
      settled = true
      clearTimeout(limit)
      if (drainTimer !== undefined) clearTimeout(drainTimer)
      resume(result)
    }
    const succeed = () => {
      code ??= child.exitCode ?? (child.signalCode === null ? undefined : signalCode(child.signalCode))
      if (code === undefined) return
      settle(Effect.succeed({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8").trim() }))
    }
    const limit = setTimeout(() => {
      if (child.pid !== undefined) killGroup(child.pid)
      settle(Effect.fail(new TerminalError({ message: `${invocation.file} did not finish within ${Math.round(timeoutMs / 1000)}s` })))
    }, timeoutMs)
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk))
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk))
    child.stdin?.on("error", () => {
      // the client exited before reading all of its input; its exit code says why
    })
    child.once("error", (error) => settle(Effect.fail(new TerminalError({ message: `cannot start ${invocation.file}: ${error.message}` }))))
    child.once("exit", (exitCode, signal) => {
      code = exitCode ?? signalCode(signal)
      // A client that daemonised (an ssh master) may leave its pipes to a child: do not wait for them forever.
      drainTimer = setTimeout(succeed, DRAIN_AFTER_EXIT_MS)
    })
    child.once("close", succeed)
    if (input !== undefined) child.stdin?.end(input)
    return Effect.sync(() => {
      if (!settled && child.pid !== undefined) killGroup(child.pid)
    })
  })
