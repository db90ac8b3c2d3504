/**
 * A REPL's own commands, beside its language (red team 8). Text typed into a REPL is judged as the language's code,
 * but several REPLs read lines their language would not:
 *
 * - IPython runs `!cmd`, `x = !cmd` and shell aliases typed bare (`rm -r d`: automagic), and magics that run or
 *   load code (`%run`, `%load`, `%%bash`, `%%writefile`, `%pip`, `%env`, `%alias`…), autocall lines and
 *   `get_ipython()` calls; `!cmd` fills in Python values (`{expr}`, `$name`).
 * - The Perl debugger runs `!!cmd` as shell, re-runs history with `!n`, reads commands with `source`, and sets its
 *   pager and shell with `o`.
 * - node's REPL loads a file with `.load` and writes one with `.save`; irb loads one with `source`; Pry runs `.cmd`.
 * - On a terminal, Python's `help()` (IPython's `?`, the debugger's `|cmd`, irb's long output) opens a pager whose
 *   keys run `!cmd`.
 *
 * This reads those lines out of the typed text: shell text to judge as commands, a reason to ask for what cannot be
 * read, and whether a pager may be reading the keys.
 */
import { resolveHead } from "../approval/detect/commandHead.js"
import { lexCommands } from "../approval/shell/parser.js"
import { basename } from "../approval/shell/words.js"

/** A REPL with commands of its own, or a Python REPL (whose `help()` pages). */
export type Repl = "ipython" | "perl-debugger" | "node" | "irb" | "pry" | "python"

export interface ReplEscapes {
  /** Commands the REPL hands a shell (or that amount to one: `.load f` is `node f`), to judge as typed. */
  readonly shell: ReadonlyArray<string>
  /** Why the text needs approval whatever it says (a command that runs or loads what the gate does not read). */
  readonly asks: string | undefined
  /** A pager may read the keys that follow (only on a terminal). */
  readonly pager: boolean
}

