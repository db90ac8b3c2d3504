/**
 * skill_manage's actions, with Hermes' validation order and messages.
 *
 * New skills go to the local root. Existing skills are found by folder name
 * (local root first); a skill in `skills.external_dirs` is read-only here.
 * Every write is atomic, stays inside the skill folder (symlinks followed),
 * and — with `skills.guard_agent_created` — is scanned afterwards and rolled
 * back when the guard refuses it.
 */
import * as path from "node:path"
import { Effect } from "effect"
import { SkillBlocked, SkillFileNotFound, SkillInvalid, SkillNotFound } from "../../services/Skills.js"
import type { CreateSkill, PatchSkill, SkillChange, SkillRoot, SkillsIoError, SkillWriteError } from "../../services/Skills.js"
import { fuzzyReplace, noMatchHint } from "../../lib/fuzzyMatch.js"
import { loadYaml, pyStr } from "./frontmatter.js"
import * as fileOps from "./fileOps.js"
import { findByDirName } from "./lookup.js"
import { pyStrip, thousands } from "./pythonStrings.js"
import type { SkillsSettings } from "./settings.js"
import {
  MAX_SKILL_FILE_BYTES,
  SUPPORT_DIRS,
  validateCategory,
  validateContentSize,
  validateFilePath,
  validateFrontmatter,
  validateName
} from "./validate.js"
import type { Disk } from "./fileOps.js"

export interface ManageContext {
  readonly settings: SkillsSettings
  /** The guard's refusal for what the model just wrote, or undefined (always undefined when the scan is off). */
  readonly scanWritten: (skillDir: string, name: string) => Effect.Effect<string | undefined, SkillsIoError, Disk>
}

const invalid = (message: string, details?: Record<string, unknown>) =>
  details === undefined ? new SkillInvalid({ message }) : new SkillInvalid({ message, details })

const check = (error: string | undefined): Effect.Effect<void, SkillInvalid> => (error === undefined ? Effect.void : Effect.fail(invalid(error)))

export const notFoundMessage = (name: string, suffix = "") => `Skill '${name}' not found. Use skills_list() to see available skills.${suffix}`

interface Found {
  readonly dir: string
  readonly root: SkillRoot
}

/** The skill to change: it must exist and live in the local root. */
const writable = (ctx: ManageContext, name: string, suffix = ""): Effect.Effect<Found, SkillNotFound | SkillInvalid | SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const found = yield* findByDirName(name, ctx.settings.roots)
    if (found === undefined || found.dir === null) return yield* new SkillNotFound({ name, message: notFoundMessage(name, suffix) })
    if (found.root.kind === "external") {
      return yield* invalid(
        `Skill '${name}' lives in skills.external_dirs (${found.root.path}), which is read-only here. ` +
          `Copy its folder into ${ctx.settings.local} to change it there.`
      )
    }
    return { dir: found.dir, root: found.root }
  })

/** `skill_dir/file_path`, refused when it resolves outside the skill folder. */
const target = (skillDir: string, filePath: string): Effect.Effect<string, SkillInvalid | SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const joined = path.isAbsolute(filePath) ? filePath : path.join(skillDir, filePath)
    const escape = yield* fileOps.escapesDir(joined, skillDir)
    if (escape !== undefined) return yield* invalid(escape)
    return joined
  })

const descriptionOf = (content: string): string => {
  const close = /\n---\s*\n/.exec(content.slice(3))
  if (close === null) return ""
  try {
    const parsed = loadYaml(content.slice(3, close.index + 3)) as Record<string, unknown> | null
    return parsed === null || typeof parsed !== "object" ? "" : pyStr(parsed["description"] ?? "").slice(0, 120)
  } catch {
    return ""
  }
}

/** Run the guard over what was just written; undo with `rollback` when it refuses. */
const guarded = (ctx: ManageContext, skillDir: string, name: string, rollback: Effect.Effect<void, SkillsIoError, Disk>) =>
  Effect.gen(function*() {
    const refusal = yield* ctx.scanWritten(skillDir, name)
    if (refusal === undefined) return
    yield* rollback
    return yield* new SkillBlocked({ message: refusal, report: refusal })
  })

