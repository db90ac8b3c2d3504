/**
 * What the command that started a background process did around the program
 * that reads what is typed into it, which that text inherits: `x=rm bash` or
 * `export x=rm; bash` hands the shell a variable, `cd sub && bash` a working
 * directory, `PATH=$PWD/bin:$PATH bash` a PATH, `stty -isig; sh` or
 * `INPUTRC=./m bash -i` other meanings for the keys typed.
 *
 * The gate would otherwise judge the typed text with the task's exports, cwd
 * and PATH, which are not the reader's. Read from the line's text, fail-closed:
 * whatever the line may have set is unknown when the text is judged; a
 * directory is known only when every `cd` names one literally (each is then a
 * place the reader may stand, with or without it: a `cd` can fail).
 */
import { posix } from "node:path"
import type { Cmd } from "../approval/shell/ast.js"
import { resolveHead } from "../approval/detect/commandHead.js"
import { lexCommands } from "../approval/shell/parser.js"
import { basename } from "../approval/shell/words.js"
import { holdsCommandLine } from "./inputLanguage.js"

export interface ReaderSetup {
  /** The line may give the reader variables other than the task's exports: names typed later are unknown. */
  readonly variablesUnknown: boolean
  /** The line may change where programs are found (PATH, functions, hash, a sourced file): every program typed is unknown. */
  readonly pathUnknown: boolean
  /** Where the reader may stand, relative to where the process started; null when not known. */
  readonly dirs: ReadonlyArray<string> | null
  /** The line changes what typed keys do (terminal settings, readline bindings): nothing typed can be judged as sent. */
  readonly keysChanged: boolean
}

const OPAQUE: ReaderSetup = { variablesUnknown: true, pathUnknown: true, dirs: null, keysChanged: true }

/** Different places a reader may stand before its directory counts as unknown. */
const MAX_DIRS = 4

/** Options a shell may be started with that leave it reading the task's own state. */
const PLAIN_SHELL_OPTIONS = new Set(["-i", "--norc", "--noprofile", "-l", "--login", "-s", "--posix", "-e", "-u", "-x", "-v"])
const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox"])

/** Wrappers that run their command unchanged: same variables, directory and PATH. */
const NEUTRAL_WRAPPERS = new Set(["nohup", "setsid", "timeout", "nice", "stdbuf", "ionice", "time", "unbuffer", "exec"])

/** Builtins that may set a variable whose name is computed (`export "$n=…"`, `read "$v"`, `printf -v "$v"`). */
const NAMES_VARIABLES = new Set([
  "declare", "typeset", "local", "export", "readonly", "read", "mapfile", "readarray", "printf", "getopts", "let", "unset"
])
/** Builtins that run text or change how names are found: anything may follow. */
const CHANGES_LOOKUP = new Set(["source", ".", "eval", "hash", "enable", "alias", "trap", "shopt", "builtin"])

/** Names whose mention means the line may change where programs are found or what a new shell runs first. */
const LOOKUP_VARIABLES = /PATH|ENV|BASH_FUNC|FPATH|GLOBIGNORE|EXECIGNORE/

/** `stty` arguments that only print. */
const STTY_QUERIES = new Set(["-a", "--all", "-g", "--save", "size", "speed"])
/** `bind` options that only list or remove bindings (`-q`/`-u`/`-m` take a name). */
const BIND_QUERIES = new Set(["-l", "-p", "-P", "-v", "-V", "-s", "-S", "-X"])
const BIND_NAMED = new Set(["-q", "-u", "-m", "-r"])

/** Whether `stty`/`bind`/`bindkey` with these arguments changes what later keystrokes do. */
export const rebindsKeys = (program: string, args: ReadonlyArray<string>): boolean => {
  if (program === "stty") {
    const rest = args[0] === "-F" || args[0] === "--file" ? args.slice(2) : args
    return rest.some((a) => !STTY_QUERIES.has(a))
  }
  // zsh: `bindkey -s '%%' 'rm …\n'` is a macro; only listing is harmless.
  if (program === "bindkey") return args.some((a) => a !== "-l" && a !== "-L")
  if (program === "bind") {
    for (let k = 0; k < args.length; k++) {
      if (BIND_NAMED.has(args[k]!)) k++
      else if (!BIND_QUERIES.has(args[k]!)) return true
    }
  }
  return false
}

