/**
 * What skill_view shows: the whole skill (content, tags, linked files,
 * readiness), or one supporting file — which must resolve inside the skill
 * folder (symlinks followed), and is described rather than dumped when binary.
 */
import * as path from "node:path"
import { Effect } from "effect"
import { SkillFileNotFound, SkillInvalid } from "../../services/Skills.js"
import type { SkillDocument, SkillFile, SkillRoot, SkillsIoError } from "../../services/Skills.js"
import { looksBinary, SAMPLE_BYTES } from "../../lib/binaryFiles.js"
import type { Frontmatter } from "./frontmatter.js"
import * as fileOps from "./fileOps.js"
import { availableFiles, linkedFiles } from "./linkedFiles.js"
import { hasTraversal } from "./pythonStrings.js"
import { readiness } from "./readiness.js"
import type { ReadinessEnv } from "./readiness.js"
import type { Disk } from "./fileOps.js"

/** Tags as a YAML list, "[a, b]" or "a, b". */
export const parseTags = (value: unknown): ReadonlyArray<string> => {
  if (value === undefined || value === null || value === "" || value === false || (Array.isArray(value) && value.length === 0)) return []
  if (Array.isArray(value)) return value.filter((t) => t !== null && t !== undefined && t !== "" && t !== false).map((t) => String(t).trim())
  let text = String(value).trim()
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1)
  return text.split(",").map((t) => t.trim()).filter((t) => t.length > 0).map((t) => t.replace(/^["']+|["']+$/g, ""))
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

const truthy = (value: unknown) => !(value === undefined || value === null || value === "" || value === false || value === 0 || (Array.isArray(value) && value.length === 0))

export interface DocumentInput {
  readonly dir: string | null
  readonly skillMd: string
  readonly root: SkillRoot
  readonly localRoot: string
  readonly content: string
  readonly frontmatter: Frontmatter
}

export const skillDocument = (input: DocumentInput, env: ReadinessEnv): Effect.Effect<SkillDocument, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const { frontmatter } = input
    const metadata = record(frontmatter["metadata"])
    const hermes = record(metadata?.["hermes"]) ?? {}
    const pick = (key: string) => (truthy(hermes[key]) ? hermes[key] : frontmatter[key] ?? "")
    const relToLocal = path.relative(input.localRoot, input.skillMd)
    const rel = relToLocal.startsWith("..") || path.isAbsolute(relToLocal)
      ? path.relative(path.dirname(path.dirname(input.skillMd)), input.skillMd)
      : relToLocal
    const fallbackName = input.dir === null ? path.basename(input.skillMd, ".md") : path.basename(input.dir)
    const name = frontmatter["name"] === undefined ? fallbackName : String(frontmatter["name"])
    return {
      name,
      description: frontmatter["description"] ?? "",
      tags: parseTags(pick("tags")),
      relatedSkills: parseTags(pick("related_skills")),
      content: input.content,
      path: rel.split(path.sep).join("/"),
      skillDir: input.dir,
      root: input.root,
      linkedFiles: yield* linkedFiles(input.dir),
      readiness: yield* readiness(frontmatter, env),
      ...(truthy(frontmatter["compatibility"]) ? { compatibility: frontmatter["compatibility"] } : {}),
      ...(metadata === undefined ? {} : { metadata })
    }
  })

/** One file of a skill, by a path relative to its folder. */
export const skillFile = (
  skillDir: string,
  filePath: string,
  label: string
): Effect.Effect<SkillFile, SkillInvalid | SkillFileNotFound | SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const hint = { hint: "Use a relative path within the skill directory" }
    if (hasTraversal(filePath)) return yield* new SkillInvalid({ message: "Path traversal ('..') is not allowed.", details: hint })
    // As Python joins: an absolute file_path replaces the folder (and is then refused as an escape).
    const target = path.isAbsolute(filePath) ? filePath : path.join(skillDir, filePath)
    const escape = yield* fileOps.escapesDir(target, skillDir)
    if (escape !== undefined) return yield* new SkillInvalid({ message: escape, details: hint })
    if (!(yield* fileOps.isFile(target))) {
      return yield* new SkillFileNotFound({
        name: label,
        file: filePath,
        message: `File '${filePath}' not found in skill '${label}'.`,
        available: yield* availableFiles(skillDir)
      })
    }
    const head = yield* fileOps.readHead(target, SAMPLE_BYTES)
    const ext = path.extname(target)
    if (looksBinary(head)) {
      const size = Number((yield* fileOps.stat(target))?.size ?? 0)
      return { name: label, file: filePath, content: `[Binary file: ${path.basename(target)}, size: ${size} bytes]`, fileType: ext, binary: true }
    }
    return { name: label, file: filePath, content: yield* fileOps.readText(target), fileType: ext, binary: false }
  })
