/**
 * The `terminal.container_*` keys as the container backend uses them. Defaults, and
 * Hermes' `docker_*` names standing in for absent keys, come from the Config schema;
 * here blanks read as unset, volume sources get `~` expanded, forwarded names merge.
 */
import { homedir } from "node:os"
import { join } from "node:path"
import type { HermesConfig } from "../../../services/Config.js"

export interface ContainerSettings {
  /** undefined: the first of docker, podman that answers `version`. */
  readonly cli: string | undefined
  readonly image: string
  readonly cwd: string
  readonly network: boolean
  /** `source:target[:options]`, source `~` expanded. */
  readonly volumes: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  /** Local variable names exported inside (`container_forward_env` plus `env_passthrough`). */
  readonly forwardEnv: ReadonlyArray<string>
  readonly extraArgs: ReadonlyArray<string>
  readonly runtime: string | undefined
  readonly cpu: number | undefined
  readonly memoryMb: number | undefined
}

const positive = (value: number | undefined): number | undefined =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined

const nonEmpty = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim()
  return trimmed === undefined || trimmed === "" ? undefined : trimmed
}

const expandSource = (volume: string): string =>
  volume === "~" || volume.startsWith("~/") || volume.startsWith("~:")
    ? join(homedir(), volume.slice(1).replace(/^\//, ""))
    : volume

export const containerSettings = (config: HermesConfig): ContainerSettings => {
  const t = config.terminal
  return {
    cli: nonEmpty(t.container_cli),
    image: t.container_image,
    cwd: t.container_cwd,
    network: t.container_network,
    volumes: t.container_volumes.map(expandSource),
    env: t.container_env,
    forwardEnv: [...new Set([...t.container_forward_env, ...t.env_passthrough])],
    extraArgs: t.container_extra_args,
    runtime: nonEmpty(t.container_runtime),
    cpu: positive(t.container_cpu),
    memoryMb: positive(t.container_memory)
  }
}
