/**
 * Find-and-replace that tolerates what models get wrong about the text they
 * quote: trailing spaces, collapsed whitespace, indentation, escaped
 * newlines, smart quotes. Nine strategies, tried in order (Hermes §10.5):
 * exact, line_trimmed, whitespace_normalized, indentation_flexible,
 * escape_normalized, trimmed_boundary, unicode_normalized, block_anchor,
 * context_aware. The first that finds anything decides; it must find one
 * match unless `replaceAll`. After a non-exact match, `new_string` is
 * re-indented to the file's indentation, and two guards refuse edits that
 * would write tool-call escaping or stray indentation into the file.
 */
import { similarity } from "./similarity.js"

export type Span = readonly [number, number]

export interface ReplaceOutcome {
  readonly content: string
  readonly count: number
  readonly strategy?: string | undefined
  readonly error?: string | undefined
}

// ---------------------------------------------------------------------------
// Normalisation with a way back to the original positions

interface Mapped {
  readonly text: string
  /** For each normalised character: where its source starts in the original. */
  readonly start: ReadonlyArray<number>
  /** For each normalised character: where its source ends in the original. */
  readonly end: ReadonlyArray<number>
}

const mapText = (original: string, step: (s: string, i: number) => readonly [string, number]): Mapped => {
  let text = ""
  const start: Array<number> = []
  const end: Array<number> = []
  let i = 0
  while (i < original.length) {
    const [out, consumed] = step(original, i)
    for (let k = 0; k < out.length; k++) {
      start.push(i)
      end.push(i + consumed)
    }
    text += out
    i += consumed
  }
  return { text, start, end }
}

const backToOriginal = (mapped: Mapped, spans: ReadonlyArray<Span>): Array<Span> =>
  spans.map(([s, e]) => [mapped.start[s] as number, e > s ? (mapped.end[e - 1] as number) : (mapped.start[s] as number)] as const)

/** Runs of spaces and tabs as one space. */
const collapseWhitespace = (original: string): Mapped =>
  mapText(original, (s, i) => {
    if (s[i] !== " " && s[i] !== "\t") return [s[i] as string, 1]
    let j = i
    while (j < s.length && (s[j] === " " || s[j] === "\t")) j++
    return [" ", j - i]
  })

const UNICODE_MAP: Readonly<Record<string, string>> = {
  "\u201c": "\"", "\u201d": "\"", "\u2018": "'", "\u2019": "'",
  "\u2014": "--", "\u2013": "-", "\u2026": "...", "\u00a0": " ", "\u2212": "-",
  "\u2000": " ", "\u2001": " ", "\u2002": " ", "\u2003": " ", "\u2004": " ", "\u2005": " ", "\u2006": " ",
  "\u2007": " ", "\u2008": " ", "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u205f": " ", "\u3000": " "
}

const unicodeNormalize = (s: string): string => {
  let out = ""
  for (const ch of s) out += UNICODE_MAP[ch] ?? ch
  return out
}

const unicodeMapped = (original: string): Mapped => mapText(original, (s, i) => [UNICODE_MAP[s[i] as string] ?? (s[i] as string), 1])

// ---------------------------------------------------------------------------
// Strategies

const exact = (content: string, pattern: string): Array<Span> => {
  const spans: Array<Span> = []
  if (pattern.length === 0) return spans
  let from = 0
  for (;;) {
    const at = content.indexOf(pattern, from)
    if (at < 0) return spans
    spans.push([at, at + pattern.length])
    from = at + pattern.length
  }
}

/** Character offsets of whole lines `first`..`last` (exclusive), without the final newline. */
const lineSpan = (lineStarts: ReadonlyArray<number>, lines: ReadonlyArray<string>, first: number, last: number): Span => {
  const start = lineStarts[first] as number
  const end = (lineStarts[last - 1] as number) + (lines[last - 1] as string).length
  return [start, end]
}

const starts = (lines: ReadonlyArray<string>): Array<number> => {
  const out: Array<number> = []
  let at = 0
  for (const line of lines) {
    out.push(at)
    at += line.length + 1
  }
  return out
}

/** Blocks of whole lines whose normalised form equals the normalised pattern lines. */
const lineWindows = (content: string, pattern: string, normalise: (line: string) => string): Array<Span> => {
  const lines = content.split("\n")
  const normal = lines.map(normalise)
  const wanted = pattern.split("\n").map(normalise)
  const lineStarts = starts(lines)
  const spans: Array<Span> = []
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    let same = true
    for (let k = 0; k < wanted.length; k++) {
      if (normal[i + k] !== wanted[k]) {
        same = false
        break
      }
    }
    if (same) spans.push(lineSpan(lineStarts, lines, i, i + wanted.length))
  }
  return spans
}

