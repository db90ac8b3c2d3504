/**
 * Walking a skills root the way Hermes does: every `SKILL.md`, sorted by
 * relative path, with dependency/VCS/cache folders pruned and the support
 * folders of a skill (references/ templates/ scripts/ assets/) not searched
 * for further skills. Symlinked folders are followed, each real folder once
 * (so a link loop ends), to a bounded depth.
 */
import * as nodeFs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import type { SkillsIoError } from "../../services/Skills.js"
import * as fileOps from "./fileOps.js"
import { SUPPORT_DIRS } from "./validate.js"
import type { Disk } from "./fileOps.js"

export const EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  ".git", ".github", ".hub", ".archive", ".venv", "venv", "node_modules", "site-packages", "__pycache__",
  ".tox", ".nox", ".pytest_cache", ".mypy_cache", ".ruff_cache"
])

const MAX_DEPTH = 32

export interface RootScan {
  /** Absolute paths of every SKILL.md, sorted by path relative to the root. */
  readonly skillFiles: ReadonlyArray<string>
  /** Other `*.md` files outside support folders (Hermes' legacy flat skills). */
  readonly markdown: ReadonlyArray<string>
}

export const scanRoot = (root: string): Effect.Effect<RootScan, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const skillFiles: Array<string> = []
    const markdown: Array<string> = []
    // Real paths of the root and of every symlinked folder entered: a link back to one of them ends there.
    const seen = new Set<string>()
    const visit = (dir: string, depth: number): Effect.Effect<void, SkillsIoError, Disk> =>
      Effect.gen(function*() {
        const entries = yield* fileOps.readDir(dir)
        const dirs: Array<string> = []
        const files: Array<string> = []
        for (const entry of entries) {
          if (entry.isDirectory()) {
            dirs.push(entry.name)
            continue
          }
          if (entry.isSymbolicLink()) {
            const full = path.join(dir, entry.name)
            if (yield* fileOps.isDirectory(full)) {
              const real = yield* fileOps.realPath(full)
              if (real === undefined || seen.has(real)) continue
              seen.add(real)
              dirs.push(entry.name)
              continue
            }
          }
          files.push(entry.name)
        }
        const isSkill = files.includes("SKILL.md")
        for (const file of files) {
          if (file === "SKILL.md") skillFiles.push(path.join(dir, file))
          else if (file.endsWith(".md")) markdown.push(path.join(dir, file))
        }
        if (depth >= MAX_DEPTH) return
        const next = dirs.filter((sub) => !EXCLUDED_DIRS.has(sub) && !(isSkill && SUPPORT_DIRS.includes(sub)))
        yield* Effect.forEach(next, (sub) => visit(path.join(dir, sub), depth + 1), { concurrency: 8, discard: true })
      })
    if (!(yield* fileOps.isDirectory(root))) return { skillFiles: [], markdown: [] }
    seen.add((yield* fileOps.realPath(root)) ?? root)
    yield* visit(root, 0)
    const byRelative = (a: string, b: string) => {
      const ra = path.relative(root, a)
      const rb = path.relative(root, b)
      return ra < rb ? -1 : ra > rb ? 1 : 0
    }
    return { skillFiles: [...new Set(skillFiles)].sort(byRelative), markdown: [...new Set(markdown)].sort(byRelative) }
  })

/** A path under a support folder that sits directly in a skill (`<skill>/references/…`): data, not a skill. */
export const isSupportPath = (p: string): Effect.Effect<boolean, never, Disk> =>
  Effect.gen(function*() {
    const parts = p.split(path.sep)
    for (let i = 1; i < parts.length - 1; i++) {
      if (!SUPPORT_DIRS.includes(parts[i] as string)) continue
      const skillRoot = parts.slice(0, i).join(path.sep) || path.sep
      if (yield* fileOps.isFile(path.join(skillRoot, "SKILL.md"))) return true
    }
    return false
  })

/** `<root>/<category>/<skill>/SKILL.md` → category (the first folder when the skill is at least two deep). */
export const categoryOf = (skillMd: string, root: string): string | null => {
  const rel = path.relative(root, skillMd)
  if (rel.startsWith("..") || path.isAbsolute(rel)) return null
  const parts = rel.split(path.sep)
  return parts.length >= 3 ? (parts[0] as string) : null
}

/**
 * Hermes' cheap change signature: each root's mtime and that of its immediate sub-folders. Taken with
 * synchronous stats (a few microseconds each, no error values): every session's system prompt asks for it.
 */
export const rootsSignature = (roots: ReadonlyArray<string>): Effect.Effect<string> =>
  Effect.sync(() => {
    const parts: Array<string> = []
    for (const root of roots) {
      const s = quietly(() => nodeFs.statSync(root, { throwIfNoEntry: false }))
      if (s === undefined) continue
      let latest = s.mtimeMs
      for (const entry of quietly(() => nodeFs.readdirSync(root, { withFileTypes: true })) ?? []) {
        if (!entry.isDirectory()) continue
        const child = quietly(() => nodeFs.lstatSync(path.join(root, entry.name), { throwIfNoEntry: false }))
        if (child !== undefined) latest = Math.max(latest, child.mtimeMs)
      }
      parts.push(`${root}@${latest}`)
    }
    return parts.join("|")
  })

/** A failing stat or listing counts as nothing there, as the signature always treated it. */
const quietly = <A>(f: () => A): A | undefined => {
  try {
    return f()
  } catch {
    return undefined
  }
}
