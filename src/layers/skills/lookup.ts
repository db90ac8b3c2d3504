/**
 * Finding skills by name.
 *
 * skill_view (Hermes' collision-refusing lookup): in every root, the direct
 * path (`name`, `category/name`) or its flat `.md` sibling, every SKILL.md
 * whose folder or frontmatter `name` matches, and legacy flat `<name>.md`
 * files; deduplicated by real path. More than one is ambiguous — silently
 * preferring one root over another hides a shadowed skill — and none is
 * answered with names that do exist.
 *
 * skill_manage: the first skill whose folder is called `name`, local root first.
 */
import * as path from "node:path"
import { Effect } from "effect"
import { SkillAmbiguous, SkillNotFound } from "../../services/Skills.js"
import type { SkillRoot, SkillsIoError } from "../../services/Skills.js"
import type { RootIndex } from "./catalog.js"
import * as fileOps from "./fileOps.js"
import { withMdSuffix } from "./pythonStrings.js"
import { isSupportPath, scanRoot } from "./walk.js"
import type { Disk } from "./fileOps.js"

export interface Located {
  /** The skill folder; null for a legacy flat `<name>.md` skill. */
  readonly dir: string | null
  readonly skillMd: string
  readonly root: SkillRoot
}

/**
 * Every skill `name` could mean, across all roots. Folder and frontmatter
 * names come from `indexes` (the skills index, possibly cached); the direct
 * paths are checked on disk, and candidates whose file is gone are dropped.
 */
export const candidates = (
  name: string,
  categoryForm: string | undefined,
  indexes: ReadonlyArray<RootIndex>
): Effect.Effect<ReadonlyArray<Located>, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const found: Array<Located> = []
    const seen = new Set<string>()
    const add = (dir: string | null, skillMd: string, root: SkillRoot) =>
      Effect.map(Effect.orElseSucceed(fileOps.realPath(skillMd), () => undefined), (real) => {
        if (real === undefined) return // listed by a stale index, gone since
        if (seen.has(real)) return
        seen.add(real)
        found.push({ dir, skillMd, root })
      })
    for (const { root, skills, markdown } of indexes) {
      for (const direct of [name, categoryForm]) {
        if (direct === undefined || direct.length === 0) continue
        const dirPath = path.join(root.path, direct)
        const flat = withMdSuffix(dirPath)
        if (!(yield* isSupportPath(dirPath)) && (yield* fileOps.isDirectory(dirPath)) && (yield* fileOps.isFile(path.join(dirPath, "SKILL.md")))) {
          yield* add(dirPath, path.join(dirPath, "SKILL.md"), root)
        } else if ((yield* fileOps.isFile(flat)) && !(yield* isSupportPath(flat))) {
          yield* add(null, flat, root)
        }
      }
      for (const skill of skills) {
        const dir = path.dirname(skill.skillMd)
        if (path.basename(dir) === name || skill.frontmatter["name"] === name) yield* add(dir, skill.skillMd, root)
      }
      const suffix = `${path.sep}${name}.md`
      for (const md of markdown) {
        if ((md.endsWith(suffix) || md === path.join(root.path, `${name}.md`)) && !(yield* isSupportPath(md))) yield* add(null, md, root)
      }
    }
    return found
  })

export const ambiguous = (name: string, matches: ReadonlyArray<Located>): SkillAmbiguous =>
  new SkillAmbiguous({
    name,
    matches: matches.map((m) => m.skillMd),
    message: `Ambiguous skill name '${name}': ${matches.length} skills match across your local skills dir and external_dirs. ` +
      "Refusing to guess — load one explicitly by its categorized path."
  })

export const notFound = (name: string, available: ReadonlyArray<string>): SkillNotFound =>
  new SkillNotFound({ name, available, message: `Skill '${name}' not found.` })

/** skill_manage's lookup: a folder named `name` holding SKILL.md, local root first. */
export const findByDirName = (name: string, roots: ReadonlyArray<SkillRoot>): Effect.Effect<Located | undefined, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    for (const root of roots) {
      const scan = yield* scanRoot(root.path)
      const hit = scan.skillFiles.find((md) => path.basename(path.dirname(md)) === name)
      if (hit !== undefined) return { dir: path.dirname(hit), skillMd: hit, root }
    }
    return undefined
  })