export const REPL_COMMAND_DESCRIPTION =
  "runs a REPL command of its own (an IPython magic, alias or API call, a debugger command) that runs or loads what the gate does not read"

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`
const unquoted = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, "$2")

const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox"])

/** Which REPL one program is, from its name and arguments. */
const replOfProgram = (name: string, args: ReadonlyArray<string>): Repl | undefined => {
  if (/^ipython[0-9.]*$/.test(name) || name === "jupyter-console" || (name === "jupyter" && args[0] === "console")) return "ipython"
  // Django's shell starts IPython when it is installed.
  const django = (script: string | undefined, sub: string | undefined) => /(?:^|\/)(?:manage\.py|django-admin)$/.test(script ?? "") && /^shell/.test(sub ?? "")
  if (django(name, args[0])) return "ipython"
  if (/^(?:python[0-9.]*|pypy[0-9.]*)$/.test(name)) {
    if (django(args[0], args[1])) return "ipython"
    const m = args.findIndex((a) => a === "-m" || a.startsWith("-m"))
    const module = m < 0 ? undefined : args[m] === "-m" ? args[m + 1] : args[m]!.slice(2)
    return module === "IPython" ? "ipython" : "python"
  }
  if (/^perl[0-9.]*$/.test(name)) {
    for (const arg of args) {
      if (arg === "--" || !arg.startsWith("-")) break
      if (/^-[A-Za-z]*d/.test(arg)) return "perl-debugger"
    }
    return undefined
  }
  if (/^node(?:js)?[0-9.]*$/.test(name)) {
    if (args.includes("-i") || args.includes("--interactive")) return "node"
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!
      if (/^(?:-e|--eval|-p|--print)$/.test(arg) || !arg.startsWith("-")) return undefined
      if (/^(?:-r|--require|--import|--loader)$/.test(arg)) i++
    }
    return "node"
  }
  if (/^irb[0-9.]*$/.test(name)) return "irb"
  // Pry runs `.cmd` as shell; a Rails console may be Pry (pry-rails).
  if (name === "pry" || (name === "rails" && /^(?:c|console)$/.test(args[0] ?? ""))) return "pry"
  if (name === "flask" && args[0] === "shell") return "python"
  return undefined
}

/**
 * The REPLs that may read what is typed into the process `command` started: every program of the line (and of a
 * shell's `-c` text or a word that is a command line of its own, three deep), past wrappers and assignments.
 */
export const replsOf = (command: string, depth = 0): ReadonlyArray<Repl> => {
  const commands = lexCommands(command)
  if (commands === null) return []
  const found = new Set<Repl>()
  const nested = (text: string) => {
    if (depth < 3) for (const r of replsOf(text, depth + 1)) found.add(r)
  }
  for (const cmd of commands) {
    if (cmd.funcDef || cmd.origin === "heredoc") continue
    const argv = cmd.words.map((w) => w.value)
    const head = resolveHead(argv.length, (k) => argv[k]!)
    if (head.envSplit !== null) {
      nested(head.envSplit)
      continue
    }
    if (head.index < 0) continue
    const name = basename(argv[head.index]!)
    const args = argv.slice(head.index + 1)
    const repl = replOfProgram(name, args)
    if (repl !== undefined) found.add(repl)
    const c = SHELLS.has(name) ? args.indexOf("-c") : -1
    if (c >= 0 && c + 1 < args.length) nested(args[c + 1]!)
    for (const arg of args) if (/[\s;&|]/.test(arg.trim())) nested(arg)
  }
  return [...found]
}

/** The one REPL a command starts, for tests and callers that want one name. */
export const replOf = (command: string): Repl | undefined => replsOf(command)[0]

/** IPython's default aliases (`%alias`): each runs the shell command of its name, typed with or without `%`. */
const IPYTHON_ALIASES = new Set(["cat", "clear", "cp", "ldir", "less", "lf", "lk", "ll", "ls", "lx", "man", "mkdir", "more", "mv", "rm", "rmdir"])
const LS_ALIASES = new Set(["ldir", "lf", "lk", "ll", "lx"])
const PAGING_ALIASES = new Set(["less", "more", "man"])
/** Magics that only time, show or set display options: the code they are given is judged as Python already. */
const QUIET_MAGICS = new Set([
  "timeit", "time", "pwd", "who", "whos", "who_ls", "history", "hist", "precision", "xmode", "matplotlib", "lsmagic",
  "magic", "quickref", "colors", "doctest_mode", "autoindent", "dhist", "dirs", "pinfo", "pinfo2", "pdef", "pdoc",
  "psource", "pfile", "page", "tb", "pdb", "debug", "cpaste", "reset", "reset_selective", "automagic"
])
const PAGING_MAGICS = new Set(["pinfo", "pinfo2", "pdef", "pdoc", "psource", "pfile", "page", "pycat"])
const QUIET_CELL_MAGICS = new Set(["timeit", "time", "capture", "prun"])
/** Names IPython reads as a magic when typed bare (automagic): its magics and aliases a typed line is likely to use. */
const AUTOMAGIC = new Set([...IPYTHON_ALIASES, ...QUIET_MAGICS, ...PAGING_MAGICS, "run", "load", "loadpy", "load_ext", "reload_ext", "alias",
  "unalias", "alias_magic", "rehashx", "macro", "edit", "ed", "env", "set_env", "cd", "bookmark", "pushd", "popd", "save", "store",
  "logstart", "pip", "conda", "mamba", "micromamba", "sx", "system", "sc", "paste", "rerun", "recall", "writefile", "config", "autocall",
  "killbgscripts", "notebook", "prun", "sc", "code_wrap"])

interface Found {
  shell: Array<string>
  asks: string | undefined
  pager: boolean
}

/** IPython fills `{expr}` and `$name` in with Python values before the shell sees the text. */
const ipythonShell = (text: string, out: Found) => {
  if (/\$(?!\$)[A-Za-z_{]|\{[^}]*\}/.test(text)) out.asks = REPL_COMMAND_DESCRIPTION
  out.shell.push(text.replace(/\$\$/g, "$"))
}

const ipythonMagic = (name: string, args: string, out: Found) => {
  if (IPYTHON_ALIASES.has(name)) {
    ipythonShell(`${LS_ALIASES.has(name) ? "ls" : name} ${args}`.trim(), out)
    if (PAGING_ALIASES.has(name)) out.pager = true
  } else if (name === "sx" || name === "system") {
    ipythonShell(args, out)
  } else if (PAGING_MAGICS.has(name)) {
    out.pager = true
    if (name === "pycat") ipythonShell(`cat ${args}`, out)
  } else if (!QUIET_MAGICS.has(name)) {
    out.asks = REPL_COMMAND_DESCRIPTION
  }
}

/** A bare word IPython may take for a magic: not followed by what makes the line Python (`ls = 1`, `time.sleep`). */
const AUTOMAGIC_LINE = /^([A-Za-z_]\w*)(?:\s+(?![-+*/%&|^<>!=]?=(?!=)|[-+*/%&|^]\s)(.*))?$/

const ipythonLine = (line: string, out: Found) => {
  const assigned = /^[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*([!%].*)$/.exec(line)
  const text = assigned === null ? line : assigned[1]!
  if (text.startsWith("!")) return ipythonShell(text.replace(/^!!?/, "").trim(), out)
  if (text.startsWith("%%")) {
    if (!QUIET_CELL_MAGICS.has(/^%%(\S*)/.exec(text)![1]!)) out.asks = REPL_COMMAND_DESCRIPTION
    return
  }
  const magic = /^%(\S+)\s*(.*)$/.exec(text)
  if (magic !== null) return ipythonMagic(magic[1]!, magic[2]!, out)
  // Autocall: `/f a`, `,f a b`, `;f a b` call f with the rest as arguments.
  if (/^[/,;]\s*[A-Za-z_]/.test(text)) out.asks = REPL_COMMAND_DESCRIPTION
  if (/\bget_ipython\b/.test(text)) out.asks = REPL_COMMAND_DESCRIPTION
  if (/^\?|\?\s*$/.test(text)) out.pager = true
  const bare = AUTOMAGIC_LINE.exec(text)
  if (bare !== null && AUTOMAGIC.has(bare[1]!)) ipythonMagic(bare[1]!, bare[2] ?? "", out)
}

const perlDebuggerLine = (line: string, out: Found): void => {
  const shell = /^!!\s*(.*)$/.exec(line)
  if (shell !== null) {
    out.shell.push(shell[1]!)
    return
  }
  // `!n`, `!-n`, `!pattern` run an earlier command again; `source` reads commands from a file; `o` sets the pager or
  // shell; `=` defines an alias; `{` runs debugger commands before every prompt.
  if (/^(?:!|source\b|o\b.*=|=|\{)/.test(line)) out.asks = REPL_COMMAND_DESCRIPTION
  const piped = /^\|\|?\s*(.*)$/.exec(line)
  if (piped !== null) {
    out.pager = true
    perlDebuggerLine(piped[1]!, out)
  }
  if (/^(?:man|doc|h)\b/.test(line)) out.pager = true
}

const nodeLine = (line: string, out: Found) => {
  const load = /^\.load\s+(.+?)\s*$/.exec(line)
  if (load !== null) out.shell.push(`node ${quote(load[1]!)}`)
  const save = /^\.save\s+(.+?)\s*$/.exec(line)
  if (save !== null) out.shell.push(`true > ${quote(save[1]!)}`)
}

const irbLine = (line: string, out: Found) => {
  const source = /^(?:source|irb_source|irb_load|irb_require)\s+(.+?)\s*$/.exec(line)
  if (source !== null) out.shell.push(`ruby ${quote(unquoted(source[1]!))}`)
  if (/^(?:edit|irb_edit)\b/.test(line)) out.asks = REPL_COMMAND_DESCRIPTION
}

const PYTHON_HELP = /\bhelp\s*\(|^\s*help\s*$|\bpydoc\b/m

/** What `text`, typed into `repl`, runs or loads beside its language; `terminal`: a pager may take the keys. */
export const replEscapes = (repl: Repl, text: string, terminal: boolean): ReplEscapes => {
  const out: Found = { shell: [], asks: undefined, pager: false }
  for (const raw of text.split("\n")) {
    const line = raw.trim()
    if (line === "") continue
    if (repl === "ipython") ipythonLine(line, out)
    else if (repl === "perl-debugger") perlDebuggerLine(line, out)
    else if (repl === "node") nodeLine(line, out)
    else if (repl === "irb") irbLine(line, out)
    else if (repl === "pry") {
      irbLine(line, out)
      // `.cmd` is shell; a method chain continued on a new line (`.map { … }`) starts with `.` too: judged as shell as well.
      const dot = /^\.(?=[A-Za-z\/~])(.*)$/.exec(line)
      if (dot !== null) out.shell.push(dot[1]!)
    }
  }
  if ((repl === "python" || repl === "ipython") && PYTHON_HELP.test(text)) out.pager = true
  // irb pages any output longer than the screen.
  if (repl === "irb" || repl === "pry") out.pager = true
  return { shell: out.shell, asks: out.asks, pager: terminal && out.pager }
}

/** The language each REPL's own text is read in (the readings of typed text it applies to). */
export const REPL_LANGUAGE: Readonly<Record<Repl, "python" | "perl" | "node" | "ruby">> = {
  ipython: "python",
  python: "python",
  "perl-debugger": "perl",
  node: "node",
  irb: "ruby",
  pry: "ruby"
}