export const createSkill = (ctx: ManageContext, request: CreateSkill): Effect.Effect<SkillChange & { readonly description: string }, SkillWriteError, Disk> =>
  Effect.gen(function*() {
    const { name, content } = request
    yield* check(validateName(name))
    yield* check(validateCategory(request.category))
    yield* check(validateFrontmatter(content))
    yield* check(validateContentSize(content))
    const existing = yield* findByDirName(name, ctx.settings.roots)
    if (existing !== undefined && existing.dir !== null) return yield* invalid(`A skill named '${name}' already exists at ${existing.dir}.`)
    const category = request.category === undefined ? "" : pyStrip(request.category)
    const skillDir = category.length > 0 ? path.join(ctx.settings.local, category, name) : path.join(ctx.settings.local, name)
    const skillMd = path.join(skillDir, "SKILL.md")
    yield* fileOps.makeDir(skillDir)
    yield* fileOps.writeAtomic(skillMd, content)
    yield* guarded(ctx, skillDir, name, fileOps.remove(skillDir))
    return {
      message: `Skill '${name}' created.`,
      path: path.relative(ctx.settings.local, skillDir).split(path.sep).join("/"),
      skillMd,
      ...(category.length > 0 ? { category } : {}),
      description: descriptionOf(content)
    }
  })

export const editSkill = (ctx: ManageContext, name: string, content: string): Effect.Effect<SkillChange, SkillWriteError, Disk> =>
  Effect.gen(function*() {
    yield* check(validateFrontmatter(content))
    yield* check(validateContentSize(content))
    const found = yield* writable(ctx, name)
    const skillMd = path.join(found.dir, "SKILL.md")
    const original = (yield* fileOps.exists(skillMd)) ? yield* fileOps.readText(skillMd) : undefined
    yield* fileOps.writeAtomic(skillMd, content)
    yield* guarded(ctx, found.dir, name, original === undefined ? Effect.void : fileOps.writeAtomic(skillMd, original))
    return { message: `Skill '${name}' updated (full rewrite).`, path: found.dir }
  })

export const patchSkill = (ctx: ManageContext, request: PatchSkill): Effect.Effect<SkillChange, SkillWriteError, Disk> =>
  Effect.gen(function*() {
    const { name, oldString, newString } = request
    if (oldString.length === 0) return yield* invalid("old_string is required for 'patch'.")
    const found = yield* writable(ctx, name)
    const filePath = request.filePath !== undefined && request.filePath.length > 0 ? request.filePath : undefined
    let file = path.join(found.dir, "SKILL.md")
    if (filePath !== undefined) {
      yield* check(validateFilePath(filePath))
      file = yield* target(found.dir, filePath)
    }
    if (!(yield* fileOps.isFile(file))) return yield* invalid(`File not found: ${path.relative(found.dir, file)}`)
    const content = yield* fileOps.readText(file)
    const outcome = fuzzyReplace(content, oldString, newString, request.replaceAll === true)
    if (outcome.error !== undefined) {
      return yield* invalid(outcome.error + noMatchHint(outcome.error, oldString, content), {
        file_preview: content.length > 500 ? `${content.slice(0, 500)}...` : content
      })
    }
    const label = filePath ?? "SKILL.md"
    yield* check(validateContentSize(outcome.content, label))
    if (filePath === undefined) {
      const broken = validateFrontmatter(outcome.content)
      if (broken !== undefined) return yield* invalid(`Patch would break SKILL.md structure: ${broken}`)
    }
    yield* fileOps.writeAtomic(file, outcome.content)
    yield* guarded(ctx, found.dir, name, fileOps.writeAtomic(file, content))
    return {
      message: `Patched ${label} in skill '${name}' (${outcome.count} replacement${outcome.count > 1 ? "s" : ""}).`,
      replacements: outcome.count
    }
  })

/** Never recursively delete a link, a root, or anything not strictly inside a root. */
export const deleteTargetError = (skillDir: string, roots: ReadonlyArray<SkillRoot>): Effect.Effect<string | undefined, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const info = yield* fileOps.lstat(skillDir)
    if (info?.isSymbolicLink() === true) {
      return `Refusing to delete '${skillDir}': the skill directory is a symlink/junction. Remove the link target manually if intended.`
    }
    const resolved = yield* fileOps.resolveLoosely(skillDir)
    for (const root of roots) {
      const base = yield* fileOps.resolveLoosely(root.path)
      if (resolved === base) return `Refusing to delete '${skillDir}': resolves to the skills root itself, which would remove every installed skill.`
      if (fileOps.isInside(resolved, base)) return undefined
    }
    return `Refusing to delete '${skillDir}': path does not resolve inside any known skills root.`
  })

