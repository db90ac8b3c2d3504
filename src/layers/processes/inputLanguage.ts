/**
 * Which languages the text typed into a background process may be read as:
 * the programs that may read its stdin, found from the command that started it.
 *
 * Every program of a list may read it (`bash; python3`: bash first, then
 * python3, and where bash stops is not known), except builtins that never
 * read (`cd x && python3 -i`); of a pipeline only the first (`python3 -i | tee
 * log`). Each is found past variable assignments and
 * wrappers that run another program (`exec`, `env`, `nohup`, `stdbuf`,
 * `timeout 5`, …); `bash -c '…'` is looked into. An interpreter reads code
 * as a REPL (`python3`, `python3 -i x.py`, `node`, `irb`, `php -a`,
 * `perl -d`) or when its program comes from stdin; a script or `-c` code
 * reads data, unless it starts a REPL or debugger itself (`code.interact()`,
 * `breakpoint()`, `require('repl').start()`): judged as both. A pager (`less`,
 * `more`, `man`) runs `!cmd` and `|cmd`, and starts vi on `v`: judged as its keys and vi's, and so are the keys of
 * a program that starts one (`git log`, `journalctl`, psql's long results) or has such keys itself (tig, mutt). Anything
 * unrecognised is read as shell: a program with a shell escape (`sqlite3`'s
 * `.shell`, a script doing `os.system(input())`) is then judged by the shell
 * rules, which is the cautious way.
 */
import type { CodeLanguage, InputReader } from "../../services/Approval.js"
import { resolveHead } from "../approval/detect/commandHead.js"
import { consoleOf, consoleReadsStdin, inputConsole } from "../approval/detect/consoleCommands.js"
import { editorReader } from "../approval/detect/editorCommands.js"
import { readsStdinCodeToo } from "../approval/detect/resolve/codeSources.js"
import { runsOpaqueCode } from "../approval/detect/rules/opaqueInterpreters.js"
import { lexCommands } from "../approval/shell/parser.js"
import { replUnderAnotherName } from "./otherRepls.js"
import { basename } from "../approval/shell/words.js"

const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox"])

const COMPILED = new Set(["go", "java", "tcc", "run-parts"])

const byProgram = (name: string): CodeLanguage | undefined => {
  if (SHELLS.has(name)) return "shell"
  if (/^(?:i?python[0-9.]*|pypy[0-9.]*|ipython[0-9.]*)$/.test(name)) return "python"
  if (/^(?:node(?:js)?[0-9.]*|deno|bun)$/.test(name)) return "node"
  if (/^perl[0-9.]*$/.test(name)) return "perl"
  if (/^(?:ruby[0-9.]*|irb[0-9.]*)$/.test(name)) return "ruby"
  if (/^php[0-9.]*$/.test(name)) return "php"
  return undefined
}

interface Interpreter {
  /** Options that make it read code from stdin even with a script (REPL after the script, debugger). */
  readonly interactive: ReadonlySet<string>
  /** Options whose value is code or a module to run: then stdin is data. */
  readonly code: ReadonlySet<string>
  /** Other options that take a separate value. */
  readonly valued: ReadonlySet<string>
  /** Single-dash options may be clustered (`-ui`, `-de0`): letters after a valued one are its value. */
  readonly clusters: boolean
}

const INTERPRETERS: Readonly<Record<Exclude<CodeLanguage, "shell">, Interpreter>> = {
  python: {
    interactive: new Set(["-i"]),
    code: new Set(["-c", "-m"]),
    valued: new Set(["-W", "-X", "--check-hash-based-pycs"]),
    clusters: true
  },
  node: {
    interactive: new Set(["-i", "--interactive"]),
    code: new Set(["-e", "--eval", "-p", "--print"]),
    valued: new Set(["-r", "--require", "--import", "--loader", "--input-type", "-C", "--conditions"]),
    clusters: false
  },
  perl: { interactive: new Set(["-d"]), code: new Set(["-e", "-E"]), valued: new Set(["-I", "-M", "-m"]), clusters: true },
  ruby: { interactive: new Set(), code: new Set(["-e"]), valued: new Set(["-I", "-r", "-C"]), clusters: true },
  php: { interactive: new Set(["-a"]), code: new Set(["-r", "-B", "-R", "-F", "-E"]), valued: new Set(["-c", "-d", "-z"]), clusters: false }
}

