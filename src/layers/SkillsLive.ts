/**
 * Skills on the home's skills dir plus `skills.external_dirs` (read-only).
 *
 * - The bundled skills are seeded on first use (not at startup, so commands
 *   that never touch skills pay nothing), tracked by content hash.
 * - skills_list is served from a cache keyed by the roots' and their
 *   sub-folders' mtimes and the config revision, at most 30 s old (an edit
 *   inside a SKILL.md changes no folder mtime); our own writes clear it.
 * - Writes (skill_manage, install, uninstall) are serialised.
 */
import * as path from "node:path"
import { Clock, Effect, Layer, Ref } from "effect"
import { Config } from "../services/Config.js"
import {
  SkillInvalid,
  SkillNotFound,
  Skills,
  SkillUnsupported
} from "../services/Skills.js"
import type {
  AuditEntry,
  ScanResult,
  SkillListing,
  SkillRoot,
  SkillView
} from "../services/Skills.js"
import { BUNDLED_SKILLS } from "./skills/bundled/index.js"
import type { BundledSkill } from "./skills/bundled/index.js"
import { indexRoots, indexSkills, listingOf, sortSkills } from "./skills/catalog.js"
import type { HeadMemo, RootIndex } from "./skills/catalog.js"
import { parseFrontmatter } from "./skills/frontmatter.js"
import * as fileOps from "./skills/fileOps.js"
import type { Disk } from "./skills/fileOps.js"
import { decide, formatReport, resolveTrust, summaryOf, verdictOf } from "./skills/guard/policy.js"
import { scanSkill, scanText } from "./skills/guard/scan.js"
import { installSkill, readInstalled, writeInstalled } from "./skills/install.js"
import { ambiguous, candidates, findByDirName, notFound } from "./skills/lookup.js"
import type { Located } from "./skills/lookup.js"
import {
  createSkill,
  deleteSkill,
  deleteTargetError,
  editSkill,
  notFoundMessage,
  patchSkill,
  removeSkillDir,
  removeSkillFile,
  writeSkillFile
} from "./skills/manage.js"
import type { ManageContext } from "./skills/manage.js"
import { matchesPlatform } from "./skills/platformMatch.js"
import { dirHash, readManifest, seedBundled } from "./skills/seed.js"
import { skillsSettings } from "./skills/settings.js"
import type { SkillsSettings } from "./skills/settings.js"
import { LOOKUP_HINT, lookupNameError } from "./skills/validate.js"
import { skillDocument, skillFile } from "./skills/skillViews.js"
import { rootsSignature } from "./skills/walk.js"

export interface SkillsOptions {
  /** The skills shipped with the package (default: ours); tests pass their own to simulate updates. */
  readonly bundled?: ReadonlyArray<BundledSkill>
  /** How long a skills_list answer may be served from the cache (default 30 s). */
  readonly listTtlMillis?: number
  /** Whether commands exist (default: an executable of that name on PATH). */
  readonly hasCommand?: (name: string) => boolean
}

interface CachedIndex {
  readonly key: string
  readonly at: number
  readonly indexes: ReadonlyArray<RootIndex>
}

const NAMESPACE = /^[a-zA-Z0-9_-]+$/

/** Phrases skill_view warns about in a skill it loads. */
const INJECTION_PHRASES = [
  "ignore previous instructions", "ignore all previous", "you are now", "disregard your", "forget your instructions",
  "new instructions:", "system prompt:", "<system>", "]]>"
]

const invalid = (message: string, details?: Record<string, unknown>) =>
  details === undefined ? new SkillInvalid({ message }) : new SkillInvalid({ message, details })

