/**
 * Per-language APIs that delete files, run programs, signal processes, load
 * code by a computed name, or write where other programs will run it.
 * Imports alone are never a finding (benign scripts import os); calls are.
 */
import { isBuiltin } from "node:module"
import type { CodeKind } from "../descriptions.js"
import type { RuleEnv } from "../rules/engine.js"
import type { Call } from "./calls.js"
import { closing, literal, scanCalls, splitArgs, strings } from "./calls.js"
import type { Imports } from "./imports.js"
import { nodeImports, pythonImports } from "./imports.js"
import type { Language, Tok } from "./lexer.js"
import { perlByName, perlName, phpByName, rubyByName } from "./callsByName.js"
import { pythonNamespaceFindings } from "./pythonNamespaces.js"
import { sensitiveWrite } from "./sensitivePaths.js"
import { linksIntoRunPlaces, PATH_LIKE, unpacksWhereFilesRun, writeChecker } from "./writeTargets.js"
import { nodeWritesThenLoads, pythonWritesThenLoads } from "./writtenModules.js"

export interface Finding {
  /** null: nothing by itself (`eval("1+1")`: only what the evaluated code does counts). */
  readonly kind: CodeKind | null
  /** Shell text this call runs, when it is spelled in the code. */
  readonly runs?: ReadonlyArray<string>
  /** Code in the same language this call evaluates (`eval("…")` with a literal). */
  readonly evaluates?: string
}

const EMPTY_IMPORTS: Imports = { aliases: new Map(), modules: new Set(), wildcards: [] }

const WRITE_MODE = /[wax+]/

/** Strings of the call's statement (where a pathlib receiver or a copy destination is spelled). */
const statementStrings = (toks: ReadonlyArray<Tok>, stmtOf: ReadonlyArray<number>, stmt: number): string[] => {
  const out: string[] = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]
    if (stmtOf[k] === stmt && t?.kind === "string") out.push(t.value)
  }
  return out
}

const runFinding = (args: ReadonlyArray<Tok>): Finding => {
  const texts = strings(args)
  return { kind: "run", runs: texts.length > 1 ? [...texts, texts.join(" ")] : texts }
}

/** Keyword-or-positional argument `name` / `pos` as a literal. */
const argLiteral = (parts: ReadonlyArray<ReadonlyArray<Tok>>, pos: number, name: string): string | null => {
  for (const p of parts) {
    const t0 = p[0]
    const t1 = p[1]
    if (t0?.kind === "identifier" && t0.value === name && t1?.kind === "operator" && (t1.value === "=" || t1.value === ":")) return literal(p.slice(2))
  }
  return literal(parts[pos])
}

// ---------------------------------------------------------------------------
// python
// ---------------------------------------------------------------------------

