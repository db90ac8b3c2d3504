/**
 * A small tokenizer for interpreter source text (python, node, perl, ruby,
 * php): enough to tell code from comments and string literals, and to see
 * call chains. Comments are dropped; strings are decoded (escapes resolved,
 * so `"\x72\x6d -rf /"` reads as `rm -rf /`); text a language runs as a shell
 * command (backticks, qx, %x) becomes a `command` token. Never throws: odd input
 * degrades to operators.
 */
import { lookupTable } from "../../../../lib/lookupTable.js"
export type Language = "python" | "node" | "perl" | "ruby" | "php"

export type Tok =
  | { readonly kind: "identifier"; readonly value: string }
  // `literal`: no interpolation, so the text is exactly what the program sees.
  | { readonly kind: "string"; readonly value: string; readonly literal: boolean }
  | { readonly kind: "command"; readonly value: string }
  | { readonly kind: "number" }
  | { readonly kind: "operator"; readonly value: string }
  | { readonly kind: "newline" }

const ID_START = /[A-Za-z_\u0080-\uffff]/
const ID_PART = /[A-Za-z0-9_\u0080-\uffff]/
const OPS3 = ["**=", "...", "<=>", "===", "!==", "<<=", ">>="]
const OPS2 = ["=>", "->", "::", "?.", "==", "!=", "<=", ">=", "&&", "||", "=~", "!~", "+=", "-=", "**", "<<", ">>", "//", ".."]
const PAIRS: Readonly<Record<string, string>> = lookupTable({ "(": ")", "[": "]", "{": "}", "<": ">" })

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = lookupTable({
  n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", e: "\x1b", "0": "\0"
})

/** Backslash escapes of a double-quoted (or Python) string. */
export const decodeEscapes = (s: string): string => {
  if (!s.includes("\\")) return s
  let out = ""
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? ""
    if (c !== "\\" || i + 1 >= s.length) {
      out += c
      continue
    }
    const n = s[i + 1] ?? ""
    let m: RegExpExecArray | null
    if ((m = /^x\{([0-9A-Fa-f]+)\}|^u\{([0-9A-Fa-f]+)\}/.exec(s.slice(i + 1))) !== null) {
      out += String.fromCodePoint(parseInt(m[1] ?? m[2] ?? "0", 16) % 0x110000)
      i += m[0].length
    } else if ((m = /^x([0-9A-Fa-f]{1,2})/.exec(s.slice(i + 1))) !== null) {
      out += String.fromCharCode(parseInt(m[1] ?? "0", 16))
      i += m[0].length
    } else if ((m = /^u([0-9A-Fa-f]{4})|^U([0-9A-Fa-f]{8})/.exec(s.slice(i + 1))) !== null) {
      out += String.fromCodePoint(parseInt(m[1] ?? m[2] ?? "0", 16) % 0x110000)
      i += m[0].length
    } else if ((m = /^[0-7]{1,3}/.exec(s.slice(i + 1))) !== null) {
      out += String.fromCharCode(parseInt(m[0], 8))
      i += m[0].length
    } else {
      out += SIMPLE_ESCAPES[n] ?? n
      i++
    }
  }
  return out
}

/** Single-quoted strings of perl/ruby/php only unescape `\\` and the quote. */
const decodeSingle = (s: string, q: string): string => s.replace(new RegExp(`\\\\([\\\\${q}])`, "g"), "$1")

class Lexer {
  readonly toks: Tok[] = []
  private i = 0
  private depth = 0

  constructor(
    private readonly src: string,
    private readonly lang: Language
  ) {}

  private push(t: Tok): void {
    this.toks.push(t)
  }

  private last(): Tok | undefined {
    for (let k = this.toks.length - 1; k >= 0; k--) if (this.toks[k]?.kind !== "newline") return this.toks[k]
    return undefined
  }

