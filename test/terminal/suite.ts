/**
 * One behaviour suite for every terminal backend: each backend's test file
 * calls `terminalSuite` with its layer. Tests go through the registry (the
 * model's view: Hermes' JSON) or the services, never around Approval.
 */
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { expect, layer as withLayer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { approveCommand } from "../../src/layers/terminal/commandGate.js"
import { Approval } from "../../src/services/Approval.js"
import type { Config, HermesConfigInput } from "../../src/services/Config.js"
import { Environments } from "../../src/services/Environments.js"
import { Processes } from "../../src/services/Processes.js"
import type { TerminalBackend } from "../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { ApprovalLog, RecordingApproval } from "../support/approval.js"
import { eventually, liveProcesses, uniqueSleep } from "../support/processes.js"
import { tempHome } from "../support/runtime.js"

export interface SuiteOptions {
  readonly backend: Layer.Layer<TerminalBackend, never, Config>
  readonly kind: string
  readonly isolated: boolean
  /** What `tty` prints under `pty: true`. */
  readonly ttyPattern: RegExp
  /** More `terminal.*` config (where a remote backend connects). */
  readonly terminal?: TerminalConfig
  /** Commands inherit the runtime's variables (default); remote backends get only forwarded ones. */
  readonly inheritsEnv?: boolean
  /** The backend has a filesystem of its own (a container): writes anywhere stay inside it. */
  readonly ownFilesystem?: boolean
  /**
   * Foreground commands in one long-lived shell (`terminal.persistent_shell` / `local_persistent`)
   * or a process each; the backend's default when absent.
   */
  readonly persistent?: boolean
}

type TerminalConfig = NonNullable<HermesConfigInput["terminal"]>

type Json = Record<string, unknown>
const parse = (s: string): Json => JSON.parse(s) as Json

// Set before any environment exists: environments snapshot the variables they start with.
process.env["HERMES_SUITE_API_KEY"] = "sk-suite-should-not-leak-000000000000"
process.env["HERMES_SUITE_SESSION_TOKEN"] = "token-should-not-leak"
process.env["HERMES_SUITE_PASS_TOKEN"] = "passed-through"
process.env["HERMES_SUITE_PLAIN"] = "visible"

export const terminalSuite = (options: SuiteOptions) => {
  const label = options.persistent === undefined ? options.kind : `${options.kind}${options.persistent ? "-persistent" : "-spawn"}`
  const mode = options.persistent === undefined ? {} : { persistent_shell: options.persistent, local_persistent: options.persistent }
  const root = tempHome(`hermes-${label}-suite-`)
  // Local commands start here rather than in the repository (outside the home, which commands cannot write).
  const localCwd = tempHome(`hermes-${label}-cwd-`)
  const runtime = hermesRuntime({
    plugins: false,
    approval: RecordingApproval,
    terminalBackend: options.backend,
    config: ConfigTest(
      { terminal: { env_passthrough: ["HERMES_SUITE_PASS_TOKEN"], cwd: localCwd, ...mode, ...options.terminal } },
      { root, workspaceDir: join(root, "workspace"), pluginsDir: join(root, "plugins") }
    )
  }).pipe(Layer.provideMerge(RecordingApproval))

  let tasks = 0
  /** A fresh task id per test, so tests never share cwd or exports. */
  const task = () => `${label}-t${++tasks}`

  const call = (tool: string, args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId, sessionId: `s-${taskId}` } })).pipe(Effect.map(parse))
  const terminal = (args: Json, taskId: string) => call("terminal", args, taskId)
  const proc = (args: Json, taskId: string) => call("process", args, taskId)

  /** An environment and a way to approve commands for it, for backend-level tests. */
  const envFor = (taskId: string) =>
    Effect.gen(function*() {
      const env = yield* Effect.flatMap(Environments, (e) => e.get(taskId))
      const approval = yield* Approval
      const approve = (command: string) => approveCommand(approval, env, { taskId }, command, "foreground")
      return { env, approve }
    })

  // Live services: commands run in real time; the idle-teardown test drives a TestClock separately.
  withLayer(runtime, { excludeTestServices: true, timeout: "60 seconds" })(`terminal backend: ${label}`, (it) => {
    {
      it.effect("echo through the registry returns Hermes' JSON", () =>
        Effect.gen(function*() {
          const r = yield* ToolExecutor
          const out = yield* r.dispatch({ tool: "terminal", args: { command: "echo hi" } }, { context: { taskId: task() } })
          expect(JSON.parse(out)).toEqual({ output: "hi", exit_code: 0, error: null })
        }))

      it.effect("cwd and exported variables carry over, even past exit", () =>
        Effect.gen(function*() {
          const t = task()
          const first = yield* terminal({ command: "mkdir -p sub/dir && cd sub/dir && export CARRIED=yes && NOT_EXPORTED=no; exit 3" }, t)
          expect(first["exit_code"]).toBe(3)
          const second = yield* terminal({ command: "pwd; echo \"$CARRIED/$NOT_EXPORTED\"" }, t)
          const [cwd, vars] = String(second["output"]).split("\n")
          expect(cwd).toMatch(/\/sub\/dir$/)
          expect(vars).toBe("yes/")
          // Another task starts fresh.
          const other = yield* terminal({ command: "echo \"[$CARRIED]\"" }, task())
          expect(other["output"]).toBe("[]")
        }))

      it.effect("functions a command defines cannot forge what it leaves behind (export, pwd, builtins)", () =>
        Effect.gen(function*() {
          const t = task()
          // The report of exports and cwd (which approval reads for the next call) comes from the shell, not from them.
          yield* terminal({ command: "export REAL=1; export() { echo 'declare -x FORGED=\"1\"'; }; pwd() { echo /forged; }; hash() { :; }" }, t)
          const next = yield* terminal({ command: "echo \"[$REAL][$FORGED]\"; builtin pwd" }, t)
          const [vars, cwd] = String(next["output"]).split("\n")
          expect(vars).toBe("[1][]")
          expect(cwd).not.toBe("/forged")
        }))

      it.effect("workdir applies to one command; bad workdirs are refused", () =>
        Effect.gen(function*() {
          const t = task()
          yield* terminal({ command: "mkdir -p a b" }, t)
          const { env } = yield* envFor(t)
          const home = yield* env.cwd
          expect((yield* terminal({ command: "pwd", workdir: `${home}/a` }, t))["output"]).toBe(`${home}/a`)
          expect((yield* terminal({ command: "pwd" }, t))["output"]).toBe(home)
          const meta = yield* terminal({ command: "pwd", workdir: "/tmp; rm -rf /" }, t)
          expect(meta).toMatchObject({ exit_code: -1, status: "blocked" })
          expect(String(meta["error"])).toContain("disallowed character \";\"")
          const missing = yield* terminal({ command: "pwd", workdir: `${home}/nope` }, t)
          expect(missing).toMatchObject({ exit_code: -1, status: "error" })
        }))

      it.effect("credentials are filtered from the environment unless passed through", () =>
        Effect.gen(function*() {
          const out = yield* terminal({
            command: "echo \"[$HERMES_SUITE_API_KEY][$HERMES_SUITE_SESSION_TOKEN][$HERMES_SUITE_PASS_TOKEN][$HERMES_SUITE_PLAIN]\""
          }, task())
          // Remote targets never see the runtime's variables, only those forwarded to them.
          expect(out["output"]).toBe(options.inheritsEnv === false ? "[][][passed-through][]" : "[][][passed-through][visible]")
        }))

      it.effect("output: ANSI stripped, secrets masked, benign exit codes explained", () =>
        Effect.gen(function*() {
          const t = task()
          const colored = yield* terminal({ command: "printf '\\033[31mred\\033[0m plain'" }, t)
          expect(colored["output"]).toBe("red plain")
          const secret = yield* terminal({ command: "echo key=sk-ant-abcdefghijklmnopqrstuvwxyz0123" }, t)
          expect(secret["output"]).toBe("key=sk-a…[REDACTED]")
          const grep = yield* terminal({ command: "echo abc | grep zzz" }, t)
          expect(grep).toMatchObject({ exit_code: 1, exit_code_meaning: "No matches found (not an error)" })
        }))

      it.effect("long output keeps 40% head and 60% tail with Hermes' marker", () =>
        Effect.gen(function*() {
          const out = yield* terminal({ command: "head -c 60000 /dev/zero | tr '\\0' a" }, task())
          const text = String(out["output"])
          expect(text).toContain("\n\n... [OUTPUT TRUNCATED - 10000 chars omitted out of 60000 total] ...\n\n")
          const [head, tail] = text.split(/\n\n\.\.\. \[OUTPUT TRUNCATED[^\n]*\n\n/)
          expect(head).toBe("a".repeat(20000))
          expect(tail).toBe("a".repeat(30000))
        }))

      it.effect("huge output is bounded while it streams", () =>
        Effect.gen(function*() {
          const { approve, env } = yield* envFor(task())
          const bytes = 256 * 1024 * 1024
          globalThis.gc?.()
          const before = process.memoryUsage().rss
          const result = yield* env.run(
            yield* approve(`echo START; head -c ${bytes} /dev/zero | tr '\\0' x; echo; echo END`),
            { maxOutputBytes: 50_000 }
          )
          const growth = process.memoryUsage().rss - before
          expect(result.exitCode).toBe(0)
          expect(result.output.totalBytes).toBe(bytes + "START\n".length + "\nEND\n".length)
          expect(result.output.head.startsWith("START\nxxx")).toBe(true)
          expect(result.output.tail.endsWith("xxx\nEND\n")).toBe(true)
          expect(result.output.head.length + result.output.tail.length).toBeLessThanOrEqual(50_000)
          expect(growth).toBeLessThan(100 * 1024 * 1024)
        }), 60_000)

      it.effect("stdin is fed and closed", () =>
        Effect.gen(function*() {
          const { approve, env } = yield* envFor(task())
          const result = yield* env.run(yield* approve("tr a-z A-Z"), { stdin: "hello\nworld\n" })
          expect(result.output.head).toBe("HELLO\nWORLD\n")
          // Without stdin a reader sees EOF at once instead of hanging.
          const empty = yield* env.run(yield* approve("cat; echo done"), { timeoutMs: 10_000 })
          expect(empty.output.head).toBe("done\n")
        }))

      it.effect("a timeout kills the whole process tree (exit 124)", () =>
        Effect.gen(function*() {
          const inner = uniqueSleep()
          const outer = uniqueSleep()
          const out = yield* terminal({ command: `echo started; bash -c '${inner.command}; true' ; ${outer.command}`, timeout: 1 }, task())
          expect(out["exit_code"]).toBe(124)
          expect(out["output"]).toBe("started\n[Command timed out after 1s]")
          expect(out["error"]).toBeNull()
          expect(liveProcesses(inner.marker)).toEqual([])
          expect(liveProcesses(outer.marker)).toEqual([])
        }))

      it.effect("interrupting the call kills the process tree", () =>
        Effect.gen(function*() {
          const sleep = uniqueSleep()
          const fiber = yield* Effect.fork(terminal({ command: `bash -c '${sleep.command}; true'` }, task()))
          const seen = yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
          expect(seen.length).toBeGreaterThan(0)
          yield* Fiber.interrupt(fiber)
          expect(liveProcesses(sleep.marker)).toEqual([])
        }))

      it.effect("an interrupt signal stops the command and keeps its output (exit 130)", () =>
        Effect.gen(function*() {
          const { approve, env } = yield* envFor(task())
          const sleep = uniqueSleep()
          const stop = yield* Deferred.make<void>()
          const fiber = yield* Effect.fork(env.run(yield* approve(`echo partial; ${sleep.command}`), { interrupt: Deferred.await(stop) }))
          yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
          yield* Deferred.succeed(stop, undefined)
          const result = yield* Fiber.join(fiber)
          expect(result).toMatchObject({ exitCode: 130, interrupted: true, timedOut: false })
          expect(result.output.head).toBe("partial\n")
          expect(liveProcesses(sleep.marker)).toEqual([])
        }))

      it.effect("long-running foreground commands are refused with guidance", () =>
        Effect.gen(function*() {
          const t = task()
          for (const command of ["npm run dev", "nohup ./server", "python3 -m http.server 8000", "./serve &"]) {
            const out = yield* terminal({ command }, t)
            expect(out).toMatchObject({ output: "", exit_code: -1, status: "error" })
            expect(String(out["error"])).toContain("background=true")
          }
          // Quoted text does not count.
          expect((yield* terminal({ command: "echo 'npm run dev &'" }, t))["output"]).toBe("npm run dev &")
          const tooLong = yield* terminal({ command: "true", timeout: 601 }, t)
          expect(tooLong).toEqual({
            error: "Foreground timeout 601s exceeds the maximum of 600s. Use background=true with notify_on_complete=true for long-running commands."
          })
        }))

      it.effect("a PTY command sees a terminal", () =>
        Effect.gen(function*() {
          const out = yield* terminal({ command: "tty; test -t 1 && echo is-a-tty", pty: true }, task())
          const [tty, check] = String(out["output"]).split("\n")
          expect(tty).toMatch(options.ttyPattern)
          expect(check).toBe("is-a-tty")
          expect(out["exit_code"]).toBe(0)
          const piped = yield* terminal({ command: "test -t 1 || echo not-a-tty" }, task())
          expect(piped["output"]).toBe("not-a-tty")
        }))

      it.effect("cwd and exports carry over from a PTY command too", () =>
        Effect.gen(function*() {
          const t = task()
          const out = yield* terminal({ command: "mkdir -p ptydir && cd ptydir && export FROM_PTY=yes", pty: true }, t)
          expect(out["exit_code"]).toBe(0)
          expect((yield* terminal({ command: "pwd; echo \"$FROM_PTY\"" }, t))["output"]).toMatch(/\/ptydir\nyes$/)
        }))

      it.effect("background lifecycle: start, poll, log, wait, list, notify", () =>
        Effect.gen(function*() {
          const t = task()
          const started = yield* terminal({ command: "echo begin; sleep 0.3; echo done; exit 7", background: true, notify_on_complete: true }, t)
          expect(started).toMatchObject({ output: "Background process started", exit_code: 0, error: null, notify_on_complete: true })
          const id = String(started["session_id"])
          expect(id).toMatch(/^proc_[0-9a-f]{12}$/)
          expect(started["pid"]).toEqual(expect.any(Number))

          const poll = yield* proc({ action: "poll", session_id: id }, t)
          expect(poll).toMatchObject({ session_id: id, command: "echo begin; sleep 0.3; echo done; exit 7" })
          expect(["running", "exited"]).toContain(poll["status"])

          const waited = yield* proc({ action: "wait", session_id: id, timeout: 30 }, t)
          expect(waited).toMatchObject({ status: "exited", exit_code: 7, completion_reason: "exited", output: "begin\ndone\n" })

          const log = yield* proc({ action: "log", session_id: id }, t)
          expect(log).toMatchObject({ status: "exited", output: "begin\ndone", total_lines: 2, showing: "2 lines" })
          const page = yield* proc({ action: "log", session_id: id, offset: 1, limit: 5 }, t)
          expect(page["output"]).toBe("done")

          const list = yield* proc({ action: "list" }, t)
          const rows = list["processes"] as ReadonlyArray<Json>
          expect(rows.map((r) => r["session_id"])).toEqual([id])
          expect(rows[0]).toMatchObject({ status: "exited", exit_code: 7, notify_on_complete: true })

          // Waited for: its exit was seen, so no notification. A second one nobody waits on notifies.
          const quiet = yield* terminal({ command: "echo fin", background: true, notify_on_complete: true }, t)
          const quietId = String(quiet["session_id"])
          const processes = yield* Processes
          const note = yield* Effect.flatMap(processes.notifications.take, (n) =>
            n.processId === quietId ? Effect.succeed(n) : Effect.fail("other")).pipe(Effect.eventually)
          expect(note).toMatchObject({ type: "completion", processId: quietId, exitCode: 0, output: "fin\n", taskId: t })

          const unknown = yield* proc({ action: "poll", session_id: "proc_000000000000" }, t)
          expect(unknown).toEqual({ status: "not_found", error: "No process with ID proc_000000000000" })
          expect(yield* proc({ action: "poll" }, t)).toEqual({ error: "session_id is required for poll" })
          expect(yield* proc({ action: "dance", session_id: id }, t)).toEqual({
            error: "Unknown process action: dance. Use: list, poll, log, wait, kill, write, submit, close"
          })
        }))

      it.effect("background: a silent start gets a hint; wait times out while it runs; kill stops the tree", () =>
        Effect.gen(function*() {
          const t = task()
          const sleep = uniqueSleep()
          const started = yield* terminal({ command: `bash -c '${sleep.command}; true'`, background: true }, t)
          expect(String(started["hint"])).toContain("notify_on_complete=true")
          const id = String(started["session_id"])
          yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
          const waited = yield* proc({ action: "wait", session_id: id, timeout: 1 }, t)
          expect(waited).toMatchObject({ status: "timeout", process_running: true })
          const killed = yield* proc({ action: "kill", session_id: id }, t)
          expect(killed).toMatchObject({ status: "killed", session_id: id, completion_reason: "killed", exit_code: -15 })
          expect(liveProcesses(sleep.marker)).toEqual([])
          const again = yield* proc({ action: "kill", session_id: id }, t)
          expect(again).toMatchObject({ status: "already_exited", exit_code: -15 })
        }))

      it.effect("background: watch patterns notify on the matching line", () =>
        Effect.gen(function*() {
          const t = task()
          const started = yield* terminal({
            command: "for i in 1 2 3; do echo tick $i; done; echo server READY on 8080; sleep 0.2",
            background: true,
            watch_patterns: ["READY"]
          }, t)
          expect(started["watch_patterns"]).toEqual(["READY"])
          const id = String(started["session_id"])
          const processes = yield* Processes
          const note = yield* Effect.flatMap(processes.notifications.take, (n) =>
            n.processId === id ? Effect.succeed(n) : Effect.fail("other")).pipe(Effect.eventually)
          expect(note).toMatchObject({ type: "watch_match", pattern: "READY", output: "server READY on 8080", suppressed: 0 })
          const both = yield* terminal({ command: "true", background: true, notify_on_complete: true, watch_patterns: ["x"] }, t)
          expect(String(both["watch_patterns_ignored"])).toContain("notify_on_complete")
        }))

      it.effect("background: stdin write, submit and close", () =>
        Effect.gen(function*() {
          const t = task()
          const started = yield* terminal({ command: "read a; read b; echo \"got:$a:$b\"; cat; echo eof", background: true }, t)
          const id = String(started["session_id"])
          expect(yield* proc({ action: "write", session_id: id, data: "one" }, t)).toEqual({ status: "ok", bytes_written: 3 })
          expect(yield* proc({ action: "submit", session_id: id, data: "" }, t)).toEqual({ status: "ok", bytes_written: 1 })
          expect(yield* proc({ action: "submit", session_id: id, data: "two" }, t)).toEqual({ status: "ok", bytes_written: 4 })
          expect(yield* proc({ action: "close", session_id: id }, t)).toEqual({ status: "ok", message: "stdin closed" })
          const waited = yield* proc({ action: "wait", session_id: id, timeout: 30 }, t)
          expect(waited).toMatchObject({ status: "exited", exit_code: 0, output: "got:one:two\neof\n" })
          expect(yield* proc({ action: "write", session_id: id, data: "late" }, t)).toEqual({
            status: "already_exited",
            error: "Process has already finished"
          })
        }))

      it.effect("background under a PTY answers prompts", () =>
        Effect.gen(function*() {
          const t = task()
          const started = yield* terminal({ command: "read -p 'name? ' n; echo \"hello $n\"", background: true, pty: true }, t)
          const id = String(started["session_id"])
          expect(yield* proc({ action: "submit", session_id: id, data: "bob" }, t)).toEqual({ status: "ok", bytes_written: 4 })
          const waited = yield* proc({ action: "wait", session_id: id, timeout: 30 }, t)
          expect(waited["status"]).toBe("exited")
          expect(String(waited["output"])).toContain("hello bob")
        }))

      it.effect("approval is asked on every path, and a denial is never run", () =>
        Effect.gen(function*() {
          const t = task()
          const blocked = { output: "", exit_code: -1, status: "blocked" }
          expect(yield* terminal({ command: "rm -rf ./x" }, t)).toMatchObject(blocked)
          expect(yield* terminal({ command: "rm -rf ./y", background: true }, t)).toMatchObject(blocked)
          expect(yield* terminal({ command: "rm -rf ./z", pty: true }, t)).toMatchObject(blocked)
          expect(yield* terminal({ command: "rm -rf ./w", pty: true, background: true }, t)).toMatchObject(blocked)
          expect((yield* proc({ action: "list" }, t))["processes"]).toEqual([])

          const cat = yield* terminal({ command: "cat", background: true }, t)
          const id = String(cat["session_id"])
          expect(yield* proc({ action: "write", session_id: id, data: "rm -rf /" }, t)).toMatchObject({ status: "blocked" })
          expect(yield* proc({ action: "submit", session_id: id, data: "rm -rf /" }, t)).toMatchObject({ status: "blocked" })
          yield* proc({ action: "submit", session_id: id, data: "fine" }, t)
          yield* proc({ action: "close", session_id: id }, t)
          const waited = yield* proc({ action: "wait", session_id: id, timeout: 30 }, t)
          expect(waited["output"]).toBe("fine\n")

          const log = yield* ApprovalLog
          const mine = (yield* log.requests).filter((r) => r.context.taskId === t)
          expect(mine.map((r) => [r.path, r.command])).toEqual([
            ["foreground", "rm -rf ./x"],
            ["background", "rm -rf ./y"],
            ["pty", "rm -rf ./z"],
            ["pty", "rm -rf ./w"],
            ["background", "cat"],
            ["process-write", "rm -rf /"],
            ["process-write", "rm -rf /\n"],
            ["process-write", "fine\n"]
          ])
          for (const r of mine) expect(r.backend).toEqual({ kind: options.kind, isolated: options.isolated })
        }))

      it.effect("a command a human approved says so", () =>
        Effect.gen(function*() {
          const t = task()
          const out = yield* terminal({ command: "echo APPROVE-ME" }, t)
          expect(out).toEqual({
            output: "APPROVE-ME",
            exit_code: 0,
            error: null,
            approval: "Command required approval (test rule) and was approved by the user."
          })
          const bg = yield* terminal({ command: "echo APPROVE-ME", background: true, notify_on_complete: true }, t)
          expect(bg["approval"]).toBe("Command required approval (test rule) and was approved by the user.")
        }))

      it.effect("closing a session kills its processes only", () =>
        Effect.gen(function*() {
          const processes = yield* Processes
          const [a, b, c] = [uniqueSleep(), uniqueSleep(), uniqueSleep()]
          const t = task()
          yield* processes.start({ command: a.command, context: { taskId: t, sessionId: `${t}-one` } })
          yield* processes.start({ command: b.command, context: { taskId: t, sessionId: `${t}-one` } })
          const other = yield* processes.start({ command: c.command, context: { taskId: t, sessionId: `${t}-two` } })
          // A background start returns before a remote process is visible (podman exec, ssh): wait until all three run.
          for (const sleep of [a, b, c]) yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
          expect(yield* processes.closeSession(`${t}-one`)).toBe(2)
          expect(liveProcesses(a.marker)).toEqual([])
          expect(liveProcesses(b.marker)).toEqual([])
          expect(liveProcesses(c.marker).length).toBeGreaterThan(0)
          const closed = (yield* processes.list({ sessionId: `${t}-one` })).map((p) => [p.status, p.completionReason, p.exitCode])
          expect(closed).toEqual([["exited", "killed", -15], ["exited", "killed", -15]])
          expect(yield* processes.hasRunning(t)).toBe(true)
          yield* processes.kill(other.id)
          expect(yield* processes.hasRunning(t)).toBe(false)
        }))

      it.effect("files: write, read and stat through the environment", () =>
        Effect.gen(function*() {
          const { env } = yield* envFor(task())
          yield* env.writeFile("notes/a.txt", "content\n")
          expect(new TextDecoder().decode(yield* env.readFile("notes/a.txt"))).toBe("content\n")
          expect(yield* env.stat("notes")).toMatchObject({ type: "directory" })
          expect(yield* env.stat("notes/a.txt")).toMatchObject({ type: "file", size: 8 })
          const missing = yield* Effect.flip(env.readFile("nope.txt"))
          expect(missing.reason).toBe("NotFound")
          // Commands see what the file API wrote.
          const { approve } = yield* envFor(env.taskId)
          expect((yield* env.run(yield* approve("cat notes/a.txt"))).output.head).toBe("content\n")
        }))

      it.effect(options.isolated ? "cannot write outside its workspace" : "writes land on the host", () =>
        Effect.gen(function*() {
          const t = task()
          const name = `hermes-probe-${process.pid}-${tasks}`
          const { env } = yield* envFor(t)
          if (!options.isolated) {
            const out = yield* terminal({ command: `echo x > /tmp/${name} && cat /tmp/${name}` }, t)
            expect(out["output"]).toBe("x")
            expect(readFileSync(`/tmp/${name}`, "utf8")).toBe("x\n")
            rmSync(`/tmp/${name}`)
            return
          }
          if (options.ownFilesystem === true) {
            // Its own filesystem: writable anywhere inside, and none of it reaches the host.
            const out = yield* terminal({ command: `echo x > /tmp/${name} && echo y > /etc/${name}-cmd && cat /tmp/${name}` }, t)
            expect(out).toMatchObject({ output: "x", exit_code: 0 })
            yield* env.writeFile(`/etc/${name}`, "z\n")
            for (const target of [`/tmp/${name}`, `/etc/${name}-cmd`, `/etc/${name}`]) expect(existsSync(target)).toBe(false)
            expect(new TextDecoder().decode(yield* env.readFile(`/etc/${name}`))).toBe("z\n")
            yield* terminal({ command: "echo kept > kept.txt" }, t)
            expect(new TextDecoder().decode(yield* env.readFile(join(env.home, "kept.txt")))).toBe("kept\n")
            return
          }
          // /tmp is private to the task: writable inside, invisible on the host.
          const tmp = yield* terminal({ command: `echo x > /tmp/${name} && cat /tmp/${name}` }, t)
          expect(tmp["output"]).toBe("x")
          expect(existsSync(`/tmp/${name}`)).toBe(false)
          expect(new TextDecoder().decode(yield* env.readFile(`/tmp/${name}`))).toBe("x\n")
          // The rest of the host is read-only, even for root.
          for (const target of [`/usr/${name}`, `${process.cwd()}/${name}`, `/root/${name}`]) {
            const out = yield* terminal({ command: `touch ${target}` }, t)
            const leaked = existsSync(target)
            if (leaked) rmSync(target)
            expect(leaked).toBe(false)
            expect(out["exit_code"]).not.toBe(0)
            // Under /tmp the host path is not even visible (the sandbox's /tmp is private).
            expect(String(out["output"])).toMatch(/Read-only file system|No such file or directory/)
          }
          const denied = yield* Effect.flip(env.writeFile(`/etc/${name}`, "x"))
          expect(denied.reason).toBe("Denied")
          // The workspace is the writable area, and the host sees it.
          yield* terminal({ command: "echo kept > kept.txt" }, t)
          expect(readFileSync(join(env.home, "kept.txt"), "utf8")).toBe("kept\n")
        }))

      it.effect(options.isolated ? "cannot reach the network" : "reaches the host's loopback", () =>
        Effect.gen(function*() {
          const server = createServer((socket) => socket.end("pong\n"))
          yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
          const port = (server.address() as AddressInfo).port
          const out = yield* terminal({ command: `exec 3<>/dev/tcp/127.0.0.1/${port} && head -n1 <&3` }, task()).pipe(
            Effect.ensuring(Effect.sync(() => server.close()))
          )
          if (options.isolated) {
            expect(out["exit_code"]).not.toBe(0)
            expect(out["output"]).not.toContain("pong")
          } else {
            expect(out).toMatchObject({ output: "pong", exit_code: 0 })
          }
        }))
    }
  })
}