/** Whether shell text run by a reader (typed, or the starting line) changes what keys do from then on. */
export const shellRebindsKeys = (text: string): boolean => {
  if (text.includes("INPUTRC")) return true
  const commands = lexCommands(text)
  if (commands === null) return /\b(?:stty|bind|bindkey)\b/.test(text)
  return commands.some((cmd) => {
    const argv = cmd.words.map((w) => w.value)
    const head = resolveHead(argv.length, (k) => argv[k]!)
    return head.index >= 0 && rebindsKeys(basename(argv[head.index]!), argv.slice(head.index + 1))
  })
}

/** Code typed into an interpreter that rebinds its line editor's keys or puts its terminal in another mode. */
export const codeRebindsKeys = (text: string): boolean =>
  /parse_and_bind|read_init_file|INPUTRC|inputrc|termios|\btty\s*\.\s*set(?:raw|cbreak)|Reline|stty/.test(text)

/** The text a word names before `=` (`x` of `x=1`): computed when it holds an expansion. */
const computedName = (raw: string): boolean => /[$`]/.test(raw.includes("=") ? raw.slice(0, raw.indexOf("=")) : raw)

interface Scan {
  variables: boolean
  path: boolean
  keys: boolean
  dirs: Array<string> | null
}

/** Where a `cd` goes, or null when its target is not a plain literal path. */
const cdTarget = (args: ReadonlyArray<string>, raw: ReadonlyArray<string>): string | null => {
  let k = 0
  while (k < args.length && /^-[LPe@]+$/.test(args[k]!)) k++
  if (args[k] === "--") k++
  const target = args[k]
  // `cd` (home), `cd -` (the previous directory), `~`, an expansion, `..` (logical or physical: not by the text).
  if (target === undefined || target === "-" || target === "" || k + 1 < args.length) return null
  if (/[$`~*?[]/.test(raw[k] ?? "$") || target.split("/").includes("..")) return null
  return target
}

/** Every place of `dirs`, with and without each of `steps` taken from it (capped: past that, unknown). */
const widen = (dirs: ReadonlyArray<string> | null, steps: ReadonlyArray<string> | null): Array<string> | null => {
  if (dirs === null || steps === null) return null
  const next = new Set(dirs)
  for (const dir of dirs) for (const step of steps) next.add(step.startsWith("/") ? posix.normalize(step) : posix.join(dir, step))
  return next.size > MAX_DIRS ? null : [...next]
}

const everything = (scan: Scan): void => {
  scan.variables = true
  scan.path = true
  scan.dirs = null
}