  /** Index of the unescaped `close` from `from` (nesting `open` when given), or the end. */
  private scanTo(from: number, close: string, open: string | null): number {
    let nest = 0
    for (let k = from; k < this.src.length; k++) {
      const c = this.src[k]
      if (c === "\\") {
        k++
        continue
      }
      if (open !== null && c === open) nest++
      else if (c === close) {
        if (nest === 0) return k
        nest--
      }
    }
    return this.src.length
  }

  /** A `/` starts a regex literal when no value precedes it. */
  private regexAllowed(): boolean {
    const t = this.last()
    if (t === undefined) return true
    if (t.kind === "operator") return ![")", "]", "}"].includes(t.value)
    if (t.kind === "identifier") return ["return", "typeof", "case", "in", "of", "split", "grep", "if", "unless", "and", "or", "not", "when"].includes(t.value)
    return false
  }

  private quoted(q: string, start: number, raw: boolean, interpolates: boolean): void {
    const end = this.scanTo(start, q, null)
    const body = this.src.slice(start, end)
    this.i = end + 1
    if (q === "`" && this.lang !== "node" && this.lang !== "python") {
      this.push({ kind: "command", value: body })
      return
    }
    let v: string
    let lit = true
    if (raw) v = body
    else if (this.lang === "python" || this.lang === "node" || q === '"' || q === "`") v = decodeEscapes(body)
    else v = decodeSingle(body, q)
    if (interpolates) {
      if (this.lang === "node") lit = !body.includes("${")
      else if (this.lang === "ruby") lit = !body.includes("#{")
      else if (this.lang === "perl" || this.lang === "php") lit = !/[$@]\{?[A-Za-z_]/.test(body)
      else lit = !/\{[^}]*\}/.test(body.replace(/\{\{|\}\}/g, ""))
    }
    this.push({ kind: "string", value: v, literal: lit })
  }

