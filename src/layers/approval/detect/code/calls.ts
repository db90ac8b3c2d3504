/**
 * Call sites in a token stream: `a.b.c(args)`, paren-less calls where the
 * language allows them (`system "ls"` in perl/ruby), and module values
 * returned by a loader (`__import__("os").system`, `require("fs").rmSync`),
 * with the root name resolved through the file's imports.
 */
import type { Language, Tok } from "./lexer.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

export interface Call {
  /** Dotted name, root resolved through imports (`s.rmtree` after `import shutil as s` → `shutil.rmtree`). */
  readonly name: string
  /** The last name of the chain (`rmtree`). */
  readonly member: string
  /** The chain is a single name (`eval(…)`, not `x.eval(…)`). */
  readonly bare: boolean
  /** Tokens of the arguments (inside the parentheses, or to the end of the statement). */
  readonly args: ReadonlyArray<Tok>
  /** Index of the statement the call is in. */
  readonly stmt: number
  /** Index of the chain's first token. */
  readonly at: number
}

const CHAIN_OPS = new Set([".", "->", "::", "?."])
const OPENERS: Readonly<Record<string, string>> = lookupTable({ "(": ")", "[": "]", "{": "}" })

/** Index of the token closing the bracket opened at `open`. */
export const closing = (toks: ReadonlyArray<Tok>, open: number): number => {
  const o = toks[open]
  if (o?.kind !== "operator") return open
  const close = OPENERS[o.value]
  if (close === undefined) return open
  let depth = 0
  for (let k = open; k < toks.length; k++) {
    const t = toks[k]
    if (t?.kind !== "operator") continue
    if (t.value === o.value) depth++
    else if (t.value === close && --depth === 0) return k
  }
  return toks.length
}

/** Arguments split at top-level commas. */
export const splitArgs = (args: ReadonlyArray<Tok>): Tok[][] => {
  const out: Tok[][] = [[]]
  let depth = 0
  for (const t of args) {
    if (t.kind === "operator" && OPENERS[t.value] !== undefined) depth++
    if (t.kind === "operator" && (t.value === ")" || t.value === "]" || t.value === "}")) depth--
    if (depth === 0 && t.kind === "operator" && (t.value === "," || t.value === "=>") && !(t.value === "=>" && out[out.length - 1]?.length === 0)) {
      out.push([])
      continue
    }
    out[out.length - 1]?.push(t)
  }
  return out.filter((a) => a.length > 0)
}

/** The argument is one plain string literal. */
export const literal = (arg: ReadonlyArray<Tok> | undefined): string | null => {
  if (arg === undefined || arg.length !== 1) return null
  const t = arg[0]
  return t?.kind === "string" && t.literal ? t.value : null
}

export const strings = (toks: ReadonlyArray<Tok>): string[] => toks.flatMap((t) => (t.kind === "string" ? [t.value] : []))

/** Root name standing for a value computed by an expression. */
export const EXPRESSION = "<expr>"

const valueEnds = (t: Tok | undefined): boolean => t !== undefined && (t.kind === "string" || (t.kind === "operator" && (t.value === ")" || t.value === "]")))

/** Calls whose result is a module named by a literal. */
const LOADERS = new Set(["__import__", "importlib.import_module", "require", "import"])

/** A dotted name used as a value, not called here (`f = shutil.rmtree`, `map(rmtree, …)`, `require("fs").rmSync`). */
export interface Ref {
  /** Dotted name, root resolved through imports. */
  readonly name: string
  /** The root as written (`s` in `s.rmtree`), or the module a loader call returned. */
  readonly root: string
  /** The root is an import alias or a loader's module (not a name the file only happens to use). */
  readonly imported: boolean
}

export interface Scan {
  readonly calls: ReadonlyArray<Call>
  /** Names used as values without a call: a function can be called later under another name. */
  readonly refs: ReadonlyArray<Ref>
  /** Statement index of every token. */
  readonly stmtOf: ReadonlyArray<number>
}