const PY_DELETE = new Set([
  "shutil.rmtree", "shutil.move", "os.remove", "os.unlink", "os.rmdir", "os.removedirs", "os.rename", "os.renames",
  "os.replace", "os.truncate", "distutils.dir_util.remove_tree", "send2trash.send2trash"
])
const PY_RUN = /^(?:subprocess\.|commands\.|pty\.spawn$|os\.(?:system|popen|exec\w*|spawn\w*|posix_spawnp?|startfile|forkpty)$|platform\.popen$|asyncio\.create_subprocess_\w+$|pexpect\.|sh\.|webbrowser\.open(?:_new|_new_tab)?$|_posixsubprocess\.|distutils\.spawn\.|invoke\.(?:run|sudo)$|fabric\.|plumbum\.|delegator\.|envoy\.|sarge\.|pip\.main$|pip\._internal\.|setuptools\.sandbox\.)/
const PY_RUN_MEMBERS = new Set(["popen", "check_output", "check_call", "Popen", "getoutput", "getstatusoutput", "posix_spawn", "posix_spawnp", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "execlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "create_subprocess_exec", "create_subprocess_shell"])
const PY_PROCESS = new Set(["os.chmod", "os.chown", "os.lchown", "os.fchmod", "os.kill", "os.killpg", "shutil.chown", "signal.pthread_kill"])
const PY_LOADERS = new Set(["ctypes.CDLL", "ctypes.cdll.LoadLibrary", "ctypes.PyDLL", "ctypes.WinDLL", "cdll.LoadLibrary", "runpy.run_path", "runpy.run_module", "importlib.__import__", "builtins.__import__",
  "importlib.util.spec_from_file_location", "importlib.machinery.SourceFileLoader", "importlib.machinery.SourcelessFileLoader",
  "importlib.machinery.ExtensionFileLoader", "imp.load_source", "imp.load_module", "imp.load_dynamic", "imp.load_compiled",
  "zipimport.zipimporter",
  // A function built from a code object (one `marshal.loads` made from bytes, or `compile`d) runs code nothing spelled.
  "types.FunctionType", "types.CodeType", "types.LambdaType"])
/** Methods that load code whatever object they are called on (a spec's loader, a cffi FFI). */
const PY_LOAD_MEMBERS = new Set(["exec_module", "load_module", "dlopen"])
/**
 * Loaders of data that can run code: a pickle names any function to call with any arguments, and so do unsafe YAML
 * tags (`!!python/object/apply:os.system`). A planted data file is then a planted script.
 */
const PY_UNPICKLERS = new Set([
  "pickle.load", "pickle.loads", "pickle.Unpickler", "_pickle.load", "_pickle.loads", "_pickle.Unpickler", "cPickle.load",
  "cPickle.loads", "dill.load", "dill.loads", "cloudpickle.load", "cloudpickle.loads", "joblib.load", "pandas.read_pickle",
  "shelve.open", "jsonpickle.decode", "yaml.unsafe_load", "yaml.unsafe_load_all", "marshal.load", "marshal.loads"
])
/** YAML loaders that build only plain data. */
const SAFE_YAML_LOADER = /(?:Safe|Base|Full)Loader$/
const PY_RISKY_MODULES = new Set(["os", "subprocess", "shutil", "pty", "builtins", "__builtins__", "importlib", "sys", "posix", "nt", "ctypes", "commands", "platform", "code", "pdb", "IPython"])
/** Attribute names fetched with getattr that run programs or delete files on any object that has them. */
const PY_ATTR_RUN = new Set(["system", "popen", "spawnv", "spawnvp", "spawnl", "spawnlp", "startfile"])
const PY_ATTR_DELETE = new Set(["rmtree", "remove", "unlink", "rmdir", "removedirs", "truncate"])
const PY_WRITERS = new Set([
  "write_text", "write_bytes", "symlink_to", "hardlink_to", "touch", "copy", "copy2", "copyfile", "copytree", "copymode", "link_to",
  "symlink", "link", "extractall", "extract", "unpack_archive"
])
/**
 * Calls that give a file a second name (a hard link): both names are one file, so its source is written as much as
 * its destination. The source is often a variable: any sensitive path the code spells counts.
 */
const HARD_LINKERS = new Set(["link", "linkSync", "hardlink_to", "link_to", "ln", "ln_f"])
/** Calls that make a symbolic link: one into a place whose files run is judged as the writes it allows. */
const SYMLINKERS = new Set(["symlink", "symlinkSync", "symlink_to", "ln_s", "ln_sf"])
const PY_EXTRACTORS = new Set(["extractall", "extract", "unpack_archive"])
/** `posix.system`, `os.__dict__["system"]`, `sys.modules["os"].system`: all `os.system`. */
/** The module `__import__("m")` / `importlib.import_module("m")` (the tokens of one argument) returns, or null. */
const loadedModule = (toks: ReadonlyArray<Tok>): string | null => {
  const names = toks.slice(0, 4).map((t) => (t.kind === "identifier" || t.kind === "operator" ? t.value : ""))
  const open = names[0] === "__import__" ? 1 : names[0] === "importlib" && names[1] === "." && names[2] === "import_module" ? 3 : -1
  if (open < 0 || names[open] !== "(") return null
  const arg = toks[open + 1]
  const close = toks[open + 2]
  return arg?.kind === "string" && arg.literal && close?.kind === "operator" && close.value === ")" ? arg.value : null
}

const pyName = (name: string): string =>
  name.replace(/\.__dict__(?=\.)/g, "").replace(/^sys\.modules\./, "").replace(/^(?:posix|nt)\./, "os.")

/**
 * Methods that run a shell command or code whatever object they are called on: IPython's shell (`get_ipython()`,
 * held under any name) runs `!cmd` text, magics and cells; a console runs source. (`.system(…)` with an argument:
 * `platform.system()` takes none.)
 */
const PY_SHELL_RUN_MEMBERS = new Set(["system", "system_piped", "system_raw"])
const PY_SHELL_CODE_MEMBERS = new Set(["run_line_magic", "run_cell_magic", "run_cell", "magic", "safe_execfile", "safe_execfile_ipy", "safe_run_module", "run_code", "runcode", "runsource", "ex", "ev"])
/**
 * Consoles and debuggers a script starts (`IPython.embed()`, `code.interact()`, `breakpoint()`, `pdb.set_trace()`):
 * what is typed into the process later is read as their commands, not the script's language (IPython's `!rm`).
 */
const PY_CONSOLES = /^(?:(?:builtins\.)?breakpoint|code\.(?:interact|InteractiveConsole|InteractiveInterpreter)(?:\..+)?|(?:pdb|ipdb|pudb|pdbpp|rpdb|remote_pdb|web_pdb|IPython\.core\.debugger)\..+|IPython\.(?:embed|start_ipython|start_kernel|embed_kernel|terminal\.embed\..+)|ipykernel\.embed\..+|(?:ptpython|ptpython\.repl|bpython)\.embed)$/
const PY_CONSOLE_MEMBERS = new Set(["set_trace", "post_mortem", "start_ipython", "embed_kernel", "InteractiveShellEmbed", "InteractiveConsole"])

/** subprocess names that are values, not ways to run anything. */
const PY_RUN_VALUES = /^subprocess\.(?:PIPE|STDOUT|DEVNULL|CalledProcessError|TimeoutExpired|CompletedProcess|SubprocessError|list2cmdline)$/

/** What an imported function does, by its full name (for calls and for references alike). */
const pyKind = (name: string): CodeKind | null =>
  PY_DELETE.has(name) ? "delete" : PY_RUN.test(name) && !PY_RUN_VALUES.test(name) ? "run" : PY_PROCESS.has(name) ? "process" : PY_LOADERS.has(name) ? "load" : PY_UNPICKLERS.has(name) ? "unpickle" : PY_CONSOLES.test(name) ? "console" : null

/** What fetching `attr` from module `module` (by getattr, `vars(m)[…]`, a namespace) gives a caller. */
const pyAttrKind = (module: string, attr: string): CodeKind | null => {
  const full = pyName(`${module}.${attr}`)
  if (PY_RUN.test(full) || PY_RUN_MEMBERS.has(attr)) return "run"
  if (PY_CONSOLES.test(full)) return "console"
  if (PY_DELETE.has(full)) return "delete"
  if (["eval", "exec", "__import__", "system"].includes(attr)) return "load"
  if (PY_ATTR_RUN.has(attr)) return "run"
  if (PY_ATTR_DELETE.has(attr)) return "delete"
  return pyKind(full)
}

/** The function's own name: a call of an imported name (`from shutil import copy`, `const { writeFile } = …`) has
 * the import's dotted name as its only part. */
const lastName = (member: string): string => member.slice(member.lastIndexOf(".") + 1)
/** A bare call of a name the file imported (its name resolved to `module.function`). */
const imported = (call: Call): boolean => call.bare && call.name.includes(".")

const spell = (p: ReadonlyArray<Tok>): string => p.map((t) => ("value" in t ? t.value : "#")).join("")

const isKeyword = (p: ReadonlyArray<Tok>): boolean => p[0]?.kind === "identifier" && p[1]?.kind === "operator" && p[1].value === "="

/** The spelling of argument `name` (keyword) or, when `pos` is given, positional argument `pos`; null when absent. */
const argText = (parts: ReadonlyArray<ReadonlyArray<Tok>>, pos: number | null, name: string): string | null => {
  for (const p of parts) if (isKeyword(p) && p[0]?.kind === "identifier" && p[0].value === name) return spell(p.slice(2))
  const positional = pos === null ? undefined : parts.filter((p) => !isKeyword(p))[pos]
  return positional === undefined ? null : spell(positional)
}

/**
 * `yaml.load(f, Loader=yaml.Loader)` (or no Loader, as old PyYAML reads it), `numpy.load(f, allow_pickle=True)`,
 * `torch.load(f, weights_only=False)`.
 */
const unsafeDataLoad = (name: string, parts: ReadonlyArray<ReadonlyArray<Tok>>): boolean => {
  if (name === "yaml.load" || name === "yaml.load_all") return !SAFE_YAML_LOADER.test(argText(parts, 1, "Loader") ?? "")
  if (name === "numpy.load") return argText(parts, 2, "allow_pickle") === "True"
  if (name === "torch.load") return argText(parts, null, "weights_only") === "False"
  return false
}

/** `sh.ls()` runs ls only when `sh` is the sh library; a variable named sh (`sh = book.sheet`) is not. */
const shLibrary = (name: string, imports: Imports): boolean => !name.startsWith("sh.") || imports.modules.has("sh") || [...imports.aliases.values()].some((m) => m === "sh" || m.startsWith("sh."))

const python = (toks: ReadonlyArray<Tok>, env: RuleEnv): Finding[] => {
  const imports = pythonImports(toks)
  const { calls, refs, stmtOf } = scanCalls(toks, imports.aliases, "python")
  const out: Finding[] = []
  // A dangerous function taken as a value (`f = shutil.rmtree`, `map(rmtree, paths)`, `{"x": os.system}`) is called
  // later under a name the scan cannot follow: the reference counts as the call.
  for (const ref of refs) {
    if (!ref.imported && !imports.modules.has(ref.root)) continue
    const name = pyName(ref.name.replace(/\.__call__$/, ""))
    const kind = /^builtins\.(?:eval|exec|compile)$/.test(name) ? "load" : pyKind(name)
    if (kind !== null) out.push({ kind })
  }
  for (const kind of pythonNamespaceFindings(toks, imports, { kindOf: pyAttrKind })) out.push({ kind })
  const writesSensitive = writeChecker(toks, env)
  for (const call of calls) {
    let name = pyName(call.name.replace(/\.__call__$/, ""))
    if (call.bare && !imports.aliases.has(call.member)) {
      const via = imports.wildcards.map((m) => pyName(`${m}.${call.member}`)).find((n) => PY_DELETE.has(n) || PY_RUN.test(n) || PY_PROCESS.has(n))
      if (via !== undefined) name = via
    }
    const parts = splitArgs(call.args)
    if ((PY_RUN.test(name) && shLibrary(name, imports)) || (!call.bare && PY_RUN_MEMBERS.has(call.member))) out.push(runFinding(call.args))
    else if (!call.bare && PY_SHELL_RUN_MEMBERS.has(call.member) && parts.length > 0) out.push(runFinding(call.args))
    else if (!call.bare && PY_SHELL_CODE_MEMBERS.has(call.member) && parts.length > 0) out.push({ kind: "load" })
    else if (PY_CONSOLES.test(name) || (!call.bare && PY_CONSOLE_MEMBERS.has(call.member))) out.push({ kind: "console" })
    else if (PY_DELETE.has(name) || (!call.bare && (call.member === "rmtree" || call.member === "removedirs" || call.member === "remove_tree"))) out.push({ kind: "delete" })
    else if (PY_PROCESS.has(name)) out.push({ kind: "process" })
    else if (PY_LOADERS.has(name)) out.push({ kind: "load" })
    else if (PY_UNPICKLERS.has(name) || unsafeDataLoad(name, parts)) out.push({ kind: "unpickle" })
    else if ((call.bare || name.startsWith("builtins.")) && ["eval", "exec", "compile", "builtins.eval", "builtins.exec", "builtins.compile"].includes(name)) {
      const code = literal(parts[0])
      out.push(code === null ? { kind: "load" } : { kind: null, evaluates: code })
    } else if (name === "__import__" || name === "importlib.import_module") {
      if (literal(parts[0]) === null) out.push({ kind: "load" })
    } else if (!call.bare && (call.member === "__getattribute__" || call.member === "__getattr__")) {
      // `os.__getattribute__("system")`: getattr spelled as a method.
      const attr = literal(parts[0])
      const full = pyName(`${call.name.slice(0, -call.member.length - 1)}.${attr ?? ""}`)
      if (attr === null) out.push({ kind: "load" })
      else if (pyKind(full) !== null) out.push({ kind: pyKind(full) })
      else if (PY_ATTR_RUN.has(attr)) out.push({ kind: "run" })
      else if (PY_ATTR_DELETE.has(attr)) out.push({ kind: "delete" })
    } else if (name === "operator.methodcaller" || name === "operator.attrgetter") {
      const attr = literal(parts[0]) ?? ""
      if (PY_ATTR_RUN.has(attr) || PY_RUN_MEMBERS.has(attr)) out.push({ kind: "run" })
      else if (PY_ATTR_DELETE.has(attr)) out.push({ kind: "delete" })
    } else if (name === "getattr" && call.bare) {
      const target = parts[0]?.[0]
      // `getattr(__import__("shutil"), "rmtree")`: the module the loader returns, when it is named by a literal.
      const loaded = loadedModule(parts[0] ?? [])
      const module = loaded ?? (target?.kind === "identifier" ? (imports.aliases.get(target.value) ?? target.value) : target?.kind === "operator" ? "computed" : "")
      const attr = literal(parts[1])
      const risky = PY_RISKY_MODULES.has(module) || module === "computed" || module === "__import__"
      if (risky && attr === null) out.push({ kind: "load" })
      else if (risky && attr !== null) {
        const kind = pyAttrKind(module, attr)
        if (kind !== null) out.push({ kind })
      } else if (attr !== null) {
        // Whatever the object (a module held in a variable: `m = __import__("shutil")`), these names do one thing.
        if (PY_ATTR_RUN.has(attr) || PY_RUN_MEMBERS.has(attr)) out.push({ kind: "run" })
        else if (PY_ATTR_DELETE.has(attr)) out.push({ kind: "delete" })
      }
    } else if (name === "open" || name === "io.open" || name === "codecs.open" || name === "os.open" || (!call.bare && call.member === "open")) {
      // `open(path, mode)`, but a method `open` on a path object (`Path(p).open("a")`) takes the mode first.
      const method = !["open", "io.open", "codecs.open", "os.open", "builtins.open"].includes(name)
      const modeAt = method ? 0 : 1
      const mode = argLiteral(parts, modeAt, "mode")
      // A mode given but computed (`open(p, m)`) may be a write.
      const modeComputed = mode === null && (argText(parts, modeAt, "mode") ?? "") !== ""
      const flags = call.args.some((t) => t.kind === "identifier" && /^O_(?:WRONLY|RDWR|APPEND|CREAT|TRUNC)$/.test(t.value))
      const writing = (mode !== null && WRITE_MODE.test(mode)) || flags || (modeComputed && name !== "os.open")
      const where = call.bare || name !== `${call.name}` ? strings(parts[0] ?? []) : statementStrings(toks, stmtOf, call.stmt)
      if (writing && writesSensitive(where)) out.push({ kind: "write" })
    } else if ((!call.bare || imported(call)) && PY_WRITERS.has(lastName(call.member))) {
      const where = statementStrings(toks, stmtOf, call.stmt)
      const into = PY_EXTRACTORS.has(lastName(call.member)) && where.some((d) => PATH_LIKE.test(d) && unpacksWhereFilesRun(d, env))
      const symlinks = SYMLINKERS.has(lastName(call.member)) && linksIntoRunPlaces(where, env)
      if (into || symlinks || writesSensitive(where) || (HARD_LINKERS.has(lastName(call.member)) && writesSensitive([]))) out.push({ kind: "write" })
    } else if (!call.bare && PY_LOAD_MEMBERS.has(call.member)) {
      out.push({ kind: "load" })
    } else if (!call.bare && (call.member === "unlink" || call.member === "rmdir")) {
      // `Path(p).unlink()` deletes as `os.remove(p)` does, wherever p points.
      out.push({ kind: "delete" })
    }
  }
  // `open("m1.py", "w").write(…)` then `import m1`: the module is not there to read when the code is judged.
  if (pythonWritesThenLoads(toks, calls, stmtOf, (call) => pyName(call.name.replace(/\.__call__$/, "")))) out.push({ kind: "rewrite" })
  return out
}

// ---------------------------------------------------------------------------
// node
// ---------------------------------------------------------------------------

const NODE_DELETE = new Set(["fs.rm", "fs.rmSync", "fs.rmdir", "fs.rmdirSync", "fs.unlink", "fs.unlinkSync"])
const NODE_DELETE_MEMBERS = new Set(["rmSync", "rmdirSync", "unlinkSync"])
const NODE_RUN = /^(?:child_process\.|process\.(?:binding|_linkedBinding|dlopen)$|Bun\.(?:spawn|spawnSync|\$)$|Deno\.(?:run|Command)$)/
const NODE_RUN_MEMBERS = new Set(["execSync", "spawnSync", "execFileSync"])
const NODE_PROCESS = new Set(["process.kill", "fs.chmod", "fs.chmodSync", "fs.chown", "fs.chownSync", "fs.lchown", "fs.lchownSync"])
const NODE_WRITERS = new Set([
  "writeFile", "writeFileSync", "appendFile", "appendFileSync", "createWriteStream", "copyFile", "copyFileSync", "cp",
  "cpSync", "rename", "renameSync", "symlink", "symlinkSync", "link", "linkSync", "truncate", "truncateSync",
  "outputFile", "outputFileSync", "copy", "copySync", "move", "moveSync", "write"
])
/** Fetching a member by name through reflection. */
const NODE_REFLECTION = new Set([
  "Reflect.get", "Reflect.getOwnPropertyDescriptor", "Object.getOwnPropertyDescriptor", "Object.getOwnPropertyDescriptors",
  "Object.values", "Object.entries"
])

/** `new Worker(file)` with the file held in a name or read from the command line: a script chosen at run time. */
const workerFileComputed = (arg: ReadonlyArray<Tok> | undefined): boolean =>
  arg !== undefined && arg[0]?.kind === "identifier" && arg[0].value !== "new" && (arg.length === 1 || arg[0].value === "process")

/** `new Worker(code, { eval: true })` runs the string as code. */
const workerEvaluates = (args: ReadonlyArray<Tok>): boolean =>
  args.some((t, j) => t.kind === "identifier" && t.value === "eval" && args[j + 1]?.kind === "operator" && args[j + 2]?.kind === "identifier" && (args[j + 2] as { value: string }).value !== "false")

const COMPUTED_ROOTS = new Set(["globalThis", "global", "window", "self", "process", "Reflect", "module", "require", "fs", "child_process"])

const nodeName = (name: string): string =>
  name.replace(/^fs\/promises\./, "fs.").replace(/^fs\.promises\./, "fs.").replace(/^fs-extra\./, "fs.").replace(/^node:/, "")

const node = (toks: ReadonlyArray<Tok>, env: RuleEnv): Finding[] => {
  const imports = nodeImports(toks)
  const { calls, refs, stmtOf } = scanCalls(toks, imports.aliases, "node")
  const out: Finding[] = []
  const writesSensitive = writeChecker(toks, env)
  // `const e = eval`, `(0, eval)(code)`, `const F = Function`: the evaluator taken as a value, called under another name.
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]
    // `x.constructor.constructor` (Function, reached from any object), `f.constructor("…")`: the same evaluator.
    if (t?.kind === "identifier" && t.value === "constructor" && toks[k - 1]?.kind === "operator" && (toks[k - 1] as { value: string }).value === ".") {
      const next = toks[k + 1]
      const again = next?.kind === "operator" && next.value === "." && toks[k + 2]?.kind === "identifier" && (toks[k + 2] as { value: string }).value === "constructor"
      if (again || (next?.kind === "operator" && next.value === "(")) out.push({ kind: "load" })
      continue
    }
    if (t?.kind !== "identifier" || (t.value !== "eval" && t.value !== "Function")) continue
    const prev = toks[k - 1]
    const next = toks[k + 1]
    if (next?.kind === "operator" && (next.value === "(" || next.value === "=" || next.value === ":")) continue
    if (next?.kind === "operator" && next.value === "." && toks[k + 2]?.kind === "identifier" && (toks[k + 2] as { value: string }).value === "prototype") continue
    if (prev?.kind === "operator" && (prev.value === "." || prev.value === "?.")) continue
    if (prev?.kind === "identifier" && ["new", "instanceof", "typeof", "function", "class", "const", "let", "var"].includes(prev.value)) continue
    out.push({ kind: "load" })
  }
  // `const f = require("fs").rmSync`, `paths.forEach(fs.rmSync)`: the function taken as a value counts as its call.
  for (const ref of refs) {
    if (!ref.imported) continue
    const name = nodeName(ref.name)
    if (NODE_DELETE.has(name)) out.push({ kind: "delete" })
    else if (NODE_RUN.test(name) && !/^child_process$/.test(name)) out.push({ kind: "run" })
    else if (NODE_PROCESS.has(name)) out.push({ kind: "process" })
  }
  if (imports.modules.has("child_process")) out.push({ kind: "run" })
  if (imports.modules.has("vm")) out.push({ kind: "load" })
  const risky = new Set([...COMPUTED_ROOTS, ...[...imports.aliases].filter(([, m]) => /^(?:fs|child_process|vm)(?:\/|$|\.)/.test(m)).map(([l]) => l)])
  for (let k = 0; k + 1 < toks.length; k++) {
    const t = toks[k]
    const open = toks[k + 1]
    if (t?.kind !== "identifier" || !risky.has(t.value) || open?.kind !== "operator" || open.value !== "[") continue
    const close = closing(toks, k + 1)
    if (literal(toks.slice(k + 2, close)) === null) out.push({ kind: "load" })
  }
  for (const call of calls) {
    const name = nodeName(call.name)
    const parts = splitArgs(call.args)
    if (name === "require" || name === "import") {
      const mod = literal(parts[0])?.replace(/^node:/, "") ?? null
      if (mod === null) out.push({ kind: "load" })
      else if (mod === "child_process") out.push({ kind: "run" })
      // vm evaluates strings, an addon is compiled code, inspector opens a debugger anyone local can drive, repl reads code.
      else if (mod === "vm" || mod.endsWith(".node") || mod === "inspector" || mod === "repl") out.push({ kind: "load" })
    } else if (NODE_RUN.test(name) || NODE_RUN_MEMBERS.has(call.member)) out.push(runFinding(call.args))
    else if (NODE_DELETE.has(name) || NODE_DELETE_MEMBERS.has(call.member)) out.push({ kind: "delete" })
    else if (NODE_PROCESS.has(name)) out.push({ kind: "process" })
    else if (name.startsWith("vm.")) out.push({ kind: "load" })
    else if (!call.bare && (call.member === "eval" || call.member === "Function") && COMPUTED_ROOTS.has(call.name.split(".")[0] ?? "")) out.push({ kind: "load" })
    else if (call.bare && (name === "eval" || name === "Function")) {
      const code = literal(parts[parts.length - 1])
      out.push(code === null || (name === "Function" && parts.length === 0) ? { kind: "load" } : { kind: null, evaluates: code })
    } else if (NODE_WRITERS.has(lastName(call.member)) && (!call.bare || imported(call))) {
      const linking = HARD_LINKERS.has(lastName(call.member)) && writesSensitive([])
      const where = statementStrings(toks, stmtOf, call.stmt)
      if (linking || writesSensitive(where) || (SYMLINKERS.has(lastName(call.member)) && linksIntoRunPlaces(where, env))) out.push({ kind: "write" })
    } else if ((call.member === "open" || call.member === "openSync") && !call.bare) {
      const flag = literal(parts[1])
      if (flag !== null && WRITE_MODE.test(flag) && writesSensitive(strings(parts[0] ?? []))) out.push({ kind: "write" })
    } else if ((call.member === "Worker" || name.endsWith(".Worker")) && (workerEvaluates(call.args) || workerFileComputed(parts[0]))) {
      out.push({ kind: "load" })
    }
    else if (NODE_REFLECTION.has(name) && parts[0]?.some((t) => t.kind === "identifier" && (risky.has(t.value) || t.value === "require"))) {
      // `Reflect.get(fs, "rmSync")`, `Object.getOwnPropertyDescriptor(require("fs"), k).value`: a member fetched by name.
      out.push({ kind: "load" })
    }
  }
  // `fs.writeFileSync("x.js", …)` then `require("./x")`: the module is not there to read when the code is judged.
  if (nodeWritesThenLoads(toks, calls, (call) => nodeName(call.name), isBuiltin)) out.push({ kind: "rewrite" })
  // `new Function(…)` reads as a call of Function after `new`.
  return out
}