  /** perl q//, qq//, qw//, qx//, m//, s///, tr///, y///; ruby %q() %Q() %w() %x() %() %r(). */
  private quoteLike(kind: string, at: number): boolean {
    let k = at
    while (this.src[k] === " ") k++
    const open = this.src[k] ?? ""
    if (open === "" || /[\w\s=,;)]/.test(open) || (this.lang === "perl" && open === "=")) return false
    const close = PAIRS[open] ?? open
    const end = this.scanTo(k + 1, close, PAIRS[open] !== undefined ? open : null)
    const body = this.src.slice(k + 1, end)
    let next = end + 1
    if (kind === "s" || kind === "tr" || kind === "y") {
      // The replacement part: same delimiter, or a second bracketed group.
      let j = next
      if (PAIRS[open] !== undefined) {
        while (/\s/.test(this.src[j] ?? "")) j++
        const o2 = this.src[j] ?? ""
        next = this.scanTo(j + 1, PAIRS[o2] ?? o2, PAIRS[o2] !== undefined ? o2 : null) + 1
      } else next = this.scanTo(j, close, null) + 1
    }
    while (/[a-z]/.test(this.src[next] ?? "")) next++
    this.i = next
    if (kind === "qx" || kind === "x") this.push({ kind: "command", value: body })
    else if (kind === "m" || kind === "s" || kind === "tr" || kind === "y" || kind === "qr" || kind === "r") this.push({ kind: "operator", value: "regex" })
    else this.push({ kind: "string", value: kind === "qq" || kind === "Q" || kind === "" ? decodeEscapes(body) : body, literal: !/[$@#]\{?[A-Za-z_]/.test(body) || kind === "q" || kind === "w" })
    return true
  }

  /** `<<EOF`, `<<~EOF`, `<<-'EOF'`, php `<<<EOF`: the body up to the terminator line. */
  private heredoc(): boolean {
    const m = /^<<(<)?([~-])?\s*(["'`]?)([A-Za-z_][A-Za-z0-9_]*)\3/.exec(this.src.slice(this.i))
    if (m === null) return false
    if (m[1] === undefined && this.lang === "php") return false
    const id = m[4] ?? ""
    const lineEnd = this.src.indexOf("\n", this.i)
    if (lineEnd < 0) return false
    const term = new RegExp(`^[ \\t]*${id};?[ \\t]*$`, "m")
    const rest = this.src.slice(lineEnd + 1)
    const t = term.exec(rest)
    const body = t === null ? rest : rest.slice(0, t.index)
    const quote = m[3] ?? ""
    const tok: Tok = quote === "`" ? { kind: "command", value: body } : { kind: "string", value: quote === "'" ? body : decodeEscapes(body), literal: quote === "'" || !/[$@#]\{?[A-Za-z_]/.test(body) }
    // The rest of the introducing line is still code; the body is skipped when we reach it.
    this.i += m[0].length
    this.push(tok)
    this.skipRanges.push([lineEnd + 1, t === null ? this.src.length : lineEnd + 1 + t.index + t[0].length])
    return true
  }

  private readonly skipRanges: Array<readonly [number, number]> = []

  private lineComment(): boolean {
    const s = this.src
    const c = s[this.i]
    if (c === "#" && this.lang !== "node") {
      if (this.lang === "perl" && s[this.i - 1] === "$") return false
      return true
    }
    return c === "/" && s[this.i + 1] === "/" && (this.lang === "node" || this.lang === "php")
  }

  /** Block comments, POD and `=begin`/`=end`. */
  private blockComment(): number {
    const s = this.src
    if ((this.lang === "node" || this.lang === "php") && s.startsWith("/*", this.i)) {
      const end = s.indexOf("*/", this.i + 2)
      return end < 0 ? s.length : end + 2
    }
    const atLineStart = this.i === 0 || s[this.i - 1] === "\n"
    if (atLineStart && this.lang === "ruby" && s.startsWith("=begin", this.i)) {
      const end = s.indexOf("\n=end", this.i)
      return end < 0 ? s.length : end + 5
    }
    if (atLineStart && this.lang === "perl" && /^=[a-zA-Z]/.test(s.slice(this.i, this.i + 2))) {
      const end = s.indexOf("\n=cut", this.i)
      return end < 0 ? s.length : end + 5
    }
    return -1
  }

  run(): Tok[] {
    const s = this.src
    while (this.i < s.length) {
      const skip = this.skipRanges.find(([a]) => a === this.i)
      if (skip !== undefined) {
        this.i = skip[1]
        continue
      }
      const c = s[this.i] ?? ""
      if (c === "\n") {
        if (this.depth === 0 && this.last()?.kind !== "newline") this.push({ kind: "newline" })
        this.i++
        continue
      }
      if (c === " " || c === "\t" || c === "\r") {
        this.i++
        continue
      }
      if (c === "\\" && s[this.i + 1] === "\n") {
        this.i += 2
        continue
      }
      const block = this.blockComment()
      if (block >= 0) {
        this.i = block
        continue
      }
      if (this.lineComment()) {
        const end = s.indexOf("\n", this.i)
        this.i = end < 0 ? s.length : end
        continue
      }
      if (this.lang === "php" && s.startsWith("?>", this.i)) {
        // Back to inline text until the next opening tag.
        const open = s.indexOf("<?", this.i + 2)
        this.i = open < 0 ? s.length : open
        this.push({ kind: "newline" })
        continue
      }
      if (this.lang === "php" && s.startsWith("<?", this.i)) {
        this.i += s.startsWith("<?php", this.i) ? 5 : s.startsWith("<?=", this.i) ? 3 : 2
        continue
      }
      if (c === "<" && s[this.i + 1] === "<" && (this.lang === "perl" || this.lang === "ruby" || this.lang === "php") && this.heredoc()) continue
      if (ID_START.test(c) || ((c === "$" || c === "@" || c === "%") && this.lang !== "python" && this.lang !== "node" && ID_START.test(s[this.i + 1] ?? "") && c !== "%")) {
        if (this.identifier()) continue
      }
      if (c === "$" && this.lang === "node" && /[A-Za-z_$]/.test(s[this.i + 1] ?? "")) {
        if (this.identifier()) continue
      }
      if (c === "%" && this.lang === "ruby" && this.regexAllowed() && /^%[qQwWiIxr]?[^\w\s=]/.test(s.slice(this.i))) {
        const kind = /^%([qQwWiIxr])/.exec(s.slice(this.i))?.[1] ?? ""
        if (this.quoteLike(kind, this.i + 1 + kind.length)) continue
      }
      if (c === ":" && this.lang === "ruby" && ID_START.test(s[this.i + 1] ?? "") && s[this.i - 1] !== ":") {
        // A symbol is a literal name.
        let k = this.i + 1
        while (ID_PART.test(s[k] ?? "") || s[k] === "?" || s[k] === "!") k++
        this.push({ kind: "string", value: s.slice(this.i + 1, k), literal: true })
        this.i = k
        continue
      }
      if (/[0-9]/.test(c)) {
        while (/[0-9A-Za-z_.]/.test(s[this.i] ?? "")) this.i++
        this.push({ kind: "number" })
        continue
      }
      if (c === '"' || c === "'" || c === "`") {
        if (this.lang === "python" && s.startsWith(c.repeat(3), this.i)) {
          const end = s.indexOf(c.repeat(3), this.i + 3)
          const body = s.slice(this.i + 3, end < 0 ? s.length : end)
          this.i = end < 0 ? s.length : end + 3
          this.push({ kind: "string", value: decodeEscapes(body), literal: true })
          continue
        }
        this.quoted(c, this.i + 1, false, c !== "'" || this.lang === "node")
        continue
      }
      if (c === "/" && this.lang !== "python" && this.lang !== "php" && this.regexAllowed()) {
        const end = this.scanTo(this.i + 1, "/", null)
        const nl = s.indexOf("\n", this.i)
        if (nl < 0 || end < nl) {
          this.i = end + 1
          while (/[a-z]/.test(s[this.i] ?? "")) this.i++
          this.push({ kind: "operator", value: "regex" })
          continue
        }
      }
      if (c === "(" || c === "[") this.depth++
      if ((c === ")" || c === "]") && this.depth > 0) this.depth--
      const op = OPS3.find((o) => s.startsWith(o, this.i)) ?? OPS2.find((o) => s.startsWith(o, this.i)) ?? c
      if (op === ";" || ((op === "{" || op === "}") && this.depth === 0)) {
        this.push({ kind: "operator", value: op })
        this.push({ kind: "newline" })
      } else this.push({ kind: "operator", value: op })
      this.i += op.length
    }
    return this.toks
  }

  /** Identifiers (with their sigil), string prefixes (python r/b/f), perl/ruby quote-like operators. */
  private identifier(): boolean {
    const s = this.src
    let k = this.i
    if (s[k] === "$" || s[k] === "@" || s[k] === "%") {
      k++
      if (s[k] === "@") k++
    }
    while (k < s.length && (ID_PART.test(s[k] ?? "") || (this.lang === "node" && s[k] === "$"))) k++
    const word = s.slice(this.i, k)
    const next = s[k] ?? ""
    if (this.lang === "python" && /^(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])$/.test(word) && (next === '"' || next === "'")) {
      const raw = /[rR]/.test(word)
      const f = /[fF]/.test(word)
      if (s.startsWith(next.repeat(3), k)) {
        const end = s.indexOf(next.repeat(3), k + 3)
        const body = s.slice(k + 3, end < 0 ? s.length : end)
        this.i = end < 0 ? s.length : end + 3
        this.push({ kind: "string", value: raw ? body : decodeEscapes(body), literal: !f })
      } else {
        this.quoted(next, k + 1, raw, f)
      }
      return true
    }
    const prev = this.last()
    const method = prev?.kind === "operator" && (prev.value === "->" || prev.value === "." || prev.value === "::")
    if (this.lang === "perl" && !method && /^(?:q|qq|qw|qx|qr|m|s|tr|y)$/.test(word) && next !== "=" && s[k] !== ">" && this.quoteLike(word, k)) return true
    this.i = k
    this.push({ kind: "identifier", value: word })
    return true
  }
}

export const lex = (src: string, lang: Language): Tok[] => new Lexer(src, lang).run()