/** A `printf -v NAME`, `read NAME`, `export NAME=…` whose NAME is computed may set PATH. */
const setsComputedName = (name: string, args: ReadonlyArray<string>, raw: ReadonlyArray<string>): boolean => {
  if (name === "printf") {
    const v = args.indexOf("-v")
    return v >= 0 && computedName(raw[v + 1] ?? "$")
  }
  // `declare -n r=PATH` (a reference), `export -f ls` (a function by a program's name).
  return raw.some(computedName) || args.some((a) => /^-[a-zA-Z]*[fn]/.test(a))
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

/**
 * Whether the wrapper at `w` runs its command in the same directory, with the same PATH and functions: `nohup`,
 * `timeout 5`, `env X=1` (its variables are unknown anyway). Not `sudo`, `env -i`/`-C dir`, `chroot`, `exec -c`.
 */
const neutralWrapper = (argv: ReadonlyArray<string>, w: number, next: number): boolean => {
  const wrapper = basename(argv[w]!)
  if (wrapper === "env") return argv.slice(w + 1, next < 0 ? argv.length : next).every((a) => ASSIGNMENT.test(a))
  return NEUTRAL_WRAPPERS.has(wrapper) && !(wrapper === "exec" && argv[w + 1]?.startsWith("-") === true)
}

/** One simple command of the line: what it may set for a reader that runs after it (or is it). */
const scanCommand = (scan: Scan, cmd: Cmd, cdpath: boolean, depth: number): void => {
  // A function (exported with `export -f`) is a name a later command may call instead of a program.
  if (cmd.funcDef) return everything(scan)
  const argv = cmd.words.map((w) => w.value)
  const raw = cmd.words.map((w) => w.raw)
  const head = resolveHead(argv.length, (k) => argv[k]!)
  const first = head.wrappers.length > 0 ? Math.min(...head.wrappers) : head.index < 0 ? argv.length : head.index
  if (first > 0) scan.variables = true // assignments, before a program or alone
  if (head.envSplit !== null) return everything(scan)
  // (What follows a wrapper: the next wrapper, or the program.)
  const words = [...head.wrappers, head.index].sort((a, b) => a - b)
  for (const w of head.wrappers) if (!neutralWrapper(argv, w, words.find((k) => k > w) ?? -1)) everything(scan)
  if (head.index < 0) return
  // `$c sub`: what runs is not known.
  if (cmd.words[head.index]!.expands) return everything(scan)
  const name = basename(argv[head.index]!)
  const args = argv.slice(head.index + 1)
  const rawArgs = raw.slice(head.index + 1)
  if (name === "cd") {
    scan.variables = true // PWD, OLDPWD
    const target = cdTarget(args, rawArgs)
    // CDPATH looks a relative name up elsewhere first.
    scan.dirs = target === null || (cdpath && !/^\.{0,2}\//.test(target)) ? null : widen(scan.dirs, [target])
  } else if (name === "pushd" || name === "popd") {
    scan.variables = true
    scan.dirs = null
  } else if (CHANGES_LOOKUP.has(name)) {
    everything(scan)
  } else if (NAMES_VARIABLES.has(name) || name === "set" || name === "shift") {
    scan.variables = true
    if (setsComputedName(name, args, rawArgs)) everything(scan)
  } else if (SHELLS.has(name)) {
    // A shell running a script or given positional words holds variables of its own; `-c` text is read below.
    if (args.some((a) => !PLAIN_SHELL_OPTIONS.has(a))) scan.variables = true
    if (args.some((a) => a === "--rcfile" || a === "--init-file")) everything(scan)
  }
  if (rebindsKeys(name, args)) scan.keys = true
  // A word that is a command line itself (`bash -c 'cd x; bash'`, `script -qc '…'`): what it does counts too.
  if (depth < 3) for (const arg of args) if (holdsCommandLine(arg)) mergeInto(scan, readerSetup(arg, depth + 1))
}

const mergeInto = (scan: Scan, inner: ReaderSetup): void => {
  scan.variables ||= inner.variablesUnknown
  scan.path ||= inner.pathUnknown
  scan.keys ||= inner.keysChanged
  scan.dirs = widen(scan.dirs, inner.dirs)
}

/** Whether the line is one program started as is (`bash`, `python3 -i`, `bash -i --norc`): it reads the task's state. */
const startedAsIs = (commands: ReadonlyArray<Cmd>): boolean => {
  if (commands.length !== 1) return false
  const cmd = commands[0]!
  const argv = cmd.words.map((w) => w.value)
  const head = resolveHead(argv.length, (k) => argv[k]!)
  if (head.index !== 0 || head.wrappers.length > 0 || head.envSplit !== null) return false
  const name = basename(argv[0]!)
  return !SHELLS.has(name) || argv.slice(1).every((a) => PLAIN_SHELL_OPTIONS.has(a))
}

/** What `command`, starting a background process, sets up for the program that reads what is typed into it. */
export const readerSetup = (command: string, depth = 0): ReaderSetup => {
  const commands = lexCommands(command)
  if (commands === null) return OPAQUE
  const scan: Scan = {
    variables: !startedAsIs(commands),
    path: LOOKUP_VARIABLES.test(command),
    keys: command.includes("INPUTRC"),
    dirs: ["."]
  }
  const cdpath = command.includes("CDPATH")
  for (const cmd of commands) scanCommand(scan, cmd, cdpath, depth)
  return { variablesUnknown: scan.variables, pathUnknown: scan.path, dirs: scan.dirs, keysChanged: scan.keys }
}