/**
 * `aliases`: local name → what it stands for (a module or `module.member`).
 * `parenless`: the language lets a bare name take arguments without parentheses.
 */
export const scanCalls = (
  toks: ReadonlyArray<Tok>,
  aliases: ReadonlyMap<string, string>,
  lang: Language
): Scan => {
  const stmtOf: number[] = []
  let stmt = 0
  for (const t of toks) {
    if (t.kind === "newline") stmt++
    stmtOf.push(stmt)
  }
  const calls: Call[] = []
  const refs: Ref[] = []
  const moduleAt = new Map<number, string>() // index of a loader call's `)` → module
  const stmtEnd = (k: number): number => {
    let j = k
    while (j < toks.length && toks[j]?.kind !== "newline" && !(toks[j]?.kind === "operator" && (toks[j] as { value: string }).value === ";")) j++
    return j
  }
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]
    const prev = toks[i - 1]
    let root: string | null = null
    let imported = false
    let j = i
    if (t?.kind === "identifier" && !(prev?.kind === "operator" && CHAIN_OPS.has(prev.value))) {
      root = aliases.get(t.value) ?? t.value
      imported = aliases.has(t.value)
    } else if (t?.kind === "identifier" && prev?.kind === "operator" && CHAIN_OPS.has(prev.value) && valueEnds(toks[i - 2])) {
      // A method of a value we do not name (`Path(p).expanduser().write_text(…)`, `"a".join(…)`).
      root = EXPRESSION
      j = i - 2
    } else if (t?.kind === "operator" && t.value === ")" && moduleAt.has(i)) {
      root = moduleAt.get(i) ?? null
      imported = true
      if (toks[i + 1]?.kind !== "operator" || !CHAIN_OPS.has((toks[i + 1] as { value: string }).value)) continue
    } else continue
    if (root === null) continue
    const names = [root]
    const bare = t?.kind === "identifier" && root !== EXPRESSION
    let chained = false
    while (true) {
      const op = toks[j + 1]
      const next = toks[j + 2]
      if (op?.kind === "operator" && CHAIN_OPS.has(op.value) && next?.kind === "identifier") {
        names.push(next.value)
        chained = true
        j += 2
      } else if (op?.kind === "operator" && op.value === "[" && toks[j + 3]?.kind === "operator" && (toks[j + 3] as { value: string }).value === "]" && next?.kind === "string" && next.literal) {
        // `fs["rmSync"]`: a literal member name.
        names.push(next.value)
        chained = true
        j += 3
      } else break
    }
    const name = names.join(".")
    const member = names[names.length - 1] ?? ""
    const after = toks[j + 1]
    let args: Tok[] | null = null
    if (after?.kind === "operator" && after.value === "(") {
      const close = closing(toks, j + 1)
      args = toks.slice(j + 2, close) as Tok[]
      if (LOADERS.has(name) || (name === "import" && lang === "node")) {
        const lit = literal(args)
        if (lit !== null) moduleAt.set(close, lit.replace(/^node:/, ""))
      }
    } else if ((lang === "perl" || lang === "ruby" || lang === "php") && after !== undefined && (after.kind === "string" || after.kind === "identifier" || after.kind === "command" || after.kind === "number")) {
      // `system "ls"`, `unlink $f`, `FileUtils.rm_rf dir`, `require $x`.
      if (after.kind === "identifier" && !/^[$@]/.test(after.value) && lang !== "ruby") args = null
      else args = toks.slice(j + 1, stmtEnd(j + 1)) as Tok[]
    }
    if (args !== null) calls.push({ name, member, bare: bare && !chained, args, stmt: stmtOf[i] ?? 0, at: i })
    else if (root !== EXPRESSION) refs.push({ name, root: t?.kind === "identifier" ? t.value : root, imported })
    // The rest of the chain was read with it: `a.b.c` is one name, not also `b.c` and `c`.
    if (j > i && t?.kind === "identifier") i = j
  }
  return { calls, refs, stmtOf }
}
