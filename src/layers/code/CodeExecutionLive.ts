/**
 * CodeExecution over the task's terminal environment: the script and the
 * generated `hermes_tools` module are written where the environment can read
 * them, the script runs as one command of that environment (same backend,
 * same credential-scrubbed variables, same process-group kill on timeout as
 * `terminal`), and its tool calls come back over an RPC channel:
 * - local, sandbox: a Unix socket in a directory the script sees at the same
 *   path (the host's temp dir; the sandbox's home, bound at its host path);
 * - ssh, container (and a sandbox whose home path is too long for a socket):
 *   a request/response directory on the target (`fileChannel.ts`).
 * Each call is checked (token, allowed tool, call cap) and then dispatched
 * through the ToolExecutor with the caller's task, as the model's own call.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { Effect, Layer } from "effect"
import { CODE_EXECUTION_LIMITS, CodeExecution } from "../../services/CodeExecution.js"
import type { ScriptRequest, ScriptResult } from "../../services/CodeExecution.js"
import { Shell } from "../../services/Shell.js"
import type { ShellService } from "../../services/Shell.js"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { ToolExecutor } from "../../services/ToolExecutor.js"
import { shellQuote } from "../terminal/shellScript.js"
import { serveDirectory } from "./fileChannel.js"
import { makeScriptCalls } from "./scriptCalls.js"
import { pythonHelperSource } from "./pythonHelper.js"
import { scriptResult, seconds } from "./scriptResult.js"
import { serveSocket } from "./socketChannel.js"
import { scriptLaunch } from "./scriptLoader.js"

const SOCKET_BACKENDS = new Set(["local", "sandbox"])

/** sun_path holds 108 bytes with its NUL; a deeper sandbox home falls back to the file channel. */
const MAX_SOCKET_PATH_BYTES = 100

const failed = (error: string, toolCalls: number, startedMs: number): ScriptResult => ({
  status: "error",
  error,
  tool_calls_made: toolCalls,
  duration_seconds: seconds(Date.now() - startedMs)
})

/** Where the run's files go: a path that means the same file to this process (when it serves a socket) and to the script. */
const runDirectory = (env: TerminalEnvironment): Effect.Effect<{ readonly dir: string; readonly hostOwned: boolean }> =>
  Effect.gen(function*() {
    const id = randomBytes(6).toString("hex")
    if (env.kind === "local") return { dir: mkdtempSync(join(tmpdir(), "hermes_exec_")), hostOwned: true }
    // The sandbox's /tmp is private; its home is bound at the same path on both sides.
    if (env.kind === "sandbox") return { dir: `${yield* env.resolvePath("~")}/.hermes_exec/${id}`, hostOwned: true }
    return { dir: `/tmp/hermes_exec_${id}`, hostOwned: false }
  })

