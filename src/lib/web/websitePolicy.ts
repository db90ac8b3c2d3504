/**
 * The operator's website blocklist (`security.website_blocklist`), pure part:
 * rule normalisation and host matching. A rule is an exact host (which also
 * covers its subdomains) or a `*.` glob; rules may be written as URLs.
 */

export interface BlockRule {
  readonly pattern: string
  /** `config`, or the shared file the rule came from. */
  readonly source: string
}

export interface PolicyBlock {
  readonly host: string
  readonly rule: string
  readonly source: string
  readonly message: string
}

/** A rule as written (bare host, URL, `host/path`, `user@host:port`) → a lowercase host; undefined for blanks and comments. */
export const normalizeRule = (raw: string): string | undefined => {
  let value = raw.trim().toLowerCase()
  if (value === "" || value.startsWith("#")) return undefined
  if (value.includes("://") || value.includes("@") || /:\d+(\/|$)/.test(value)) {
    try {
      value = new URL(value.includes("://") ? value : `http://${value}`).hostname
    } catch {
      // keep the text; it simply will not match a host
    }
  }
  const host = value.split("/")[0]!.trim().replace(/\.$/, "").replace(/^www\./, "")
  return host === "" || host.includes("@") ? undefined : host
}

/** Rules from a shared list file: one per line, `#` comments. */
export const rulesFromText = (text: string, source: string): ReadonlyArray<BlockRule> =>
  text.replace(/^\uFEFF/, "").split(/\r?\n/).flatMap((line) => {
    const pattern = normalizeRule(line)
    return pattern === undefined ? [] : [{ pattern, source }]
  })

const globToRegExp = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`)

export const hostMatches = (host: string, pattern: string): boolean => {
  if (host === "" || pattern === "") return false
  if (pattern.startsWith("*.")) return globToRegExp(pattern).test(host)
  return host === pattern || host.endsWith(`.${pattern}`)
}

/** The host a URL names, as rules see it (lowercase, no trailing dot, no brackets). */
export const policyHost = (url: URL): string => url.hostname.toLowerCase().replace(/\.$/, "").replace(/^\[|\]$/g, "")

/** The first rule that blocks `host` (already normalised by `policyHost` or equivalent), if any. */
export const blockForHost = (host: string, rules: ReadonlyArray<BlockRule>): PolicyBlock | undefined => {
  const rule = rules.find((r) => hostMatches(host, r.pattern))
  return rule === undefined
    ? undefined
    : { host, rule: rule.pattern, source: rule.source, message: `Blocked by website policy: '${host}' matched rule '${rule.pattern}' from ${rule.source}` }
}

/** The first rule that blocks `url`, if any. */
export const findBlock = (url: URL, rules: ReadonlyArray<BlockRule>): PolicyBlock | undefined => blockForHost(policyHost(url), rules)
