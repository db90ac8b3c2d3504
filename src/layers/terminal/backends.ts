/**
 * The backend table: every name `terminal.backend` accepts, and the layer it
 * builds. Adding a backend is a folder under `terminal/` and one entry here.
 *
 * `TerminalBackendFromConfig` builds the one named by `terminal.backend`
 * (default local). A name with no backend here gives one that is unavailable
 * and says why, so the terminal tools drop out instead of running commands
 * somewhere unexpected.
 */
import { Effect, Layer } from "effect"
import { Config } from "../../services/Config.js"
import type { TERMINAL_BACKENDS } from "../../services/Config.js"
import { TerminalBackend, TerminalError } from "../../services/TerminalBackend.js"
import { makeTerminalBackendContainer, TerminalBackendContainer } from "./container/TerminalBackendContainer.js"
import { TerminalBackendLocal } from "./local/TerminalBackendLocal.js"
import { TerminalBackendSandbox } from "./sandbox/TerminalBackendSandbox.js"
import { TerminalBackendSsh } from "./ssh/TerminalBackendSsh.js"

type BackendLayer = Layer.Layer<TerminalBackend, never, Config>

/** Name → the layer that builds that backend; it must cover every name the config accepts (`TERMINAL_BACKENDS`). */
export const TERMINAL_BACKEND_TABLE = {
  local: () => TerminalBackendLocal,
  sandbox: () => TerminalBackendSandbox,
  ssh: () => TerminalBackendSsh,
  container: () => TerminalBackendContainer,
  // Hermes' name, and podman's: the container backend with that CLI unless container_cli says otherwise.
  docker: () => makeTerminalBackendContainer({ cli: "docker" }),
  podman: () => makeTerminalBackendContainer({ cli: "podman" })
} as const satisfies Record<(typeof TERMINAL_BACKENDS)[number], () => BackendLayer>

export type BackendName = keyof typeof TERMINAL_BACKEND_TABLE

const isBackendName = (name: string): name is BackendName => Object.hasOwn(TERMINAL_BACKEND_TABLE, name)

const unknownBackend = (name: string): BackendLayer =>
  Layer.succeed(
    TerminalBackend,
    TerminalBackend.of({
      kind: name,
      isolated: false,
      available: Effect.succeed(false),
      makeEnvironment: () =>
        Effect.fail(new TerminalError({ message: `Unknown terminal backend '${name}'. Use 'local', 'sandbox', 'ssh' or 'container'.` }))
    })
  )

export const terminalBackendLayer = (name: string): BackendLayer =>
  isBackendName(name) ? TERMINAL_BACKEND_TABLE[name]() : unknownBackend(name)

export const TerminalBackendFromConfig: BackendLayer = Layer.unwrapEffect(
  Effect.map(Config, (config) => Effect.map(config.current, (c) => terminalBackendLayer(c.terminal.backend))).pipe(
    Effect.flatten
  )
)