const lineTrimmed = (content: string, pattern: string) => lineWindows(content, pattern, (l) => l.trim())

const whitespaceNormalized = (content: string, pattern: string): Array<Span> => {
  const mapped = collapseWhitespace(content)
  const wanted = collapseWhitespace(pattern).text
  return backToOriginal(mapped, exact(mapped.text, wanted))
}

const indentationFlexible = (content: string, pattern: string) => lineWindows(content, pattern, (l) => l.replace(/^[ \t]+/, ""))

const escapeNormalized = (content: string, pattern: string): Array<Span> => {
  const unescaped = pattern.replace(/\\n/g, "\n").replace(/\\t/g, "\t").replace(/\\r/g, "\r")
  return unescaped === pattern ? [] : exact(content, unescaped)
}

const trimmedBoundary = (content: string, pattern: string): Array<Span> => {
  const wanted = pattern.split("\n")
  const edges = (block: Array<string>) => {
    block[0] = (block[0] as string).trim()
    if (block.length > 1) block[block.length - 1] = (block[block.length - 1] as string).trim()
    return block.join("\n")
  }
  const target = edges([...wanted])
  const lines = content.split("\n")
  const lineStarts = starts(lines)
  const spans: Array<Span> = []
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    if (edges(lines.slice(i, i + wanted.length)) === target) spans.push(lineSpan(lineStarts, lines, i, i + wanted.length))
  }
  return spans
}

const unicodeNormalized = (content: string, pattern: string): Array<Span> => {
  const mapped = unicodeMapped(content)
  const wanted = unicodeNormalize(pattern)
  if (mapped.text === content && wanted === pattern) return []
  let spans = exact(mapped.text, wanted)
  if (spans.length === 0) spans = lineTrimmed(mapped.text, wanted)
  return backToOriginal(mapped, spans)
}

const blockAnchor = (content: string, pattern: string): Array<Span> => {
  const wanted = unicodeNormalize(pattern).split("\n")
  if (wanted.length < 2) return []
  const first = (wanted[0] as string).trim()
  const last = (wanted[wanted.length - 1] as string).trim()
  const original = content.split("\n")
  const normal = unicodeNormalize(content).split("\n")
  // A character may expand in normalisation but never adds a newline, so line indices agree.
  const lineStarts = starts(original)
  const candidates: Array<number> = []
  for (let i = 0; i + wanted.length <= normal.length; i++) {
    if ((normal[i] as string).trim() === first && (normal[i + wanted.length - 1] as string).trim() === last) candidates.push(i)
  }
  const threshold = candidates.length === 1 ? 0.5 : 0.7
  const middle = wanted.slice(1, -1).join("\n")
  return candidates
    .filter((i) => wanted.length <= 2 || similarity(normal.slice(i + 1, i + wanted.length - 1).join("\n"), middle) >= threshold)
    .map((i) => lineSpan(lineStarts, original, i, i + wanted.length))
}

const contextAware = (content: string, pattern: string): Array<Span> => {
  const wanted = pattern.split("\n")
  const lines = content.split("\n")
  if (wanted.length > lines.length) return []
  const lineStarts = starts(lines)
  const first = (wanted[0] as string).trim()
  const last = (wanted[wanted.length - 1] as string).trim()
  const spans: Array<Span> = []
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    if (similarity(first, (lines[i] as string).trim()) < 0.8) continue
    if (similarity(last, (lines[i + wanted.length - 1] as string).trim()) < 0.8) continue
    let all = true
    for (let k = 0; k < wanted.length && all; k++) {
      const p = (wanted[k] as string).trim()
      if (p.length > 0 && similarity(p, (lines[i + k] as string).trim()) < 0.8) all = false
    }
    if (all) spans.push(lineSpan(lineStarts, lines, i, i + wanted.length))
  }
  return spans
}

const STRATEGIES: ReadonlyArray<readonly [string, (content: string, pattern: string) => Array<Span>]> = [
  ["exact", exact],
  ["line_trimmed", lineTrimmed],
  ["whitespace_normalized", whitespaceNormalized],
  ["indentation_flexible", indentationFlexible],
  ["escape_normalized", escapeNormalized],
  ["trimmed_boundary", trimmedBoundary],
  ["unicode_normalized", unicodeNormalized],
  ["block_anchor", blockAnchor],
  ["context_aware", contextAware]
]

/** Strategies that accept approximate regions: fine for one edit, never for replace_all. */
const APPROXIMATE = new Set(["block_anchor", "context_aware"])

// ---------------------------------------------------------------------------
// Replacement text

const leadingWhitespace = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? ""
const firstMeaningful = (text: string) => text.split("\n").find((l) => l.trim().length > 0)

