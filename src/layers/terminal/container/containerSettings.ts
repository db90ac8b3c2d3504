/**
 * The `terminal.container_*` keys with defaults filled in. Hermes' `docker_*`
 * names (image, volumes, env, forward_env, network, extra_args) are read as
 * fallbacks, so a Hermes config.yaml keeps working.
 */
import { homedir } from "node:os"
import { join } from "node:path"
import type { HermesConfig } from "../../../services/Config.js"

/** Hermes' default image. */
export const DEFAULT_IMAGE = "nikolaik/python-nodejs:python3.11-nodejs20"
export const DEFAULT_CWD = "/workspace"

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

const strings = (value: unknown): ReadonlyArray<string> | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined

const stringRecord = (value: unknown): Readonly<Record<string, string>> | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = String(v)
  }
  return out
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
  const t = config.terminal ?? {}
  const docker = (key: string): unknown => t[`docker_${key}`]
  const image = nonEmpty(t.container_image) ?? (typeof docker("image") === "string" ? nonEmpty(docker("image") as string) : undefined)
  const network = t.container_network ?? (typeof docker("network") === "boolean" ? docker("network") as boolean : undefined)
  return {
    cli: nonEmpty(t.container_cli),
    image: image ?? DEFAULT_IMAGE,
    cwd: nonEmpty(t.container_cwd) ?? DEFAULT_CWD,
    network: network === true,
    volumes: (t.container_volumes ?? strings(docker("volumes")) ?? []).map(expandSource),
    env: t.container_env ?? stringRecord(docker("env")) ?? {},
    forwardEnv: [...new Set([...(t.container_forward_env ?? strings(docker("forward_env")) ?? []), ...(t.env_passthrough ?? [])])],
    extraArgs: t.container_extra_args ?? strings(docker("extra_args")) ?? [],
    runtime: nonEmpty(t.container_runtime),
    cpu: positive(t.container_cpu),
    memoryMb: positive(t.container_memory)
  }
}
