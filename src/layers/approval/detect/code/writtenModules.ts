/**
 * Code that writes a module and then loads code: `open("m1.py", "w").write(…)`
 * then `import m1`, `fs.writeFileSync("x.js", …)` then `require("./x")`. The
 * module does not exist when the code is judged (the judge finds nothing to
 * read beside it) and its text sits in a string literal, which is data here:
 * what will run cannot be read before it runs. Such code needs approval, as a
 * shell line that writes the script it then runs does.
 *
 * A write counts when its file is named like code the interpreter loads (a
 * module, a package, a `.pth`, a bytecode cache, an extension module) or is
 * computed (a variable, a joined name, a decoded string): the name could be
 * anything. Any load anywhere in the code counts, not only one after the
 * write: order is hard to prove (an import inside a function, a stdlib module
 * that imports lazily, such as `traceback` → `linecache` → `tokenize`, finds
 * a planted `tokenize.py` beside the script first).
 */
import type { Call } from "./calls.js"
import { literal, splitArgs } from "./calls.js"
import type { Tok } from "./lexer.js"

/** Python loads these as code: sources, bytecode, extension modules, path hooks, cache directories. */
const PY_CODE_FILE = /(?:\.(?:py|pyw|pyc|pyo|pyd|so|pth)|(?:^|\/)__pycache__(?:\/[^/]*)?)\/?$/i
/** Node loads these as code (and a package.json's `main` or a node_modules tree chooses which file). */
const NODE_CODE_FILE = /(?:\.(?:js|mjs|cjs|jsx|ts|mts|cts|tsx|node)|(?:^|\/)package\.json|(?:^|\/)node_modules(?:\/.*)?)\/?$/i

/** Identifiers through which Python code loads code (an import statement anywhere counts). */
const PY_LOADS = new Set([
  "import", "__import__", "importlib", "runpy", "imp", "exec", "eval", "compile", "execfile", "pkgutil", "zipimport",
  "site", "reload", "exec_module", "load_module", "SourceFileLoader", "SourcelessFileLoader", "spec_from_file_location"
])
/** Node loaders besides require/import of a built-in module (which no file can shadow). */
const NODE_LOADS = new Set(["createRequire", "Worker", "fork", "vm", "eval", "Function", "runInThisContext", "runInNewContext", "compileFunction", "_load"])

const WRITE_MODE = /[wax+]/
/** A file mode (`"wb"`, `"a+"`): a method's first argument that is not one (`webbrowser.open(url)`) is no mode. */
const MODE = /^[rwaxbtU+]{1,5}$/
const OPEN_FLAGS = /^O_(?:WRONLY|RDWR|APPEND|CREAT|TRUNC)$/
/** Python functions that write their destination (`dst=`): the second argument. */
const PY_DESTINATIONS = new Set([
  "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.move", "os.rename", "os.renames", "os.replace",
  "os.link", "os.symlink", "urllib.request.urlretrieve", "distutils.file_util.copy_file", "distutils.dir_util.copy_tree"
])
/** Methods that write the file their receiver names (`Path("m.py").write_text(…)`). */
const PY_RECEIVER_WRITERS = new Set(["write_text", "write_bytes", "symlink_to", "hardlink_to"])
/** Unpackers: the names they write are the archive's, unknown here. */
const PY_EXTRACTORS = new Set(["extractall", "extract", "unpack_archive"])
/** Node writers by the position of the path they write. */
const NODE_FIRST = new Set(["writeFile", "writeFileSync", "appendFile", "appendFileSync", "createWriteStream", "outputFile", "outputFileSync", "writeTextFile", "writeTextFileSync"])
const NODE_SECOND = new Set(["copyFile", "copyFileSync", "cp", "cpSync", "rename", "renameSync", "symlink", "symlinkSync", "link", "linkSync", "copy", "copySync", "move", "moveSync"])
/** Roots whose members above are file writers (fs, fs/promises, fs-extra under any import name; Bun, Deno). */
const NODE_FS_ROOT = /^(?:node:)?(?:fs|fs\/promises|fs\.promises|fs-extra|Bun|Deno)(?:\.|$)/

/** Brackets, dots and commas that close an expression: what names the file is the last thing before them. */
const TRAILING = new Set([")", "]", ".", ",", "}"])

