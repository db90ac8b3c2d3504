/**
 * One environment per task id over the configured TerminalBackend.
 *
 * Creation: the first caller inserts a Deferred before anything yields, so
 * concurrent first uses of a task all wait for that one environment. Each
 * environment lives in its own child scope of the layer's scope: releasing it
 * closes that scope, and closing the runtime closes them all.
 *
 * Idle teardown runs on the Effect Clock every minute (tests use TestClock):
 * an environment untouched for `terminal.lifetime_seconds` with nothing
 * running in it (no foreground command, no background process) is closed.
 *
 * Every process of a task carries the tool-run marker (`TOOL_RUN_VARIABLE` =
 * `<runtime instance id>:<task id>`): in its initial environment where the
 * backend can, and exported again by every command (so an `unset` in one
 * command does not carry over on backends that only have exports). Closing an
 * environment (release, idle sweep, runtime close) first lets the backend stop
 * what it tracks, then kills whatever still carries the task's marker: what
 * left its process group (setsid, double fork, nohup … & disown) is found too.
 */
import { randomBytes } from "node:crypto"
import { Clock, Deferred, Duration, Effect, Exit, ExecutionStrategy, Layer, Schedule, Scope } from "effect"
import { Config } from "../services/Config.js"
import { Environments, TOOL_RUN_VARIABLE } from "../services/Environments.js"
import { TerminalBackend } from "../services/TerminalBackend.js"
import type { TerminalEnvironment, TerminalError } from "../services/TerminalBackend.js"
import { killMarked } from "./processes/markedProcesses.js"

interface Entry {
  readonly ready: Deferred.Deferred<TerminalEnvironment, TerminalError>
  /** Set once creation has started. */
  scope: Scope.CloseableScope | undefined
  lastActivity: number
}

/** Every command of the environment also exports the marker (over whatever the caller passes). */
const withMarker = (env: TerminalEnvironment, marker: Readonly<Record<string, string>>): TerminalEnvironment => ({
  ...env,
  run: (command, options) => env.run(command, { ...options, env: { ...options?.env, ...marker } }),
  spawn: (command, options) => env.spawn(command, { ...options, env: { ...options?.env, ...marker } })
})

export const EnvironmentsLive: Layer.Layer<Environments, never, TerminalBackend | Config> = Layer.scoped(
  Environments,
  Effect.gen(function*() {
    const backend = yield* TerminalBackend
    const config = yield* Config
    const layerScope = yield* Effect.scope
    const entries = new Map<string, Entry>()
    // Per runtime: two runtimes in one process never clean up each other's tasks.
    const instanceId = randomBytes(8).toString("hex")
    const toolRunMarker = (taskId: string) => `${instanceId}:${taskId}`

    const create = (taskId: string, entry: Entry) =>
      Effect.gen(function*() {
        const scope = yield* Scope.fork(layerScope, ExecutionStrategy.sequential)
        entry.scope = scope
        const marker = { [TOOL_RUN_VARIABLE]: toolRunMarker(taskId) }
        // Added first, so it runs last: after the backend has stopped what it tracks.
        yield* Scope.addFinalizer(scope, Effect.asVoid(killMarked(`${TOOL_RUN_VARIABLE}=${marker[TOOL_RUN_VARIABLE]}`)))
        const made = Effect.map(backend.makeEnvironment({ taskId, env: marker }), (env) => withMarker(env, marker))
        const exit = yield* Effect.exit(Scope.extend(made, scope))
        if (Exit.isFailure(exit)) {
          if (entries.get(taskId) === entry) entries.delete(taskId)
          yield* Scope.close(scope, exit)
        }
        yield* Deferred.done(entry.ready, exit)
        // Waiters depend on this finishing: the caller being interrupted must not strand them.
      }).pipe(Effect.uninterruptible)

    const get = (taskId: string): Effect.Effect<TerminalEnvironment, TerminalError> =>
      Effect.gen(function*() {
        const fiberId = yield* Effect.fiberId
        const now = yield* Clock.currentTimeMillis
        // From the lookup to the insert nothing yields, so two first uses cannot both create.
        const existing = entries.get(taskId)
        if (existing !== undefined) {
          existing.lastActivity = now
          return yield* Deferred.await(existing.ready)
        }
        const entry: Entry = { ready: Deferred.unsafeMake(fiberId), scope: undefined, lastActivity: now }
        entries.set(taskId, entry)
        yield* create(taskId, entry)
        return yield* Deferred.await(entry.ready)
      })

    const release = (taskId: string): Effect.Effect<boolean> =>
      Effect.suspend(() => {
        const entry = entries.get(taskId)
        if (entry === undefined) return Effect.succeed(false)
        entries.delete(taskId)
        return Deferred.await(entry.ready).pipe(
          Effect.exit,
          Effect.zipRight(Effect.suspend(() => (entry.scope === undefined ? Effect.void : Scope.close(entry.scope, Exit.void)))),
          Effect.as(true)
        )
      })

    const sweep = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const lifetimeMs = (yield* config.current).terminal.lifetime_seconds * 1000
      const stale: Array<string> = []
      for (const [taskId, entry] of [...entries]) {
        const env = yield* Deferred.poll(entry.ready)
        // Still being created: it is in use by definition.
        if (env._tag === "None") continue
        const ready = yield* Effect.exit(env.value)
        if (Exit.isFailure(ready)) continue
        if ((yield* ready.value.active) > 0) {
          entry.lastActivity = now
          continue
        }
        if (now - entry.lastActivity > lifetimeMs) stale.push(taskId)
      }
      for (const taskId of stale) yield* release(taskId)
      return stale as ReadonlyArray<string>
    })

    // Hermes checks for idle environments once a minute.
    const interval = Duration.seconds(60)
    const sweepSafely = Effect.catchAllCause(sweep, (cause) => Effect.logWarning("terminal environment sweep failed", cause))
    yield* Effect.forkScoped(Effect.schedule(sweepSafely, Schedule.spaced(interval)))

    return Environments.of({
      backend: { kind: backend.kind, isolated: backend.isolated },
      toolRunMarker,
      get,
      tasks: Effect.sync(() => [...entries.keys()]),
      release,
      sweep
    })
  })
)
