import { join } from "node:path"
import { mkdirSync } from "node:fs"
import { expect, it, layer } from "@effect/vitest"
import { Context, Effect, Exit, Fiber, Layer, Scope, TestClock } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { TerminalBackendLocal } from "../../src/layers/terminal/local/TerminalBackendLocal.js"
import { Environments } from "../../src/services/Environments.js"
import { Processes } from "../../src/services/Processes.js"
import { TerminalBackend } from "../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { RecordingApproval } from "../support/approval.js"
import { liveProcesses, uniqueSleep } from "../support/processes.js"
import { tempHome } from "../support/runtime.js"

/** Task ids environments were made for, in order. */
const created: Array<string> = []

/** The local backend, counting creations and taking a little real time to create (so first uses overlap). */
const CountingLocal = Layer.effect(
  TerminalBackend,
  Effect.map(TerminalBackend, (inner) =>
    TerminalBackend.of({
      ...inner,
      makeEnvironment: (spec) =>
        Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 20))).pipe(
          Effect.zipRight(Effect.sync(() => created.push(spec.taskId))),
          Effect.zipRight(inner.makeEnvironment(spec))
        )
    }))
).pipe(Layer.provide(TerminalBackendLocal))

const runtime = () => {
  const root = tempHome("hermes-envs-")
  const cwd = join(root, "cwd")
  mkdirSync(cwd)
  return hermesRuntime({
    plugins: false,
    approval: RecordingApproval,
    terminalBackend: CountingLocal,
    config: ConfigTest({ terminal: { cwd } }, { root, workspaceDir: join(root, "workspace") })
  })
}

/** Wait in real time (the Clock here is a TestClock) until `probe` satisfies `ok`. */
const until = <A, E, R>(probe: Effect.Effect<A, E, R>, ok: (a: A) => boolean, ms = 5000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    let value = yield* probe
    while (!ok(value) && Date.now() < deadline) {
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      value = yield* probe
    }
    return value
  })

// TestClock: idle teardown is driven by adjusting time, never by waiting for it.
layer(runtime(), { timeout: "30 seconds" })("environments (TestClock)", (it) => {
  it.effect("concurrent first uses of a task create one environment", () =>
    Effect.gen(function*() {
      const envs = yield* Environments
      const all = yield* Effect.all(Array.from({ length: 6 }, () => envs.get("shared")), { concurrency: "unbounded" })
      expect(new Set(all).size).toBe(1)
      expect(created.filter((t) => t === "shared")).toEqual(["shared"])
      expect(yield* envs.release("shared")).toBe(true)
      expect(yield* envs.release("shared")).toBe(false)
    }))

  it.effect("idle environments are torn down after lifetime_seconds unless a process runs in them", () =>
    Effect.gen(function*() {
      const envs = yield* Environments
      const processes = yield* Processes
      const idle = yield* envs.get("idle")
      expect(yield* idle.active).toBe(0)
      const sleep = uniqueSleep()
      yield* processes.start({ command: sleep.command, context: { taskId: "busy" } })
      expect(liveProcesses(sleep.marker).length).toBeGreaterThan(0)

      yield* TestClock.adjust("299 seconds")
      expect([...(yield* envs.tasks)].sort()).toEqual(["busy", "idle"])

      // Sweeps run every 60 s: the one at 360 s finds "idle" untouched for more than 300 s.
      yield* TestClock.adjust("62 seconds")
      expect(yield* until(envs.tasks, (t) => !t.includes("idle"))).toEqual(["busy"])
      expect(liveProcesses(sleep.marker).length).toBeGreaterThan(0)

      // Once its process is gone, "busy" goes idle too (its activity was last refreshed by the 360 s sweep).
      const [proc] = yield* processes.list({ taskId: "busy" })
      yield* processes.kill(proc!.id)
      yield* TestClock.adjust("299 seconds")
      expect(yield* envs.tasks).toEqual(["busy"])
      yield* TestClock.adjust("62 seconds")
      expect(yield* until(envs.tasks, (t) => t.length === 0)).toEqual([])

      // A later use makes a new environment.
      yield* envs.get("idle")
      expect(created.filter((t) => t === "idle")).toEqual(["idle", "idle"])
    }))

  it.effect("use refreshes activity", () =>
    Effect.gen(function*() {
      const envs = yield* Environments
      yield* envs.get("kept")
      for (let i = 0; i < 5; i++) {
        yield* TestClock.adjust("240 seconds")
        yield* envs.get("kept")
      }
      expect(yield* envs.sweep).toEqual([])
      expect(yield* envs.tasks).toContain("kept")
    }))
})

it.live("closing the runtime kills every process it started", () =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(runtime(), scope)
    const executor = Context.get(context, ToolExecutor)
    const envs = Context.get(context, Environments)
    const background = uniqueSleep()
    const foreground = uniqueSleep()
    const started = JSON.parse(yield* executor.dispatch(
      { tool: "terminal", args: { command: background.command, background: true } },
      { context: { taskId: "a" } }
    )) as Record<string, unknown>
    expect(started["session_id"]).toMatch(/^proc_/)
    const running = yield* Effect.fork(executor.dispatch({ tool: "terminal", args: { command: foreground.command } }, { context: { taskId: "b" } }))
    yield* until(Effect.sync(() => liveProcesses(foreground.marker)), (p) => p.length > 0)
    expect([...(yield* envs.tasks)].sort()).toEqual(["a", "b"])

    yield* Scope.close(scope, Exit.void)
    expect(liveProcesses(background.marker)).toEqual([])
    expect(liveProcesses(foreground.marker)).toEqual([])
    const out = JSON.parse(yield* Fiber.join(running)) as Record<string, unknown>
    expect(out["exit_code"]).not.toBe(0)
  }))