/**
 * The last token that carries a value in an expression (`os.path.join(d, "x.py")` → `"x.py"`), and the closing
 * brackets passed on the way: in a call the last argument names the file's tail, in a subscript (`argv[1]`,
 * `cfg["out"]`) it is a key, and the value is whatever the container holds.
 */
const lastValue = (expr: ReadonlyArray<Tok>): { readonly tok: Tok | undefined; readonly closed: ReadonlySet<string> } => {
  const closed = new Set<string>()
  for (let k = expr.length - 1; k >= 0; k--) {
    const t = expr[k]
    if (t?.kind === "operator" && TRAILING.has(t.value)) {
      closed.add(t.value)
      continue
    }
    return { tok: t, closed }
  }
  return { tok: undefined, closed }
}

/** What `name` is assigned in the file (`p = "out.json"`), or null when it gets a value some other way too. */
const assignments = (toks: ReadonlyArray<Tok>, name: string): ReadonlyArray<ReadonlyArray<Tok>> | null => {
  const out: Array<ReadonlyArray<Tok>> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]
    if (t?.kind !== "identifier" || t.value !== name) continue
    const prev = toks[k - 1]
    const next = toks[k + 1]
    // A loop variable, a `with … as` name: a value the scan does not follow.
    if (prev?.kind === "identifier" && ["for", "as", "let", "const", "var", "def", "lambda"].includes(prev.value) && !(next?.kind === "operator" && next.value === "=")) return null
    // `p = …`, and `n += 1`, `p := …`: each value it is given (a counter stays a number).
    if (next?.kind !== "operator" || !/^(?:[-+*/%|&^]|\/\/|:)?=$/.test(next.value)) continue
    let end = k + 2
    while (end < toks.length && toks[end]?.kind !== "newline" && !(toks[end]?.kind === "operator" && (toks[end] as { value: string }).value === ";")) end++
    out.push(toks.slice(k + 2, end))
  }
  return out.length === 0 ? null : out
}

/**
 * Whether an expression naming a written file may name code: a literal named like code anywhere in it, or a name
 * the code computes (it ends in a variable, a call, an f-string field). A name ending in a data file's literal
 * (`os.path.join(d, "out.json")`, `p + ".txt"`) does not; a variable assigned only such names does not either.
 */
const mayNameCode = (toks: ReadonlyArray<Tok>, expr: ReadonlyArray<Tok>, code: RegExp, depth = 0): boolean => {
  if (expr.some((t) => t.kind === "string" && code.test(t.value))) return true
  const { tok: last, closed } = lastValue(expr)
  if (last === undefined || closed.has("]")) return true
  if (last.kind === "string") return !last.literal && /\}$/.test(last.value)
  // A number (a counter, a size) ends no name in a code file's extension; one passed to a call may return anything.
  if (last.kind === "number") return closed.has(")")
  if (last.kind !== "identifier" || depth > 2) return true
  const before = expr[expr.indexOf(last) - 1]
  // An attribute (`tmp.name`, `args.out`): not a name this file assigns.
  if (before?.kind === "operator" && before.value === ".") return true
  const values = assignments(toks, last.value)
  return values === null || values.some((v) => mayNameCode(toks, v, code, depth + 1))
}

/** The tokens of the call's statement before its argument list: the receiver of a method (`Path("m.py")`). */
const receiver = (toks: ReadonlyArray<Tok>, stmtOf: ReadonlyArray<number>, call: Call): ReadonlyArray<Tok> => {
  let start = call.at
  while (start > 0 && stmtOf[start - 1] === call.stmt) start--
  let open = call.at
  while (open < toks.length && !(toks[open]?.kind === "operator" && (toks[open] as { value: string }).value === "(")) open++
  // Without the method's own name: `Path("m.py").write_text` ends at `Path("m.py").`.
  return toks.slice(start, open - 1)
}

const isKeyword = (p: ReadonlyArray<Tok>): boolean => p[0]?.kind === "identifier" && p[1]?.kind === "operator" && p[1].value === "="

/** Argument `name=` or, failing that, positional argument `pos`. */
const argument = (parts: ReadonlyArray<ReadonlyArray<Tok>>, pos: number, name: string): ReadonlyArray<Tok> | undefined => {
  const named = parts.find((p) => isKeyword(p) && p[0]?.kind === "identifier" && p[0].value === name)
  return named === undefined ? parts.filter((p) => !isKeyword(p))[pos] : named.slice(2)
}

