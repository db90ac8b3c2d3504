/**
 * `skills install <dir|tar.gz>`: stage the skill in a temp folder (an
 * archive unpacked by our own reader), validate it like skill_manage would,
 * scan it with the guard under the trust its source earns, and only then
 * copy it into the local skills dir. What was installed, from where, with
 * which verdict, is recorded in `<skills>/.hub/installed.json` (a folder the
 * file tools refuse to read, and skill scans skip).
 */
import { tmpdir } from "node:os"
import * as path from "node:path"
import { Clock, Effect } from "effect"
import { SkillBlocked, SkillInvalid } from "../../services/Skills.js"
import type { InstallOptions, InstallReport, SkillsIoError, SkillWriteError, TrustLevel, Verdict } from "../../services/Skills.js"
import { parseFrontmatter } from "./frontmatter.js"
import * as fileOps from "./fileOps.js"
import { decide, formatReport, resolveTrust } from "./guard/policy.js"
import { scanSkill } from "./guard/scan.js"
import { findByDirName } from "./lookup.js"
import { pyStrip } from "./pythonStrings.js"
import type { SkillsSettings } from "./settings.js"
import { MAX_UNPACKED_BYTES, readTar, unpack } from "./tarball.js"
import { validateCategory, validateFrontmatter, validateName } from "./validate.js"
import type { Disk } from "./fileOps.js"

export interface InstalledRecord {
  readonly source: string
  readonly trust: TrustLevel
  readonly verdict: Verdict
  /** Relative to the local skills dir. */
  readonly path: string
  readonly installedAt: string
  readonly forced: boolean
}

export const installedFile = (skillsDir: string) => path.join(skillsDir, ".hub", "installed.json")

export const readInstalled = (skillsDir: string): Effect.Effect<Record<string, InstalledRecord>, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const file = installedFile(skillsDir)
    if (!(yield* fileOps.exists(file))) return {}
    try {
      const parsed: unknown = JSON.parse(yield* fileOps.readText(file))
      return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, InstalledRecord>) : {}
    } catch {
      return {}
    }
  })

export const writeInstalled = (skillsDir: string, records: Record<string, InstalledRecord>) =>
  fileOps.writeAtomic(installedFile(skillsDir), `${JSON.stringify(records, null, 2)}\n`)

const invalid = (message: string) => new SkillInvalid({ message })

/** The folder holding SKILL.md: the staged root itself, or its single sub-folder that has one. */
const skillFolder = (staged: string, shown: string): Effect.Effect<string, SkillInvalid | SkillsIoError, Disk> =>
  Effect.gen(function*() {
    if (yield* fileOps.isFile(path.join(staged, "SKILL.md"))) return staged
    const dirs: Array<string> = []
    for (const entry of yield* fileOps.readDir(staged)) {
      const sub = path.join(staged, entry.name)
      if (entry.isDirectory() && (yield* fileOps.isFile(path.join(sub, "SKILL.md")))) dirs.push(sub)
    }
    if (dirs.length === 1) return dirs[0] as string
    if (dirs.length > 1) return yield* invalid(`${shown} holds ${dirs.length} skills (${dirs.map((d) => path.basename(d)).join(", ")}); install them one at a time.`)
    return yield* invalid(`No SKILL.md in ${shown} (looked at the top and one folder down).`)
  })

/** Copy or unpack `source` into a fresh folder under `staging`. */
const stage = (source: string, staging: string): Effect.Effect<string, SkillInvalid | SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const info = yield* fileOps.stat(source)
    if (info === undefined) return yield* invalid(`No such file or directory: ${source}`)
    const into = path.join(staging, "content")
    if (info.type === "Directory") {
      yield* fileOps.copyTree(source, into)
      return into
    }
    if (Number(info.size) > MAX_UNPACKED_BYTES) return yield* invalid(`${source} is larger than ${MAX_UNPACKED_BYTES / (1024 * 1024)} MiB`)
    const entries = yield* readTar(yield* fileOps.readBytes(source))
    yield* fileOps.makeDir(into)
    yield* unpack(entries, into)
    return into
  })

export interface InstallContext {
  readonly settings: SkillsSettings
  /** Names (folder and frontmatter) of every skill already present. */
  readonly existingNames: Effect.Effect<ReadonlyMap<string, string>, SkillsIoError, Disk>
}

export const installSkill = (ctx: InstallContext, source: string, options: InstallOptions = {}): Effect.Effect<InstallReport, SkillWriteError, Disk> =>
  Effect.scoped(Effect.gen(function*() {
    const absolute = path.resolve(source)
    const staging = yield* Effect.acquireRelease(fileOps.makeTempDir(tmpdir(), "hermes-skill-install-"), (dir) => Effect.ignore(fileOps.remove(dir)))
    const staged = yield* stage(absolute, staging)
    const folder = yield* skillFolder(staged, source)
    const content = yield* fileOps.readText(path.join(folder, "SKILL.md"))
    const broken = validateFrontmatter(content)
    if (broken !== undefined) return yield* invalid(`Not a valid skill (${source}): ${broken}`)
    const declared = parseFrontmatter(content).frontmatter["name"]
    const fallback = folder === staged ? path.basename(absolute).replace(/\.(?:tar\.gz|tgz|tar)$/i, "") : path.basename(folder)
    const name = typeof declared === "string" && validateName(declared) === undefined ? declared : fallback
    const nameError = validateName(name)
    if (nameError !== undefined) return yield* invalid(nameError)
    const categoryError = validateCategory(options.category)
    if (categoryError !== undefined) return yield* invalid(categoryError)
    const existing = (yield* ctx.existingNames).get(name) ?? (yield* findByDirName(name, ctx.settings.roots))?.dir ?? undefined
    if (existing !== undefined) return yield* invalid(`A skill named '${name}' already exists at ${existing}. Uninstall it first.`)

    const sourceId = options.source ?? absolute
    const trust = resolveTrust(sourceId, ctx.settings.trustedSources)
    const scan = yield* scanSkill(folder, { skill: name, source: sourceId, trust })
    const decision = decide(scan, options.force === true)
    if (decision.allowed !== true) {
      return yield* new SkillBlocked({ message: `Installation of '${name}' refused: ${decision.reason}`, report: formatReport(scan, decision) })
    }

    const category = options.category === undefined ? "" : pyStrip(options.category)
    const dest = category.length > 0 ? path.join(ctx.settings.local, category, name) : path.join(ctx.settings.local, name)
    const partial = `${dest}.installing-${process.pid}`
    yield* fileOps.makeDir(path.dirname(dest))
    yield* fileOps.remove(partial)
    yield* Effect.onError(fileOps.copyTree(folder, partial), () => Effect.ignore(fileOps.remove(partial)))
    yield* Effect.onError(fileOps.rename(partial, dest), () => Effect.ignore(fileOps.remove(partial)))
    const records = yield* readInstalled(ctx.settings.local)
    const now = yield* Clock.currentTimeMillis
    records[name] = {
      source: sourceId,
      trust,
      verdict: scan.verdict,
      path: path.relative(ctx.settings.local, dest).split(path.sep).join("/"),
      installedAt: new Date(now).toISOString(),
      forced: decision.policy !== "allow"
    }
    yield* writeInstalled(ctx.settings.local, records)
    return { name, path: dest, scan, decision }
  }))
