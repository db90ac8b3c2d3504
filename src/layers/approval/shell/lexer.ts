/**
 * The word half of the shell parser: quoting, escapes, `$…` expansions,
 * backticks and process substitution. It never expands anything; nested
 * command lists are handed back to the grammar through the abstract hooks.
 */
import type { Part, Word } from "./ast.js"
import {
  BQ, BSL, DOLLAR, DQ, GT, LBRACE, LPAR, LT, NL, RBRACE, RPAR, SQ, isDigit, isMeta, isNameChar, isNameStart
} from "./charCodes.js"
import { lookupTable } from "../../../lib/lookupTable.js"

/** Undo the backslash escaping that applies inside backticks. */
const unescapeBackticks = (s: string): string => (s.includes("\\") ? s.replace(/\\([`\\$])/g, "$1") : s)

const isWordCode = (c: number): boolean => isNameChar(c) || c > 127

const ANSI_C: Readonly<Record<string, string>> = lookupTable({ n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", f: "\f", v: "\v" })

export abstract class ShellLexer {
  protected pos = 0

  constructor(protected readonly src: string) {}

  /** Parse a `$(…)` / `<(…)` body that starts at `from` in place; returns the index after its `)`. */
  protected abstract nestedList(from: number): number
  /** Parse a backtick body, which is its own source text once unescaped. */
  protected abstract nestedSource(body: string): void
  /** Limits were hit: stop reading (the verdict is already decided). */
  protected abstract stopped(): boolean
  /** Reading prose (quoted text, comments) rather than code. */
  protected abstract prose(): boolean

  /**
   * In prose a quote character is often just punctuation: an apostrophe inside
   * a word (`don't`) or a quote that never closes. Reading those as quotes
   * would swallow the rest of the sentence, and with it a mentioned
   * `rm -rf /` that Hermes (matching text) still sees.
   */
  private literalQuote(i: number, wordStart: number): boolean {
    if (!this.prose()) return false
    const src = this.src
    const c = src.charCodeAt(i)
    if (c === SQ && i > wordStart && isWordCode(src.charCodeAt(i - 1)) && isWordCode(src.charCodeAt(i + 1))) return true
    return src.indexOf(c === SQ ? "'" : '"', i + 1) < 0
  }

  protected atProcessSubstitution(): boolean {
    const c = this.src.charCodeAt(this.pos)
    return (c === LT || c === GT) && this.src.charCodeAt(this.pos + 1) === LPAR
  }

  protected readWord(): Word {
    const src = this.src
    const n = src.length
    const start = this.pos
    const parts: Part[] = []
    let value = ""
    let quoted = false
    let unterminated = false
    let expands = false
    let i = this.pos
    if (this.atProcessSubstitution()) {
      const end = this.nestedList(i + 2)
      parts.push({ kind: "raw", text: src.slice(i, end) })
      value += src.slice(i, end)
      expands = true
      i = end
    }
    while (i < n && !this.stopped()) {
      const c = src.charCodeAt(i)
      if (isMeta(c)) break
      if (c === BSL) {
        quoted = true
        if (i + 1 >= n) {
          unterminated = true
          i++
        } else {
          if (src.charCodeAt(i + 1) !== NL) {
            parts.push({ kind: "literal", text: src[i + 1] ?? "" })
            value += src[i + 1]
          }
          i += 2
        }
      } else if ((c === SQ || c === DQ) && this.literalQuote(i, start)) {
        parts.push({ kind: "literal", text: src[i] ?? "" })
        value += src[i]
        i++
      } else if (c === SQ) {
        quoted = true
        const close = src.indexOf("'", i + 1)
        const end = close < 0 ? n : close
        if (close < 0) unterminated = true
        const s = src.slice(i + 1, end)
        parts.push({ kind: "singleQuoted", text: s })
        value += s
        i = close < 0 ? n : close + 1
      } else if (c === DQ) {
        quoted = true
        const r = this.readDouble(i + 1)
        parts.push({ kind: "doubleQuoted", parts: r.parts })
        value += r.value
        if (r.unterminated) unterminated = true
        if (r.expands) expands = true
        i = r.end
      } else if (c === DOLLAR || c === BQ) {
        const r = this.readExpansion(i, false)
        if (r === null) {
          parts.push({ kind: "literal", text: "$" })
          value += "$"
          i++
        } else {
          parts.push(r.part)
          value += r.value
          if (r.quoted) quoted = true
          else expands = true
          if (r.unterminated) unterminated = true
          i = r.end
        }
      } else {
        let j = i + 1
        while (j < n) {
          const e = src.charCodeAt(j)
          if (isMeta(e) || e === BSL || e === SQ || e === DQ || e === DOLLAR || e === BQ) break
          j++
        }
        const s = src.slice(i, j)
        parts.push({ kind: "literal", text: s })
        value += s
        i = j
      }
    }
    this.pos = i
    return { raw: src.slice(start, i), value, parts, quoted, unterminated, expands }
  }

  protected readDouble(from: number): {
    parts: Part[]
    value: string
    end: number
    unterminated: boolean
    expands: boolean
  } {
    const src = this.src
    const n = src.length
    const parts: Part[] = []
    let value = ""
    let expands = false
    let i = from
    while (i < n && !this.stopped()) {
      const c = src.charCodeAt(i)
      if (c === DQ) return { parts, value, end: i + 1, unterminated: false, expands }
      if (c === BSL && i + 1 < n) {
        const e = src[i + 1] ?? ""
        const kept = e === "$" || e === "`" || e === '"' || e === "\\" ? e : e === "\n" ? "" : `\\${e}`
        parts.push({ kind: "literal", text: kept })
        value += kept
        i += 2
      } else if (c === DOLLAR || c === BQ) {
        const r = this.readExpansion(i, true)
        if (r === null) {
          parts.push({ kind: "literal", text: "$" })
          value += "$"
          i++
        } else {
          parts.push(r.part)
          value += r.value
          expands = true
          i = r.end
        }
      } else {
        let j = i + 1
        while (j < n) {
          const e = src.charCodeAt(j)
          if (e === DQ || e === BSL || e === DOLLAR || e === BQ) break
          j++
        }
        const s = src.slice(i, j)
        parts.push({ kind: "literal", text: s })
        value += s
        i = j
      }
    }
    return { parts, value, end: n, unterminated: true, expands }
  }

  /** `$…` or a backtick at `i`; null when the `$` is a plain character. */
  protected readExpansion(
    i: number,
    inDouble: boolean
  ): { part: Part; value: string; end: number; quoted: boolean; unterminated: boolean } | null {
    const src = this.src
    const n = src.length
    const c = src.charCodeAt(i)
    if (c === BQ) {
      let j = i + 1
      while (j < n && src.charCodeAt(j) !== BQ) j += src.charCodeAt(j) === BSL ? 2 : 1
      const body = unescapeBackticks(src.slice(i + 1, Math.min(j, n)))
      this.nestedSource(body)
      const end = Math.min(j + 1, n)
      return { part: { kind: "backtick", source: body }, value: src.slice(i, end), end, quoted: false, unterminated: false }
    }
    const d = src.charCodeAt(i + 1)
    if (d === LPAR) {
      // `$((…))` is arithmetic only as bash reads it (`arithmeticEnd`); `$((cmd) )` substitutes a subshell's output.
      const arithmetic = src.charCodeAt(i + 2) === LPAR ? this.arithmeticEnd(i + 1) : -1
      const end = arithmetic >= 0 ? arithmetic : this.nestedList(i + 2)
      const text = src.slice(i, end)
      const part: Part =
        arithmetic >= 0
          ? { kind: "raw", text: text }
          : { kind: "commandSubst", source: src.slice(i + 2, text.endsWith(")") ? end - 1 : end) }
      return { part, value: text, end, quoted: false, unterminated: false }
    }
    if (d === LBRACE) {
      const end = this.matchBraces(i + 2)
      const text = src.slice(i, end)
      const inner = src.slice(i + 2, text.endsWith("}") ? end - 1 : end)
      // bash 5.3's `${ cmd; }` and `${| cmd; }` run commands in the shell itself (5.2 refuses them): commands either way.
      if (/^[\s|]/.test(inner)) {
        this.nestedSource(inner.startsWith("|") ? inner.slice(1) : inner)
        return { part: { kind: "commandSubst", source: inner }, value: text, end, quoted: false, unterminated: false }
      }
      // What runs when the expansion is made: `${x:-$(cmd)}`, `${x/$(cmd)/}`, `${a[$(cmd)]}`.
      this.substitutionsWithin(i + 2, i + 2 + inner.length)
      return {
        part: { kind: "bracedParam", text: src.slice(i + 2, text.endsWith("}") ? end - 1 : end) },
        value: text,
        end,
        quoted: false,
        unterminated: false
      }
    }
    if (!inDouble && d === SQ) return this.readAnsiC(i + 2)
    if (!inDouble && d === DQ) {
      // `$"…"`: bash first looks the text up in a message catalog (TEXTDOMAIN, TEXTDOMAINDIR, the locale, a file
      // anyone may plant), so what it expands to is only known when it runs. Its substitutions are still read.
      const r = this.readDouble(i + 2)
      const text = src.slice(i, r.end)
      return { part: { kind: "raw", text }, value: text, end: r.end, quoted: false, unterminated: r.unterminated }
    }
    let j = i + 1
    if (isNameStart(d)) {
      while (j < n && isNameChar(src.charCodeAt(j))) j++
    } else if (isDigit(d) || "@*#?$!-".includes(src[i + 1] ?? " ")) {
      j++
    } else {
      return null
    }
    const s = src.slice(i, j)
    return { part: { kind: "variable", text: s }, value: s, end: j, quoted: false, unterminated: false }
  }

  protected readAnsiC(from: number): { part: Part; value: string; end: number; quoted: boolean; unterminated: boolean } {
    const src = this.src
    let s = ""
    let i = from
    while (i < src.length && src[i] !== "'") {
      if (src[i] === "\\" && i + 1 < src.length) {
        const e = src[i + 1] ?? ""
        // \xHH, \uHHHH, \UHHHHHHHH and \NNN spell characters, so `$'\x72\x6d'` and `$'\u0072m'` are just `rm`.
        const digits = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0
        const hex = digits > 0 ? /^[0-9a-fA-F]+/.exec(src.slice(i + 2, i + 2 + digits)) : null
        const oct = hex === null ? /^[0-7]{1,3}/.exec(src.slice(i + 1, i + 4)) : null
        if (hex !== null) {
          const code = parseInt(hex[0], 16)
          s += code <= 0x10ffff ? String.fromCodePoint(code) : ""
          i += 2 + hex[0].length
        } else if (e === "c" && i + 2 < src.length) {
          // \cX: the control character of X.
          s += String.fromCharCode((src.charCodeAt(i + 2) & 0x1f))
          i += 3
        } else if (oct !== null) {
          s += String.fromCharCode(parseInt(oct[0], 8))
          i += 1 + oct[0].length
        } else {
          s += ANSI_C[e] ?? e
          i += 2
        }
      } else {
        s += src[i]
        i++
      }
    }
    const closed = i < src.length
    return { part: { kind: "singleQuoted", text: s }, value: s, end: closed ? i + 1 : i, quoted: true, unterminated: !closed }
  }

  /**
   * `((` at `i` (a command's or `$((`'s): the index after its `))` when bash reads it as arithmetic, else -1. Bash
   * reads to the `)` matching the second `(` and takes arithmetic only when another `)` follows at once; otherwise
   * the text is a subshell (`((rm -rf x) )`, `$((cmd) )`). Arithmetic only when a quote-blind and a quote-aware scan
   * agree, so a quote cannot make us see arithmetic where bash runs commands.
   */
  protected arithmeticEnd(i: number): number {
    const src = this.src
    const blind = this.matchParens(i + 1)
    if (src.charCodeAt(blind) !== RPAR) return -1
    const aware = this.matchQuotedParens(i + 1)
    return aware + 1 === blind ? blind + 1 : -1
  }

  /** From an opening `(` at `i`, the index of its matching `)` skipping quoted text and escapes (-1 when none). */
  private matchQuotedParens(i: number): number {
    const src = this.src
    let depth = 0
    for (let j = i; j < src.length; j++) {
      const c = src.charCodeAt(j)
      if (c === BSL) j++
      else if (c === SQ || c === DQ) {
        const close = src.indexOf(c === SQ ? "'" : '"', j + 1)
        if (close < 0) return -1
        j = close
      } else if (c === LPAR) depth++
      else if (c === RPAR && --depth === 0) return j
    }
    return -1
  }

  /**
   * The command substitutions and backticks between `from` and `to` (a `${…}`'s inside), parsed as commands. Quotes
   * are not skipped: inside double quotes a `'` is a plain character and `"${x:-'$(cmd)'}"` runs cmd.
   */
  private substitutionsWithin(from: number, to: number): void {
    const src = this.src
    for (let j = from; j < to && !this.stopped(); j++) {
      const c = src.charCodeAt(j)
      if (c === BSL) j++
      else if (c === DOLLAR && src.charCodeAt(j + 1) === LPAR) {
        const arithmetic = src.charCodeAt(j + 2) === LPAR ? this.arithmeticEnd(j + 1) : -1
        if (arithmetic >= 0) this.substitutionsWithin(j + 3, arithmetic - 2)
        j = (arithmetic >= 0 ? arithmetic : this.nestedList(j + 2)) - 1
      } else if (c === BQ) {
        let k = j + 1
        while (k < to && src.charCodeAt(k) !== BQ) k += src.charCodeAt(k) === BSL ? 2 : 1
        this.nestedSource(unescapeBackticks(src.slice(j + 1, Math.min(k, to))))
        j = k
      }
    }
  }

  /** From an opening `(` at `i`, the index after its matching `)` (quote-blind, for arithmetic). */
  protected matchParens(i: number): number {
    const src = this.src
    let depth = 0
    for (let j = i; j < src.length; j++) {
      const c = src.charCodeAt(j)
      if (c === LPAR) depth++
      else if (c === RPAR && --depth === 0) return j + 1
    }
    return src.length
  }

  /** From just inside `${`, the index after the matching `}`. */
  protected matchBraces(from: number): number {
    const src = this.src
    let depth = 1
    for (let j = from; j < src.length; j++) {
      const c = src.charCodeAt(j)
      if (c === BSL) j++
      else if (c === SQ || c === DQ) {
        const close = src.indexOf(String.fromCharCode(c), j + 1)
        if (close < 0) return src.length
        j = close
      } else if (c === LBRACE) depth++
      else if (c === RBRACE && --depth === 0) return j + 1
    }
    return src.length
  }
}