/** Whether an interpreter started with `args` reads code from stdin (a REPL, or its program from stdin). */
const readsCode = (language: Exclude<CodeLanguage, "shell">, name: string, args: ReadonlyArray<string>): boolean => {
  if (name.startsWith("ipython") || name.startsWith("irb")) return true
  // deno and bun take a subcommand: only their REPL reads code.
  if (name === "deno") return args.length === 0 || args[0] === "repl"
  if (name === "bun") return args[0] === "repl"
  const spec = INTERPRETERS[language]
  let code = false
  let script = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "-" || arg === "--") break
    if (!arg.startsWith("-")) {
      script = true
      break
    }
    const option = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg
    const letters = spec.clusters && !arg.startsWith("--") ? [...arg.slice(1)].map((l) => `-${l}`) : [option]
    for (const [at, flag] of letters.entries()) {
      if (spec.interactive.has(flag)) return true
      if (spec.code.has(flag)) code = true
      if (spec.code.has(flag) || spec.valued.has(flag)) {
        // The value is the rest of the cluster, or the next word.
        if (at === letters.length - 1 && !arg.includes("=")) i++
        break
      }
    }
  }
  return !code && !script
}

/**
 * Programs that never read their standard input (builtins that only set state, a few commands that only print):
 * text typed while they run waits for the next program. Anything else may read it.
 */
const NEVER_READS = new Set([
  "cd", "pushd", "popd", "dirs", "export", "declare", "typeset", "local", "readonly", "unset", "set", "shift", "alias",
  "unalias", "true", "false", ":", "echo", "printf", "test", "[", "[[", "umask", "ulimit", "hash", "type", "stty",
  "sleep", "pwd", "clear", "trap", "shopt", "exit", "return", "break", "continue", "wait", "jobs", "disown", "enable",
  "let", "mkdir", "touch", "ls"
])

/**
 * Programs that start a pager on a terminal (git's PAGER/GIT_PAGER/core.pager, systemd's tools, gh, aws, psql,
 * mysql), or read keys where `!` runs a shell command and `:` opens a command line (tig, mutt, lynx, w3m, ranger).
 */
const PAGES_OUTPUT = new Set([
  "git", "journalctl", "systemctl", "loginctl", "busctl", "coredumpctl", "hostnamectl", "networkctl", "resolvectl",
  "timedatectl", "localectl", "homectl", "bootctl", "portablectl", "userdbctl", "gh", "glab", "aws", "bat", "batcat",
  "delta", "perldoc", "pydoc", "pydoc3", "ri", "psql", "mysql", "mariadb", "tig", "mutt", "neomutt", "lynx", "w3m",
  "elinks", "links", "ranger", "nnn", "vifm", "mc", "info", "pinfo", "svn", "hg", "dmesg", "apt", "zypper", "dpkg",
  "dpkg-query", "nmcli", "systemd-analyze", "ansible-doc", "cvs", "fossil"
])
const PAGER_READERS: ReadonlyArray<InputReader> = ["pager-keys", "vim-keys"]

/** Whether a word is a command line in its own right (`script -c 'cd x && bash'`, `watch 'a; b'`): read it too. */
export const holdsCommandLine = (word: string): boolean => /[\s;&|]/.test(word.trim())

