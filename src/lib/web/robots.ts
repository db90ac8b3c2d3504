/**
 * robots.txt for web_crawl (pure): the group for our user agent (else `*`),
 * longest matching Allow/Disallow wins, `*` and `$` wildcards honoured.
 */

interface Rule {
  readonly allow: boolean
  readonly pattern: string
}

export interface Robots {
  readonly allowed: (path: string) => boolean
}

export const ALLOW_ALL: Robots = { allowed: () => true }

const toRegExp = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+?^{}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\\\$$|\$$/, "$")}`)

export const parseRobots = (text: string, agent: string): Robots => {
  const groups: Array<{ agents: Array<string>; rules: Array<Rule> }> = []
  let current: { agents: Array<string>; rules: Array<Rule> } | undefined
  let lastWasAgent = false
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim()
    const colon = line.indexOf(":")
    if (colon < 0) continue
    const key = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (key === "user-agent") {
      if (!lastWasAgent || current === undefined) groups.push((current = { agents: [], rules: [] }))
      current.agents.push(value.toLowerCase())
      lastWasAgent = true
    } else {
      lastWasAgent = false
      if (current !== undefined && (key === "allow" || key === "disallow") && value !== "") {
        current.rules.push({ allow: key === "allow", pattern: value })
      }
    }
  }
  const me = agent.toLowerCase()
  const group = groups.find((g) => g.agents.some((a) => a !== "*" && me.includes(a))) ?? groups.find((g) => g.agents.includes("*"))
  if (group === undefined) return ALLOW_ALL
  const rules = group.rules.map((r) => ({ ...r, re: toRegExp(r.pattern) }))
  return {
    allowed: (path) => {
      let best: { allow: boolean; length: number } | undefined
      for (const rule of rules) {
        if (!rule.re.test(path)) continue
        const length = rule.pattern.length
        if (best === undefined || length > best.length || (length === best.length && rule.allow)) best = { allow: rule.allow, length }
      }
      return best?.allow ?? true
    }
  }
}
