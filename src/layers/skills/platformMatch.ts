/**
 * Which skills fit this machine: `platforms: [macos, linux, windows]` is hard
 * compatibility (skill_view answers "unsupported"); `environments: [docker,
 * s6, kanban]` only hides a skill from listings where it is irrelevant.
 * Both absent or empty = everywhere; unknown environment tags fail open.
 */
// A once-per-process probe of fixed marker files inside synchronous predicates (catalog filtering): no Effect to run FileSystem in.
import { existsSync } from "node:fs"
import type { Frontmatter } from "./frontmatter.js"
import { lookupTable } from "../../lib/lookupTable.js"

const PLATFORM_MAP: Readonly<Record<string, string>> = lookupTable({ macos: "darwin", linux: "linux", windows: "win32" })

const asList = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [value])

const empty = (value: unknown) => value === undefined || value === null || value === "" || value === false || (Array.isArray(value) && value.length === 0)

export const matchesPlatform = (frontmatter: Frontmatter, current: string = process.platform): boolean => {
  const platforms = frontmatter["platforms"]
  if (empty(platforms)) return true
  return asList(platforms).some((p) => {
    const normal = String(p).toLowerCase().trim()
    return current.startsWith(PLATFORM_MAP[normal] ?? normal)
  })
}

const detected = new Map<string, boolean>()

const detect = (env: string): boolean => {
  const known = detected.get(env)
  if (known !== undefined) return known
  const result = env === "docker"
    ? existsSync("/.dockerenv") || existsSync("/run/.containerenv")
    : env === "s6"
    ? existsSync("/run/s6") || existsSync("/package/admin/s6-overlay")
    : false // kanban: this runtime has no kanban board
  detected.set(env, result)
  return result
}

const KNOWN_ENVIRONMENTS = new Set(["kanban", "docker", "s6"])

export const matchesEnvironment = (frontmatter: Frontmatter): boolean => {
  const environments = frontmatter["environments"]
  if (empty(environments)) return true
  for (const env of asList(environments)) {
    const normal = String(env).toLowerCase().trim()
    if (normal.length === 0) continue
    if (!KNOWN_ENVIRONMENTS.has(normal) || detect(normal)) return true
  }
  return false
}
