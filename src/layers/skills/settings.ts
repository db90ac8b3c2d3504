/**
 * The `skills:` config section as the layer uses it: roots (the home's
 * skills dir, then `external_dirs` that exist, `~` and `${VAR}` expanded,
 * relative ones against the home), the disabled set, the guard switches.
 */
import { existsSync, realpathSync, statSync } from "node:fs"
import * as path from "node:path"
import { expandHome } from "../../lib/text.js"
import type { HermesConfig, HermesHome } from "../../services/Config.js"
import type { SkillRoot } from "../../services/Skills.js"

export interface SkillsSettings {
  readonly home: HermesHome
  readonly local: string
  readonly roots: ReadonlyArray<SkillRoot>
  readonly disabled: ReadonlySet<string>
  readonly guardAgentCreated: boolean
  /** Source ids and folders whose skills count as trusted (besides the built-in list). */
  readonly trustedSources: ReadonlyArray<string>
  readonly seedBundled: boolean
}

const listOf = (value: unknown): ReadonlyArray<string> =>
  typeof value === "string" ? [value] : Array.isArray(value) ? value.map((v) => String(v)) : []

const expandVars = (s: string): string =>
  s.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, a: string | undefined, b: string | undefined) => process.env[a ?? b ?? ""] ?? whole)

export const expandUserPath = (entry: string, base: string): string => {
  const expanded = expandVars(entry.trim())
  return path.resolve(base, expandHome(expanded))
}

const real = (p: string): string => {
  try {
    return realpathSync(p)
  } catch {
    return p
  }
}

export const skillsSettings = (config: HermesConfig, home: HermesHome): SkillsSettings => {
  const section = config.skills
  const local = home.skillsDir
  const localReal = real(local)
  const seen = new Set<string>([localReal])
  const roots: Array<SkillRoot> = [{ path: local, kind: "local" }]
  for (const entry of listOf(section.external_dirs)) {
    if (entry.trim().length === 0) continue
    const dir = expandUserPath(entry, home.root)
    const resolved = real(dir)
    if (seen.has(resolved) || !existsSync(resolved)) continue
    try {
      if (!statSync(resolved).isDirectory()) continue
    } catch {
      continue
    }
    seen.add(resolved)
    roots.push({ path: resolved, kind: "external" })
  }
  return {
    home,
    local,
    roots,
    disabled: new Set(section.disabled.map((s) => s.trim()).filter((s) => s.length > 0)),
    guardAgentCreated: section.guard_agent_created,
    trustedSources: section.trusted_sources.map((s) => s.trim()).filter((s) => s.length > 0),
    seedBundled: section.seed_bundled
  }
}
