/**
 * `terminal.protect_home` for the container backend: the runtime's home never
 * reaches a container writable. A host mount inside the home becomes
 * read-only; a host mount that contains the home (say `/root:/host`) gets the
 * home mounted read-only over its place inside (`/host/.hermes-effect`).
 * Covers `container_volumes` and `-v`/`--volume`/`--mount` in
 * `container_extra_args`. Named volumes are not host paths and are left alone.
 */
import { relative, resolve } from "node:path"
import type { ContainerSettings } from "./containerSettings.js"

const within = (path: string, dir: string) => dir === "/" || path === dir || path.startsWith(`${dir}/`)

const isHostPath = (source: string) => source.startsWith("/") || source.startsWith(".")

/** `source:target[:options]` with the home made read-only; extra `-v` specs for homes inside the source. */
const guardVolume = (spec: string, home: string): { readonly spec: string; readonly extra: ReadonlyArray<string> } => {
  const [source = "", target = "", options] = spec.split(":")
  if (!isHostPath(source) || !target.startsWith("/")) return { spec, extra: [] }
  const path = resolve(source)
  if (within(path, home)) {
    const kept = (options ?? "").split(",").filter((o) => o !== "" && o !== "rw" && o !== "ro")
    return { spec: `${source}:${target}:${["ro", ...kept].join(",")}`, extra: [] }
  }
  if (within(home, path)) {
    const inside = relative(path, home)
    return { spec, extra: [`${home}:${target.replace(/\/$/, "")}/${inside}:ro`] }
  }
  return { spec, extra: [] }
}

/** `--mount type=bind,source=…,target=…[,readonly]`, same rules. */
const guardMount = (spec: string, home: string): { readonly spec: string; readonly extra: ReadonlyArray<string> } => {
  const fields = spec.split(",")
  const value = (...keys: ReadonlyArray<string>) => {
    for (const field of fields) {
      const [key = "", ...rest] = field.split("=")
      if (keys.includes(key)) return rest.join("=")
    }
    return undefined
  }
  const type = value("type") ?? "volume"
  const source = value("source", "src")
  const target = value("target", "destination", "dst")
  if (type !== "bind" || source === undefined || target === undefined) return { spec, extra: [] }
  const path = resolve(source)
  if (within(path, home)) {
    const kept = fields.filter((f) => !/^(readonly|ro)(=|$)/.test(f))
    return { spec: [...kept, "readonly"].join(","), extra: [] }
  }
  if (within(home, path)) return { spec, extra: [`${home}:${target.replace(/\/$/, "")}/${relative(path, home)}:ro`] }
  return { spec, extra: [] }
}

const VOLUME_FLAG = /^(-v|--volume)(?:=(.*))?$/
const MOUNT_FLAG = /^--mount(?:=(.*))?$/

/** The settings with every host mount of (or over) `home` read-only. */
export const protectHomeMounts = (settings: ContainerSettings, home: string): ContainerSettings => {
  const root = resolve(home)
  const extra: Array<string> = []
  const volumes = settings.volumes.map((spec) => {
    const guarded = guardVolume(spec, root)
    extra.push(...guarded.extra)
    return guarded.spec
  })
  const args: Array<string> = []
  for (let i = 0; i < settings.extraArgs.length; i++) {
    const arg = settings.extraArgs[i] ?? ""
    const volume = VOLUME_FLAG.exec(arg)
    const mount = volume === null ? MOUNT_FLAG.exec(arg) : null
    const match = volume ?? mount
    if (match === null) {
      args.push(arg)
      continue
    }
    const inline = volume !== null ? volume[2] : match[1]
    const spec = inline ?? settings.extraArgs[++i]
    if (spec === undefined) {
      args.push(arg)
      continue
    }
    const guarded = volume !== null ? guardVolume(spec, root) : guardMount(spec, root)
    extra.push(...guarded.extra)
    const flag = volume !== null ? (arg.startsWith("--") ? "--volume" : "-v") : "--mount"
    args.push(...(inline !== undefined ? [`${flag}=${guarded.spec}`] : [flag, guarded.spec]))
  }
  // The read-only overlays go after the mounts they cover (deeper targets mount on top).
  return { ...settings, volumes: [...volumes, ...extra], extraArgs: args }
}
