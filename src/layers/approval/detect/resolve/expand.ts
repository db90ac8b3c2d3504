/**
 * Word expansion as far as it can be done without running anything:
 * brace expansion, variables (from the Scope), `${…}` operators, `$'…'`,
 * and the output of tiny literal substitutions (`$(echo rm)`,
 * `$(printf '\162\155')`, `$(echo cm0= | base64 -d)`). A word becomes a
 * few alternatives (a variable may hold several values); whatever cannot be
 * computed stays as written, marked unknown.
 */
import type { Cmd, Part, Word } from "../../shell/ast.js"
import { lexCommands, lexWord } from "../../shell/parser.js"
import { basename } from "../../shell/words.js"
import { braceExpand } from "./braces.js"
import type { Scope, Values } from "./variableScope.js"
import { DEFAULT_IFS, MAX_VALUES } from "./variableScope.js"
import {
  base64Decode,
  decodeEscapes,
  echoOutputs,
  globSource,
  hasGlob,
  hexDecode,
  printfOutput,
  reverseLines,
  shellQuote,
  trMap
} from "./computedText.js"
import { printedPath } from "./printedPaths.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

export type Seg =
  | { readonly kind: "literal"; readonly text: string } // unquoted text as written (globs live)
  | { readonly kind: "quoted"; readonly text: string } // quoted text
  | { readonly kind: "expanded"; readonly text: string } // unquoted expansion result (splits and globs)
  | { readonly kind: "uncomputed"; readonly text: string; readonly inDoubleQuotes: boolean } // not computable: its source text
  | { readonly kind: "braceBreak" } // a word boundary made by brace expansion

export type Alt = ReadonlyArray<Seg>

export interface Expansion {
  readonly alts: ReadonlyArray<Alt>
  /** Something was computed: the word reads differently from how it is written. */
  readonly changed: boolean
}

export const MAX_ALTS = 16
const MAX_SUBST_DEPTH = 3
const BRK: Seg = { kind: "braceBreak" }

export interface ExpandContext {
  readonly scope: Scope
  readonly frame: number
  /** Names looked up that nobody gave (not in the line, not in the task's exports). */
  readonly missing: Set<string>
  /** `${x:=v}` assigns while it expands. */
  readonly assign: (name: string, values: Values) => void
}

const product = (lists: ReadonlyArray<ReadonlyArray<Alt>>): ReadonlyArray<Alt> | null => {
  let acc: Alt[] = [[]]
  for (const list of lists) {
    if (list.length === 1) {
      const only = list[0] ?? []
      acc = acc.map((a) => [...a, ...only])
      continue
    }
    if (acc.length * list.length > MAX_ALTS) return null
    const next: Alt[] = []
    for (const a of acc) for (const b of list) next.push([...a, ...b])
    acc = next
  }
  return acc
}

/** The text of an alternative when it is fully known (no unknown part). */
export const altText = (alt: Alt): string | null => {
  let out = ""
  for (const s of alt) {
    if (s.kind === "uncomputed") return null
    if (s.kind !== "braceBreak") out += s.text
    else out += " "
  }
  return out
}

/** The argv words an alternative becomes (split on IFS); null when unknown or a pathname pattern. */
export const altFields = (alt: Alt, ifs: string = DEFAULT_IFS): ReadonlyArray<string> | null => {
  const fields: string[] = []
  let cur = ""
  let open = false
  const end = (): void => {
    if (open) fields.push(cur)
    cur = ""
    open = false
  }
  for (const s of alt) {
    if (s.kind === "uncomputed") return null
    if (s.kind === "braceBreak") end()
    else if (s.kind === "quoted") {
      cur += s.text
      open = true
    } else {
      if (hasGlob(s.text)) return null
      if (s.kind === "literal") {
        cur += s.text
        if (s.text !== "") open = true
        continue
      }
      for (const c of s.text) {
        if (ifs.includes(c)) end()
        else {
          cur += c
          open = true
        }
      }
    }
  }
  end()
  return fields
}