/** The file `open`/`io.open`/`codecs.open`/`os.open`/`Path(p).open` opens for writing, or null when it only reads. */
const pyOpened = (toks: ReadonlyArray<Tok>, stmtOf: ReadonlyArray<number>, call: Call, name: string): ReadonlyArray<Tok> | null => {
  const functions = ["open", "io.open", "codecs.open", "os.open", "builtins.open", "__builtins__.open", "gzip.open", "bz2.open", "lzma.open"]
  const method = !functions.includes(name)
  if (method && (call.bare || call.member !== "open")) return null
  const parts = splitArgs(call.args)
  const modeArg = argument(parts, method ? 0 : 1, name === "os.open" ? "flags" : "mode")
  const mode = literal(modeArg)
  if (method && (mode === null || !MODE.test(mode))) return null
  const flags = call.args.some((t) => t.kind === "identifier" && OPEN_FLAGS.test(t.value))
  // A mode given but computed (`open(p, m)`) may be a write.
  const writing = (mode !== null && WRITE_MODE.test(mode)) || flags || (mode === null && modeArg !== undefined && name !== "os.open")
  if (!writing) return null
  return method ? receiver(toks, stmtOf, call) : (argument(parts, 0, "file") ?? [])
}

/** `Path(p).rename(q)` / `.replace(q)`: one positional argument (str.replace takes two, a DataFrame's keywords). */
const pyPathMove = (call: Call): ReadonlyArray<Tok> | null => {
  if (call.bare || (call.member !== "rename" && call.member !== "replace")) return null
  const parts = splitArgs(call.args)
  return parts.length === 1 && !isKeyword(parts[0] ?? []) ? (parts[0] ?? null) : null
}

/** The code handles archives: `x.extract(…)` is then an archive's (pandas' `str.extract` is not). */
const archives = (toks: ReadonlyArray<Tok>): boolean =>
  toks.some((t) => t.kind === "identifier" && ["zipfile", "tarfile", "ZipFile", "TarFile"].includes(t.value))

/**
 * Where an archive is unpacked: its names are the archive's, unknown here, so unpacking where modules are looked
 * up (the working directory, by default, or a computed place) counts as writing code; a named folder does not.
 */
const unpackedInto = (call: Call): ReadonlyArray<Tok> => {
  const parts = splitArgs(call.args)
  const dest = call.member === "extractall" ? argument(parts, 0, "path") : argument(parts, 1, call.member === "extract" ? "path" : "extract_dir")
  const named = literal(dest)
  return dest === undefined || named === null || /^\.?\/?$/.test(named) ? [] : dest
}

/** The name a python call writes, as the tokens spelling it; null when the call writes nothing; [] when unknown. */
const pyWritten = (toks: ReadonlyArray<Tok>, stmtOf: ReadonlyArray<number>, call: Call, name: string): ReadonlyArray<Tok> | null => {
  const opened = pyOpened(toks, stmtOf, call, name)
  if (opened !== null) return opened
  if (PY_DESTINATIONS.has(name)) return argument(splitArgs(call.args), 1, "dst") ?? []
  if (PY_EXTRACTORS.has(call.member) && (!call.bare || name.includes(".")) && (call.member !== "extract" || archives(toks))) return unpackedInto(call)
  if (!call.bare && PY_RECEIVER_WRITERS.has(call.member)) return receiver(toks, stmtOf, call)
  return pyPathMove(call)
}

/** Python names of writers a value can hold: `w = open`, `getattr(p, "write_text")`. */
const PY_WRITER_VALUES = new Set(["open", ...PY_RECEIVER_WRITERS, ...[...PY_DESTINATIONS].map((n) => n.slice(n.lastIndexOf(".") + 1))])
/** Node writers a value can hold: `const w = fs.writeFileSync`. */
const NODE_WRITER_VALUES = new Set([...NODE_FIRST, ...NODE_SECOND])

const opAt = (toks: ReadonlyArray<Tok>, k: number, v: string): boolean => {
  const t = toks[k]
  return t?.kind === "operator" && t.value === v
}

