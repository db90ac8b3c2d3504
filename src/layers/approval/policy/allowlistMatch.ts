/**
 * Matching commands against allowlist entries, deny globs and policy rules.
 */
import type { HermesConfig } from "../../../services/Config.js"

type Rule = NonNullable<NonNullable<HermesConfig["approvals"]>["rules"]>[number]

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

/** fnmatch: `*`, `?`, `[seq]`, `[!seq]`, anchored at both ends. */
export const globToRegex = (glob: string, flags = ""): RegExp => {
  let out = ""
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === "*") out += "[\\s\\S]*"
    else if (c === "?") out += "[\\s\\S]"
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2)
      if (end === -1) out += "\\["
      else {
        let body = glob.slice(i + 1, end)
        if (body.startsWith("!")) body = `^${body.slice(1)}`
        out += `[${body.replace(/\\/g, "\\\\")}]`
        i = end
      }
    } else out += escapeRegex(c)
  }
  return new RegExp(`^${out}$`, flags)
}

export const hasGlob = (s: string) => /[*?[]/.test(s)

/** Commands that chain or redirect: an allowlist entry or allow rule never covers these. */
export const isCompound = (command: string) => /\n|&&|\|\||;|&|\||<|>|`|\$\(/.test(command)

const collapse = (s: string) => s.trim().replace(/\s+/g, " ")

/** The simple commands of a line, split on chaining operators (rough, for prefix rules only). */
export const segments = (command: string): ReadonlyArray<string> =>
  command.split(/\n|&&|\|\||;|\||&|\$\(|`/).map(collapse).filter((s) => s.length > 0)

const startsWithWords = (command: string, prefix: string) => {
  const p = collapse(prefix)
  return command === p || command.startsWith(`${p} `)
}

/** Exact or glob match of an allowlist entry on the whole (simple) command. */
export const allowlistCovers = (entry: string, command: string): boolean => {
  const trimmed = command.trim()
  if (isCompound(trimmed)) return false
  return hasGlob(entry) ? globToRegex(entry).test(trimmed) : entry === trimmed
}

export interface RuleMatch {
  readonly action: "allow" | "ask" | "deny"
  readonly pattern: string
  readonly reason: string | undefined
}

const ruleHits = (rule: Rule, command: string, parts: ReadonlyArray<string>): string | undefined => {
  if (rule.prefix !== undefined) {
    const p = rule.prefix
    // allow covers a simple command only; ask/deny fire on any part of a compound one
    const hit = rule.action === "allow" ? !isCompound(command) && startsWithWords(collapse(command), p) : parts.some((s) => startsWithWords(s, p))
    if (hit) return `prefix:${p}`
  }
  if (rule.glob !== undefined && (rule.action !== "allow" || !isCompound(command))) {
    if (globToRegex(rule.glob).test(command.trim())) return `glob:${rule.glob}`
  }
  if (rule.regex !== undefined && (rule.action !== "allow" || !isCompound(command))) {
    try {
      if (new RegExp(rule.regex).test(command)) return `regex:${rule.regex}`
    } catch {
      // an invalid regex never matches; the config loader warns about it
    }
  }
  return undefined
}

const STRICTNESS = { allow: 0, ask: 1, deny: 2 } as const

/** The strictest matching rule (deny > ask > allow); the first of equals wins. */
export const strictestRule = (rules: ReadonlyArray<Rule>, command: string): RuleMatch | undefined => {
  const parts = segments(command)
  let best: RuleMatch | undefined
  for (const rule of rules) {
    const pattern = ruleHits(rule, command, parts)
    if (pattern === undefined) continue
    if (best === undefined || STRICTNESS[rule.action] > STRICTNESS[best.action]) {
      best = { action: rule.action, pattern, reason: rule.reason }
    }
  }
  return best
}

export const matchingDenyGlob = (globs: ReadonlyArray<string>, variants: ReadonlyArray<string>): string | undefined =>
  globs.find((g) => {
    const re = globToRegex(g.trim(), "i")
    return variants.some((v) => re.test(v.trim()))
  })
