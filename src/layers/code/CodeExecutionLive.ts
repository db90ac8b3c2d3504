/**
 * CodeExecution over the task's terminal environment: the script and the
 * generated `hermes_tools` module are written where the environment can read
 * them, the script runs as one command of that environment (same backend,
 * same credential-scrubbed variables, same process-group kill on timeout as
 * `terminal`), and its tool calls come back over an RPC channel:
 * - local, sandbox: a Unix socket in a directory the script sees at the same
 *   path (the host's temp dir; the sandbox's home, bound at its host path);
 * - ssh, container: a request/response directory on the target (`fileChannel.ts`).
 * Each call is checked (token, allowed tool, call cap) and then dispatched
 * through the ToolExecutor with the caller's task, as the model's own call.
 */
import { randomBytes, timingSafeEqual } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
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
import { pythonHelperSource } from "./pythonHelper.js"
import { scriptResult, seconds } from "./scriptResult.js"
import { serveSocket } from "./socketChannel.js"

/** Parameters a script's `terminal` call may not use: a script's commands run in the foreground, without a TTY. */
const TERMINAL_BLOCKED = ["background", "pty", "notify_on_complete", "watch_patterns"]

const SOCKET_BACKENDS = new Set(["local", "sandbox"])

const json = (value: unknown) => JSON.stringify(value)

const sameToken = (given: unknown, token: string): boolean => {
  if (typeof given !== "string") return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

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
      const allowed = new Set(request.allowed)
      const available = [...allowed].sort().join(", ")
      const token = randomBytes(32).toString("base64url")
      let toolCalls = 0

      const answer = (payload: string): Effect.Effect<string> => {
        let message: { readonly tool?: unknown; readonly args?: unknown; readonly token?: unknown }
        try {
          message = JSON.parse(payload) as typeof message
        } catch (error) {
          return Effect.succeed(json({ error: `Invalid RPC request: ${String(error)}` }))
        }
        if (!sameToken(message.token, token)) return Effect.succeed(json({ error: "Unauthorized RPC request" }))
        const tool = typeof message.tool === "string" ? message.tool : ""
        if (!allowed.has(tool)) {
          return Effect.succeed(json({ error: `Tool '${tool}' is not available in execute_code. Available: ${available}` }))
        }
        if (toolCalls >= maxToolCalls) {
          return Effect.succeed(json({ error: `Tool call limit reached (${maxToolCalls}). No more tool calls allowed in this execution.` }))
        }
        toolCalls++
        const args: Record<string, unknown> = typeof message.args === "object" && message.args !== null && !Array.isArray(message.args)
          ? { ...(message.args as Record<string, unknown>) }
          : {}
        if (tool === "terminal") for (const name of TERMINAL_BLOCKED) delete args[name]
        const { toolCallId: _outer, ...inner } = context
        return executor.dispatch({ tool, args }, { context: inner })
      }

      const target = yield* Effect.either(shell.target(context))
      if (target._tag === "Left") return failed(`Terminal environment unavailable: ${target.left.message}`, 0, startedMs)
      const env = target.right.env

      return yield* Effect.scoped(Effect.gen(function*() {
        const { dir, hostOwned } = yield* runDirectory(env)
        yield* Effect.addFinalizer(() =>
          hostOwned
            ? Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
            : removeRemote(shell, env, context, dir)
        )
        const script = `${dir}/script.py`
        const stderrFile = `${dir}/stderr.txt`
        const write = (path: string, text: string) => Effect.either(env.writeFile(path, text))
        for (const [path, text] of [[`${dir}/hermes_tools.py`, pythonHelperSource(request.allowed)], [script, request.code]] as const) {
          const wrote = yield* write(path, text)
          if (wrote._tag === "Left") return failed(`Could not write the script: ${wrote.left.message}`, 0, startedMs)
        }

        const vars: Record<string, string> = {
          HERMES_RPC_TOKEN: token,
          PYTHONDONTWRITEBYTECODE: "1",
          PYTHONIOENCODING: "utf-8",
          PYTHONUTF8: "1"
        }
        const inherited = (yield* env.variables)["PYTHONPATH"]
        vars["PYTHONPATH"] = inherited === undefined || inherited.length === 0 ? dir : `${dir}:${inherited}`
        if (SOCKET_BACKENDS.has(env.kind)) {
          const socketPath = `${dir}/rpc.sock`
          const served = yield* Effect.either(serveSocket(socketPath, answer))
          if (served._tag === "Left") return failed(served.left.message, 0, startedMs)
          vars["HERMES_RPC_SOCKET"] = socketPath
        } else {
          yield* serveDirectory(env, dir, answer)
          vars["HERMES_RPC_DIR"] = dir
        }

        const launcher = `python3 ${shellQuote(script)} 2>${shellQuote(stderrFile)}`
        const approved = yield* Effect.either(shell.approve(env, context, launcher, "execute_code"))
        if (approved._tag === "Left") return { ...failed(approved.left.reason, 0, startedMs), duration_seconds: 0 }

        const ran = yield* Effect.either(env.run(approved.right, {
          env: vars,
          timeoutMs: timeoutSeconds * 1000,
          maxOutputBytes: CODE_EXECUTION_LIMITS.maxStdoutBytes
        }))
        if (ran._tag === "Left") return failed(ran.left.message, toolCalls, startedMs)
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
          toolCalls,
          durationSeconds: seconds(Date.now() - startedMs)
        })
      }))
    })

    return CodeExecution.of({ run })
  })
)

/**
 * Remove a run directory on the target: its files through the file access, then the empty directory
 * with `rmdir` (approved like any command; a refusal only leaves an empty directory behind).
 */
const removeRemote = (shell: ShellService, env: TerminalEnvironment, context: ToolCallContext, dir: string): Effect.Effect<void> =>
  Effect.gen(function*() {
    const entries = yield* Effect.orElseSucceed(env.readDir(dir), () => [])
    yield* Effect.forEach(entries, (entry) => Effect.ignore(env.remove(`${dir}/${entry.name}`)), { discard: true })
    const approved = yield* Effect.either(shell.approve(env, context, `rmdir -- ${shellQuote(dir)}`, "execute_code"))
    if (approved._tag === "Right") yield* Effect.ignore(env.run(approved.right, { cwd: "/", timeoutMs: 30_000 }))
  })
