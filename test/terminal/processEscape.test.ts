/**
 * Nothing a task starts outlives its cleanup, however it detached: `setsid`,
 * `setsid -f`, a double fork, `nohup … &`, `& disown`, started in the
 * foreground, in the background, or typed into a background shell. After a
 * process kill, an environment release, an idle sweep or the runtime's close,
 * no process carrying the task's marker is left (an independent /proc scan).
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import type { Config } from "../../src/services/Config.js"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { MARKER_KILL_SCRIPT } from "../../src/layers/processes/markedProcesses.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { TerminalBackendLocal } from "../../src/layers/terminal/local/TerminalBackendLocal.js"
import { TerminalBackendSandbox } from "../../src/layers/terminal/sandbox/TerminalBackendSandbox.js"
import { Environments, TOOL_RUN_VARIABLE } from "../../src/services/Environments.js"
import type { TerminalBackend } from "../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { RecordingApproval } from "../support/approval.js"
import { eventually, liveProcesses, uniqueSleep } from "../support/processes.js"
import { tempHome } from "../support/runtime.js"

type Json = Record<string, unknown>

/** Live processes whose environment holds `NAME=value` exactly (read straight from /proc). */
const carrying = (entry: string): ReadonlyArray<number> =>
  readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((name) => {
    try {
      return readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(entry) ? [Number(name)] : []
    } catch {
      return []
    }
  })

/** Each way out of a process group; `s` is a unique sleep. */
const ESCAPES: ReadonlyArray<readonly [string, (s: string) => string]> = [
  ["setsid &", (s) => `setsid ${s} >/dev/null 2>&1 &`],
  ["setsid -f", (s) => `setsid -f ${s} >/dev/null 2>&1`],
  ["double fork", (s) => `(${s} >/dev/null 2>&1 &)`],
  ["double fork + setsid", (s) => `(setsid ${s} >/dev/null 2>&1 &)`],
  ["nohup &", (s) => `nohup ${s} >/dev/null 2>&1 &`],
  ["disown", (s) => `${s} >/dev/null 2>&1 & disown`]
]

/** Forms that leave the process group: they survive the group kill at the end of a foreground command. */
const LEAVES_GROUP = new Set(["setsid &", "setsid -f", "double fork + setsid"])

const bwrapWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "true"]).status === 0

/**
 * `pidNamespace`: each command runs in its own PID namespace (the sandbox), so
 * what a foreground command detached already dies with it; the marker is what
 * finds a background process's escapes there too.
 */
