/**
 * A skill's supporting files: what skill_view lists as `linked_files`
 * (Hermes' folder + extension table), and what it offers as
 * `available_files` when a requested file is not there.
 */
import * as path from "node:path"
import { Effect } from "effect"
import type { LinkedFiles, SkillsIoError } from "../../services/Skills.js"
import * as fileOps from "./fileOps.js"
import { SUPPORT_DIRS } from "./validate.js"
import type { Disk } from "./fileOps.js"

interface Spec {
  readonly dir: string
  /** Extensions with the dot; undefined = any file. */
  readonly extensions: ReadonlyArray<string> | undefined
  readonly recursive: boolean
}

/** Order is the key order of `linked_files`. */
const SPECS: ReadonlyArray<Spec> = [
  { dir: "references", extensions: [".md"], recursive: false },
  { dir: "templates", extensions: [".md", ".py", ".yaml", ".yml", ".json", ".tex", ".sh"], recursive: true },
  { dir: "assets", extensions: undefined, recursive: true },
  { dir: "scripts", extensions: [".py", ".sh", ".bash", ".js", ".ts", ".rb"], recursive: false }
]

/**
 * Files under `dir` as paths relative to `base`. Symlinked folders are not
 * followed and linked files count only when they resolve inside the skill:
 * a skill must not advertise what lies outside it.
 */
const filesUnder = (base: string, dir: string, recursive: boolean): Effect.Effect<ReadonlyArray<string>, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const realBase = (yield* fileOps.realPath(base)) ?? base
    const walk = (current: string): Effect.Effect<ReadonlyArray<string>, SkillsIoError, Disk> =>
      Effect.gen(function*() {
        const out: Array<string> = []
        const entries = [...(yield* fileOps.readDir(current))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        for (const entry of entries) {
          const full = path.join(current, entry.name)
          if (entry.isDirectory()) {
            if (recursive) out.push(...(yield* walk(full)))
            continue
          }
          if (entry.isSymbolicLink()) {
            const target = yield* Effect.orElseSucceed(fileOps.realPath(full), () => undefined)
            if (target === undefined || !fileOps.isInside(target, realBase) || !(yield* fileOps.isFile(full))) continue
          } else if (!entry.isFile()) {
            continue
          }
          out.push(path.relative(base, full).split(path.sep).join("/"))
        }
        return out
      })
    return yield* walk(dir)
  })

const extensionOf = (file: string) => {
  const base = file.slice(file.lastIndexOf("/") + 1)
  const dot = base.lastIndexOf(".")
  return dot <= 0 ? "" : base.slice(dot)
}

export const linkedFiles = (skillDir: string | null): Effect.Effect<LinkedFiles, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const out: Record<string, ReadonlyArray<string>> = {}
    if (skillDir === null) return out
    for (const spec of SPECS) {
      const all = yield* filesUnder(skillDir, path.join(skillDir, spec.dir), spec.recursive)
      const found = spec.extensions === undefined
        ? all
        : spec.extensions.flatMap((ext) => all.filter((f) => extensionOf(f) === ext))
      if (found.length > 0) out[spec.dir] = found
    }
    return out
  })

const SOURCE_EXTENSIONS = new Set([".md", ".py", ".yaml", ".yml", ".json", ".tex", ".sh"])

/** Every file but SKILL.md, grouped by support folder (+ "other" for known text files elsewhere); dot-folders skipped. */
export const availableFiles = (skillDir: string): Effect.Effect<LinkedFiles, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const groups: Record<string, Array<string>> = {}
    for (const rel of yield* filesUnder(skillDir, skillDir, true)) {
      if (rel === "SKILL.md" || rel.split("/").some((part) => part.startsWith("."))) continue
      const top = rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : undefined
      const group = top !== undefined && SUPPORT_DIRS.includes(top) ? top : SOURCE_EXTENSIONS.has(extensionOf(rel)) ? "other" : undefined
      if (group !== undefined) (groups[group] ??= []).push(rel)
    }
    const out: Record<string, ReadonlyArray<string>> = {}
    for (const key of ["references", "templates", "assets", "scripts", "other"]) if (groups[key] !== undefined) out[key] = groups[key]
    return out
  })