export const CodeExecutionLive: Layer.Layer<CodeExecution, never, ToolExecutor | Shell> = Layer.effect(
  CodeExecution,
  Effect.gen(function*() {
    const executor = yield* ToolExecutor
    const shell = yield* Shell

    const run = Effect.fn("CodeExecution.run")(function*(request: ScriptRequest) {
      const startedMs = Date.now()
      const timeoutSeconds = request.timeoutSeconds ?? CODE_EXECUTION_LIMITS.timeoutSeconds
      const maxToolCalls = request.maxToolCalls ?? CODE_EXECUTION_LIMITS.maxToolCalls
      const { context } = request
      const calls = makeScriptCalls({ executor, context, allowed: request.allowed, maxToolCalls, token: randomBytes(32).toString("base64url") })
      const { answer } = calls

      const target = yield* Effect.either(shell.target(context))
      if (target._tag === "Left") return failed(`Terminal environment unavailable: ${target.left.message}`, 0, startedMs)
      const env = target.right.env

      return yield* Effect.scoped(Effect.gen(function*() {
        const { dir, hostOwned } = yield* runDirectory(env)
        yield* Effect.addFinalizer(() =>
          hostOwned
            ? Effect.sync(() => removeHostDirectory(env.kind, dir))
            : removeRemote(shell, env, context, dir)
        )
        const script = `${dir}/script.py`
        const stderrFile = `${dir}/stderr.txt`
        const write = (path: string, text: string) => Effect.either(env.writeFile(path, text))
        const helper = `${dir}/hermes_tools.py`
        const helperSource = pythonHelperSource(request.allowed)
        for (const [path, text] of [[helper, helperSource], [script, request.code]] as const) {
          const wrote = yield* write(path, text)
          if (wrote._tag === "Left") return failed(`Could not write the script: ${wrote.left.message}`, 0, startedMs)
        }

        const vars: Record<string, string> = {
          HERMES_RPC_TOKEN: calls.token,
          PYTHONDONTWRITEBYTECODE: "1",
          PYTHONIOENCODING: "utf-8",
          PYTHONUTF8: "1"
        }
        const inherited = (yield* env.variables)["PYTHONPATH"]
        vars["PYTHONPATH"] = inherited === undefined || inherited.length === 0 ? dir : `${dir}:${inherited}`
        const socketPath = `${dir}/rpc.sock`
        if (SOCKET_BACKENDS.has(env.kind) && Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH_BYTES) {
          const served = yield* Effect.either(serveSocket(socketPath, answer))
          if (served._tag === "Left") return failed(served.left.message, 0, startedMs)
          vars["HERMES_RPC_SOCKET"] = socketPath
        } else {
          yield* serveDirectory(env, dir, answer)
          vars["HERMES_RPC_DIR"] = dir
        }

        // Judged as the script run by path; run from the bytes written, never read back from the files (scriptLoader.ts).
        const launch = scriptLaunch(script, helper, stderrFile, request.code, helperSource)
        const approved = yield* Effect.either(shell.approveLauncher(env, context, launch.judged, launch.runs, "execute_code"))
        if (approved._tag === "Left") return { ...failed(approved.left.reason, 0, startedMs), duration_seconds: 0 }

        const ran = yield* Effect.either(env.run(approved.right, {
          env: vars,
          stdin: launch.stdin,
          timeoutMs: timeoutSeconds * 1000,
          maxOutputBytes: CODE_EXECUTION_LIMITS.maxStdoutBytes
        }))
        if (ran._tag === "Left") return failed(ran.left.message, calls.made(), startedMs)
        const stderrBytes = yield* Effect.orElseSucceed(
          env.readFile(stderrFile, { offset: 0, length: CODE_EXECUTION_LIMITS.maxStderrBytes }),
          () => new Uint8Array()
        )
        const stderr = Buffer.from(stderrBytes).toString("utf8")
        const result = ran.right
        if (result.exitCode === 127 && /python3.*not found/.test(stderr)) {
          return failed(`Python 3 is not available in the ${env.kind} terminal environment. Install python3 there, or use the terminal tool instead.`, 0, startedMs)
        }
        return scriptResult({
          stdout: result.output,
          stderr,
          exitCode: result.exitCode,
          timedOut: result.timedOut,
          interrupted: result.interrupted,
          timeoutSeconds,
          toolCalls: calls.made(),
          durationSeconds: seconds(Date.now() - startedMs)
        })
      }))
    })

    return CodeExecution.of({ run })
  })
)

/** The run directory, and for a sandbox the `.hermes_exec` above it once empty. */
const removeHostDirectory = (kind: string, dir: string): void => {
  rmSync(dir, { recursive: true, force: true })
  if (kind !== "sandbox") return
  try {
    rmdirSync(dirname(dir))
  } catch {
    // Another run of this sandbox still uses it.
  }
}

/**
 * Remove a run directory on the target: its files through the file access, then the empty directory
 * with `rmdir` (approved like any command; a refusal only leaves an empty directory behind).
 */
const removeRemote = (shell: ShellService, env: TerminalEnvironment, context: ToolCallContext, dir: string): Effect.Effect<void> =>
  Effect.gen(function*() {
    const entries = yield* Effect.orElseSucceed(env.readDir(dir), () => [])
    yield* Effect.forEach(entries, (entry) => Effect.ignore(env.remove(`${dir}/${entry.name}`)), { concurrency: 8, discard: true })
    const approved = yield* Effect.either(shell.approve(env, context, `rmdir -- ${shellQuote(dir)}`, "execute_code"))
    if (approved._tag === "Right") yield* Effect.ignore(env.run(approved.right, { cwd: "/", timeoutMs: 30_000 }))
  })
