/**
 * Python's ways to reach a function without naming it as `module.attr(…)`:
 * the namespace mappings (`vars(os)["system"]`, `globals()["os"]`,
 * `os.__dict__[k]`, `sys.modules[k]`), the builtins module under its
 * implementation name (`__builtins__`), the loaders taken as values
 * (`e = eval`, `imp = __import__`) and the introspection walks sandbox
 * escapes end in (`….__subclasses__()[k].__init__.__globals__["system"]`, a
 * frame's `f_globals[…]`).
 * A literal key is judged as the attribute it names; a computed one is a
 * name computed at run time.
 */
import type { CodeKind } from "../descriptions.js"
import type { Imports } from "./imports.js"
import type { Tok } from "./lexer.js"

/** Modules whose namespace holds a way to run programs, delete files or load code. */
const RISKY = new Set(["os", "subprocess", "shutil", "pty", "builtins", "__builtins__", "importlib", "sys", "posix", "nt", "ctypes", "commands", "platform", "pathlib", "runpy", "pickle", "code", "pdb", "IPython"])
/** Builtins that evaluate or load code, taken as values or fetched from a namespace. */
const CODE_BUILTINS = new Set(["eval", "exec", "compile", "__import__", "getattr", "breakpoint"])
/** Introspection that leads from any object to every module's globals. */
const WALKS = new Set(["__globals__", "__builtins__"])
/** A frame's namespaces: reading one by key (`f.f_globals["os"]`, `.get(…)`) fetches by name; passing it along does not. */
const FRAME_NAMESPACES = new Set(["f_globals", "f_locals", "f_builtins"])

const isOp = (t: Tok | undefined, v: string): boolean => t?.kind === "operator" && t.value === v
const ident = (t: Tok | undefined): string | null => (t?.kind === "identifier" ? t.value : null)

/** The key of a subscript opening at `open`: the literal, or null when computed. */
const subscriptKey = (toks: ReadonlyArray<Tok>, open: number): string | null => {
  const key = toks[open + 1]
  return key?.kind === "string" && key.literal && isOp(toks[open + 2], "]") ? key.value : null
}

export interface NamespaceJudge {
  /** What fetching `attr` from module `module` gives a caller. */
  readonly kindOf: (module: string, attr: string) => CodeKind | null
}

export const pythonNamespaceFindings = (toks: ReadonlyArray<Tok>, imports: Imports, judge: NamespaceJudge): CodeKind[] => {
  const out: CodeKind[] = []
  const resolve = (name: string): string => imports.aliases.get(name) ?? name
  const riskyModule = (name: string): boolean => RISKY.has(resolve(name).split(".")[0] ?? "")
  /** A fetched key: judged as the attribute it names, or a computed name. */
  const fetched = (module: string, key: string | null): void => {
    if (key === null) out.push("load")
    else if (CODE_BUILTINS.has(key)) out.push("load")
    else {
      const kind = judge.kindOf(module, key)
      if (kind !== null) out.push(kind)
    }
  }
  for (let i = 0; i < toks.length; i++) {
    const name = ident(toks[i])
    if (name === null) continue
    const prev = toks[i - 1]
    const afterDot = isOp(prev, ".")
    if (WALKS.has(name) && (afterDot || name === "__builtins__")) {
      out.push("load")
      continue
    }
    if (FRAME_NAMESPACES.has(name) && afterDot && (isOp(toks[i + 1], "[") || isOp(toks[i + 1], "."))) {
      out.push("load")
      continue
    }
    if (afterDot) {
      // `os.__dict__[k]` (a literal key is read by the call scan as `os.system`); `sys.modules[k]`.
      const root = ident(toks[i - 2])
      if (root !== null && !isOp(toks[i - 3], ".") && isOp(toks[i + 1], "[")) {
        if (name === "__dict__" && riskyModule(root) && subscriptKey(toks, i + 1) === null) out.push("load")
        // `sys.modules[__name__]` is the script's own module.
        const own = ident(toks[i + 2]) === "__name__" && isOp(toks[i + 3], "]")
        if (name === "modules" && resolve(root) === "sys" && !own) {
          const key = subscriptKey(toks, i + 1)
          if (key === null || RISKY.has(key)) out.push(key === null ? "load" : "run")
        }
      }
      continue
    }
    // `vars(os)[…]`, `globals()[…]`, `locals()[…]`, `vars()[…]`.
    if ((name === "vars" || name === "globals" || name === "locals") && isOp(toks[i + 1], "(")) {
      const arg = ident(toks[i + 2])
      const empty = isOp(toks[i + 2], ")")
      const close = empty ? i + 2 : arg !== null && isOp(toks[i + 3], ")") ? i + 3 : -1
      if (close < 0 || !isOp(toks[close + 1], "[")) continue
      const key = subscriptKey(toks, close + 1)
      if (!empty && arg !== null) {
        if (riskyModule(arg)) fetched(resolve(arg), key)
        continue
      }
      // The module's own names: a literal key is a name the file imported or a builtin.
      if (key === null) out.push("load")
      else if (CODE_BUILTINS.has(key) || key === "__builtins__" || resolve(key) === "builtins") out.push("load")
      else if (RISKY.has(resolve(key))) out.push("run")
      else {
        const full = resolve(key)
        const dot = full.lastIndexOf(".")
        if (dot > 0) fetched(full.slice(0, dot), full.slice(dot + 1))
      }
      continue
    }
    // A loader taken as a value (`e = eval`, `map(exec, codes)`): called later under another name.
    const builtin = CODE_BUILTINS.has(name) && name !== "getattr" && name !== "breakpoint" && !imports.aliases.has(name)
    if (builtin && !isOp(toks[i + 1], "(") && !isOp(toks[i + 1], "=")) {
      const before = ident(prev)
      if (before !== "def" && before !== "class" && before !== "import" && before !== "as") out.push("load")
    }
  }
  return out
}
