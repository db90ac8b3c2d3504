/**
 * Local client processes of a transport backend: the `ssh` or `docker exec`
 * process that carries one command (or helper script) to the target.
 *
 * Over pipes, stdout is the command's output and stderr is the side channel:
 * lines that start with the environment's token are markers (exit code, final
 * directory, and the exports between an `X` and a `Y` line), anything else is
 * a diagnostic from the client (ssh errors, a vanished container) and is shown
 * with the output. Under a PTY there is one stream and no markers. Either way
 * the client is started by `child.ts`, like every other process a backend
 * starts.
 *
 * Killing a client stops only the local process: the command on the target is
 * stopped through the target (`KILL_SCRIPT`).
 */
import { Deferred, Effect, Exit } from "effect"
import { TerminalError } from "../../services/TerminalBackend.js"
import { startChild } from "./child.js"
import type { ChildHandle } from "./child.js"
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
  | { readonly _tag: "Exports"; readonly text: string }

export interface ClientEvents {
  readonly onData: (chunk: Buffer) => void
  readonly onMarker: (marker: Marker) => void
  /** The client's exit code (128+n for a signal) and its last diagnostics. Called once, after all data. */
  readonly onExit: (code: number, diagnostics: string) => void
}

/** `kill` SIGKILLs the local client and its process group. */
export type ClientHandle = ChildHandle

/** Diagnostics kept for error messages. */
const DIAGNOSTICS_CHARS = 4000

/** Splits the side channel into marker lines and diagnostics. */
const sideChannel = (token: string | undefined, events: ClientEvents) => {
  let partial = ""
  let diagnostics = ""
  /** Lines of an exports record, while one is open. */
  let exports: Array<string> | undefined
  const line = (text: string) => {
    if (exports !== undefined) {
      if (text !== `${token}Y`) exports.push(text)
      else {
        events.onMarker({ _tag: "Exports", text: exports.join("\n") })
        exports = undefined
      }
      return
    }
    if (token !== undefined && text.startsWith(token)) {
      const body = text.slice(token.length)
      if (body.startsWith("E")) {
        const code = Number(body.slice(1))
        if (Number.isInteger(code)) events.onMarker({ _tag: "Exit", code })
      } else if (body.startsWith("C")) {
        events.onMarker({ _tag: "Cwd", cwd: body.slice(1) })
      } else if (body === "X") {
        exports = []
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

export const startClient = (spec: ClientSpec, events: ClientEvents): Effect.Effect<ClientHandle, TerminalError> => {
  if (spec.pty) {
    return startChild(
      { file: spec.file, args: spec.args, cwd: "/", env: spec.env, pty: true, stdin: true },
      { onData: events.onData, onExit: (code) => events.onExit(code, "") }
    )
  }
  const side = sideChannel(spec.token, events)
  return startChild(
    { file: spec.file, args: spec.args, env: spec.env, pty: false, stdin: spec.stdin },
    { onData: events.onData, onStderr: side.push, onExit: (code) => events.onExit(code, side.flush()) }
  )
}

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
  Effect.gen(function*() {
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    const exited = yield* Deferred.make<number>()
    // Real time, not the Effect Clock: it bounds how long we wait for another process.
    const limit = Effect.async<never, TerminalError>((resume) => {
      const timer = setTimeout(
        () => resume(Effect.fail(new TerminalError({ message: `${invocation.file} did not finish within ${Math.round(timeoutMs / 1000)}s` }))),
        timeoutMs
      )
      return Effect.sync(() => clearTimeout(timer))
    })
    const code = yield* Effect.acquireUseRelease(
      // A client that daemonised (an ssh master) may leave a child in its group: it is not killed on exit.
      startChild(
        { file: invocation.file, args: invocation.args, env, pty: false, stdin: input !== undefined, keepGroup: true },
        {
          onData: (chunk) => out.push(chunk),
          onStderr: (chunk) => err.push(chunk),
          onExit: (exitCode) => Deferred.unsafeDone(exited, Exit.succeed(exitCode))
        }
      ),
      (child) =>
        Effect.suspend(() => {
          if (input !== undefined) {
            child.write(input)
            child.end()
          }
          // Interruptible racers: in a finalizer the loser would otherwise hold the race until its own end.
          return Effect.raceFirst(Effect.interruptible(Deferred.await(exited)), Effect.interruptible(limit))
        }),
      // Timed out or interrupted before it finished: kill the local client.
      (child) => Effect.flatMap(Deferred.isDone(exited), (done) => (done ? Effect.void : Effect.sync(child.kill)))
    )
    return { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8").trim() }
  })
