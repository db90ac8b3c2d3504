/**
 * How a search string becomes SQL. Two indexes serve it: `messages_fts`
 * (unicode61 words, FTS5 syntax, BM25) and `messages_trigram` (substrings,
 * CJK text that has no spaces between words).
 *
 * - Text with CJK characters, or a plain query with no word hits, is matched
 *   as substrings: every whitespace-separated term must occur in the message.
 * - Anything else is FTS5 syntax as typed; when FTS5 rejects it (`foo-bar`,
 *   `a:b`, an odd quote) each term is quoted and the query runs again.
 */

// Han, kana, hangul, bopomofo, CJK punctuation and compatibility forms.
const CJK = /[\u2E80-\u2FDF\u3000-\u30FF\u3100-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/u

export const hasCjk = (query: string): boolean => CJK.test(query)

/** Whitespace-separated terms with surrounding quotes dropped. */
export const terms = (query: string): ReadonlyArray<string> =>
  query.split(/\s+/).map((t) => t.replace(/^"+|"+$/g, "")).filter((t) => t.length > 0)

/** Every term as an FTS5 phrase: always valid syntax, all terms required. */
export const quoteTerms = (query: string): string => terms(query).map((t) => `"${t.replace(/"/g, "\"\"")}"`).join(" ")

/** Whether the query uses FTS5 operators, so that "no hits" is the answer rather than a cue to try substrings. */
export const usesFtsSyntax = (query: string): boolean => /["*()^:]|\b(AND|OR|NOT|NEAR)\b/.test(query)

export interface SubstringTerm {
  /** A LIKE pattern for the trigram table (a superset when the term holds `%` or `_`). */
  readonly pattern: string
  /** Set when the pattern needs an exact re-check (the term holds LIKE wildcards). */
  readonly exact: string | undefined
}

/** LIKE without ESCAPE, so the trigram index can serve it; wildcard characters in a term get an exact `instr` check. */
export const substringTerms = (query: string): ReadonlyArray<SubstringTerm> =>
  terms(query).map((t) => ({ pattern: `%${t}%`, exact: /[%_]/.test(t) ? t : undefined }))

/** Text around the first term found, with the match between `>>>` and `<<<`. */
export const substringSnippet = (content: string, query: string, radius = 80): string => {
  const lower = content.toLowerCase()
  let at = -1
  let length = 0
  for (const term of terms(query)) {
    const i = lower.indexOf(term.toLowerCase())
    if (i >= 0 && (at < 0 || i < at)) {
      at = i
      length = term.length
    }
  }
  if (at < 0) return content.length > radius * 2 ? `${content.slice(0, radius * 2)}...` : content
  const start = Math.max(0, at - radius)
  const end = Math.min(content.length, at + length + radius)
  return `${start > 0 ? "..." : ""}${content.slice(start, at)}>>>${content.slice(at, at + length)}<<<${content.slice(at + length, end)}${end < content.length ? "..." : ""}`
}
