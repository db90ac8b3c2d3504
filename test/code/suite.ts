/**
 * execute_code on one terminal backend, through the executor as the model
 * calls it: a script calling tools through `hermes_tools`, approval of its
 * inner commands with nobody to ask, the call cap, tools outside the list,
 * and a timeout that kills the script's whole process tree.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, layer as withLayer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { CodeExecutionLive } from "../../src/layers/code/CodeExecutionLive.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { CodeExecution } from "../../src/services/CodeExecution.js"
import type { Config, HermesConfigInput } from "../../src/services/Config.js"
import type { TerminalBackend } from "../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { eventually, liveProcesses, uniqueSleep } from "../support/processes.js"
import { tempHome } from "../support/runtime.js"

export interface CodeSuiteOptions {
  readonly backend: Layer.Layer<TerminalBackend, never, Config>
  readonly kind: string
  readonly terminal?: NonNullable<HermesConfigInput["terminal"]>
  /** Approval lets dangerous commands run on this backend, as it does for `terminal` (isolated from the host). */
  readonly isolated?: boolean
  /** Tool calls travel as files over the backend (ssh): the 50-call cap test is left to the socket backends. */
  readonly slowCalls?: boolean
  /** The script sees the host's processes and environment (local). */
  readonly hostProcess?: boolean
}

type Json = Record<string, unknown>

/** The process exists and is not a zombie (an orphan may wait a moment for its reaper). */
const running = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return false
  }
}

process.env["HERMES_CODE_SUITE_API_KEY"] = "sk-code-suite-should-not-leak-0000000000"