const escapeSuite = (kind: string, backend: Layer.Layer<TerminalBackend, never, Config>, pidNamespace: boolean) => {
  const runtime = () => {
    const root = tempHome(`hermes-escape-${kind}-`)
    const cwd = join(root, "cwd")
    mkdirSync(cwd)
    return hermesRuntime({
      plugins: false,
      approval: RecordingApproval,
      terminalBackend: backend,
      config: ConfigTest({ terminal: { cwd, lifetime_seconds: 1 } }, { root, workspaceDir: join(root, "workspace") })
    }).pipe(Layer.provideMerge(RecordingApproval))
  }

  let tasks = 0
  const task = () => `${kind}-escape-${++tasks}`
  const call = (tool: string, args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId } })).pipe(Effect.map((s) => JSON.parse(s) as Json))
  const markerOf = (taskId: string) => Effect.map(Environments, (envs) => `${TOOL_RUN_VARIABLE}=${envs.toolRunMarker(taskId)}`)

  /** Start every escape form in the foreground (inside `bash -c`, past the foreground guidance); returns their sleeps. */
  const foregroundEscapes = (taskId: string) =>
    Effect.gen(function*() {
      const sleeps: Array<ReturnType<typeof uniqueSleep> & { readonly form: string }> = []
      for (const [form, escape] of ESCAPES) {
        const sleep = uniqueSleep()
        // The pause lets the escape finish leaving before the command's group is killed at its end.
        const out = yield* call("terminal", { command: `bash -c '${escape(sleep.command)}'; sleep 0.3; echo started`, timeout: 20 }, taskId)
        expect([form, out["output"]]).toEqual([form, "started"])
        sleeps.push({ ...sleep, form })
      }
      for (const sleep of sleeps.filter((s) => !pidNamespace && LEAVES_GROUP.has(s.form))) {
        // It really left: alive after the foreground command's group was killed.
        const alive = yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
        expect([sleep.form, alive.length > 0]).toEqual([sleep.form, true])
      }
      return sleeps
    })

  const expectNoneLeft = (entry: string, sleeps: ReadonlyArray<{ readonly marker: string }>) =>
    Effect.gen(function*() {
      expect(yield* eventually(() => carrying(entry), (p) => p.length === 0, 3000)).toEqual([])
      for (const sleep of sleeps) expect(liveProcesses(sleep.marker)).toEqual([])
    })

  layer(runtime(), { excludeTestServices: true, timeout: "120 seconds" })(`escapes (${kind})`, (it) => {
    it.effect("every process carries the task's marker, foreground, background and PTY", () =>
      Effect.gen(function*() {
        const t = task()
        const entry = yield* markerOf(t)
        const fg = yield* call("terminal", { command: `echo "$${TOOL_RUN_VARIABLE}"` }, t)
        expect(`${TOOL_RUN_VARIABLE}=${String(fg["output"])}`).toBe(entry)
        const pty = yield* call("terminal", { command: `echo "$${TOOL_RUN_VARIABLE}"`, pty: true }, t)
        expect(`${TOOL_RUN_VARIABLE}=${String(pty["output"])}`).toBe(entry)
        // An unset in one command does not carry over to the next.
        yield* call("terminal", { command: `unset ${TOOL_RUN_VARIABLE}; export -n ${TOOL_RUN_VARIABLE}` }, t)
        const sleep = uniqueSleep()
        const bg = yield* call("terminal", { command: sleep.command, background: true }, t)
        expect(bg["session_id"]).toMatch(/^proc_/)
        const pids = yield* eventually(() => carrying(entry), (p) => p.length > 0)
        expect(pids.length).toBeGreaterThan(0)
        yield* call("process", { action: "kill", session_id: bg["session_id"] }, t)
      }))

    it.effect("background: a process kill takes what it detached", () =>
      Effect.gen(function*() {
        const t = task()
        const entry = yield* markerOf(t)
        const sleeps = ESCAPES.map(([form, escape]) => ({ ...uniqueSleep(), form, escape }))
        const leader = uniqueSleep()
        const started = yield* call("terminal", {
          command: [...sleeps.map((s) => s.escape(s.command)), leader.command].join("\n"),
          background: true
        }, t)
        const id = String(started["session_id"])
        for (const sleep of sleeps) {
          const alive = yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
          expect([sleep.form, alive.length > 0]).toEqual([sleep.form, true])
        }
        expect(yield* call("process", { action: "kill", session_id: id }, t)).toMatchObject({ status: "killed" })
        // At once: the kill's answer comes after the cleanup.
        expect(carrying(entry)).toEqual([])
        yield* expectNoneLeft(entry, [...sleeps, leader])
      }))

    it.effect("background: what a process detached dies when it ends on its own", () =>
      Effect.gen(function*() {
        const t = task()
        const entry = yield* markerOf(t)
        const sleep = uniqueSleep()
        const started = yield* call("terminal", { command: `setsid -f ${sleep.command} >/dev/null 2>&1; sleep 0.5`, background: true }, t)
        yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
        const done = yield* call("process", { action: "wait", session_id: started["session_id"], timeout: 10 }, t)
        expect(done).toMatchObject({ status: "exited", exit_code: 0 })
        yield* expectNoneLeft(entry, [sleep])
      }))

    it.effect("typed into a background shell: a process kill takes it", () =>
      Effect.gen(function*() {
        const t = task()
        const entry = yield* markerOf(t)
        const started = yield* call("terminal", { command: "bash", background: true }, t)
        const id = String(started["session_id"])
        const sleeps = ESCAPES.map(([form, escape]) => ({ ...uniqueSleep(), form, escape }))
        for (const sleep of sleeps) {
          expect(yield* call("process", { action: "submit", session_id: id, data: sleep.escape(sleep.command) }, t)).toMatchObject({ status: "ok" })
        }
        for (const sleep of sleeps) {
          const alive = yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
          expect([sleep.form, alive.length > 0]).toEqual([sleep.form, true])
        }
        yield* call("process", { action: "kill", session_id: id }, t)
        yield* expectNoneLeft(entry, sleeps)
      }))

    it.effect("foreground: releasing the environment takes what commands detached", () =>
      Effect.gen(function*() {
        const t = task()
        const entry = yield* markerOf(t)
        const sleeps = yield* foregroundEscapes(t)
        // A background process of the same task, detached too.
        const bg = uniqueSleep()
        yield* call("terminal", { command: `setsid -f ${bg.command} >/dev/null 2>&1; sleep 1000`, background: true }, t)
        yield* eventually(() => liveProcesses(bg.marker), (p) => p.length > 0)
        expect(yield* Effect.flatMap(Environments, (envs) => envs.release(t))).toBe(true)
        yield* expectNoneLeft(entry, [...sleeps, bg])
      }))

    it.effect("foreground: the idle sweep takes what commands detached", () =>
      Effect.gen(function*() {
        const t = task()
        const entry = yield* markerOf(t)
        const sleeps = yield* foregroundEscapes(t)
        // lifetime_seconds is 1: past it, with nothing tracked running, the environment is idle.
        yield* Effect.sleep("1100 millis")
        expect(yield* Effect.flatMap(Environments, (envs) => envs.sweep)).toContain(t)
        yield* expectNoneLeft(entry, sleeps)
      }))
  })

  it.live(`escapes (${kind}): closing the runtime takes everything every task detached`, () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(runtime(), scope)
      const provide = <A, E>(effect: Effect.Effect<A, E, ToolExecutor | Environments>) =>
        Effect.provide(effect, Context.pick(ToolExecutor, Environments)(context))
      const entries = [yield* provide(markerOf("fg")), yield* provide(markerOf("bg"))]
      const bg = uniqueSleep()
      const sleeps = yield* Effect.gen(function*() {
        const sleeps = yield* provide(foregroundEscapes("fg"))
        yield* provide(call("terminal", { command: `setsid -f ${bg.command} >/dev/null 2>&1; sleep 1000`, background: true }, "bg"))
        yield* eventually(() => liveProcesses(bg.marker), (p) => p.length > 0)
        return sleeps
      }).pipe(Effect.ensuring(Scope.close(scope, Exit.void)))
      for (const entry of entries) expect(carrying(entry)).toEqual([])
      for (const sleep of [...sleeps, bg]) expect(liveProcesses(sleep.marker)).toEqual([])
    }), 60_000)
}

