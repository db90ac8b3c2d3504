/** What local names stand for, from a file's import statements (python, node). */
import type { Tok } from "./lexer.js"

export interface Imports {
  /** Local name → module or `module.member`. */
  readonly aliases: Map<string, string>
  /** Modules imported whole, by any name (`import os`, `require('child_process')`). */
  readonly modules: Set<string>
  /** `from m import *`. */
  readonly wildcards: string[]
}

const idAt = (toks: ReadonlyArray<Tok>, k: number): string | null => {
  const t = toks[k]
  return t?.kind === "identifier" ? t.value : null
}
const opAt = (toks: ReadonlyArray<Tok>, k: number, v: string): boolean => {
  const t = toks[k]
  return t?.kind === "operator" && t.value === v
}

/** A dotted name from `k`: the name and the index after it. */
const dotted = (toks: ReadonlyArray<Tok>, k: number): readonly [string, number] => {
  const parts: string[] = []
  let j = k
  while (idAt(toks, j) !== null) {
    parts.push(idAt(toks, j) ?? "")
    if (!opAt(toks, j + 1, ".")) return [parts.join("."), j + 1]
    j += 2
  }
  return [parts.join("."), j]
}

/**
 * `o = __import__("os")`, `o = importlib.import_module("os")`, `o = os`: a module held in a variable is the module
 * under another name (round 9: `o.system(…)` was a method of an object the rules could not name).
 */
const heldModule = (toks: ReadonlyArray<Tok>, k: number, out: Imports): string | null => {
  const ends = (j: number): boolean => toks[j] === undefined || toks[j]?.kind === "newline" || opAt(toks, j, ";")
  const lit = (j: number): string | null => {
    const t = toks[j]
    return t?.kind === "string" && t.literal ? t.value : null
  }
  const [name, after] = dotted(toks, k)
  if (name === "") return null
  // The name as imported: `il.import_module` after `import importlib as il`, `import_module` after a from-import.
  const root = name.split(".")[0] ?? ""
  const full = `${out.aliases.get(root) ?? root}${name.slice(root.length)}`
  // `__import__("os")`, `__import__("os", globals(), locals(), [], 0)`, `import_module("os", None)`: the first argument.
  if (opAt(toks, after, "(") && (full === "__import__" || full === "importlib.import_module")) {
    let depth = 0
    for (let j = after; j < toks.length; j++) {
      if (opAt(toks, j, "(") || opAt(toks, j, "[") || opAt(toks, j, "{")) depth++
      else if (opAt(toks, j, ")") || opAt(toks, j, "]") || opAt(toks, j, "}")) depth--
      if (depth === 0) return ends(j + 1) && (opAt(toks, after + 2, ")") || opAt(toks, after + 2, ",")) ? lit(after + 1) : null
    }
    return null
  }
  if (!ends(after) || name.includes(".")) return null
  return out.aliases.get(name) ?? (out.modules.has(name) ? name : null)
}