/** Move `newString` from the model's indentation to the file's: swap the base indent prefix. */
export const reindent = (fileRegion: string, oldString: string, newString: string): string => {
  if (newString.length === 0) return newString
  const oldFirst = firstMeaningful(oldString)
  const fileFirst = firstMeaningful(fileRegion)
  if (oldFirst === undefined || fileFirst === undefined) return newString
  const oldIndent = leadingWhitespace(oldFirst)
  const fileIndent = leadingWhitespace(fileFirst)
  if (oldIndent === fileIndent) return newString
  return newString
    .split("\n")
    .map((line) => {
      if (line.trim().length === 0) return line
      return line.startsWith(oldIndent) ? fileIndent + line.slice(oldIndent.length) : fileIndent + line.replace(/^[ \t]+/, "")
    })
    .join("\n")
}

/** `\t` / `\r` typed as two characters where the file region has the real control character. */
const unescapeControls = (newString: string, region: string): string => {
  let out = newString
  if (out.includes("\\t") && region.includes("\t")) out = out.replace(/\\t/g, "\t")
  if (out.includes("\\r") && region.includes("\r")) out = out.replace(/\\r/g, "\r")
  return out
}

const escapeDrift = (region: string, oldString: string, newString: string): string | undefined => {
  for (const suspect of ["\\'", "\\\""]) {
    if (newString.includes(suspect) && oldString.includes(suspect) && !region.includes(suspect)) {
      return `Escape-drift detected: old_string and new_string contain the literal sequence ${JSON.stringify(suspect)} but the matched region of the file does not. ` +
        "This is almost always a tool-call serialization artifact where an apostrophe or quote got prefixed with a spurious backslash. " +
        `Re-read the file with read_file and pass old_string/new_string without backslash-escaping ${suspect[1]} characters.`
    }
  }
  return undefined
}