// ---------------------------------------------------------------------------
// perl
// ---------------------------------------------------------------------------

const PERL_RUN = new Set(["system", "exec", "readpipe", "open2", "open3", "IPC.Open2.open2", "IPC.Open3.open3"])
const PERL_DELETE = new Set(["unlink", "rmdir", "rmtree", "remove_tree", "rename", "move", "File.Path.rmtree", "File.Path.remove_tree", "File.Copy.move"])
const PERL_PROCESS = new Set(["kill", "chmod", "chown"])

const perlKind = (name: string): CodeKind | null =>
  PERL_RUN.has(name) ? "run" : PERL_DELETE.has(name) ? "delete" : PERL_PROCESS.has(name) ? "process" : null

const perl = (toks: ReadonlyArray<Tok>, env: RuleEnv): Finding[] => {
  const { calls } = scanCalls(toks, EMPTY_IMPORTS.aliases, "perl")
  const out: Finding[] = perlByName(toks, perlKind).map((kind) => ({ kind }))
  const writesSensitive = writeChecker(toks, env)
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]
    const next = toks[k + 1]
    if (t?.kind !== "identifier") continue
    if (t.value === "eval" && !(next?.kind === "operator" && next.value === "{")) {
      const code = next?.kind === "string" && next.literal ? next.value : next?.kind === "operator" && next.value === "(" ? literal(toks.slice(k + 2, closing(toks, k + 1))) : null
      out.push(code === null ? { kind: "load" } : { kind: null, evaluates: code })
    }
    if (t.value === "do" && (next?.kind === "string" || (next?.kind === "identifier" && next.value.startsWith("$")))) out.push({ kind: "load" })
    if (t.value === "require" && ((next?.kind === "identifier" && next.value.startsWith("$")) || (next?.kind === "string" && !next.literal))) out.push({ kind: "load" })
  }
  for (const call of calls) {
    const parts = splitArgs(call.args)
    if (!call.bare && !call.name.includes(".") ) continue
    if (call.name.startsWith("$") || call.name.startsWith("@")) continue
    const name = perlName(call.name)
    if (PERL_RUN.has(name)) out.push(runFinding(call.args))
    else if (PERL_DELETE.has(name)) out.push({ kind: "delete" })
    else if (PERL_PROCESS.has(name)) out.push({ kind: "process" })
    else if (call.name === "open") {
      const texts = strings(call.args)
      const piped = texts.find((s) => s === "|-" || s === "-|" || /^\s*\||\|\s*$/.test(s))
      if (piped !== undefined) out.push({ kind: "run", runs: texts.filter((s) => s !== piped).concat([piped.replace(/^\s*\||\|\s*$/g, "")]) })
      else {
        const mode = parts.length >= 3 ? literal(parts[1]) : null
        const twoArg = parts.length === 2 ? literal(parts[1]) : null
        if (mode !== null && /^\+?[>]|^\+</.test(mode) && writesSensitive(strings(parts[2] ?? []))) out.push({ kind: "write" })
        if (twoArg !== null && /^\s*\+?>/.test(twoArg) && sensitiveWrite(twoArg.replace(/^\s*\+?>>?\s*/, ""), env)) out.push({ kind: "write" })
      }
    } else if (call.name === "copy" || call.name === "File.Copy.copy") {
      if (writesSensitive(strings(parts[1] ?? []))) out.push({ kind: "write" })
    } else if (call.name === "link" || call.name === "symlink") {
      // `link OLD, NEW` gives OLD a second name; `symlink` plants NEW where OLD is followed.
      const linked = call.name === "symlink" && linksIntoRunPlaces(strings(call.args), env)
      if (linked || writesSensitive(strings(call.args)) || (call.name === "link" && writesSensitive([]))) out.push({ kind: "write" })
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// ruby
// ---------------------------------------------------------------------------

const RUBY_RUN = new Set(["system", "exec", "spawn", "Kernel.system", "Kernel.exec", "Kernel.spawn", "IO.popen", "Process.spawn", "Process.exec", "PTY.spawn"])
const RUBY_DELETE = /^(?:FileUtils\.(?:rm|rm_f|rm_r|rm_rf|rmtree|remove|remove_dir|remove_entry|remove_entry_secure|remove_file|rmdir|mv|move)|File\.(?:delete|unlink|rename)|Dir\.(?:delete|rmdir|unlink)|rm_rf|rm_r|rmtree|remove_entry|remove_dir)$/
const RUBY_PROCESS = /^(?:Process\.kill|File\.(?:chmod|chown|lchmod|lchown)|FileUtils\.(?:chmod|chmod_R|chown|chown_R))$/
const RUBY_WRITE = /^(?:File\.(?:write|link|symlink)|IO\.write|FileUtils\.(?:cp|cp_r|copy|install|ln|ln_f|ln_s|ln_sf|touch))$/
const RUBY_PIPE_READERS = new Set(["open", "Kernel.open", "IO.read", "IO.readlines", "IO.foreach", "IO.write", "URI.open"])

/** Marshal builds any object, and unsafe YAML any class: a planted data file runs code. */
const RUBY_UNPICKLERS = /^(?:Marshal\.(?:load|restore)|(?:YAML|Psych)\.unsafe_load(?:_file)?)$/

const RUBY_EVALS = new Set(["eval", "instance_eval", "class_eval", "module_eval", "instance_exec", "binding", "load", "require"])
const rubyKind = (name: string): CodeKind | null =>
  RUBY_RUN.has(name) || name === "`" ? "run" : RUBY_DELETE.test(name) ? "delete" : RUBY_PROCESS.test(name) ? "process" : RUBY_EVALS.has(name) ? "load" : null

const ruby = (toks: ReadonlyArray<Tok>, env: RuleEnv): Finding[] => {
  const { calls } = scanCalls(toks, EMPTY_IMPORTS.aliases, "ruby")
  const out: Finding[] = rubyByName(toks, calls, rubyKind).map((kind) => ({ kind }))
  const writesSensitive = writeChecker(toks, env)
  for (const call of calls) {
    const name = call.name
    const parts = splitArgs(call.args)
    const receiverKnown = call.bare || /^[A-Z]/.test(name)
    if (RUBY_RUN.has(name) || name.startsWith("Open3.")) out.push(runFinding(call.args))
    else if (RUBY_PIPE_READERS.has(name) && (literal(parts[0]) ?? "").startsWith("|")) out.push({ kind: "run", runs: [(literal(parts[0]) ?? "").slice(1)] })
    else if ((receiverKnown && RUBY_DELETE.test(name)) || call.member === "rmtree") out.push({ kind: "delete" })
    else if (RUBY_PROCESS.test(name)) out.push({ kind: "process" })
    else if (RUBY_UNPICKLERS.test(name)) out.push({ kind: "unpickle" })
    else if (["eval", "Kernel.eval", "instance_eval", "class_eval", "module_eval", "instance_exec"].includes(name) || (!call.bare && ["eval", "instance_eval", "class_eval", "module_eval"].includes(call.member))) {
      const code = literal(parts[0])
      out.push(code === null ? { kind: "load" } : { kind: null, evaluates: code })
    } else if (["send", "public_send", "__send__", "const_get", "method", "instance_variable_get"].includes(call.member) && call.member !== "method" && literal(parts[0]) === null) {
      out.push({ kind: "load" })
    } else if (["require", "load", "require_relative", "Kernel.load", "autoload"].includes(name) && literal(parts[name === "autoload" ? 1 : 0]) === null) {
      out.push({ kind: "load" })
    } else if (RUBY_WRITE.test(name) || ((name === "File.open" || name === "open") && WRITE_MODE.test(literal(parts[1]) ?? ""))) {
      const linking = /^(?:File\.link|FileUtils\.ln(?:_f)?)$/.test(name) && writesSensitive([])
      if (linking || writesSensitive(strings(call.args))) out.push({ kind: "write" })
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// php
// ---------------------------------------------------------------------------

const PHP_RUN = new Set(["system", "exec", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec", "expect_popen"])
const PHP_DELETE = new Set(["unlink", "rmdir", "rename"])
const PHP_PROCESS = new Set(["posix_kill", "proc_terminate", "chmod", "chown", "chgrp", "lchown"])
const PHP_INCLUDE = new Set(["include", "include_once", "require", "require_once"])
const PHP_CALLERS = new Set(["call_user_func", "call_user_func_array", "forward_static_call", "forward_static_call_array", "register_shutdown_function", "array_map", "usort", "array_filter"])

const phpKind = (name: string): CodeKind | null =>
  PHP_RUN.has(name) ? "run" : PHP_DELETE.has(name) ? "delete" : PHP_PROCESS.has(name) ? "process" :
    name === "eval" || name === "assert" || name === "create_function" || PHP_INCLUDE.has(name) ? "load" : null

const php = (toks: ReadonlyArray<Tok>, env: RuleEnv): Finding[] => {
  const { calls } = scanCalls(toks, EMPTY_IMPORTS.aliases, "php")
  const out: Finding[] = phpByName(toks, calls, phpKind).map((kind) => ({ kind }))
  const writesSensitive = writeChecker(toks, env)
  for (let k = 0; k + 1 < toks.length; k++) {
    const t = toks[k]
    const next = toks[k + 1]
    // `$f(…)`, `$obj->$m(…)`: the function's name is a value.
    if (t?.kind === "identifier" && t.value.startsWith("$") && next?.kind === "operator" && next.value === "(") out.push({ kind: "load" })
  }
  for (const call of calls) {
    const prev = toks[call.at - 1]
    if (!call.bare || call.name.startsWith("$") || (prev?.kind === "identifier" && (prev.value === "function" || prev.value === "new"))) continue
    const lower = call.name.toLowerCase()
    const parts = splitArgs(call.args)
    if (PHP_RUN.has(lower)) out.push(runFinding(call.args))
    else if (PHP_DELETE.has(lower)) out.push({ kind: "delete" })
    else if (PHP_PROCESS.has(lower)) out.push({ kind: "process" })
    else if (lower === "eval") {
      const code = literal(parts[0])
      out.push(code === null ? { kind: "load" } : { kind: null, evaluates: code })
    } else if (lower === "create_function") out.push({ kind: "load" })
    else if (PHP_INCLUDE.has(lower) && literal(parts[0]) === null) out.push({ kind: "load" })
    else if (PHP_CALLERS.has(lower)) {
      const fn = literal(parts[lower === "usort" || lower === "array_filter" ? 1 : 0])
      if (fn === null) {
        if (lower.startsWith("call_user_func") || lower.startsWith("forward_static")) out.push({ kind: "load" })
      } else if (PHP_RUN.has(fn.toLowerCase())) out.push({ kind: "run", runs: strings(parts.slice(1).flat()) })
      else if (PHP_DELETE.has(fn.toLowerCase())) out.push({ kind: "delete" })
    } else if (lower === "preg_replace" && /e[a-z]*$/.test(literal(parts[0]) ?? "")) out.push({ kind: "load" })
    else if (lower === "unserialize") out.push({ kind: "unpickle" })
    else if (["file_put_contents", "copy", "symlink", "link", "fopen"].includes(lower)) {
      const target = lower === "copy" || lower === "symlink" || lower === "link" ? parts[1] : parts[0]
      const writing = lower !== "fopen" || WRITE_MODE.test(literal(parts[1]) ?? "")
      const linking = lower === "link" && (writesSensitive(strings(parts[0] ?? [])) || writesSensitive([]))
      if (linking || (writing && writesSensitive(strings(target ?? [])))) out.push({ kind: "write" })
    }
  }
  return out
}

export const JUDGES: Readonly<Record<Language, (toks: ReadonlyArray<Tok>, env: RuleEnv) => Finding[]>> = { python, node, perl, ruby, php }

export type { Call }
