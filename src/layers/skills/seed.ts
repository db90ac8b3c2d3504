/**
 * Seeding the bundled skills into the local skills dir, tracked so an
 * update never writes over a skill the user changed.
 *
 * `<skills>/.bundled_manifest` holds `name:hash` lines (Hermes' format): the
 * content hash of the bundled version each skill was last seeded from.
 *
 * - not in the manifest: copy it (a same-named skill already there is kept,
 *   and adopted only when it is byte-identical);
 * - in the manifest, gone from disk: the user deleted it — not brought back;
 * - bundled version unchanged: nothing to do;
 * - bundled version changed: replaced only when the copy on disk still
 *   hashes to the recorded origin, i.e. nobody edited it; otherwise the
 *   user's version stays and is reported as user-modified.
 *
 * A replacement is written beside the old folder and swapped in with renames.
 */
import { createHash } from "node:crypto"
import * as path from "node:path"
import { Effect } from "effect"
import type { SeedReport, SkillsIoError } from "../../services/Skills.js"
import type { BundledSkill } from "./bundled/types.js"
import * as fileOps from "./fileOps.js"
import type { Disk } from "./fileOps.js"

export const MANIFEST_FILE = ".bundled_manifest"

/** Caches a run leaves behind; they do not make a skill "modified". */
const RUNTIME_CACHES = new Set(["__pycache__", ".pytest_cache", "node_modules", ".venv"])

interface HashInput {
  readonly rel: string
  readonly data: Uint8Array
}

const hashFiles = (files: ReadonlyArray<HashInput>): string => {
  const hash = createHash("sha256")
  for (const f of [...files].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) {
    hash.update(`${f.rel}\0${f.data.length}\0`)
    hash.update(f.data)
  }
  return hash.digest("hex").slice(0, 32)
}

export const bundledHash = (skill: BundledSkill): string =>
  hashFiles(Object.entries(skill.files).map(([rel, text]) => ({ rel, data: Buffer.from(text, "utf8") })))

/** The same hash over a folder on disk (symlinks hashed by their target text). */
export const dirHash = (dir: string): Effect.Effect<string, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const files: Array<HashInput> = []
    const visit = (current: string): Effect.Effect<void, SkillsIoError, Disk> =>
      Effect.gen(function*() {
        for (const entry of yield* fileOps.readDir(current)) {
          const abs = path.join(current, entry.name)
          const rel = path.relative(dir, abs).split(path.sep).join("/")
          if (entry.isDirectory()) {
            if (!RUNTIME_CACHES.has(entry.name)) yield* visit(abs)
          } else if (entry.isSymbolicLink()) {
            files.push({ rel, data: Buffer.from(`symlink:${(yield* fileOps.readLink(abs)) ?? ""}`) })
          } else if (entry.isFile()) {
            files.push({ rel, data: yield* fileOps.readBytes(abs) })
          }
        }
      })
    yield* visit(dir)
    return hashFiles(files)
  })

export const readManifest = (skillsDir: string): Effect.Effect<Map<string, string>, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const file = path.join(skillsDir, MANIFEST_FILE)
    if (!(yield* fileOps.exists(file))) return new Map()
    const out = new Map<string, string>()
    for (const raw of (yield* fileOps.readText(file)).split("\n")) {
      const line = raw.trim()
      if (line.length === 0) continue
      const colon = line.indexOf(":")
      // Hermes' v1 manifests list bare names: an empty hash, migrated on the next seed.
      if (colon < 0) out.set(line, "")
      else out.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
    }
    return out
  })

const writeManifest = (skillsDir: string, entries: ReadonlyMap<string, string>) =>
  fileOps.writeAtomic(
    path.join(skillsDir, MANIFEST_FILE),
    [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, h]) => `${n}:${h}\n`).join("")
  )

/** Write a bundled skill into a fresh folder `dest` (which must not exist). */
export const materialize = (skill: BundledSkill, dest: string): Effect.Effect<void, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    yield* fileOps.makeDir(dest)
    const executable = new Set(skill.executable ?? [])
    for (const [rel, text] of Object.entries(skill.files)) {
      yield* fileOps.writeAtomic(path.join(dest, ...rel.split("/")), text, executable.has(rel) ? 0o755 : 0o644)
    }
  })

const destination = (skillsDir: string, skill: BundledSkill) =>
  skill.category === undefined ? path.join(skillsDir, skill.name) : path.join(skillsDir, skill.category, skill.name)

/** Swap `dest` for a fresh copy of the bundled skill; the old folder is restored if writing fails. */
const replace = (skill: BundledSkill, dest: string): Effect.Effect<void, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const staging = `${dest}.new-${process.pid}`
    const backup = `${dest}.bak-${process.pid}`
    yield* fileOps.remove(staging)
    yield* Effect.onError(materialize(skill, staging), () => Effect.ignore(fileOps.remove(staging)))
    yield* fileOps.rename(dest, backup)
    yield* Effect.onError(fileOps.rename(staging, dest), () => Effect.ignore(fileOps.rename(backup, dest)))
    yield* Effect.ignore(fileOps.remove(backup))
  })

/**
 * Seed `bundled` into `skillsDir`. `skip` names skills provided elsewhere
 * (an external dir): a local copy would only collide with them.
 */
export const seedBundled = (
  skillsDir: string,
  bundled: ReadonlyArray<BundledSkill>,
  skip: ReadonlySet<string> = new Set()
): Effect.Effect<SeedReport, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    yield* fileOps.makeDir(skillsDir)
    const manifest = yield* readManifest(skillsDir)
    const before = new Map(manifest)
    const report = { copied: [] as Array<string>, updated: [] as Array<string>, userModified: [] as Array<string>, userDeleted: [] as Array<string>, unchanged: [] as Array<string> }
    for (const skill of bundled) {
      if (skip.has(skill.name)) continue
      const dest = destination(skillsDir, skill)
      const hash = bundledHash(skill)
      const origin = manifest.get(skill.name)
      const present = yield* fileOps.exists(dest)
      if (origin === undefined) {
        if (!present) {
          yield* materialize(skill, dest)
          manifest.set(skill.name, hash)
          report.copied.push(skill.name)
        } else if ((yield* dirHash(dest)) === hash) {
          manifest.set(skill.name, hash)
          report.unchanged.push(skill.name)
        } else {
          report.userModified.push(skill.name)
        }
        continue
      }
      if (!present) {
        report.userDeleted.push(skill.name)
        continue
      }
      if (origin === hash) {
        report.unchanged.push(skill.name)
        continue
      }
      const current = yield* dirHash(dest)
      if (current === hash) {
        manifest.set(skill.name, hash) // already the new version (or a v1 entry being migrated)
        report.unchanged.push(skill.name)
      } else if (origin !== "" && current === origin) {
        yield* replace(skill, dest)
        manifest.set(skill.name, hash)
        report.updated.push(skill.name)
      } else {
        report.userModified.push(skill.name)
      }
    }
    const changed = manifest.size !== before.size || [...manifest].some(([k, v]) => before.get(k) !== v)
    if (changed) yield* writeManifest(skillsDir, manifest)
    return report
  })
