/**
 * Long extracted pages: keep the head (75 %) and tail (25 %) of `limit`
 * characters, cut on line boundaries, and point at the saved full copy.
 */
import { createHash } from "node:crypto"

export const DEFAULT_CHAR_LIMIT = 15_000
export const MIN_CHAR_LIMIT = 2_000
export const MAX_CHAR_LIMIT = 500_000
/** The stored full copy is capped too. */
export const MAX_SAVED_CHARS = 2_000_000

export const clampCharLimit = (value: number | undefined, fallback: number): number => {
  const n = value === undefined || !Number.isFinite(value) ? fallback : Math.floor(value)
  return Math.min(MAX_CHAR_LIMIT, Math.max(MIN_CHAR_LIMIT, n))
}

/** `<host-slug>-<sha256[:10]>.md`, stable per URL. */
export const cacheFileName = (url: string): string => {
  let host = "page"
  try {
    host = new URL(url).hostname
  } catch { /* keep the default */ }
  const slug = host.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "page"
  return `${slug}-${createHash("sha256").update(url).digest("hex").slice(0, 10)}.md`
}

export interface Cut {
  readonly head: string
  readonly tail: string
  /** 1-based line in the full text where the omitted part starts. */
  readonly omittedFromLine: number
}

/** Head and tail within `limit` characters, each ending/starting on a line boundary when one is near. */
export const cutHeadTail = (text: string, limit: number): Cut => {
  const headBudget = Math.floor(limit * 0.75)
  const tailBudget = limit - headBudget
  let headEnd = text.lastIndexOf("\n", headBudget)
  if (headEnd < headBudget / 2) headEnd = headBudget
  let tailStart = text.indexOf("\n", text.length - tailBudget)
  if (tailStart < 0 || tailStart - (text.length - tailBudget) > tailBudget / 2) tailStart = text.length - tailBudget
  const head = text.slice(0, headEnd)
  const omittedFromLine = head.split("\n").length + (text[headEnd] === "\n" ? 1 : 0)
  return { head, tail: text.slice(tailStart).replace(/^\n/, ""), omittedFromLine }
}

/** The text the model sees for a page longer than `limit`. */
export const truncatedContent = (text: string, limit: number, savedPath: string): string => {
  const cut = cutHeadTail(text, limit)
  const shown = cut.head.length + cut.tail.length
  return `${cut.head}\n\n[... middle of the page omitted (${text.length - shown} characters) ...]\n\n${cut.tail}\n\n` +
    `[TRUNCATED] Showing ${shown} of ${text.length} characters. Full text saved to ${savedPath}; ` +
    `read the omitted part with read_file path=${savedPath} offset=${cut.omittedFromLine} limit=200`
}
