/**
 * Text normalisation before detection (Hermes §6.2). Split in two stages:
 * `prepare` keeps backslashes and quotes so the shell parser still sees the
 * author's real quoting; `normalizeCommand` finishes with escape/empty-quote
 * stripping for callers that want Hermes' flat string.
 */
import { stripAnsi } from "../../../lib/text.js"
import { flattenQuoting } from "../shell/words.js"
import type { DetectionEnv, ResolvedEnv } from "./detectionEnv.js"
import { resolveEnv } from "./detectionEnv.js"

const NON_ASCII = /[^\x00-\x7f]/
const CONTINUATION = /\\\r?\n/g
const IFS = /\$\{IFS\b[^}]*\}|\$IFS\b/g
const RE_SPECIAL = /[.*+?^${}()|[\]\\]/g
// A path tail: separator-led segments, stopping at whitespace, quotes and shell metacharacters.
const TAIL = "((?:[/\\\\][^/\\\\\\s'\"`;|&<>()]*)+)"

const foldCache = new Map<string, { readonly re: RegExp; readonly probe: string } | null>()

/** Matcher for `path` as a directory prefix, or null for a degenerate (< 2 component) home. */
const foldMatcher = (path: string): { readonly re: RegExp; readonly probe: string } | null => {
  const cached = foldCache.get(path)
  if (cached !== undefined) return cached
  const parts = path.split(/[/\\]+/).filter((p) => p !== "")
  const built =
    parts.length < 2
      ? null
      : {
          re: new RegExp(`[/\\\\]*${parts.map((p) => p.replace(RE_SPECIAL, "\\$&")).join("[/\\\\]+")}${TAIL}`, "g"),
          probe: parts[parts.length - 1] ?? ""
        }
  if (foldCache.size > 64) foldCache.clear()
  foldCache.set(path, built)
  return built
}

const foldHome = (command: string, path: string | undefined, replacement: string): string => {
  if (path === undefined) return command
  const m = foldMatcher(path)
  if (m === null || !command.includes(m.probe)) return command
  m.re.lastIndex = 0
  return command.replace(m.re, (_all, tail: string) => replacement + tail.replace(/\\/g, "/"))
}

/** IFS named other than in an expansion: the line sets it (`IFS=rm`, `read IFS`, `for IFS in`, `printf -v IFS`). */
const SETS_IFS = /(?:^|[^$\w{])IFS\b/

/**
 * Steps 1-5 and 8: everything that does not change quoting. `$IFS` reads as a blank (Hermes' `rm${IFS}-rf`), unless
 * IFS may hold something else: the line sets it, or `ifsKnown` (the task exports one), when it stays a variable for
 * the resolver (`IFS=rm; "$IFS" -rf x` runs rm).
 */
export const prepare = (command: string, env: ResolvedEnv, ifsKnown = false): string => {
  let s = stripAnsi(command)
  if (s.includes("\0")) s = s.replace(/\0/g, "")
  if (NON_ASCII.test(s)) s = s.normalize("NFKC")
  if (s.includes("\\\n") || s.includes("\\\r\n")) s = s.replace(CONTINUATION, "")
  // Hermes home first: it usually nests under the user home, which would otherwise eat its prefix.
  s = foldHome(s, env.hermesHome, "~/.hermes")
  s = foldHome(s, env.home, "~")
  if (s.includes("IFS") && !ifsKnown && !SETS_IFS.test(s)) s = s.replace(IFS, " ")
  return s
}

export const normalizeCommand = (command: string, options?: DetectionEnv): string => {
  const env = resolveEnv(options)
  let s = stripAnsi(command)
  if (s.includes("\0")) s = s.replace(/\0/g, "")
  if (NON_ASCII.test(s)) s = s.normalize("NFKC")
  s = s.replace(CONTINUATION, "")
  s = foldHome(s, env.hermesHome, "~/.hermes")
  s = foldHome(s, env.home, "~")
  return flattenQuoting(s).replace(IFS, " ")
}
