/**
 * The local backend: commands run on this machine as the runtime's user, one
 * `bash -c` per command in its own process group (PTY on request), or with
 * `terminal.local_persistent` foreground commands in one long-lived bash per
 * task (`../persistent/persistentShell.ts`). Not isolated.
 *
 * With `terminal.protect_home` (default) and bubblewrap usable, commands run
 * in a mount namespace where the runtime's home is read-only
 * (`homeGuard.ts`); otherwise as before, said once at debug level.
 * Per-run state lives under the home (`terminal/runState.ts`); folders left
 * by killed runs are swept when the backend starts.
 */
import { realpathSync } from "node:fs"
import { resolve } from "node:path"
import { Effect, Layer } from "effect"
import { expandHome } from "../../../lib/text.js"
import { Config } from "../../../services/Config.js"
import { TerminalBackend, TerminalError } from "../../../services/TerminalBackend.js"
import { childEnv } from "../childEnv.js"
import { makeHomeGuard } from "./homeGuard.js"
import type { HomeGuard } from "./homeGuard.js"
import { makeRunFolder, sweepRuns } from "../runState.js"
import type { RunFolder } from "../runState.js"
import { makeEnvironment } from "../engine.js"
import { makeLocalTransport } from "./localTransport.js"

const stateError = (e: unknown) =>
  new TerminalError({ message: `cannot create environment state: ${e instanceof Error ? e.message : String(e)}` })

export const TerminalBackendLocal: Layer.Layer<TerminalBackend, never, Config> = Layer.scoped(
  TerminalBackend,
  Effect.gen(function*() {
    const config = yield* Config
    const home = config.home.root
    yield* Effect.sync(() => sweepRuns(home))

    let folder: RunFolder | undefined
    const runFolder = Effect.try({ try: () => (folder ??= makeRunFolder(home)), catch: stateError })

    // undefined: not tried yet; null: not possible here (said once).
    let guard: HomeGuard | null | undefined
    const lock = yield* Effect.makeSemaphore(1)
    const homeGuard = (run: RunFolder): Effect.Effect<HomeGuard | null> =>
      lock.withPermits(1)(Effect.suspend(() => {
        if (guard !== undefined) return Effect.succeed(guard)
        return Effect.try({ try: () => [realpathSync(home), realpathSync(run.out)] as const, catch: stateError }).pipe(
          Effect.flatMap(([realHome, out]) => makeHomeGuard(realHome, out)),
          Effect.catchAll((error) =>
            Effect.as(Effect.logDebug(`terminal.protect_home: the home stays writable for commands (${error.message})`), null)
          ),
          Effect.tap((made) => Effect.sync(() => {
            guard = made
          }))
        )
      }))

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        guard?.close()
        folder?.remove()
      })
    )

    return TerminalBackend.of({
      kind: "local",
      isolated: false,
      available: Effect.succeed(true),
      makeEnvironment: (spec) =>
        Effect.gen(function*() {
          const settings = (yield* config.current).terminal
          const start = resolve(expandHome(spec.cwd ?? settings.cwd ?? process.cwd()))
          const run = yield* runFolder
          const dirs = run.environment()
          const protect = settings.protect_home ? yield* homeGuard(run) : null
          const transport = yield* makeLocalTransport({
            home: start,
            dirs,
            env: childEnv(process.env, settings.env_passthrough, spec.env),
            guard: protect,
            persistent: settings.local_persistent
          })
          return yield* makeEnvironment({ kind: "local", isolated: false, taskId: spec.taskId }, transport)
        })
    })
  })
)
