/**
 * Shaping an accessibility snapshot for the model (pure): the compact view
 * (unnamed wrapper `generic` nodes removed, their children lifted) and the
 * line-boundary cut for snapshots over 15 000 characters.
 */

export const SNAPSHOT_CHAR_LIMIT = 15_000

/** A bare structural wrapper: `- generic [ref=e3]:` with no name, text or pointer cursor. */
const WRAPPER = /^- generic(?: \[(?:active|ref=[A-Za-z0-9]+)\])*:?$/

/** Drop bare wrapper nodes and lift their children one level per removed ancestor. */
export const compactSnapshot = (text: string): string => {
  const out: Array<string> = []
  const removed: Array<number> = []
  for (const line of text.split("\n")) {
    const body = line.trimStart()
    if (body === "") continue
    const indent = line.length - body.length
    while (removed.length > 0 && removed[removed.length - 1]! >= indent) removed.pop()
    if (WRAPPER.test(body)) {
      removed.push(indent)
      continue
    }
    out.push(`${" ".repeat(Math.max(0, indent - 2 * removed.length))}${body}`)
  }
  return out.join("\n")
}

/** How many refs a snapshot text hands out. */
export const countRefs = (text: string): number => new Set([...text.matchAll(/\[ref=([A-Za-z0-9]+)\]/g)].map((m) => m[1])).size

/** Whole lines up to `limit` characters, then a pointer to the saved full copy (1-based line to resume at). */
export const cutSnapshot = (text: string, savedPath: string | undefined, limit = SNAPSHOT_CHAR_LIMIT): string => {
  if (text.length <= limit) return text
  const lines = text.split("\n")
  const reserve = Math.min(120 + (savedPath?.length ?? 0), Math.floor(limit / 2))
  const kept: Array<string> = []
  let used = 0
  for (const line of lines) {
    if (used + line.length + 1 > limit - reserve) break
    kept.push(line)
    used += line.length + 1
  }
  const remaining = lines.length - kept.length
  const pointer = savedPath === undefined
    ? `[... ${remaining} more lines truncated; the full snapshot could not be saved]`
    : `[... ${remaining} more lines truncated — full snapshot: read_file path="${savedPath}" offset=${kept.length + 1} limit=200]`
  return `${kept.join("\n")}\n\n${pointer}`
}

/** Page titles that usually mean a bot wall rather than the page asked for. */
const BOT_TITLES = [
  "access denied", "access to this page has been denied", "blocked", "bot detected", "verification required",
  "please verify", "are you a robot", "captcha", "cloudflare", "ddos protection", "checking your browser",
  "just a moment", "attention required"
]

export const botWarning = (title: string): string | undefined =>
  BOT_TITLES.some((p) => title.toLowerCase().includes(p))
    ? `The page title '${title}' looks like bot detection: the site may have refused this browser. ` +
      "Try again more slowly, open other pages of the site first, or use web_extract instead."
    : undefined