export const makeSkillsLive = (options: SkillsOptions = {}): Layer.Layer<Skills, never, Config | Disk> =>
  Layer.effect(
    Skills,
    Effect.gen(function*() {
      const config = yield* Config
      // The platform's FileSystem and Path, captured once: every method runs on them.
      const disk = yield* Effect.context<Disk>()
      const onDisk = <A, E>(effect: Effect.Effect<A, E, Disk>): Effect.Effect<A, E> => Effect.provide(effect, disk)
      const bundled = options.bundled ?? BUNDLED_SKILLS
      const ttl = options.listTtlMillis ?? 30_000
      const writes = yield* Effect.makeSemaphore(1)
      const cache = yield* Ref.make<CachedIndex | undefined>(undefined)
      const heads: HeadMemo = new Map()
      const settingsRef = yield* Ref.make<{ readonly revision: number; readonly settings: SkillsSettings } | undefined>(undefined)

      const settings: Effect.Effect<SkillsSettings> = Effect.gen(function*() {
        const revision = yield* config.revision
        const known = yield* Ref.get(settingsRef)
        if (known !== undefined && known.revision === revision) return known.settings
        const fresh = skillsSettings(yield* config.current, config.home)
        yield* Ref.set(settingsRef, { revision, settings: fresh })
        return fresh
      })

      const invalidate = Ref.set(cache, undefined)

      const runSeed = Effect.gen(function*() {
        const s = yield* settings
        // A bundled skill an external dir already provides would only collide with it.
        const external = new Set<string>()
        for (const root of s.roots) {
          if (root.kind !== "external") continue
          for (const skill of yield* indexSkills([root], new Set())) external.add(skill.name)
        }
        const report = yield* seedBundled(s.local, bundled, external)
        yield* invalidate
        return report
      })

      // Once per runtime, on first use; a failure is logged and the skills dir used as it is. Checked by a flag, not
      // `Effect.cached` (a lock and a fiber-ref diff on every read): every session's system prompt lists the skills.
      let seeded = false
      const seedLock = yield* Effect.makeSemaphore(1)
      const seed = Effect.gen(function*() {
        const s = yield* settings
        if (!s.seedBundled || bundled.length === 0) return yield* fileOps.makeDir(s.local)
        yield* writes.withPermits(1)(runSeed)
      }).pipe(
        Effect.catchAll((e) => Effect.logWarning(`skills: seeding the bundled skills failed: ${e.message}`)),
        Effect.asVoid
      )
      const seededOnce = Effect.suspend(() =>
        seeded ? Effect.void : seedLock.withPermits(1)(Effect.suspend(() => seeded ? Effect.void : Effect.zipRight(seed, Effect.sync(() => void (seeded = true)))))
      )

      /** Every root's skills with their parsed heads: cached, or rebuilt when stale (or when `fresh`). */
      const indexes = (fresh: boolean) =>
        Effect.gen(function*() {
          yield* seededOnce
          const s = yield* settings
          const revision = yield* config.revision
          const key = `${revision}|${yield* rootsSignature(s.roots.map((r) => r.path))}`
          const now = yield* Clock.currentTimeMillis
          const cached = yield* Ref.get(cache)
          if (!fresh && cached !== undefined && cached.key === key && now - cached.at < ttl) return { indexes: cached.indexes, cached: true }
          const built = yield* indexRoots(s.roots, heads)
          // Keyed by the signature taken before the scan: a write racing it changes the key, so the next call rescans.
          yield* Ref.set(cache, { key, at: now, indexes: built })
          return { indexes: built, cached: false }
        })

      const index = Effect.gen(function*() {
        const s = yield* settings
        return listingOf((yield* indexes(false)).indexes, s.disabled)
      })

      /**
       * Listings by the index they were made from (a new one after any change), the disabled set and the category:
       * every session's system prompt asks for the same one, and making it summarises and sorts every skill.
       */
      const listings = new WeakMap<ReadonlyArray<RootIndex>, { readonly disabled: ReadonlySet<string>; readonly byCategory: Map<string, SkillListing> }>()
      const listingFor = (built: ReadonlyArray<RootIndex>, disabled: ReadonlySet<string>, category: string): SkillListing => {
        let memo = listings.get(built)
        if (memo === undefined || memo.disabled !== disabled) listings.set(built, memo = { disabled, byCategory: new Map() })
        const hit = memo.byCategory.get(category)
        if (hit !== undefined) return hit
        const all = listingOf(built, disabled)
        const picked = sortSkills(category.length === 0 ? all : all.filter((s) => s.category === category))
        const result: SkillListing = {
          skills: picked.map((s) => ({ name: s.name, description: s.description, category: s.category })),
          categories: [...new Set(picked.flatMap((s) => (s.category === null ? [] : [s.category])))].sort(),
          total: all.length
        }
        memo.byCategory.set(category, result)
        return result
      }

      const list = Effect.fn("Skills.list")(function*(opts?: { readonly category?: string | undefined }) {
        const s = yield* settings
        return listingFor((yield* indexes(false)).indexes, s.disabled, opts?.category ?? "")
      })

      /** The one skill `name` means for skill_view. */
      const locate = (name: string) =>
        Effect.gen(function*() {
          const lookupError = lookupNameError(name)
          if (lookupError !== undefined) return yield* invalid(lookupError, { hint: LOOKUP_HINT })
          let categoryForm: string | undefined
          if (name.includes(":")) {
            // No plugin provides skills here: `ns:skill` falls through to the on-disk `ns/skill` form.
            const at = name.indexOf(":")
            const namespace = name.slice(0, at)
            const bare = name.slice(at + 1)
            if (!NAMESPACE.test(namespace)) return yield* invalid(`Invalid namespace '${namespace}' in '${name}'. Namespaces must match [a-zA-Z0-9_-]+.`)
            if (bare.length > 0) categoryForm = `${namespace}/${bare}`
            const formError = categoryForm === undefined ? undefined : lookupNameError(categoryForm)
            if (formError !== undefined) return yield* invalid(formError, { hint: LOOKUP_HINT })
          }
          let current = yield* indexes(false)
          let found = yield* candidates(name, categoryForm, current.indexes)
          // A skill added deep in a category since the index was cached changes no folder it watches: look again before saying no.
          if (found.length === 0 && current.cached) {
            current = yield* indexes(true)
            found = yield* candidates(name, categoryForm, current.indexes)
          }
          if (found.length > 1) return yield* ambiguous(name, found)
          const hit = found[0]
          if (hit === undefined) {
            const available = sortSkills(yield* index).slice(0, 20).map((x) => x.name)
            return yield* notFound(name, available)
          }
          return hit
        })

      const view = Effect.fn("Skills.view")(function*(name: string, filePath?: string | undefined) {
        const hit = yield* locate(name)
        const s = yield* settings
        const content = yield* fileOps.readText(hit.skillMd)
        const lowered = content.toLowerCase()
        if (INJECTION_PHRASES.some((p) => lowered.includes(p))) {
          // Hermes' behaviour: loading is not refused (the guard decides at install), but the operator hears of it.
          yield* Effect.logWarning(`skills: '${name}' (${hit.skillMd}) contains text that reads like prompt injection; run \`hermes-effect skills audit ${name}\``)
        }
        const { frontmatter } = parseFrontmatter(content)
        if (!matchesPlatform(frontmatter)) {
          return yield* new SkillUnsupported({ name, message: `Skill '${name}' is not supported on this platform.` })
        }
        const resolvedName = frontmatter["name"] === undefined ? path.basename(path.dirname(hit.skillMd)) : String(frontmatter["name"])
        if (s.disabled.has(resolvedName)) {
          return yield* invalid(`Skill '${resolvedName}' is disabled. Remove it from skills.disabled in config.yaml, or inspect the files directly on disk.`)
        }
        if (filePath !== undefined && filePath.length > 0 && hit.dir !== null) {
          const file = yield* skillFile(hit.dir, filePath, name)
          const served: SkillView = { _tag: "File", ...file }
          return served
        }
        const document = yield* skillDocument(
          { dir: hit.dir, skillMd: hit.skillMd, root: hit.root, localRoot: s.local, content, frontmatter },
          { homeRoot: s.home.root, ...(options.hasCommand === undefined ? {} : { hasCommand: options.hasCommand }) }
        )
        const served: SkillView = { _tag: "Document", ...document }
        return served
      })

      // ---------------------------------------------------------------- writes

      const scanWritten = (skillDir: string, name: string) =>
        Effect.gen(function*() {
          const s = yield* settings
          if (!s.guardAgentCreated) return undefined
          const scan = yield* scanSkill(skillDir, { skill: name, source: "agent-created", trust: "agent-created" })
          const decision = decide(scan)
          return decision.allowed === true ? undefined : `Security scan blocked this skill (${decision.reason}):\n${formatReport(scan, decision)}`
        })

      const manage = <A, E>(run: (ctx: ManageContext) => Effect.Effect<A, E, Disk>) =>
        Effect.gen(function*() {
          yield* seededOnce
          const ctx: ManageContext = { settings: yield* settings, scanWritten }
          return yield* writes.withPermits(1)(Effect.ensuring(run(ctx), invalidate))
        })

      const existingNames = Effect.gen(function*() {
        const s = yield* settings
        const names = new Map<string, string>()
        for (const skill of yield* indexSkills(s.roots, new Set())) names.set(skill.name, path.dirname(skill.skillMd))
        return names as ReadonlyMap<string, string>
      })

      // ---------------------------------------------------------------- audit

      const auditOne = (located: Located, label: string) =>
        Effect.gen(function*() {
          const s = yield* settings
          const manifest = yield* readManifest(s.local)
          const installed = yield* readInstalled(s.local)
          const dirName = located.dir === null ? label : path.basename(located.dir)
          let origin: AuditEntry["origin"] = "local"
          let trust: ScanResult["trust"] = "agent-created"
          let source = "local"
          if (located.root.kind === "external") {
            origin = "external"
            source = located.root.path
            trust = resolveTrust(located.root.path, s.trustedSources)
          } else if (installed[dirName] !== undefined) {
            origin = "installed"
            source = installed[dirName].source
            trust = installed[dirName].trust
          } else if (located.dir !== null && manifest.has(dirName) && manifest.get(dirName) === (yield* dirHash(located.dir))) {
            origin = "bundled"
            source = "official"
            trust = "builtin"
          }
          let scan: ScanResult
          if (located.dir !== null) {
            scan = yield* scanSkill(located.dir, { skill: label, source, trust })
          } else {
            const findings = scanText(path.basename(located.skillMd), yield* fileOps.readText(located.skillMd))
            const verdict = verdictOf(findings)
            scan = { skill: label, source, trust, verdict, findings, summary: summaryOf(label, verdict, findings) }
          }
          const entry: AuditEntry = { name: label, path: located.dir ?? located.skillMd, origin, scan, decision: decide(scan) }
          return entry
        })

      const audit = Effect.fn("Skills.audit")(function*(name?: string | undefined) {
        if (name !== undefined && name.length > 0) {
          const hit = yield* locate(name)
          return [yield* auditOne(hit, name)]
        }
        const s = yield* settings
        yield* seededOnce
        const all = sortSkills(yield* indexSkills(s.roots, new Set()))
        return yield* Effect.forEach(all, (skill) =>
          auditOne({ dir: path.dirname(skill.skillMd), skillMd: skill.skillMd, root: skill.root }, skill.name))
      })

      const uninstall = Effect.fn("Skills.uninstall")(function*(name: string) {
        return yield* manage((ctx) =>
          Effect.gen(function*() {
            const found = yield* findByDirName(name, ctx.settings.roots)
            if (found === undefined || found.dir === null) return yield* new SkillNotFound({ name, message: notFoundMessage(name) })
            if (found.root.kind === "external") {
              return yield* invalid(`Skill '${name}' lives in skills.external_dirs (${found.root.path}); remove it there, or drop that folder from the config.`)
            }
            const unsafe = yield* deleteTargetError(found.dir, ctx.settings.roots)
            if (unsafe !== undefined) return yield* invalid(unsafe)
            yield* removeSkillDir(found.dir, found.root)
            const records = yield* readInstalled(ctx.settings.local)
            if (records[name] !== undefined) {
              delete records[name]
              yield* writeInstalled(ctx.settings.local, records)
            }
            const bundledOne = bundled.some((b) => b.name === name)
            return { message: `Skill '${name}' uninstalled.${bundledOne ? " It is a bundled skill: it stays removed and is not seeded again." : ""}`, path: found.dir }
          })
        )
      })

      return Skills.of({
        roots: Effect.map(settings, (s): ReadonlyArray<SkillRoot> => s.roots),
        list: (opts) => onDisk(list(opts)),
        view: (name, filePath) => onDisk(view(name, filePath)),
        create: (request) => onDisk(manage((ctx) => Effect.map(createSkill(ctx, request), ({ description: _d, ...change }) => change))),
        edit: (name, content) => onDisk(manage((ctx) => editSkill(ctx, name, content))),
        patch: (request) => onDisk(manage((ctx) => patchSkill(ctx, request))),
        delete: (name, absorbedInto) => onDisk(manage((ctx) => deleteSkill(ctx, name, absorbedInto))),
        writeFile: (name, filePath, content) => onDisk(manage((ctx) => writeSkillFile(ctx, name, filePath, content))),
        removeFile: (name, filePath) => onDisk(manage((ctx) => removeSkillFile(ctx, name, filePath))),
        seed: onDisk(writes.withPermits(1)(runSeed)),
        install: (source, installOptions) =>
          onDisk(manage((ctx) => installSkill({ settings: ctx.settings, existingNames }, source, installOptions))),
        audit: (name) => onDisk(audit(name)),
        uninstall: (name) => onDisk(uninstall(name))
      })
    })
  )

export const SkillsLive = makeSkillsLive()