/**
 * A writer taken as a value (`w = open`, `f = fs.writeFileSync`, `getattr(p, "write_text")`) and called later under
 * a name the scan cannot follow: the file it writes is unknown. A keyword argument or a definition is no value.
 */
const writerAsValue = (toks: ReadonlyArray<Tok>, names: ReadonlySet<string>, bareToo: boolean): boolean =>
  toks.some((t, k) => {
    if (t.kind === "string" && t.literal && names.has(t.value)) return opAt(toks, k - 1, ",") && toks.slice(Math.max(0, k - 8), k).some((p) => p.kind === "identifier" && (p.value === "getattr" || p.value === "Reflect"))
    if (t.kind !== "identifier" || !names.has(t.value) || opAt(toks, k + 1, "(") || opAt(toks, k + 1, "=")) return false
    const prev = toks[k - 1]
    if (prev?.kind === "identifier" && (prev.value === "def" || prev.value === "function" || prev.value === "import")) return false
    return opAt(toks, k - 1, ".") || (bareToo && !opAt(toks, k - 1, "{") && !opAt(toks, k - 1, ","))
  })

/** Python code that writes a file that may be code, and loads code anywhere. */
export const pythonWritesThenLoads = (
  toks: ReadonlyArray<Tok>,
  calls: ReadonlyArray<Call>,
  stmtOf: ReadonlyArray<number>,
  nameOf: (call: Call) => string
): boolean => {
  if (!toks.some((t) => t.kind === "identifier" && PY_LOADS.has(t.value))) return false
  if (writerAsValue(toks, new Set(["open"]), true) || writerAsValue(toks, PY_WRITER_VALUES, false)) return true
  return calls.some((call) => {
    const written = pyWritten(toks, stmtOf, call, nameOf(call))
    return written !== null && mayNameCode(toks, written, PY_CODE_FILE)
  })
}

/** A node module a file can shadow: not a built-in one (`fs`, `node:path`). */
const shadowable = (spec: string, builtin: (name: string) => boolean): boolean => !spec.startsWith("node:") && !builtin(spec)

/** Node code loads code that a file can provide: a non-built-in require/import, a computed one, a worker, vm. */
const nodeLoads = (toks: ReadonlyArray<Tok>, calls: ReadonlyArray<Call>, builtin: (name: string) => boolean): boolean => {
  if (toks.some((t) => t.kind === "identifier" && NODE_LOADS.has(t.value))) return true
  if (calls.some((c) => (c.name === "require" || c.name === "import" || c.member === "require") && (literal(splitArgs(c.args)[0]) === null || shadowable(literal(splitArgs(c.args)[0]) ?? "", builtin)))) return true
  // A static `import … from "x"`: the specifier is the string after `from` (or right after `import`).
  return toks.some((t, k) => {
    if (t.kind !== "identifier" || (t.value !== "import" && t.value !== "from")) return false
    const spec = toks[k + 1]
    return spec?.kind === "string" && (t.value === "from" || toks[k - 1]?.kind !== "operator") && shadowable(spec.value, builtin)
  })
}

/** Node code that writes a file that may be code, and loads code anywhere. */
export const nodeWritesThenLoads = (
  toks: ReadonlyArray<Tok>,
  calls: ReadonlyArray<Call>,
  nameOf: (call: Call) => string,
  builtin: (name: string) => boolean
): boolean => {
  if (writerAsValue(toks, NODE_WRITER_VALUES, false) && nodeLoads(toks, calls, builtin)) return true
  const written = calls.flatMap((call) => {
    const name = nameOf(call)
    if (!NODE_FS_ROOT.test(name)) return []
    const parts = splitArgs(call.args)
    // An imported function's member is its whole import name (`fs.appendFileSync`): its own name is the last part.
    const member = name.slice(name.lastIndexOf(".") + 1)
    if (NODE_FIRST.has(member) || name === "Bun.write") return [parts[0] ?? []]
    if (NODE_SECOND.has(member)) return [parts[1] ?? []]
    if (member === "open" || member === "openSync") {
      const flag = literal(parts[1])
      return (flag === null && parts[1] !== undefined) || WRITE_MODE.test(flag ?? "") ? [parts[0] ?? []] : []
    }
    return []
  })
  return written.some((w) => mayNameCode(toks, w, NODE_CODE_FILE)) && nodeLoads(toks, calls, builtin)
}