/** Remove a skill folder and its category folder when that is left empty. */
export const removeSkillDir = (skillDir: string, root: SkillRoot): Effect.Effect<void, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    yield* fileOps.remove(skillDir)
    const parent = path.dirname(skillDir)
    if (parent !== root.path) yield* fileOps.removeEmptyDir(parent)
  })

export const deleteSkill = (ctx: ManageContext, name: string, absorbedInto?: string): Effect.Effect<SkillChange, SkillWriteError, Disk> =>
  Effect.gen(function*() {
    const found = yield* writable(ctx, name)
    const umbrella = absorbedInto === undefined ? "" : absorbedInto.trim()
    if (umbrella.length > 0) {
      if (umbrella === name) return yield* invalid(`absorbed_into='${umbrella}' cannot equal the skill being deleted.`)
      if ((yield* findByDirName(umbrella, ctx.settings.roots)) === undefined) {
        return yield* invalid(`absorbed_into='${umbrella}' does not exist. Create or patch the umbrella skill first, then retry the delete.`)
      }
    }
    const unsafe = yield* deleteTargetError(found.dir, ctx.settings.roots)
    if (unsafe !== undefined) return yield* invalid(unsafe)
    yield* removeSkillDir(found.dir, found.root)
    return { message: `Skill '${name}' deleted.${umbrella.length > 0 ? ` Content absorbed into '${umbrella}'.` : ""}` }
  })

export const writeSkillFile = (ctx: ManageContext, name: string, filePath: string, content: string): Effect.Effect<SkillChange, SkillWriteError, Disk> =>
  Effect.gen(function*() {
    yield* check(validateFilePath(filePath))
    const bytes = Buffer.byteLength(content, "utf8")
    if (bytes > MAX_SKILL_FILE_BYTES) {
      return yield* invalid(`File content is ${thousands(bytes)} bytes (limit: ${thousands(MAX_SKILL_FILE_BYTES)} bytes / 1 MiB). Consider splitting into smaller files.`)
    }
    yield* check(validateContentSize(content, filePath))
    const found = yield* writable(ctx, name, " Create it first with action='create'.")
    const file = yield* target(found.dir, filePath)
    const before = yield* fileOps.lstat(file)
    if (before?.isDirectory() === true) return yield* invalid(`'${filePath}' is a directory in skill '${name}'.`)
    const original = before?.isFile() === true ? yield* fileOps.readText(file) : undefined
    // A link at the path is replaced by the file (the rename swaps the link itself), never written through.
    yield* fileOps.writeAtomic(file, content)
    yield* guarded(ctx, found.dir, name, original === undefined ? fileOps.remove(file) : fileOps.writeAtomic(file, original))
    return { message: `File '${filePath}' written to skill '${name}'.`, path: file }
  })

const listSupportFiles = (skillDir: string): Effect.Effect<ReadonlyArray<string>, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const visit = (dir: string): Effect.Effect<void, SkillsIoError, Disk> =>
      Effect.gen(function*() {
        for (const entry of yield* fileOps.readDir(dir)) {
          const abs = path.join(dir, entry.name)
          if (entry.isDirectory()) yield* visit(abs)
          else out.push(path.relative(skillDir, abs).split(path.sep).join("/"))
        }
      })
    for (const sub of SUPPORT_DIRS) yield* visit(path.join(skillDir, sub))
    return out.sort()
  })

export const removeSkillFile = (ctx: ManageContext, name: string, filePath: string): Effect.Effect<SkillChange, SkillWriteError | SkillFileNotFound, Disk> =>
  Effect.gen(function*() {
    yield* check(validateFilePath(filePath))
    const found = yield* writable(ctx, name)
    const file = yield* target(found.dir, filePath)
    const info = yield* fileOps.lstat(file)
    if (info === undefined || info.isDirectory()) {
      const available = yield* listSupportFiles(found.dir)
      return yield* new SkillFileNotFound({
        name,
        file: filePath,
        message: `File '${filePath}' not found in skill '${name}'.`,
        available: available.length === 0 ? null : available
      })
    }
    yield* fileOps.removeFile(file)
    const parent = path.dirname(file)
    if (parent !== found.dir) yield* fileOps.removeEmptyDir(parent)
    return { message: `File '${filePath}' removed from skill '${name}'.` }
  })
