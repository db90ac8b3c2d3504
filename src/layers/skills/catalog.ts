/**
 * The skills index behind skills_list: for each SKILL.md in the roots (local
 * first), its name, description and category, read from the first 4 000
 * characters only. Skills for another platform or an absent environment,
 * disabled ones and repeated names (first root wins) are left out. A missing
 * description falls back to the first body line that is not a heading.
 */
import * as path from "node:path"
import { Effect } from "effect"
import type { SkillRoot, SkillsIoError, SkillSummary } from "../../services/Skills.js"
import { parseFrontmatter, pyStr } from "./frontmatter.js"
import type { Frontmatter } from "./frontmatter.js"
import * as fileOps from "./fileOps.js"
import { matchesEnvironment, matchesPlatform } from "./platformMatch.js"
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from "./validate.js"
import { categoryOf, scanRoot } from "./walk.js"
import type { Disk } from "./fileOps.js"

export interface IndexedSkill extends SkillSummary {
  readonly skillMd: string
  readonly root: SkillRoot
}

/** Every SKILL.md of one root with its parsed head, and the other Markdown files (legacy flat skills). */
export interface RootIndex {
  readonly root: SkillRoot
  readonly skills: ReadonlyArray<{ readonly skillMd: string; readonly frontmatter: Frontmatter; readonly body: string }>
  readonly markdown: ReadonlyArray<string>
}

const HEAD_CHARS = 4000

/** Descriptions longer than 1 024 characters end in "...". */
export const truncateDescription = (description: string): string =>
  [...description].length <= MAX_DESCRIPTION_LENGTH ? description : `${[...description].slice(0, MAX_DESCRIPTION_LENGTH - 3).join("")}...`

const firstBodyLine = (body: string): string | undefined =>
  body.trim().split("\n").map((l) => l.trim()).find((l) => l.length > 0 && !l.startsWith("#"))

/** Summary of one indexed SKILL.md, or undefined when it does not belong in a listing. */
export const summarize = (frontmatter: Frontmatter, body: string, skillMd: string, root: SkillRoot): IndexedSkill | undefined => {
  if (!matchesPlatform(frontmatter) || !matchesEnvironment(frontmatter)) return undefined
  const rawName = frontmatter["name"]
  const name = [...(rawName === undefined ? path.basename(path.dirname(skillMd)) : pyStr(rawName))].slice(0, MAX_NAME_LENGTH).join("")
  const raw = frontmatter["description"]
  const declared = raw === undefined || raw === null || raw === "" || raw === false ? undefined : pyStr(raw)
  const description = declared ?? firstBodyLine(body) ?? ""
  return { name, description: truncateDescription(description), category: categoryOf(skillMd, root.path), skillMd, root }
}

export const readHead = (skillMd: string): Effect.Effect<string, SkillsIoError, Disk> =>
  Effect.map(fileOps.readHead(skillMd, HEAD_CHARS * 4), (bytes) => fileOps.decodeText(bytes).slice(0, HEAD_CHARS))

/** Parsed heads by SKILL.md path, reused while the file's mtime and size stay the same. */
export type HeadMemo = Map<string, { readonly mtimeMs: number; readonly size: number; readonly frontmatter: Frontmatter; readonly body: string }>

/**
 * Walk each root and parse the first 4 000 characters of every SKILL.md
 * (unreadable ones are skipped, as Hermes does). With a memo, a file whose
 * mtime and size did not change is not read or parsed again: YAML parsing
 * is most of an index build.
 */
export const indexRoots = (roots: ReadonlyArray<SkillRoot>, memo: HeadMemo = new Map()): Effect.Effect<ReadonlyArray<RootIndex>, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const live = new Set<string>()
    const built = yield* Effect.forEach(roots, (root) =>
      Effect.gen(function*() {
        const scan = yield* scanRoot(root.path)
        const parsed = yield* Effect.forEach(scan.skillFiles, (skillMd) =>
          Effect.gen(function*() {
            const info = yield* Effect.orElseSucceed(fileOps.statPrecise(skillMd), () => undefined)
            if (info === undefined) return undefined
            live.add(skillMd)
            const known = memo.get(skillMd)
            if (known !== undefined && known.mtimeMs === info.mtimeMs && known.size === info.size) return { skillMd, ...known }
            const head = yield* Effect.either(readHead(skillMd))
            if (head._tag === "Left") return undefined
            const { frontmatter, body } = parseFrontmatter(head.right)
            memo.set(skillMd, { mtimeMs: info.mtimeMs, size: info.size, frontmatter, body })
            return { skillMd, frontmatter, body }
          }), { concurrency: 16 })
        return { root, skills: parsed.filter((x) => x !== undefined), markdown: scan.markdown }
      }))
    for (const key of memo.keys()) if (!live.has(key)) memo.delete(key)
    return built
  })

/** The listing: platform/environment matches, not disabled, first root wins on a repeated name. */
export const listingOf = (indexes: ReadonlyArray<RootIndex>, disabled: ReadonlySet<string>): ReadonlyArray<IndexedSkill> => {
  const out: Array<IndexedSkill> = []
  const seen = new Set<string>()
  for (const index of indexes) {
    for (const entry of index.skills) {
      const skill = summarize(entry.frontmatter, entry.body, entry.skillMd, index.root)
      if (skill === undefined || seen.has(skill.name) || disabled.has(skill.name)) continue
      seen.add(skill.name)
      out.push(skill)
    }
  }
  return out
}

export const indexSkills = (roots: ReadonlyArray<SkillRoot>, disabled: ReadonlySet<string>): Effect.Effect<ReadonlyArray<IndexedSkill>, SkillsIoError, Disk> =>
  Effect.map(indexRoots(roots), (indexes) => listingOf(indexes, disabled))

export const sortSkills = <A extends SkillSummary>(skills: ReadonlyArray<A>): ReadonlyArray<A> =>
  [...skills].sort((a, b) => {
    const ca = a.category ?? ""
    const cb = b.category ?? ""
    if (ca !== cb) return ca < cb ? -1 : 1
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  })
