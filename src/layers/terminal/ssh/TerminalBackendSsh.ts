/**
 * The ssh backend: commands run on `terminal.ssh_host` through the OpenSSH
 * client, on multiplexed connections (ControlMaster; one, and another for each
 * `ssh_max_sessions` sessions open at once), so a command after the first costs
 * one round trip. With `terminal.persistent_shell` (the default) foreground
 * commands run in one long-lived remote bash per task, one channel for all of
 * them; otherwise (and for background and PTY commands) a session each, like
 * the local backend (fresh bash per command). Either way cwd
 * and exports carry over and timeouts and interrupts kill the whole tree,
 * starting in the remote user's home. Only variables named in `ssh_forward_env` or `env_passthrough` are
 * forwarded; nothing else of the local environment reaches the host.
 *
 * Not isolated: the remote host is a real machine. Closing the backend stops
 * the master; each environment first stops what it started and removes its
 * state directory on the host.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { Config } from "../../../services/Config.js"
import { TerminalBackend } from "../../../services/TerminalBackend.js"
import { makeEnvironment } from "../engine.js"
import { makeExecTransport } from "../execTransport.js"
import type { ExecChannel } from "../transport.js"
import { clientEnvironment, forwardedVariables } from "../hostEnv.js"
import { LOGIN_SHELL_PROBE, remoteLine, sshControl, sshExec, sshFailure } from "./sshCommand.js"
import { makeSshMaster } from "./sshMaster.js"
import { sshSettings } from "./sshSettings.js"
import { runClient } from "../transportProcess.js"

/** Multiplexed connections one backend opens at most (each carrying `ssh_max_sessions` sessions). */
const MAX_CONNECTIONS = 16

interface Connection {
  readonly controlPath: string
  sessions: number
}

export const TerminalBackendSsh: Layer.Layer<TerminalBackend, never, Config> = Layer.scoped(
  TerminalBackend,
  Effect.gen(function*() {
    const config = yield* Config
    const current = yield* config.current
    const settings = sshSettings(current)
    const persistentShell = current.terminal.persistent_shell
    // A short private path: control sockets must fit in sun_path (108 bytes).
    const controlDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "hes-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const controlPath = join(controlDir, "master")
    const clientEnv = clientEnvironment()
    const master = yield* makeSshMaster(settings, controlPath, clientEnv)
    // Runs after every environment has closed (they are created later, in child scopes).
    yield* Effect.addFinalizer(() => master.stop)

    // Sessions open on the master; past sshd's MaxSessions (a persistent shell holds one for its task's lifetime)
    // they open on further multiplexed connections, each started by its first client (ControlMaster=auto), and
    // past MAX_CONNECTIONS of those a client connects on its own.
    const connections: Array<Connection> = [{ controlPath, sessions: 0 }]
    yield* Effect.addFinalizer(() =>
      Effect.forEach(connections.slice(1), (c) => Effect.either(runClient(sshControl(settings, c.controlPath, "exit"), clientEnv, undefined, 10_000)), {
        concurrency: "unbounded",
        discard: true
      })
    )
    // Whether the remote login shell is bash (then commands run in it directly); asked once.
    let loginBash: boolean | undefined
    const channel: ExecChannel = {
      env: clientEnv,
      failure: sshFailure(settings),
      open: (argv, options) => {
        let connection = connections.find((c) => c.sessions < settings.maxSessions)
        if (connection === undefined && connections.length < MAX_CONNECTIONS) {
          connection = { controlPath: join(controlDir, `m${connections.length}`), sessions: 0 }
          connections.push(connection)
        }
        const mux = connection
        if (mux !== undefined) mux.sessions++
        let open = true
        return {
          ...sshExec(settings, mux?.controlPath ?? controlPath, remoteLine(argv, loginBash === true), {
            tty: options.tty,
            mode: mux !== undefined ? "client" : "direct"
          }),
          done: () => {
            if (open && mux !== undefined) mux.sessions--
            open = false
          }
        }
      }
    }

    const probeLoginShell = Effect.suspend(() =>
      loginBash !== undefined
        ? Effect.void
        : runClient(sshExec(settings, controlPath, LOGIN_SHELL_PROBE, { tty: false, mode: "client" }), clientEnv, undefined, 30_000).pipe(
          Effect.map((result) => {
            if (result.code === 0) loginBash = result.stdout.toString("utf8").trim().length > 0
          }),
          Effect.ignore
        )
    )

    return TerminalBackend.of({
      kind: "ssh",
      isolated: false,
      available: master.ensure.pipe(
        Effect.as(true),
        Effect.catchAll((error) => Effect.as(Effect.logWarning(`ssh backend unavailable: ${error.message}`), false))
      ),
      makeEnvironment: (spec) =>
        master.ensure.pipe(
          Effect.zipRight(probeLoginShell),
          Effect.zipRight(makeExecTransport({
            kind: "ssh",
            channel,
            home: spec.cwd ?? settings.cwd,
            env: { ...forwardedVariables(settings.forwardEnv), ...spec.env },
            disposable: false,
            persistent: persistentShell
          })),
          Effect.flatMap((transport) => makeEnvironment({ kind: "ssh", isolated: false, taskId: spec.taskId }, transport))
        )
    })
  })
)
