/**
 * The backend named by `terminal.backend` (default local). A name with no
 * backend here gives one that is unavailable and says why, so the terminal
 * tools drop out instead of running commands somewhere unexpected.
 */
import { Effect, Layer } from "effect"
import { Config } from "../services/Config.js"
import { TerminalBackend, TerminalError } from "../services/TerminalBackend.js"
import { terminalSettings } from "./terminal/settings.js"
import { TerminalBackendLocal } from "./TerminalBackendLocal.js"
import { TerminalBackendSandbox } from "./TerminalBackendSandbox.js"

export type BackendName = "local" | "sandbox"

export const terminalBackendLayer = (name: string): Layer.Layer<TerminalBackend, never, Config> => {
  switch (name) {
    case "local":
      return TerminalBackendLocal
    case "sandbox":
      return TerminalBackendSandbox
    default:
      return Layer.succeed(
        TerminalBackend,
        TerminalBackend.of({
          kind: name,
          isolated: false,
          available: Effect.succeed(false),
          makeEnvironment: () =>
            Effect.fail(new TerminalError({ message: `Unknown terminal backend '${name}'. Use 'local' or 'sandbox'.` }))
        })
      )
  }
}

export const TerminalBackendFromConfig: Layer.Layer<TerminalBackend, never, Config> = Layer.unwrapEffect(
  Effect.map(Config, (config) => Effect.map(config.current, (c) => terminalBackendLayer(terminalSettings(c).backend))).pipe(
    Effect.flatten
  )
)