const opensBlock = (line: string) => /[:{(]\s*$/.test(line)

const rogueIndent = (oldString: string, newString: string): string | undefined => {
  const oldLines = oldString.split("\n").filter((l) => l.trim().length > 0)
  const newLines = newString.split("\n").filter((l) => l.trim().length > 0)
  if (oldLines.length === 0 || newLines.length === 0) return undefined
  if (oldLines.some(opensBlock) || newLines.some(opensBlock)) return undefined
  const maxOld = Math.max(...oldLines.map((l) => leadingWhitespace(l).length))
  const deeper = newLines.filter((l) => leadingWhitespace(l).length > maxOld)
  if (deeper.length === 0) return undefined
  return `Suspicious indentation in new_string: ${deeper.length} line(s) indented deeper than old_string's max indent (${maxOld} spaces), ` +
    "but neither old_string nor new_string opens a nesting block (':', '{', '('). " +
    `Likely a model indent typo — check the indentation of: ${JSON.stringify((deeper[0] as string).trim().slice(0, 60))}`
}

/**
 * Keep the file's own characters (em-dashes, smart quotes) in the parts of
 * the region the edit does not change: only the differing middle of
 * old→new is taken from `newString`.
 */
const keepUnicode = (region: string, oldString: string, newString: string): string => {
  const normOld = unicodeNormalize(oldString)
  const mapped = unicodeMapped(region)
  if (mapped.text !== normOld) return newString
  let prefix = 0
  while (prefix < normOld.length && prefix < newString.length && normOld[prefix] === newString[prefix]) prefix++
  let suffix = 0
  while (
    suffix < normOld.length - prefix && suffix < newString.length - prefix &&
    normOld[normOld.length - 1 - suffix] === newString[newString.length - 1 - suffix]
  ) suffix++
  const cutStart = prefix === 0 ? 0 : (mapped.end[prefix - 1] as number)
  const cutEnd = suffix === 0 ? region.length : (mapped.start[normOld.length - suffix] as number)
  if (cutEnd < cutStart) return newString
  return region.slice(0, cutStart) + newString.slice(prefix, newString.length - suffix) + region.slice(cutEnd)
}

const matchLocations = (content: string, spans: ReadonlyArray<Span>, cap = 5): string => {
  const rows = spans.slice(0, cap).map(([start]) => {
    const lineNo = content.slice(0, start).split("\n").length
    const lineStart = content.lastIndexOf("\n", start - 1) + 1
    const lineEnd = content.indexOf("\n", lineStart)
    let snippet = content.slice(lineStart, lineEnd < 0 ? content.length : lineEnd).trim()
    if (snippet.length > 80) snippet = `${snippet.slice(0, 77)}...`
    return `  L${lineNo}: ${snippet}`
  })
  if (spans.length > cap) rows.push(`  ... and ${spans.length - cap} more`)
  return rows.join("\n")
}

export const NOT_FOUND = "Could not find a match for old_string in the file"

export const fuzzyReplace = (content: string, oldString: string, newString: string, replaceAll = false): ReplaceOutcome => {
  const fail = (error: string): ReplaceOutcome => ({ content, count: 0, error })
  if (oldString.length === 0) return fail("old_string cannot be empty")
  if (oldString.trim().length === 0) return fail("old_string is only whitespace — provide non-blank text to match")
  if (oldString === newString) return fail("old_string and new_string are identical")

  for (const [name, strategy] of STRATEGIES) {
    const spans = strategy(content, oldString)
    if (spans.length === 0) continue
    if (spans.length > 1 && !replaceAll) {
      return fail(
        `Found ${spans.length} matches for old_string. Provide more context to make it unique, or use replace_all=True. Matches:\n${matchLocations(content, spans)}`
      )
    }
    if (replaceAll && spans.length > 1 && APPROXIMATE.has(name)) {
      return fail(
        `Found ${spans.length} approximate matches via the '${name}' strategy; replace_all only applies to exact matches. ` +
          "Provide the precise text (whitespace included) so an exact/line-trimmed match can be made."
      )
    }
    const regions = spans.map(([s, e]) => content.slice(s, e)).join("")
    if (name !== "exact") {
      const refused = escapeDrift(regions, oldString, newString) ?? rogueIndent(oldString, newString)
      if (refused !== undefined) return fail(refused)
    }
    const replacement = unescapeControls(newString, regions)
    let out = content
    for (const [s, e] of [...spans].sort((a, b) => b[0] - a[0])) {
      const region = content.slice(s, e)
      let text = replacement
      if (name === "unicode_normalized") text = keepUnicode(region, oldString, text)
      if (name !== "exact") text = reindent(region, oldString, text)
      out = out.slice(0, s) + text + out.slice(e)
    }
    return { content: out, count: spans.length, strategy: name }
  }
  return fail(NOT_FOUND)
}

/**
 * The requested edit is already in the file: `new_string` (non-trivial) is
 * present verbatim and `old_string` is gone (or equal to it).
 */
export const isAlreadyApplied = (content: string, oldString: string, newString: string): boolean => {
  if (newString.trim().length < 8 || !content.includes(newString)) return false
  return oldString === newString || !content.includes(oldString)
}

const visualizeIndent = (line: string) => {
  const indent = leadingWhitespace(line)
  return indent.replace(/\t/g, "→").replace(/ /g, "·") + line.slice(indent.length)
}

/** "Did you mean" snippets: the lines most like the first line of `oldString`, with context. */
export const closestLines = (oldString: string, content: string, context = 2, max = 3): string => {
  const oldLines = oldString.split(/\r?\n/)
  const lines = content.split(/\r?\n/)
  const anchor = oldLines.map((l) => l.trim()).find((l) => l.length > 0)
  if (anchor === undefined || lines.length === 0) return ""
  const scored: Array<readonly [number, number]> = []
  lines.forEach((line, i) => {
    const stripped = line.trim()
    if (stripped.length === 0) return
    const ratio = similarity(anchor, stripped)
    if (ratio > 0.3) scored.push([ratio, i])
  })
  if (scored.length === 0) return ""
  scored.sort((a, b) => b[0] - a[0] || a[1] - b[1])
  const top = scored.slice(0, max)
  const seen = new Set<string>()
  const parts: Array<string> = []
  for (const [, index] of top) {
    const start = Math.max(0, index - context)
    const end = Math.min(lines.length, index + oldLines.length + context)
    const key = `${start}:${end}`
    if (seen.has(key)) continue
    seen.add(key)
    parts.push(lines.slice(start, end).map((l, j) => `${String(start + j + 1).padStart(4)}| ${l}`).join("\n"))
  }
  let out = parts.join("\n---\n")
  const best = lines[(top[0] as readonly [number, number])[1]] as string
  if (best.trim() === anchor && best !== oldLines[0]) {
    out += `\n\nWhitespace difference detected (→ = tab, · = space):\n  file has: ${visualizeIndent(best)}\n  you sent: ${visualizeIndent(oldLines[0] ?? "")}\n` +
      "Use the exact whitespace shown in 'file has'."
  }
  return out
}

/** The hint appended to a plain not-found error (not to ambiguity or guard errors). */
export const noMatchHint = (error: string | undefined, oldString: string, content: string): string => {
  if (error === undefined || !error.startsWith("Could not find")) return ""
  const hint = closestLines(oldString, content)
  return hint.length === 0 ? "" : `\n\nDid you mean one of these sections?\n${hint}`
}
