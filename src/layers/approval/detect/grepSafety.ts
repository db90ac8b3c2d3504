/**
 * `grep -P` patterns are regexes, not commands: a single-quoted PCRE pattern
 * such as '(safe|rm -rf /)' is hidden from the rules. A grep invocation we
 * cannot parse (open quote, option missing its value, -P without a pattern)
 * is reported instead, so nothing is hidden on an uncertain parse.
 */
import type { Cmd } from "../shell/ast.js"

const LONG_WITH_VALUE = new Set([
  "--after-context", "--before-context", "--binary-files", "--context", "--directories", "--devices", "--exclude",
  "--exclude-dir", "--exclude-from", "--include", "--label", "--max-count", "--regexp", "--file"
])
const SHORT_WITH_VALUE = "ABCDdefm"

interface Token {
  readonly value: string
  readonly raw: string
  /** Index in cmd.words, or -1 for a redirect pseudo-token. */
  readonly word: number
  readonly unterminated: boolean
}

export interface GrepScan {
  readonly malformed: boolean
  /** Word indices whose text rules must not see. */
  readonly hidden: ReadonlyArray<number>
}

const OK: GrepScan = { malformed: false, hidden: [] }

/** Arguments in source order; redirects count as operands like they do for a whitespace lexer. */
const tokensAfter = (cmd: Cmd, head: number): Token[] => {
  const out: Token[] = []
  const redirs = cmd.redirs.filter((r) => r.after > head)
  let r = 0
  for (let i = head + 1; i <= cmd.words.length; i++) {
    while (r < redirs.length && (redirs[r]?.after ?? 0) <= i) {
      const red = redirs[r]
      if (red !== undefined) {
        out.push({ value: red.op, raw: red.op, word: -1, unterminated: false })
        if (red.target !== null) {
          out.push({ value: red.target.value, raw: red.target.raw, word: -1, unterminated: red.target.unterminated })
        }
      }
      r++
    }
    const w = cmd.words[i]
    if (w !== undefined) out.push({ value: w.value, raw: w.raw, word: i, unterminated: w.unterminated })
  }
  return out
}

const inert = (raw: string): boolean =>
  raw.endsWith("'") && raw.length >= 2 && (raw.startsWith("'") || raw.includes("='"))

export const scanGrep = (cmd: Cmd, head: number): GrepScan => {
  const args = tokensAfter(cmd, head)
  if (args.some((t) => t.unterminated)) return { malformed: true, hidden: [] }
  let pcre = false
  let explicit = false
  let operand = -1
  const patterns: number[] = []
  let options = true
  for (let i = 0; i < args.length; i++) {
    const t = args[i]?.value ?? ""
    if (options && t === "--") {
      options = false
    } else if (options && t.startsWith("--")) {
      const eq = t.indexOf("=")
      const opt = eq < 0 ? t : t.slice(0, eq)
      pcre ||= opt === "--perl-regexp"
      explicit ||= opt === "--regexp" || opt === "--file"
      const takesNext = eq < 0 && LONG_WITH_VALUE.has(opt)
      if (takesNext && i + 1 >= args.length) return { malformed: true, hidden: [] }
      if (opt === "--regexp") patterns.push(takesNext ? i + 1 : i)
      if (takesNext) i++
    } else if (options && t.startsWith("-") && t !== "-") {
      for (let j = 1; j < t.length; j++) {
        const ch = t[j] ?? ""
        pcre ||= ch === "P"
        explicit ||= ch === "e" || ch === "f"
        if (!SHORT_WITH_VALUE.includes(ch)) continue
        // The first value-taking letter owns the rest of the bundle, or the next word.
        const attached = j + 1 < t.length
        if (!attached && i + 1 >= args.length) return { malformed: true, hidden: [] }
        if (ch === "e") patterns.push(attached ? i : i + 1)
        if (!attached) i++
        break
      }
    } else if (operand < 0) {
      operand = i
    }
  }
  if (!explicit) {
    if (operand < 0) return pcre ? { malformed: true, hidden: [] } : OK
    patterns.push(operand)
  }
  if (!pcre) return OK
  const hidden: number[] = []
  for (const p of patterns) {
    const tok = args[p]
    if (tok !== undefined && tok.word >= 0 && inert(tok.raw)) hidden.push(tok.word)
  }
  return { malformed: false, hidden }
}