/** The languages one simple command's program may read typed text as; empty when it reads none. */
const simpleCommand = (argv: ReadonlyArray<string>, depth: number, terminal: boolean): ReadonlyArray<InputReader> => {
  // Past assignments and wrappers (`env -u X`, `timeout 5`, `nice -n 5`), with the approval gate's own table.
  const head = resolveHead(argv.length, (k) => argv[k]!)
  if (head.envSplit !== null) return depth < 3 ? inputReaders(head.envSplit, depth + 1, terminal) : ["shell"]
  const i = head.index
  // No program (assignments only, `command -v x`): nothing reads.
  if (i < 0) return []
  const name = basename(argv[i]!)
  const args = argv.slice(i + 1)
  if (NEVER_READS.has(name)) return []
  // sqlite3, gdb, psql, mysql read console commands; tclsh, lua, R… a language nothing here reads. psql and mysql
  // show long results in a pager on a terminal, which then reads the keys.
  const console = consoleOf(name.toLowerCase())
  if (console !== null) {
    const reader: InputReader = consoleReadsStdin(console, args, name.toLowerCase()) ? inputConsole(console, args, name.toLowerCase()) : "shell"
    return terminal && PAGES_OUTPUT.has(name) ? [reader, ...PAGER_READERS] : [reader]
  }
  // ed, ex and vim read editor commands (vim on a terminal: keys whose `:` lines are commands); their `!` runs shell.
  const editor = editorReader(name.toLowerCase(), args)
  // A pager runs `!cmd` and `|cmd` itself, and `v` opens vi on the file, whose keys then reach `:` commands.
  if (editor === "pager-keys") return ["pager-keys", "vim-keys"]
  if (editor !== null) return [editor]
  // (What `go run`, `java X.java` or run-parts' programs read is their data.)
  if (!COMPILED.has(name) && runsOpaqueCode(name, args)) return ["opaque"]
  // A framework's or language's REPL under another name (`flask shell`, `rails c`, `pry`, `mongosh`, `utop`).
  const repl = replUnderAnotherName(name, args)
  if (repl !== undefined) return repl
  const language = byProgram(name)
  // A program nothing here knows, or a script: its stdin is data, judged as shell (the cautious way). A word that
  // is a command line of its own (`script -qc 'bash; python3'`) may start other readers.
  if (language === undefined || language === "shell") {
    const nested = depth < 3 ? args.filter(holdsCommandLine).flatMap((arg) => inputReaders(arg, depth + 1, terminal)) : []
    // `bash -c '…'`: the reader is only what that text runs.
    const c = language === "shell" ? argv.indexOf("-c", i + 1) : -1
    if (c > 0 && c + 1 < argv.length) return depth < 3 ? inputReaders(argv[c + 1]!, depth + 1, terminal) : ["shell"]
    // On a terminal, a program that shows its output in a pager (`git log`, `journalctl`) or has `!` and `:` keys of
    // its own (tig, mutt, lynx): the keys are read as a pager's and vi's too. (On a pipe none of them starts.)
    return unique(["shell", ...(terminal && PAGES_OUTPUT.has(name) ? PAGER_READERS : []), ...nested])
  }
  // `python3 -m pdb x.py`: the debugger's commands are Python.
  if (readsCode(language, name, args) || readsStdinCodeToo(name, args)) return [language]
  // A script reads data, but one that calls `code.interact()` or `breakpoint()` reads code: both readings are judged.
  return ["shell", language]
}

const unique = <A>(items: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(items)]

/**
 * Every language text typed into the process started by `command` may be read as. Each program that may read its
 * stdin counts, not just the last: in `bash; python3` bash reads what is typed until it ends, then python3 does, and
 * where one stops is not known. So are the first element of each pipeline, a subshell's or a function's commands, a
 * `$(…)` (it shares the stdin). Text is judged as every one of them.
 */
export const inputReaders = (command: string, depth = 0, terminal = false): ReadonlyArray<InputReader> => {
  const commands = lexCommands(command)
  // Too deep or too long to read: nothing here can tell what reads.
  if (commands === null) return ["opaque"]
  const readers: Array<InputReader> = []
  for (const cmd of commands) {
    // A heredoc body is the stdin of its own command; a later pipeline element reads the previous one.
    // On a terminal a later pipeline element reads the keys too (vim, less and ssh open /dev/tty): `echo x | vim -`.
    if (cmd.funcDef || cmd.origin === "heredoc" || (cmd.pipePrev !== null && !terminal)) continue
    readers.push(...simpleCommand(cmd.words.map((w) => w.value), depth, terminal))
  }
  return readers.length === 0 ? ["shell"] : unique(readers)
}
