/**
 * SKILL.md frontmatter: a `---` fence, YAML, a closing `---` line, then the
 * body. Parsed the way Hermes' PyYAML `safe_load` sees it (YAML 1.1 scalars,
 * duplicate keys allowed, `<<` merges), with the `yaml` package.
 */
import { parse } from "yaml"

const CLOSING = /\n---\s*\n/

export type Frontmatter = Readonly<Record<string, unknown>>

export interface SplitSkill {
  /** The text between the fences, or undefined when there is no complete frontmatter. */
  readonly yaml: string | undefined
  readonly body: string
}

/** Drop one leading BOM (a Windows editor's), then split at the fences. */
export const splitFrontmatter = (content: string): SplitSkill => {
  const text = content.startsWith("\ufeff") ? content.slice(1) : content
  if (!text.startsWith("---")) return { yaml: undefined, body: text }
  const rest = text.slice(3)
  const close = CLOSING.exec(rest)
  if (close === null) return { yaml: undefined, body: text }
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length) }
}

/** YAML as PyYAML's safe_load would read it; throws on a syntax error. */
export const loadYaml = (text: string): unknown =>
  parse(text, { version: "1.1", uniqueKeys: false, merge: true, maxAliasCount: 100 })

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date)

/** Lenient: `{}` without frontmatter; `key: value` lines when the YAML does not parse (one bad skill never breaks a scan). */
export const parseFrontmatter = (content: string): { readonly frontmatter: Frontmatter; readonly body: string } => {
  const split = splitFrontmatter(content)
  if (split.yaml === undefined) return { frontmatter: {}, body: split.body }
  try {
    const parsed = loadYaml(split.yaml)
    return { frontmatter: isMapping(parsed) ? parsed : {}, body: split.body }
  } catch {
    const fallback: Record<string, unknown> = {}
    for (const line of split.yaml.trim().split("\n")) {
      const colon = line.indexOf(":")
      if (colon < 0) continue
      fallback[line.slice(0, colon).trim()] = line.slice(colon + 1).trim()
    }
    return { frontmatter: fallback, body: split.body }
  }
}

/** Python's `str(value)` for the scalars YAML produces (used for length limits and names). */
export const pyStr = (value: unknown): string => {
  if (value === null || value === undefined) return "None"
  if (value === true) return "True"
  if (value === false) return "False"
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "bigint") return String(value)
  if (value instanceof Date) return value.toISOString().replace("T00:00:00.000Z", "")
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

export const isFrontmatterMapping = isMapping