/** Substitutions worth evaluating start with one of the programs runFilter knows. */
const FILTER_START = /^\s*(?:echo|printf|base64|cat|rev|tr|xxd|mktemp|date|git|basename|dirname)(?![\w.-])/

const PARAM = /^(#)?(!)?([A-Za-z_][A-Za-z0-9_]*|\d+|[@*#?$!-])(\[[^\]]*\])?([\s\S]*)$/

export class Expander {
  /** How many expansions were computed so far (to tell whether a word changed). */
  private hits = 0

  constructor(private readonly cx: ExpandContext) {}

  /** The IFS `alt` is split with; asked of the exports only when it has expanded text to split. */
  private ifs(alt: Alt): string {
    if (!alt.some((s) => s.kind === "expanded" && s.text !== "")) return DEFAULT_IFS
    const r = this.cx.scope.lookup(this.cx.frame, "IFS")
    if (r.fromOutside) this.cx.missing.add("IFS")
    return r.values?.length === 1 ? (r.values[0] ?? DEFAULT_IFS) : DEFAULT_IFS
  }

  lookup(name: string): Values {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return null // $0, $1, $@, $?, $$ …: only the running shell knows
    const r = this.cx.scope.lookup(this.cx.frame, name)
    if (r.values === null && r.fromOutside) this.cx.missing.add(name)
    return r.values
  }

  word(w: Word): Expansion {
    if (!w.expands && !w.raw.includes("{") && !w.raw.includes("$'")) return { alts: [plainSegs(w.parts, false)], changed: false }
    const braced = w.raw.includes("{") ? braceExpand(w.raw) : null
    if (braced !== null) {
      const lists: Array<ReadonlyArray<Alt>> = []
      braced.forEach((raw, i) => {
        if (i > 0) lists.push([[BRK]])
        lists.push(this.parts(lexWord(raw).parts, false, 0) ?? [[{ kind: "uncomputed", text: raw, inDoubleQuotes: false }]])
      })
      return { alts: product(lists) ?? [[{ kind: "uncomputed", text: w.raw, inDoubleQuotes: false }]], changed: true }
    }
    const before = this.hits
    const alts = this.parts(w.parts, false, 0)
    if (alts === null) return { alts: [[{ kind: "uncomputed", text: w.raw, inDoubleQuotes: false }]], changed: false }
    return { alts, changed: this.hits > before || alts.length !== 1 || w.raw.includes("$'") }
  }

  /** The argv words `w` becomes when it has one known expansion; null otherwise. */
  fields(w: Word): ReadonlyArray<string> | null {
    const e = this.word(w)
    const only = e.alts.length === 1 ? e.alts[0] : undefined
    return only === undefined ? null : altFields(only, this.ifs(only))
  }

  /** String values of a word read without splitting (assignment values, `${x:-word}` operands). */
  strings(parts: ReadonlyArray<Part>, depth = 0): Values {
    const alts = this.parts(parts, true, depth)
    if (alts === null) return null
    const out: string[] = []
    for (const a of alts) {
      const t = altText(a)
      if (t === null) return null
      if (!out.includes(t)) out.push(t)
    }
    return out.length > MAX_VALUES ? null : out
  }

  parts(parts: ReadonlyArray<Part>, inDq: boolean, depth: number): ReadonlyArray<Alt> | null {
    const lists: Array<ReadonlyArray<Alt>> = []
    for (const p of parts) {
      const l = this.part(p, inDq, depth)
      if (l === null) return null
      lists.push(l)
    }
    return product(lists)
  }

  private values(values: Values, raw: string, inDq: boolean): ReadonlyArray<Alt> {
    if (values === null) return [[{ kind: "uncomputed", text: raw, inDoubleQuotes: inDq }]]
    this.hits++
    return values.map((v) => [inDq ? { kind: "quoted", text: v } : { kind: "expanded", text: v }])
  }

  private part(p: Part, inDq: boolean, depth: number): ReadonlyArray<Alt> | null {
    switch (p.kind) {
      case "literal":
        return [[inDq ? { kind: "quoted", text: p.text } : { kind: "literal", text: p.text }]]
      case "singleQuoted":
        return [[{ kind: "quoted", text: p.text }]]
      case "doubleQuoted":
        return p.parts.length === 0 ? [[{ kind: "quoted", text: "" }]] : this.parts(p.parts, true, depth)
      case "variable":
        return this.values(this.lookup(p.text.slice(1)), p.text, inDq)
      case "bracedParam":
        return this.values(this.param(p.text, depth), `\${${p.text}}`, inDq)
      case "commandSubst":
        return this.values(this.substitution(p.source, depth), `$(${p.source})`, inDq)
      case "backtick":
        return this.values(this.substitution(p.source, depth), `\`${p.source}\``, inDq)
      case "raw":
        return [[{ kind: "uncomputed", text: p.text, inDoubleQuotes: inDq }]]
    }
  }

  // ---- ${…} ------------------------------------------------------------------

  private operand(text: string, depth: number): Values {
    if (!/[\\'"$`]/.test(text)) return [text]
    return this.strings(lexWord(text).parts, depth)
  }

  param(body: string, depth: number): Values {
    const m = PARAM.exec(body)
    if (m === null) return null
    const [, length, bang, name = "", index, rest = ""] = m
    if (index !== undefined) return null // arrays: not tracked
    if (length !== undefined) {
      const v = rest === "" ? this.lookup(name) : null
      return v === null || v.some(nonAscii) ? null : v.map((s) => String(s.length))
    }
    let base: Values
    if (bang !== undefined) {
      if (rest === "*" || rest === "@") return null
      const refs = this.lookup(name)
      if (refs === null) return null
      base = []
      for (const ref of refs) {
        const v = /^[A-Za-z_][A-Za-z0-9_]*$/.test(ref) ? this.lookup(ref) : null
        if (v === null) return null
        base = [...base, ...v]
      }
    } else base = this.lookup(name)
    if (rest === "") return base
    return this.operator(name, base, rest, depth)
  }

  private operator(name: string, base: Values, rest: string, depth: number): Values {
    const op = /^(:?[-=+?])([\s\S]*)$/.exec(rest)
    if (op !== null) {
      const [, sign = "", text = ""] = op
      if (base === null) return null
      const arg = sign.endsWith("?") ? [] : this.operand(text, depth)
      if (arg === null) return null
      const colon = sign.startsWith(":")
      const kind = sign.slice(-1)
      const out = flat(base, (v) => {
        if (kind === "+") return v === "" ? (colon ? [""] : ["", ...arg]) : arg
        if (kind === "?") return [v]
        return v === "" ? (colon ? arg : [v, ...arg]) : [v]
      })
      if (kind === "=" && out !== null) this.cx.assign(name, out)
      return out
    }
    const strip = /^(##?|%%?)([\s\S]*)$/.exec(rest)
    if (strip !== null) {
      const [, how = "", pat = ""] = strip
      const pats = this.operand(pat, depth)
      if (base === null || pats === null || !pats.every(patternKnown) || base.some(nonAscii) || pats.some(nonAscii)) return null
      return flat(base, (v) => pats.flatMap((p) => stripPattern(v, p, how)))
    }
    const repl = /^\/([/#%]?)([\s\S]*)$/.exec(rest)
    if (repl !== null) {
      const [, how = "", body = ""] = repl
      const cut = unescapedSlash(body)
      const pats = this.operand(cut < 0 ? body : body.slice(0, cut), depth)
      const reps = cut < 0 ? [""] : this.operand(body.slice(cut + 1), depth)
      // Which `&` a quote or backslash kept literal is gone once the operand is read: such a mix is not worked out.
      const mixed = cut >= 0 && body.slice(cut + 1).includes("&") && /[\\'"]/.test(body.slice(cut + 1))
      if (base === null || pats === null || reps === null || mixed || !pats.every(patternKnown) || base.some(nonAscii) || pats.some(nonAscii)) return null
      return flat(base, (v) => pats.flatMap((p) => reps.flatMap((r) => replacePattern(v, p, r, how))))
    }
    // Offset and length are arithmetic, where `010` is octal and `0x8` hex: only plain decimals are worked out.
    const sub = /^:\s*(-?(?:0|[1-9]\d*))\s*(?::\s*(-?(?:0|[1-9]\d*))\s*)?$/.exec(rest)
    if (sub !== null) {
      const off = Number(sub[1])
      const len = sub[2] === undefined ? undefined : Number(sub[2])
      if (base?.some(nonAscii) === true) return null
      return mapValues(base, (v) => {
        const start = off < 0 ? Math.max(0, v.length + off) : off
        const end = len === undefined ? v.length : len < 0 ? v.length + len : start + len
        return [v.slice(start, Math.max(start, end))]
      })
    }
    const cases: Readonly<Record<string, (v: string) => string>> = lookupTable({
      "^^": (v) => v.toUpperCase(),
      ",,": (v) => v.toLowerCase(),
      "^": (v) => v.slice(0, 1).toUpperCase() + v.slice(1),
      ",": (v) => v.slice(0, 1).toLowerCase() + v.slice(1),
      "@U": (v) => v.toUpperCase(),
      "@L": (v) => v.toLowerCase(),
      "@u": (v) => v.slice(0, 1).toUpperCase() + v.slice(1),
      "@Q": (v) => shellQuote(v),
      "@E": (v) => decodeEscapes(v, false).text
    })
    const f = cases[rest]
    if (f === undefined || (CASE_MAPS.has(rest) && base?.some(nonAscii) === true)) return null
    return mapValues(base, (v) => [f(v)])
  }

  // ---- $(…) ------------------------------------------------------------------

  /** Output of a substitution made of echo/printf and text filters only; null otherwise. */
  substitution(src: string, depth: number): Values {
    if (depth >= MAX_SUBST_DEPTH || !FILTER_START.test(src)) return null
    const all = lexCommands(src)
    if (all === null) return null
    const cmds = all.filter((c) => c.origin === "data")
    if (cmds.length === 0 || cmds.length !== all.length) return null
    // `$(printf .gi; printf t)`: a list of pipelines prints their outputs one after another.
    const pipelines: Array<Array<Cmd>> = []
    for (const c of cmds) {
      if (c.nested || c.funcDef) return null
      const last = pipelines.at(-1)
      if (c.pipePrev === null) {
        // What runs after `||` or in the background is not known to run, or not in order.
        if (last !== undefined && !LIST_OPS.has(c.prevOp)) return null
        pipelines.push([c])
      } else if (last !== undefined && c.pipePrev === last.at(-1)) last.push(c)
      else return null
    }
    if (cmds.at(-1)?.nextOp === "&") return null
    let printed: ReadonlyArray<string> = [""]
    for (const pipeline of pipelines) {
      let texts: ReadonlyArray<string | null> = [null]
      for (const c of pipeline) {
        const next: string[] = []
        for (const input of texts) {
          const outs = this.stage(c, input, depth + 1)
          if (outs === null) return null
          for (const o of outs) if (!next.includes(o)) next.push(o)
        }
        if (next.length > MAX_VALUES) return null
        texts = next
      }
      const joined: string[] = []
      for (const before of printed) for (const t of texts) if (!joined.includes(before + (t ?? ""))) joined.push(before + (t ?? ""))
      if (joined.length > MAX_VALUES) return null
      printed = joined
    }
    return printed.map((t) => t.replace(/\n+$/, ""))
  }

  /** What one stage of a literal pipeline prints for `input` (null: no input). */
  private stage(c: Cmd, input: string | null, depth: number): ReadonlyArray<string> | null {
    let stdin = input
    for (const r of c.redirs) {
      if (r.op !== "<<<" || r.target === null) return null
      const v = this.strings(r.target.parts, depth)
      if (v?.length !== 1) return null
      stdin = `${v[0] ?? ""}\n`
    }
    return this.run(c.words, stdin)
  }

  /** What a filter stage (`base64 -d`, `xxd -r -p`, `rev`, `tr a b`, `cat`) prints for `input`, when known. */
  filtered(c: Cmd, input: string): Values {
    const r = this.stage(c, input, 0)
    return r === null || r.length > MAX_VALUES ? null : r
  }

  /** What echo/printf (the first word) print with these words, when every word is known. */
  output(words: ReadonlyArray<Word>): Values {
    const r = this.run(words, null)
    return r === null || r.length > MAX_VALUES ? null : r
  }

  private run(words: ReadonlyArray<Word>, stdin: string | null): ReadonlyArray<string> | null {
    const lists: Array<ReadonlyArray<Alt>> = []
    words.forEach((w, i) => {
      if (i > 0) lists.push([[BRK]])
      lists.push(this.word(w).alts)
    })
    const out: string[] = []
    for (const alt of product(lists) ?? []) {
      const argv = altFields(alt, this.ifs(alt))
      const r = argv === null ? null : runFilter(argv, stdin)
      if (r === null) return null
      for (const o of r) if (!out.includes(o)) out.push(o)
    }
    return out.length === 0 ? null : out
  }
}

/** Operators between pipelines of a substitution whose outputs follow one another. */
const LIST_OPS: ReadonlySet<string> = new Set([";", "\n", "&&"])

const runFilter = (argv: ReadonlyArray<string>, stdin: string | null): ReadonlyArray<string> | null => {
  const [cmd = "", ...args] = argv
  switch (basename(cmd)) {
    case "mktemp":
    case "date":
    case "git":
    case "basename":
    case "dirname": {
      const o = printedPath(basename(cmd), args)
      return o === null ? null : [o]
    }
    case "echo":
      return echoOutputs(args)
    case "printf": {
      const o = printfOutput(args)
      return o === null ? null : [o]
    }
    case "cat":
      return args.length === 0 && stdin !== null ? [stdin] : null
    case "base64": {
      if (stdin === null || !args.some((a) => a === "-d" || a === "--decode" || a === "-D" || /^-[a-zA-Z]*d/.test(a))) return null
      const o = base64Decode(stdin)
      return o === null ? null : [o]
    }
    case "xxd": {
      if (stdin === null || !args.includes("-r") || !args.includes("-p")) return null
      const o = hexDecode(stdin)
      return o === null ? null : [o]
    }
    case "rev":
      return stdin !== null && args.length === 0 ? [reverseLines(stdin)] : null
    case "tr": {
      if (stdin === null || args.length !== 2 || args.some((a) => a.startsWith("-"))) return null
      const o = trMap(stdin, args[0] ?? "", args[1] ?? "")
      return o === null ? null : [o]
    }
    default:
      return null
  }
}

const plainSegs = (parts: ReadonlyArray<Part>, inDq: boolean): Alt => {
  const out: Seg[] = []
  for (const p of parts) {
    if (p.kind === "literal") out.push(inDq ? { kind: "quoted", text: p.text } : { kind: "literal", text: p.text })
    else if (p.kind === "singleQuoted") out.push({ kind: "quoted", text: p.text })
    else if (p.kind === "doubleQuoted") out.push(...(p.parts.length === 0 ? [{ kind: "quoted", text: "" } as const] : plainSegs(p.parts, true)))
    else out.push({ kind: "uncomputed", text: p.kind === "commandSubst" ? `$(${p.source})` : p.kind === "backtick" ? `\`${p.source}\`` : p.kind === "bracedParam" ? `\${${p.text}}` : p.text, inDoubleQuotes: inDq })
  }
  return out
}

/**
 * bash counts, matches `?`/`[…]` and maps case by characters with glibc's tables in a UTF-8 locale, and by bytes in
 * the C locale; JavaScript by UTF-16 units with Unicode's tables (`😀` is two units, `İ` lowers to two characters).
 * On ASCII all agree; on anything else such a result is only known when the command runs.
 */
export const nonAscii = (s: string): boolean => /[^\x00-\x7f]/.test(s)

/** The `${x…}` case conversions (which follow the locale's tables). */
const CASE_MAPS: ReadonlySet<string> = new Set(["^^", ",,", "^", ",", "@U", "@L", "@u"])

const mapValues = (v: Values, f: (s: string) => ReadonlyArray<string>): Values => (v === null ? null : flat(v, f))

const flat = (v: ReadonlyArray<string>, f: (s: string) => ReadonlyArray<string>): Values => {
  const out: string[] = []
  for (const s of v) for (const r of f(s)) if (!out.includes(r)) out.push(r)
  return out.length > MAX_VALUES ? null : out
}

const unescapedSlash = (s: string): number => {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") i++
    else if (s[i] === "/") return i
  }
  return -1
}

/**
 * A pattern worked out here as bash matches it: not with extended-glob operators (`+(x)`, `@(a|b)`, `!(x)`: an
 * earlier `shopt -s extglob` makes them patterns) nor character classes, equivalence classes or collating symbols
 * (`[[:alpha:]]`, `[[=a=]]`, `[[.a.]]`).
 */
const patternKnown = (pat: string): boolean => !/[?*+@!]\(|\[[:=.]/.test(pat)

/**
 * Whether the shell matches patterns ignoring case (`shopt -s nocasematch`, set by this line or an earlier one) is
 * not known: both ways are possible values.
 */
const CASE_FLAGS: ReadonlyArray<string> = ["", "i"]

const stripPattern = (v: string, pat: string, how: string): ReadonlyArray<string> => {
  const longest = how.length === 2
  const src = globSource(pat, !longest)
  return CASE_FLAGS.map((flags) => {
    const re = how.startsWith("#") ? new RegExp(`^${src}`, flags) : new RegExp(`${src}$`, flags)
    if (how.startsWith("#")) {
      const m = re.exec(v)
      return m === null ? v : v.slice(m[0].length)
    }
    const whole = new RegExp(`^${src}$`, flags)
    // Suffix removal: try each start, shortest suffix first unless `%%`.
    if (longest) {
      for (let i = 0; i <= v.length; i++) if (whole.test(v.slice(i))) return v.slice(0, i)
    } else {
      for (let i = v.length; i >= 0; i--) if (whole.test(v.slice(i))) return v.slice(0, i)
    }
    return v
  })
}

/**
 * `${v/pat/rep}`: in bash 5.2 an `&` in the replacement stands for the matched text (`patsub_replacement`, on by
 * default, may be off; a quoted `&` is literal, and quoting is gone by now): both readings are possible values.
 */
const replacePattern = (v: string, pat: string, rep: string, how: string): ReadonlyArray<string> => {
  if (pat === "") return [v]
  const src = globSource(pat, false)
  const out: string[] = []
  for (const flags of CASE_FLAGS) {
    const re = how === "#" ? new RegExp(`^${src}`, flags) : how === "%" ? new RegExp(`${src}$`, flags) : new RegExp(src, how === "/" ? `g${flags}` : flags)
    out.push(v.replace(re, () => rep))
    if (rep.includes("&")) out.push(v.replace(re, (matched) => rep.replaceAll("&", matched)))
  }
  return out
}
