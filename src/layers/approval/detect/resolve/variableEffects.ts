/**
 * What a command does to the shell's variables: plain and declared
 * assignments set them (to values the Expander computes); builtins that set
 * them from input or at run time (read, mapfile, getopts, printf -v, let,
 * `(( ))`, select, declare -n, source, eval of unknown text, a function
 * call…) make them unknown.
 */
import type { Cmd, Part, Word } from "../../shell/ast.js"
import type { Expander } from "./expand.js"
import { hasGlob } from "./computedText.js"
import { numericParts } from "./numericValues.js"
import type { Scope, Values } from "./variableScope.js"
import { MAX_VALUES } from "./variableScope.js"

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?)=/
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
/** Builtins whose arguments declare variables (`export NAME=value`). */
export const DECLARERS: ReadonlySet<string> = new Set(["export", "declare", "typeset", "local", "readonly"])
/** Builtins whose prefix assignments stay in the shell (POSIX special builtins). */
const SPECIAL_BUILTINS = new Set([":", ".", "source", "eval", "exec", "export", "readonly", "return", "set", "shift", "times", "trap", "unset"])
const ARITH_TARGET = /([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\]\s*)?(?:[-+*/%&|^]|<<|>>)?=(?!=)|([A-Za-z_][A-Za-z0-9_]*)\s*(?:\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)/g

/** Names an arithmetic expression assigns. */
export const arithTargets = (text: string): ReadonlyArray<string> => {
  const out: string[] = []
  for (const m of text.matchAll(ARITH_TARGET)) {
    const name = m[1] ?? m[2] ?? m[3]
    if (name !== undefined) out.push(name)
  }
  return out
}

/**
 * What an arithmetic expression reads: bare names (whose values bash evaluates as arithmetic in turn, so a value
 * `a[$(cmd)]` runs cmd) and `$name` expansions (done before it is evaluated).
 */
export const arithReads = (text: string): { readonly names: ReadonlyArray<string>; readonly expanded: ReadonlyArray<string> } => {
  const expanded: string[] = []
  for (const m of text.matchAll(/\$\{#?([A-Za-z_][A-Za-z0-9_]*)[^}]*\}|\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = m[1] ?? m[2] ?? ""
    if (!expanded.includes(name)) expanded.push(name)
  }
  const names: string[] = []
  // A command substitution inside is a command of its own (judged as one), not names to evaluate.
  let body = text.replace(/`[^`]*`/g, " ")
  for (let i = 0; i < 8 && /\$\((?!\()[^()]*\)/.test(body); i++) body = body.replace(/\$\((?!\()[^()]*\)/g, " ")
  body = body.replace(/\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$\(\(|\$\[/g, " ")
  for (const m of body.matchAll(/(?<![\w#$])[A-Za-z_][A-Za-z0-9_]*/g)) if (!names.includes(m[0])) names.push(m[0])
  return { names, expanded }
}

export interface Effects {
  readonly scope: Scope
  readonly frame: number
  readonly expander: Expander
  /** Names set by each command, so a later call of a function can forget what its body sets. */
  readonly setBy: Map<number, Array<string>>
  /** Body command ranges of the functions defined so far, by name. */
  readonly functionBody: (name: string) => { readonly from: number; readonly to: number } | undefined
  /**
   * Names made read-only so far (`readonly x`, `declare -r x`): bash refuses a later assignment or unset, and the
   * value stays what it was, so such a name is unknown from then on (`x=rm; readonly x; export x=ls; $x` runs rm).
   */
  readonly readOnly: Set<string>
  /** Names declared `-l` / `-u` / `-c` so far: bash converts the case of each value assigned to them. */
  readonly cased: Map<string, CaseAttribute>
}

export type CaseAttribute = "l" | "u" | "c"

/**
 * A value assigned to a name with a case attribute, as bash stores it. glibc's tables convert non-ASCII text (a
 * character's count or spelling may change: `İ` lowers to `i`, JavaScript's to `i̇`): only known at run time.
 */
const casedValues = (values: Values, how: CaseAttribute): Values => {
  if (values === null || values.some((v) => /[^\x00-\x7f]/.test(v))) return null
  return values.map((v) => (how === "l" ? v.toLowerCase() : how === "u" ? v.toUpperCase() : v.slice(0, 1).toUpperCase() + v.slice(1).toLowerCase()))
}

/** The value parts of an assignment word (`x=…`): what follows its first `prefix` characters. */
export const valueParts = (w: Word, prefix: number): ReadonlyArray<Part> => {
  const out: Part[] = []
  let skip = prefix
  for (const p of w.parts) {
    if (skip <= 0) out.push(p)
    else if (p.kind === "literal") {
      if (p.text.length > skip) out.push({ kind: "literal", text: p.text.slice(skip) })
      skip -= p.text.length
    } else return w.parts // the name part was not plain text: not an assignment the lexer split cleanly
  }
  return out
}

/** Whether a name holds only numbers at this point (for values built from it). */
const numericName = (fx: Effects) => (name: string): boolean => fx.scope.lookup(fx.frame, name).numeric

/**
 * Word i of `cmd` as NAME=value: the name and its value (null: unknown; `numeric`: surely a number), or null
 * when not an assignment.
 */
const assignment = (fx: Effects, cmd: Cmd, i: number): { name: string; values: Values; numeric: boolean } | null => {
  const w = cmd.words[i]
  if (w === undefined || w.parts[0]?.kind !== "literal") return null
  const m = ASSIGNMENT.exec(w.value)
  if (m === null || !(w.parts[0].text.length >= m[0].length)) return null
  const name = m[1] ?? ""
  // Arrays (`a=(…)`, `a[i]=…`) and appends are not tracked: the name becomes unknown.
  if (m[2] !== undefined || m[3] === "+" || (i === cmd.words.length - 1 && cmd.parenNext && w.value === m[0])) {
    return { name, values: null, numeric: false }
  }
  const parts = valueParts(w, m[0].length)
  const values = fx.expander.strings(parts)
  return { name, values, numeric: values === null && numericParts(parts, numericName(fx)) }
}

const set = (fx: Effects, cmd: Cmd, name: string, values: Values, sure = true, numeric = false): void => {
  const how = fx.cased.get(name)
  fx.scope.assign(fx.frame, name, fx.readOnly.has(name) ? null : how === undefined ? values : casedValues(values, how), cmd, sure, numeric)
  const list = fx.setBy.get(cmd.seq) ?? []
  list.push(name)
  fx.setBy.set(cmd.seq, list)
}

/** The names become unknown (`numeric`: unknown numbers); a name computed at run time (`read $v`) may be any name. */
const unknown = (fx: Effects, cmd: Cmd, names: ReadonlyArray<string>, numeric = false): void => {
  for (const n of names) {
    if (NAME.test(n)) set(fx, cmd, n, null, true, numeric)
    else if (/[$`]/.test(n)) forget(fx, cmd)
  }
}

