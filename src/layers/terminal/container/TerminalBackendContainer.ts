/**
 * The container backend: one long-lived container per task, made with a
 * Docker-compatible CLI (`terminal.container_cli`: docker or podman) from
 * `terminal.container_image`, hardened as Hermes does (`runArgs.ts`),
 * with commands run through `exec` like the ssh backend runs them over ssh
 * (`../execTransport.ts` on the engine, `../engine.ts`). The container is removed when the task's
 * environment closes; a running one with the task's labels is reused.
 *
 * It declares itself isolated unless a host path is mounted into it: the
 * approval flow may then skip non-hardline prompts (`approvals.isolated_skip`).
 * Only `container_env` and the variables named in `container_forward_env` or
 * `env_passthrough` reach the container. The runtime's home is never mounted
 * writable (`terminal.protect_home`, `homeMounts.ts`).
 */
import { Effect, Layer } from "effect"
import { Config } from "../../../services/Config.js"
import { TerminalBackend } from "../../../services/TerminalBackend.js"
import type { TerminalError } from "../../../services/TerminalBackend.js"
import { detectCli, execFailure, obtainContainer, removeContainer } from "./containerCli.js"
import { containerSettings } from "./containerSettings.js"
import { protectHomeMounts } from "./homeMounts.js"
import { mountsHostPath } from "./runArgs.js"
import { makeEnvironment } from "../engine.js"
import { makeExecTransport } from "../execTransport.js"
import type { ExecChannel } from "../transport.js"
import { clientEnvironment, forwardedVariables } from "../hostEnv.js"

/** The container backend; `cli` is used when `terminal.container_cli` is not set (backend names docker/podman). */
export const makeTerminalBackendContainer = (defaults: { readonly cli?: string } = {}): Layer.Layer<TerminalBackend, never, Config> =>
  Layer.effect(
    TerminalBackend,
    Effect.gen(function*() {
      const config = yield* Config
      const current = yield* config.current
      // protect_home: a mount of (or over) the runtime's home is read-only inside.
      const settings = !current.terminal.protect_home
        ? containerSettings(current)
        : protectHomeMounts(containerSettings(current), config.home.root)
      const clientEnv = clientEnvironment()
      // Remember a CLI that worked; keep asking while none does (a daemon may come up later).
      let found: string | undefined
      const resolveCli: Effect.Effect<string, TerminalError> = Effect.suspend(() =>
        found !== undefined
          ? Effect.succeed(found)
          : Effect.tap(detectCli(settings.cli ?? defaults.cli, clientEnv), (cli) => Effect.sync(() => {
            found = cli
          }))
      )
      const isolated = !mountsHostPath(settings)

      return TerminalBackend.of({
        kind: "container",
        isolated,
        available: resolveCli.pipe(
          Effect.as(true),
          Effect.catchAll((error) => Effect.as(Effect.logWarning(`container backend unavailable: ${error.message}`), false))
        ),
        makeEnvironment: (spec) =>
          Effect.gen(function*() {
            const cli = yield* resolveCli
            const container = yield* Effect.acquireRelease(
              obtainContainer(cli, settings, clientEnv, { home: config.home.root, taskId: spec.taskId }),
              ({ id }) => removeContainer(cli, id, clientEnv)
            )
            const channel: ExecChannel = {
              env: clientEnv,
              failure: execFailure(cli, container.id),
              open: (argv, options) => ({
                file: cli,
                args: ["exec", ...(options.stdin ? ["-i"] : []), ...(options.tty ? ["-t"] : []), container.id, ...argv],
                done: () => undefined
              })
            }
            const transport = yield* makeExecTransport({
              kind: "container",
              channel,
              home: spec.cwd ?? settings.cwd,
              env: { ...forwardedVariables(settings.forwardEnv), ...spec.env },
              disposable: true,
              persistent: current.terminal.persistent_shell
            })
            return yield* makeEnvironment({ kind: "container", isolated, taskId: spec.taskId }, transport)
          })
      })
    })
  )

export const TerminalBackendContainer: Layer.Layer<TerminalBackend, never, Config> = makeTerminalBackendContainer()