escapeSuite("local", TerminalBackendLocal, false)

// What the ssh backend can run on its target: the same cleanup as a POSIX sh script.
it.live("the marker cleanup script kills detached processes carrying the marker, and only those", () =>
  Effect.gen(function*() {
    const entry = `${TOOL_RUN_VARIABLE}=script-test:${process.pid}`
    const marked = uniqueSleep()
    const other = uniqueSleep()
    const start = (command: string, env: Record<string, string>) => {
      const child = spawn("bash", ["-c", command], { env: { ...process.env, ...env }, stdio: "ignore", detached: true })
      child.unref()
    }
    start(`setsid -f ${marked.command}`, { [TOOL_RUN_VARIABLE]: entry.slice(TOOL_RUN_VARIABLE.length + 1) })
    start(`setsid -f ${other.command}`, { [TOOL_RUN_VARIABLE]: `${entry.slice(TOOL_RUN_VARIABLE.length + 1)}x` })
    yield* eventually(() => [...liveProcesses(marked.marker), ...liveProcesses(other.marker)], (p) => p.length >= 2)
    try {
      const ran = spawnSync("sh", ["-c", MARKER_KILL_SCRIPT, "sh", entry, "8"], { encoding: "utf8", timeout: 20_000 })
      expect(ran.status).toBe(0)
      expect(yield* eventually(() => liveProcesses(marked.marker), (p) => p.length === 0)).toEqual([])
      expect(liveProcesses(other.marker).length).toBeGreaterThan(0)
    } finally {
      for (const line of [...liveProcesses(other.marker), ...liveProcesses(marked.marker)]) {
        try {
          process.kill(Number(line.split(/\s+/)[0]), "SIGKILL")
        } catch {
          // gone
        }
      }
    }
  }))

if (bwrapWorks || process.env["CI"] !== undefined) {
  escapeSuite("sandbox", TerminalBackendSandbox, true)
} else {
  describe.skip("escapes (sandbox): bwrap is not installed or not permitted here", () => {
    it("skipped", () => {})
  })
}