export const pythonImports = (toks: ReadonlyArray<Tok>): Imports => {
  const out: Imports = { aliases: new Map(), modules: new Set(), wildcards: [] }
  for (let i = 0; i < toks.length; i++) {
    const w = idAt(toks, i)
    // A statement starts a line, or follows `;` or a compound statement's `:` (`try: import os as o`).
    const atStart = i === 0 || toks[i - 1]?.kind === "newline" || opAt(toks, i - 1, ";") || (opAt(toks, i - 1, ":") && (w === "import" || w === "from"))
    if (!atStart) continue
    if (w !== null && w !== "import" && w !== "from" && opAt(toks, i + 1, "=") && !opAt(toks, i + 2, "=")) {
      const module = heldModule(toks, i + 2, out)
      if (module !== null && module !== "") {
        out.aliases.set(w, module)
        out.modules.add(module)
      }
      continue
    }
    if (w === "import") {
      let k = i + 1
      while (k < toks.length) {
        const [mod, after] = dotted(toks, k)
        if (mod === "") break
        out.modules.add(mod)
        k = after
        if (idAt(toks, k) === "as" && idAt(toks, k + 1) !== null) {
          out.aliases.set(idAt(toks, k + 1) ?? "", mod)
          k += 2
        }
        if (!opAt(toks, k, ",")) break
        k++
      }
    } else if (w === "from") {
      const [mod, after] = dotted(toks, i + 1)
      if (mod === "" || idAt(toks, after) !== "import") continue
      out.modules.add(mod)
      for (let k = after + 1; k < toks.length && toks[k]?.kind !== "newline"; k++) {
        if (opAt(toks, k, "*")) out.wildcards.push(mod)
        const name = idAt(toks, k)
        if (name === null || name === "as") continue
        if (idAt(toks, k - 1) === "as") continue
        const local = idAt(toks, k + 1) === "as" ? (idAt(toks, k + 2) ?? name) : name
        out.aliases.set(local, `${mod}.${name}`)
      }
    }
  }
  return out
}

const moduleLiteral = (t: Tok | undefined): string | null => (t?.kind === "string" ? t.value.replace(/^node:/, "") : null)

export const nodeImports = (toks: ReadonlyArray<Tok>): Imports => {
  const out: Imports = { aliases: new Map(), modules: new Set(), wildcards: [] }
  for (let i = 0; i < toks.length; i++) {
    const w = idAt(toks, i)
    if (w === "require" && opAt(toks, i + 1, "(")) {
      const mod = moduleLiteral(toks[i + 2])
      if (mod === null) continue
      out.modules.add(mod)
      // `const X = require(m)`, `const { a, b: c } = require(m)`.
      let b = i - 2
      while (b >= 0 && toks[b]?.kind === "newline") b--
      if (opAt(toks, i - 1, "=")) {
        const name = idAt(toks, b)
        if (name !== null) out.aliases.set(name, mod)
        else if (opAt(toks, b, "}")) {
          let k = b - 1
          while (k >= 0 && !opAt(toks, k, "{")) k--
          bindings(toks, k + 1, b, mod, ":", out)
        }
      }
    } else if (w === "import" && (i === 0 || toks[i - 1]?.kind === "newline" || opAt(toks, i - 1, ";"))) {
      let end = i + 1
      while (end < toks.length && end < i + 200 && !opAt(toks, end, ";") && !(idAt(toks, end) === "from")) end++
      const mod = idAt(toks, end) === "from" ? moduleLiteral(toks[end + 1]) : moduleLiteral(toks[i + 1])
      if (mod === null) continue
      out.modules.add(mod)
      for (let k = i + 1; k < end; k++) {
        if (opAt(toks, k, "*") && idAt(toks, k + 1) === "as") out.aliases.set(idAt(toks, k + 2) ?? "", mod)
        else if (opAt(toks, k, "{")) {
          const close = toks.findIndex((t, j) => j > k && t.kind === "operator" && t.value === "}")
          bindings(toks, k + 1, close < 0 ? end : close, mod, "as", out)
          k = close < 0 ? end : close
        } else if (idAt(toks, k) !== null && k === i + 1) out.aliases.set(idAt(toks, k) ?? "", mod)
      }
    }
  }
  return out
}

/** `a, b as c` / `a, b: c` between `from` and `to`. */
const bindings = (toks: ReadonlyArray<Tok>, from: number, to: number, mod: string, rename: string, out: Imports): void => {
  for (let k = from; k < to; k++) {
    const name = idAt(toks, k)
    if (name === null) continue
    const renamed = (rename === ":" ? opAt(toks, k + 1, ":") : idAt(toks, k + 1) === "as") ? idAt(toks, k + 2) : null
    out.aliases.set(renamed ?? name, `${mod}.${name}`)
    if (renamed !== null) k += 2
  }
}
