/**
 * The backend's shared ssh connection: started on first use (and again if it
 * went away), checked with `-O check`, stopped with `-O exit` when the backend
 * closes. Its control socket lives in a private temp directory of this backend.
 */
import { Effect } from "effect"
import { TerminalError } from "../../../services/TerminalBackend.js"
import { explain, sshControl, sshStartMaster } from "./sshCommand.js"
import { describeTarget } from "./sshSettings.js"
import type { SshSettings } from "./sshSettings.js"
import { runClient } from "../transportProcess.js"

/** Enough for ConnectTimeout (10 s) plus authentication. */
const START_TIMEOUT_MS = 30_000
const CONTROL_TIMEOUT_MS = 10_000

export interface SshMaster {
  /** Connected, or a TerminalError with ssh's reason (unreachable, key refused, unknown host key…). */
  readonly ensure: Effect.Effect<void, TerminalError>
  /** Stop the master (ends every session on it). */
  readonly stop: Effect.Effect<void>
}

export const makeSshMaster = (
  settings: SshSettings,
  controlPath: string,
  env: Readonly<Record<string, string>>
): Effect.Effect<SshMaster> =>
  Effect.gen(function*() {
    const lock = yield* Effect.makeSemaphore(1)
    const where = describeTarget(settings)
    const check = Effect.map(
      Effect.either(runClient(sshControl(settings, controlPath, "check"), env, undefined, CONTROL_TIMEOUT_MS)),
      (result) => result._tag === "Right" && result.right.code === 0
    )
    const start = Effect.gen(function*() {
      if (settings.host === undefined) {
        return yield* Effect.fail(new TerminalError({ message: "terminal.ssh_host is not set" }))
      }
      const result = yield* runClient(sshStartMaster(settings, controlPath), env, undefined, START_TIMEOUT_MS).pipe(
        Effect.mapError((error) => new TerminalError({ message: `ssh to ${where} failed: ${error.message}` }))
      )
      if (result.code !== 0) {
        return yield* Effect.fail(new TerminalError({ message: `ssh to ${where} failed: ${explain(result.stderr)}` }))
      }
    })
    return {
      ensure: lock.withPermits(1)(Effect.flatMap(check, (up) => (up ? Effect.void : start))),
      stop: Effect.asVoid(Effect.either(runClient(sshControl(settings, controlPath, "exit"), env, undefined, CONTROL_TIMEOUT_MS)))
    }
  })