const forget = (fx: Effects, cmd: Cmd): void => {
  fx.scope.forgetAll(fx.frame, cmd)
  fx.setBy.set(cmd.seq, ["*"])
}

/** `v` (a declarer's argument, `x` or `x=…`) made read-only; a computed one (`readonly $n`) makes every name unknown. */
const readOnlyName = (fx: Effects, cmd: Cmd, v: string): void => {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[|\+?=|$)/.exec(v)
  if (m !== null && m[1] !== undefined) fx.readOnly.add(m[1])
  else if (/[$`]/.test(v)) forget(fx, cmd)
}

/**
 * The case attribute declarer flags give (`-l`, `-u`, `-c`; the last wins), null when one is taken away (`+l`),
 * undefined when none is named.
 */
const caseAttribute = (flags: string): CaseAttribute | null | undefined => {
  let out: CaseAttribute | null | undefined
  let sign = "-"
  for (const c of flags) {
    if (c === "-" || c === "+") sign = c
    else if (c === "l" || c === "u" || c === "c") out = sign === "+" ? null : c
  }
  return out
}

/** Programs that change variables (besides assignments and function calls). */
export const SETTERS: ReadonlySet<string> = new Set([
  ...DECLARERS, "read", "mapfile", "readarray", "getopts", "printf", "wait", "let", "unset", "select", "source", ".", "for"
])

export const applyEffects = (fx: Effects, cmd: Cmd, head: number, name: string, forLoop: boolean): void => {
  // $((…)) inside any word may assign.
  for (const w of cmd.words) {
    if (!w.raw.includes("((")) continue
    for (const p of w.parts) if (p.kind === "raw" && p.text.startsWith("$((")) unknown(fx, cmd, arithTargets(p.text), true)
  }
  if (head === 0 && !SETTERS.has(name) && fx.functionBody(name) === undefined) return
  const end = head < 0 ? cmd.words.length : head
  if (head < 0 || SPECIAL_BUILTINS.has(name)) {
    for (let i = 0; i < end; i++) {
      const a = assignment(fx, cmd, i)
      if (a !== null) set(fx, cmd, a.name, a.values, head < 0, a.numeric)
    }
  }
  if (head < 0) return
  const values = cmd.words.map((w) => w.value)
  if (DECLARERS.has(name)) {
    const flags = values.slice(head + 1).filter((v) => /^[-+][a-zA-Z]+$/.test(v)).join("")
    // Its names turn read-only once assigned (below); a name computed at run time may be any.
    const makesReadOnly = name === "readonly" || /-[a-zA-Z]*r/.test(flags)
    // A nameref: every later assignment through it sets the variable it names (`declare -n r=PATH; r=/x`), which is
    // not followed here: from now on any variable may hold anything.
    if (/-[a-zA-Z]*n/.test(flags)) {
      forget(fx, cmd)
      return
    }
    // Namerefs, integers and arrays are not tracked; an integer (not an array) surely holds a number.
    const opaque = /[niaA]/.test(flags)
    // The last of -l / -u / -c given wins; `+l` etc. take the attribute away.
    const how = /[luc]/.test(flags) ? caseAttribute(flags) : undefined
    if (how !== undefined) {
      for (let i = head + 1; i < cmd.words.length; i++) {
        const n = /^([A-Za-z_][A-Za-z0-9_]*)(?:=|$)/.exec(values[i] ?? "")?.[1]
        if (n === undefined) continue
        if (how === null) fx.cased.delete(n)
        else fx.cased.set(n, how)
      }
    }
    const integer = /i/.test(flags) && !/[naA]/.test(flags)
    for (let i = head + 1; i < cmd.words.length; i++) {
      const v = values[i] ?? ""
      if (/^[-+]/.test(v)) continue
      const a = assignment(fx, cmd, i)
      if (a !== null) set(fx, cmd, a.name, opaque ? null : a.values, true, integer || (!opaque && a.numeric))
      else if (/^[A-Za-z_][A-Za-z0-9_]*(?:\[|\+?=)/.test(v)) set(fx, cmd, v.slice(0, v.search(/[[+=]/)), null) // quoted: `declare "x=…"`
      else if (cmd.words[i]?.expands === true) forget(fx, cmd) // `declare $name=…`: any name
      else if (opaque && NAME.test(v)) set(fx, cmd, v, null, true, integer)
      if (makesReadOnly && !/^-[a-zA-Z]*f/.test(flags)) readOnlyName(fx, cmd, v)
    }
    return
  }
  switch (name) {
    case "read":
    case "mapfile":
    case "readarray":
      // Every word may name a target (option values included: `read -a name`).
      unknown(fx, cmd, ["REPLY", "MAPFILE", ...values.slice(head + 1).filter((v) => !v.startsWith("-"))])
      return
    case "getopts":
      unknown(fx, cmd, ["OPTARG", ...values.slice(head + 2, head + 3)])
      unknown(fx, cmd, ["OPTIND"], true)
      return
    case "printf": {
      const v = values.findIndex((x, i) => i > head && x.startsWith("-v"))
      if (v > 0) unknown(fx, cmd, [values[v] === "-v" ? (values[v + 1] ?? "") : (values[v] ?? "").slice(2)])
      return
    }
    case "wait": {
      const p = values.indexOf("-p", head + 1)
      if (p > 0) unknown(fx, cmd, [values[p + 1] ?? ""])
      return
    }
    case "let":
      for (const v of values.slice(head + 1)) unknown(fx, cmd, arithTargets(v), true)
      return
    case "unset":
      if (!values.slice(head + 1).some((v) => /^-[a-z]*f/.test(v))) {
        for (const v of values.slice(head + 1)) {
          if (NAME.test(v)) set(fx, cmd, v, [""])
          else if (/[$`]/.test(v)) forget(fx, cmd)
        }
      }
      return
    case "select":
      unknown(fx, cmd, [values[head + 1] ?? ""])
      return
    case "source":
    case ".":
      forget(fx, cmd)
      return
  }
  if (forLoop && head === 0 && name === "for") {
    const v = cmd.words[1]?.value ?? ""
    if (!NAME.test(v)) return
    if (values[2] !== "in") return unknown(fx, cmd, [v])
    const items: string[] = []
    for (const w of cmd.words.slice(3)) {
      const fields = fx.expander.word(w).alts.length === 1 ? fx.expander.fields(w) : null
      // `for f in *.txt`: each value is a name the pattern matches; the pattern stands for them (a write to "$f"
      // is a write to what `*.txt` matches, which the judge lists).
      if (fields === null && !w.expands && hasGlob(w.value)) {
        items.push(w.value)
        continue
      }
      // `for i in $(seq 5)`: unknown, but numbers all the same.
      if (fields === null) return unknown(fx, cmd, [v], cmd.words.slice(3).every((x) => numericParts(x.parts, numericName(fx))))
      items.push(...fields)
    }
    set(fx, cmd, v, items.length === 0 ? [""] : items.length > MAX_VALUES ? null : items)
    return
  }
  const body = fx.functionBody(name)
  if (body !== undefined) {
    for (let seq = body.from; seq < body.to; seq++) {
      for (const n of fx.setBy.get(seq) ?? []) {
        if (n === "*") fx.scope.forgetAll(fx.frame, cmd)
        else set(fx, cmd, n, null)
      }
    }
  }
}
