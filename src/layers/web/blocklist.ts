/**
 * Loads `security.website_blocklist` rules: the config's domains plus the
 * shared files, re-read when a file changes (mtime). Unlike Hermes, a shared
 * file that cannot be read refuses every URL with a message naming it: a
 * blocklist that silently stops blocking is worse than a loud one.
 */
import { readFileSync, statSync } from "node:fs"
import { isAbsolute, join } from "node:path"
import { homedir } from "node:os"
import { Effect } from "effect"
import { findBlock, normalizeRule, rulesFromText } from "../../lib/web/websitePolicy.js"
import type { BlockRule } from "../../lib/web/websitePolicy.js"
import type { HermesConfig } from "../../services/Config.js"
import { WebBlocked } from "../../services/Web.js"

export interface BlocklistLoader {
  /** The rules in force now; none when the blocklist is disabled. */
  readonly rules: (config: HermesConfig) => Effect.Effect<ReadonlyArray<BlockRule>, WebBlocked>
}

const resolvePath = (file: string, home: string) => {
  const expanded = file.startsWith("~/") ? join(homedir(), file.slice(2)) : file
  return isAbsolute(expanded) ? expanded : join(home, expanded)
}

export const makeBlocklistLoader = (home: string): BlocklistLoader => {
  const files = new Map<string, { readonly mtimeMs: number; readonly size: number; readonly rules: ReadonlyArray<BlockRule> }>()
  const fileRules = (path: string) =>
    Effect.try({
      try: () => {
        const stat = statSync(path)
        const cached = files.get(path)
        if (cached !== undefined && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.rules
        const rules = rulesFromText(readFileSync(path, "utf8"), path)
        files.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, rules })
        return rules
      },
      catch: (error) =>
        new WebBlocked({
          message: `Blocked: the website blocklist file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); ` +
            "fix or remove it in security.website_blocklist.shared_files"
        })
    })
  return {
    rules: (config) => {
      const list = config.security.website_blocklist
      if (!list.enabled) return Effect.succeed([])
      const own = list.domains.flatMap((d) => {
        const pattern = normalizeRule(d)
        return pattern === undefined ? [] : [{ pattern, source: "config" }]
      })
      const shared = list.shared_files.filter((f) => f.trim() !== "")
      if (shared.length === 0) return Effect.succeed(own)
      return Effect.map(Effect.forEach(shared, (f) => fileRules(resolvePath(f.trim(), home))), (lists) => [...own, ...lists.flat()])
    }
  }
}

/** Refuse `url` when a rule matches it (the error carries the rule for the model). */
export const checkBlocklist = (url: URL, rules: ReadonlyArray<BlockRule>): Effect.Effect<void, WebBlocked> => {
  if (rules.length === 0) return Effect.void
  const block = findBlock(url, rules)
  return block === undefined
    ? Effect.void
    : Effect.fail(new WebBlocked({ message: block.message, policy: { host: block.host, rule: block.rule, source: block.source } }))
}
