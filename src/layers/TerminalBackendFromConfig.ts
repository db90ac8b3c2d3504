/**
 * The backend named by `terminal.backend` (default local). A name with no
 * backend here gives one that is unavailable and says why, so the terminal
 * tools drop out instead of running commands somewhere unexpected.
 */
import { Effect, Layer } from "effect"
import { Config } from "../services/Config.js"
import { TerminalBackend, TerminalError } from "../services/TerminalBackend.js"
import { TerminalBackendLocal } from "./TerminalBackendLocal.js"
import { TerminalBackendSandbox } from "./TerminalBackendSandbox.js"
import { makeTerminalBackendContainer, TerminalBackendContainer } from "./TerminalBackendContainer.js"
import { TerminalBackendSsh } from "./TerminalBackendSsh.js"

export type BackendName = "local" | "sandbox" | "ssh" | "container" | "docker" | "podman"

export const terminalBackendLayer = (name: string): Layer.Layer<TerminalBackend, never, Config> => {
  switch (name) {
    case "local":
      return TerminalBackendLocal
    case "sandbox":
      return TerminalBackendSandbox
    case "ssh":
      return TerminalBackendSsh
    case "container":
      return TerminalBackendContainer
    // Hermes' name, and podman's: the container backend with that CLI unless container_cli says otherwise.
    case "docker":
    case "podman":
      return makeTerminalBackendContainer({ cli: name })
    default:
      return Layer.succeed(
        TerminalBackend,
        TerminalBackend.of({
          kind: name,
          isolated: false,
          available: Effect.succeed(false),
          makeEnvironment: () =>
            Effect.fail(new TerminalError({ message: `Unknown terminal backend '${name}'. Use 'local', 'sandbox', 'ssh' or 'container'.` }))
        })
      )
  }
}

export const TerminalBackendFromConfig: Layer.Layer<TerminalBackend, never, Config> = Layer.unwrapEffect(
  Effect.map(Config, (config) => Effect.map(config.current, (c) => terminalBackendLayer(c.terminal.backend))).pipe(
    Effect.flatten
  )
)