export const codeSuite = (options: CodeSuiteOptions) => {
  const root = tempHome(`hermes-code-${options.kind}-`)
  const cwd = tempHome(`hermes-code-${options.kind}-cwd-`)
  const runtimeWith = (config: HermesConfigInput) =>
    CodeExecutionLive.pipe(Layer.provideMerge(hermesRuntime({
      plugins: false,
      terminalBackend: options.backend,
      config: ConfigTest(
        { ...config, terminal: { cwd, ...options.terminal } },
        { root, workspaceDir: join(root, "workspace"), pluginsDir: join(root, "plugins") }
      )
    })))
  const runtime = runtimeWith({})

  let tasks = 0
  const task = () => `code-${options.kind}-${++tasks}`
  const call = (tool: string, args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId, sessionId: `s-${taskId}` } })).pipe(
      Effect.map((s) => JSON.parse(s) as Json)
    )
  const execute = (code: string, taskId: string) => call("execute_code", { code }, taskId)

  withLayer(runtime, { excludeTestServices: true, timeout: "120 seconds" })(`execute_code on ${options.kind}`, (it) => {
    it.effect("a script calls terminal and read_file through hermes_tools and prints a summary", () =>
      Effect.gen(function*() {
        const t = task()
        yield* call("terminal", { command: "printf 'alpha\\nbeta\\ngamma\\n' > notes.txt" }, t)
        const result = yield* execute([
          "from hermes_tools import terminal, read_file",
          "listing = terminal('ls')",
          "content = read_file('notes.txt')",
          "lines = [l for l in content['content'].splitlines() if l.strip()]",
          "print('files:', listing['output'].split())",
          "print('lines:', len(lines), 'exit:', listing['exit_code'])"
        ].join("\n"), t)
        expect(result).toMatchObject({ status: "success", exit_code: 0, tool_calls_made: 2, stdout_truncated: false })
        expect(result["output"]).toContain("files: ['notes.txt']")
        expect(result["output"]).toContain("lines: 3 exit: 0")
        expect(typeof result["duration_seconds"]).toBe("number")
      }))

    if (options.isolated === true) {
      it.effect("an isolated backend: an inner rm -rf runs, as it would from terminal", () =>
        Effect.gen(function*() {
          const t = task()
          yield* call("terminal", { command: "mkdir -p canary && touch canary/keep" }, t)
          const result = yield* execute("from hermes_tools import terminal\nprint(terminal('rm -rf canary')['exit_code'])", t)
          expect(result).toMatchObject({ status: "success", tool_calls_made: 1, output: "0\n" })
          expect(yield* call("terminal", { command: "test -e canary; echo $?" }, t)).toMatchObject({ output: "1" })
        }))
    } else {
      it.effect("an inner rm -rf is refused with nobody to approve it; the canary survives", () =>
        Effect.gen(function*() {
          const t = task()
          yield* call("terminal", { command: "mkdir -p canary && touch canary/keep" }, t)
          const result = yield* execute([
            "import json",
            "from hermes_tools import terminal",
            "r = terminal(' '.join(['rm', '-rf', 'canary']))",
            "print(json.dumps(r))"
          ].join("\n"), t)
          expect(result).toMatchObject({ status: "success", tool_calls_made: 1 })
          const inner = JSON.parse(String(result["output"]).trim()) as Json
          expect(inner).toMatchObject({ status: "blocked", exit_code: -1 })
          const check = yield* call("terminal", { command: "ls canary" }, t)
          expect(check).toMatchObject({ output: "keep", exit_code: 0 })
        }))

      it.effect("a script that spells out a dangerous command is refused before it runs (approval reads the script)", () =>
        Effect.gen(function*() {
          const t = task()
          yield* call("terminal", { command: "mkdir -p canary2 && touch canary2/keep" }, t)
          const result = yield* execute("from hermes_tools import terminal\nprint(terminal('rm -rf canary2'))", t)
          expect(result).toMatchObject({ status: "error", tool_calls_made: 0, duration_seconds: 0 })
          expect(String(result["error"])).toMatch(/^BLOCKED: recursive delete/)
          expect(yield* call("terminal", { command: "ls canary2" }, t)).toMatchObject({ output: "keep", exit_code: 0 })
        }))
    }

    it.effect("tools outside the list are refused with Hermes' message, and free", () =>
      Effect.gen(function*() {
        const result = yield* execute([
          "import json, hermes_tools",
          "print(json.dumps(hermes_tools._call('memory', {'action': 'add'})))",
          "print(hasattr(hermes_tools, 'memory'))"
        ].join("\n"), task())
        expect(result).toMatchObject({ status: "success", tool_calls_made: 0 })
        const [first, second] = String(result["output"]).trim().split("\n")
        expect(JSON.parse(first!)).toEqual({
          // web_extract needs no key, so it is available; web_search is not (no search provider is configured here).
          error: "Tool 'memory' is not available in execute_code. Available: patch, read_file, search_files, terminal, web_extract, write_file"
        })
        expect(second).toBe("False")
      }))

    if (options.slowCalls !== true) {
      it.effect("the 51st call hits the cap", () =>
        Effect.gen(function*() {
          const t = task()
          yield* call("write_file", { path: "small.txt", content: "x\n" }, t)
          const result = yield* execute([
            "from hermes_tools import read_file",
            "errors = []",
            "for i in range(53):",
            "    r = read_file('small.txt')",
            "    if 'error' in r and 'limit' in str(r['error']): errors.append(r['error'])",
            "print(len(errors)); print(errors[0])"
          ].join("\n"), t)
          expect(result).toMatchObject({ status: "success", tool_calls_made: 50 })
          expect(String(result["output"]).trim()).toBe("3\nTool call limit reached (50). No more tool calls allowed in this execution.")
        }), 120_000)
    }

    it.effect("a failing script: status error, stderr in error and after the output", () =>
      Effect.gen(function*() {
        const result = yield* execute("print('before')\nraise SystemExit('went wrong')", task())
        expect(result).toMatchObject({ status: "error", exit_code: 1, error: "went wrong" })
        expect(result["output"]).toBe("before\n\n--- stderr ---\nwent wrong\n")
      }))

    if (options.hostProcess === true) {
      it.effect("credentials are scrubbed from the script's environment", () =>
        Effect.gen(function*() {
          const result = yield* execute("import os\nprint(os.environ.get('HERMES_CODE_SUITE_API_KEY'))", task())
          expect(result).toMatchObject({ status: "success", output: "None\n" })
        }))
    }

    it.effect("no code: Hermes' error", () =>
      Effect.map(execute("  ", task()), (result) => expect(result).toEqual({ error: "No code provided." })))
  })

  // The script starts a program itself, which approval would refuse with nobody to ask: approvals off here.
  withLayer(runtimeWith({ approvals: { mode: "off" } }), { excludeTestServices: true, timeout: "120 seconds" })(
    `execute_code on ${options.kind}: limits`,
    (it) => {
      it.effect("a timeout kills the script and the grandchild it started, and closes the channel", () =>
        Effect.gen(function*() {
          const sleeper = uniqueSleep()
          const runner = yield* CodeExecution
          const result = yield* runner.run({
            code: [
              "import subprocess, sys, time, os",
              `child = subprocess.Popen(['sleep', '${sleeper.marker}'])`,
              "print('grandchild', child.pid, flush=True)",
              "print('socket', os.environ.get('HERMES_RPC_SOCKET') or os.environ.get('HERMES_RPC_DIR'), flush=True)",
              "time.sleep(120)"
            ].join("\n"),
            context: { taskId: task() },
            allowed: ["terminal"],
            timeoutSeconds: 3
          })
          expect(result).toMatchObject({ status: "timeout", error: "Script timed out after 3s and was killed." })
          expect(result.output).toContain("⏰ Script timed out after 3s and was killed.")
          const left = yield* eventually(() => liveProcesses(sleeper.marker), (lines) => lines.length === 0)
          expect(left).toEqual([])
          const channel = /socket (\S+)/.exec(result.output ?? "")?.[1]
          expect(channel).toBeDefined()
          if (options.hostProcess === true) {
            expect(existsSync(channel!)).toBe(false)
            const pid = Number(/grandchild (\d+)/.exec(result.output ?? "")?.[1])
            expect(yield* eventually(() => running(pid), (alive) => !alive)).toBe(false)
          }
        }))


      it.effect("interrupting the call kills the script's process tree and closes the channel", () =>
        Effect.gen(function*() {
          const sleeper = uniqueSleep()
          const runner = yield* CodeExecution
          const fiber = yield* Effect.fork(runner.run({
            code: [
              "import subprocess, time, os",
              `subprocess.Popen(['sleep', '${sleeper.marker}'])`,
              "time.sleep(120)"
            ].join("\n"),
            context: { taskId: task() },
            allowed: ["terminal"]
          }))
          const started = yield* eventually(() => liveProcesses(sleeper.marker), (lines) => lines.length > 0, 30_000)
          expect(started.length).toBeGreaterThan(0)
          yield* Fiber.interrupt(fiber)
          const left = yield* eventually(() => liveProcesses(sleeper.marker), (lines) => lines.length === 0)
          expect(left).toEqual([])
          if (options.hostProcess === true) {
            const dirs = readdirSync(tmpdir()).filter((name) => name.startsWith("hermes_exec_"))
            for (const dir of dirs) expect(existsSync(join(tmpdir(), dir, "rpc.sock"))).toBe(false)
          }
        }))
    }
  )
}
