/**
 * The local backend: commands run on this machine as the runtime's user, one
 * `bash -c` per command in its own process group (PTY on request). Not isolated.
 */
import { mkdtempSync } from "node:fs"
import { homedir, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { Effect, Layer } from "effect"
import { Config } from "../services/Config.js"
import { TerminalBackend, TerminalError } from "../services/TerminalBackend.js"
import { childEnv } from "./terminal/childEnv.js"
import { terminalSettings } from "./terminal/settings.js"
import { makeShellEnvironment } from "./terminal/shellEnvironment.js"

const expandHome = (path: string): string =>
  path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path

export const TerminalBackendLocal: Layer.Layer<TerminalBackend, never, Config> = Layer.effect(
  TerminalBackend,
  Effect.gen(function*() {
    const config = yield* Config
    return TerminalBackend.of({
      kind: "local",
      isolated: false,
      available: Effect.succeed(true),
      makeEnvironment: (spec) =>
        Effect.gen(function*() {
          const settings = terminalSettings(yield* config.current)
          const home = resolve(expandHome(spec.cwd ?? settings.cwd ?? process.cwd()))
          const stateDir = yield* Effect.try({
            try: () => mkdtempSync(join(tmpdir(), "hermes-env-")),
            catch: (e) => new TerminalError({ message: `cannot create environment state: ${e instanceof Error ? e.message : String(e)}` })
          })
          return yield* makeShellEnvironment({
            kind: "local",
            isolated: false,
            taskId: spec.taskId,
            home,
            stateDir,
            env: childEnv(process.env, settings.envPassthrough),
            launch: (args) => ({ file: "bash", args }),
            hostPath: (path) => path,
            hostPathIsIdentity: true,
            writeDenied: () => undefined
          })
        })
    })
  })
)
