/**
 * Talking to the container CLI: which one answers, and the task container's
 * lifecycle. Containers carry labels that say which Hermes home and task they
 * belong to and which configuration made them; a running container with the
 * same labels is reused (say, after a crash left it behind), one made from
 * another configuration is replaced.
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { TerminalError } from "../../../services/TerminalBackend.js"
import { runClient } from "../transportProcess.js"
import type { ContainerSettings } from "./containerSettings.js"
import { flavourOf, globalArgs, runArgs } from "./runArgs.js"

const QUERY_TIMEOUT_MS = 30_000
/** A first `run` may pull the image. */
const RUN_TIMEOUT_MS = 600_000

export const LABEL = "hermes-effect"
export const HOME_LABEL = "hermes-effect.home"
export const TASK_LABEL = "hermes-effect.task"
export const TASK_ID_LABEL = "hermes-effect.task-id"
export const CONFIG_LABEL = "hermes-effect.config"

const hash = (text: string, chars = 16) => createHash("sha256").update(text).digest("hex").slice(0, chars)

/** Label value for a Hermes home: containers of one home are never reused by another. */
export const homeLabel = (root: string) => hash(root, 12)

const lastLines = (text: string) => text.trim().split("\n").slice(-2).join("; ")

export const cli = (
  file: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>,
  timeoutMs = QUERY_TIMEOUT_MS
) => runClient({ file, args }, env, undefined, timeoutMs)

/** The CLI to use: the configured one if it answers `version`, else the first of docker, podman that does. */
export const detectCli = (configured: string | undefined, env: Readonly<Record<string, string>>): Effect.Effect<string, TerminalError> => {
  const candidates = configured === undefined ? ["docker", "podman"] : [configured]
  const tried: Array<string> = []
  return Effect.gen(function*() {
    for (const candidate of candidates) {
      const result = yield* Effect.either(cli(candidate, ["version"], env, 10_000))
      if (result._tag === "Right" && result.right.code === 0) return candidate
      tried.push(`${candidate}: ${result._tag === "Left" ? result.left.message : lastLines(result.right.stderr) || `exit ${result.right.code}`}`)
    }
    return yield* Effect.fail(new TerminalError({ message: `no working container CLI (${tried.join("; ")})` }))
  })
}

export interface TaskContainer {
  readonly id: string
  readonly reused: boolean
}

/** A running container for the task: the one its labels point at, or a new one. */
export const obtainContainer = (
  file: string,
  settings: ContainerSettings,
  env: Readonly<Record<string, string>>,
  owner: { readonly home: string; readonly taskId: string }
): Effect.Effect<TaskContainer, TerminalError> =>
  Effect.gen(function*() {
    const flavour = flavourOf(file)
    const labels: Record<string, string> = {
      [LABEL]: "1",
      [HOME_LABEL]: homeLabel(owner.home),
      [TASK_LABEL]: hash(owner.taskId),
      [TASK_ID_LABEL]: owner.taskId.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 63)
    }
    // The configuration's fingerprint: everything that shapes the container except its name.
    labels[CONFIG_LABEL] = hash(JSON.stringify(runArgs(settings, flavour, "", labels)))

    const listed = yield* cli(file, [
      "ps", "-a", "-q", "--no-trunc",
      "--filter", `label=${HOME_LABEL}=${labels[HOME_LABEL]}`,
      "--filter", `label=${TASK_LABEL}=${labels[TASK_LABEL]}`
    ], env)
    const ids = listed.code === 0 ? listed.stdout.toString("utf8").split("\n").map((l) => l.trim()).filter((l) => l.length > 0) : []
    if (ids.length > 0) {
      const inspected = yield* cli(file, ["inspect", "--format", `{{.Id}}|{{.State.Running}}|{{index .Config.Labels "${CONFIG_LABEL}"}}`, ...ids], env)
      const rows = inspected.stdout.toString("utf8").split("\n").map((l) => l.trim().split("|")).filter((r) => r.length === 3)
      const match = rows.find(([, running, fingerprint]) => running === "true" && fingerprint === labels[CONFIG_LABEL])
      const stale = rows.filter((row) => row !== match).map(([id]) => id ?? "").filter((id) => id.length > 0)
      if (stale.length > 0) yield* Effect.ignore(cli(file, ["rm", "-f", ...stale], env))
      if (match?.[0] !== undefined) return { id: match[0], reused: true }
    }

    const name = `hermes-${labels[TASK_ID_LABEL]!.slice(0, 40)}-${randomBytes(4).toString("hex")}`
    const created = yield* cli(file, [...globalArgs(settings, flavour), ...runArgs(settings, flavour, name, labels)], env, RUN_TIMEOUT_MS)
    const id = created.stdout.toString("utf8").trim().split("\n").pop() ?? ""
    if (created.code !== 0 || id.length === 0) {
      // A half-created container (say, the runtime failed to start it) must not linger.
      yield* Effect.ignore(cli(file, ["rm", "-f", name], env))
      return yield* Effect.fail(new TerminalError({
        message: `cannot start a container from ${settings.image} with ${file}: ${lastLines(created.stderr) || `exit ${created.code}`}`
      }))
    }
    return { id, reused: false }
  })

export const removeContainer = (file: string, id: string, env: Readonly<Record<string, string>>): Effect.Effect<void> =>
  cli(file, ["rm", "-f", id], env).pipe(
    Effect.flatMap((result) =>
      result.code === 0 ? Effect.void : Effect.logWarning(`could not remove container ${id.slice(0, 12)}: ${lastLines(result.stderr)}`)
    ),
    Effect.catchAll((error) => Effect.logWarning(`could not remove container ${id.slice(0, 12)}: ${error.message}`))
  )

/** Whether an exec client's exit means the container (not the command) failed. */
export const execFailure = (file: string, id: string) => (code: number, diagnostics: string): string | undefined => {
  if (/no such container|is not running|no container with name or id|container state improper|does not exist in database/i.test(diagnostics)) {
    return `the task's container ${id.slice(0, 12)} is gone: ${lastLines(diagnostics)}`
  }
  if (code === 125 || (code === 126 && /OCI runtime|runc/i.test(diagnostics))) {
    return `${file} exec failed: ${lastLines(diagnostics)}`
  }
  return undefined
}
