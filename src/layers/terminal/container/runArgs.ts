/**
 * The `run` command line of a task's container, hardened as Hermes does:
 * every capability dropped but the few root needs to own files (DAC_OVERRIDE,
 * CHOWN, FOWNER) and to drop privileges (SETUID, SETGID), no-new-privileges,
 * at most 256 processes, an init that reaps orphans, tmpfs for the workspace,
 * homes and scratch directories, and no network unless configured.
 *
 * docker and podman differ here in one place: the OCI runtime is a `run` flag
 * for docker and a global flag for podman.
 */
import type { ContainerSettings } from "./containerSettings.js"

export const PIDS_LIMIT = 256

const HARDENING: ReadonlyArray<string> = [
  "--init",
  "--cap-drop", "ALL",
  "--cap-add", "DAC_OVERRIDE",
  "--cap-add", "CHOWN",
  "--cap-add", "FOWNER",
  "--cap-add", "SETUID",
  "--cap-add", "SETGID",
  "--security-opt", "no-new-privileges",
  "--pids-limit", String(PIDS_LIMIT)
]

/** Hermes' tmpfs layout for a container without persistence. */
const TMPFS: ReadonlyArray<readonly [target: string, options: string]> = [
  ["/workspace", "rw,exec,size=10g"],
  ["/home", "rw,exec,size=1g"],
  ["/root", "rw,exec,size=1g"],
  ["/tmp", "rw,nosuid,size=512m"],
  ["/var/tmp", "rw,noexec,nosuid,size=256m"],
  ["/run", "rw,noexec,nosuid,size=64m"]
]

export interface Volume {
  readonly source: string
  readonly target: string
  /** The source is a path on the host (not a named volume). */
  readonly hostPath: boolean
}

/** `source:target[:options]`; undefined when there is no target. */
export const parseVolume = (spec: string): Volume | undefined => {
  const [source = "", target = ""] = spec.split(":")
  if (source === "" || !target.startsWith("/")) return undefined
  return { source, target, hostPath: source.startsWith("/") || source.startsWith(".") }
}

const MOUNT_FLAGS = /^(-v|--volume|--mount)(=|$)/
const NETWORK_FLAGS = /^(--network|--net)(=|$)/

/** No host path reaches the container: neither a configured volume nor an extra mount flag. */
export const mountsHostPath = (settings: ContainerSettings): boolean =>
  settings.volumes.some((spec) => parseVolume(spec)?.hostPath === true) ||
  settings.extraArgs.some((arg) => MOUNT_FLAGS.test(arg))

export type CliFlavour = "docker" | "podman"

/** Which CLI this is, by the name of its executable (anything else is treated as docker). */
export const flavourOf = (cli: string): CliFlavour => (/podman[^/]*$/.test(cli) ? "podman" : "docker")

/** Flags before the subcommand. */
export const globalArgs = (settings: ContainerSettings, flavour: CliFlavour): ReadonlyArray<string> =>
  flavour === "podman" && settings.runtime !== undefined ? ["--runtime", settings.runtime] : []

export const runArgs = (
  settings: ContainerSettings,
  flavour: CliFlavour,
  name: string,
  labels: Readonly<Record<string, string>>
): ReadonlyArray<string> => {
  const volumes = settings.volumes.map(parseVolume).filter((v): v is Volume => v !== undefined)
  const mounted = new Set(volumes.map((v) => v.target))
  const network = settings.extraArgs.some((arg) => NETWORK_FLAGS.test(arg)) || settings.network ? [] : ["--network", "none"]
  return [
    "run", "-d",
    "--name", name,
    ...Object.entries(labels).flatMap(([key, value]) => ["--label", `${key}=${value}`]),
    ...HARDENING,
    ...(settings.cpu === undefined ? [] : ["--cpus", String(settings.cpu)]),
    ...(settings.memoryMb === undefined ? [] : ["--memory", `${Math.round(settings.memoryMb)}m`]),
    ...network,
    // A volume on the same target replaces the tmpfs (two mounts on one path are an error).
    ...TMPFS.filter(([target]) => !mounted.has(target)).flatMap(([target, options]) => ["--tmpfs", `${target}:${options}`]),
    ...settings.volumes.filter((spec) => parseVolume(spec) !== undefined).flatMap((spec) => ["-v", spec]),
    ...Object.entries(settings.env).flatMap(([key, value]) => ["-e", `${key}=${value}`]),
    "-w", settings.cwd,
    ...(flavour === "docker" && settings.runtime !== undefined ? ["--runtime", settings.runtime] : []),
    ...settings.extraArgs,
    settings.image,
    "sleep", "infinity"
  ]
}
