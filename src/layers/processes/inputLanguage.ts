/**
 * Which language the text typed into a background process is read as: the
 * program that reads its stdin, found from the command that started it.
 *
 * The reader is the last command of a list (`cd x && python3 -i`), the first
 * of a pipeline (`python3 -i | tee log`), past variable assignments and
 * wrappers that run another program (`exec`, `env`, `nohup`, `stdbuf`,
 * `timeout 5`, …); `bash -c '…'` is looked into. An interpreter reads code
 * only as a REPL (`python3`, `python3 -i x.py`, `node`, `irb`, `php -a`,
 * `perl -d`) or when its program comes from stdin; running a script or `-c`
 * code it reads data whose meaning only the script knows. That, and anything
 * unrecognised, is read as shell: a program with a shell escape (`sqlite3`'s
 * `.shell`, a script doing `os.system(input())`) is then judged by the shell
 * rules, which is the cautious way.
 */
import type { CodeLanguage, InputReader } from "../../services/Approval.js"
import { resolveHead } from "../approval/detect/commandHead.js"
import { consoleOf, consoleReadsStdin } from "../approval/detect/consoleCommands.js"
import { readsStdinCodeToo } from "../approval/detect/resolve/codeSources.js"
import { runsOpaqueCode } from "../approval/detect/rules/opaqueInterpreters.js"
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

/** Split shell text into words, honouring quotes; control operators come out as words of their own. */
const words = (text: string): Array<string> => {
  const out: Array<string> = []
  let word = ""
  let inWord = false
  const flush = () => {
    if (inWord) out.push(word)
    word = ""
    inWord = false
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === "'") {
      const end = text.indexOf("'", i + 1)
      word += text.slice(i + 1, end < 0 ? text.length : end)
      inWord = true
      i = end < 0 ? text.length : end
    } else if (c === "\"") {
      let j = i + 1
      while (j < text.length && text[j] !== "\"") {
        if (text[j] === "\\" && j + 1 < text.length) j++
        word += text[j]
        j++
      }
      inWord = true
      i = j
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i]
      inWord = true
    } else if (/\s/.test(c)) {
      flush()
    } else if (c === ";" || c === "|" || c === "&" || c === "(" || c === ")") {
      flush()
      const two = text.slice(i, i + 2)
      if (two === "&&" || two === "||") {
        out.push(two)
        i++
      } else out.push(c)
    } else {
      word += c
      inWord = true
    }
  }
  flush()
  return out
}

/** The language of one simple command's program, or undefined when it names none we know. */
const simpleCommand = (argv: ReadonlyArray<string>, depth: number): InputReader | undefined => {
  // Past assignments and wrappers (`env -u X`, `timeout 5`, `nice -n 5`), with the approval gate's own table.
  const head = resolveHead(argv.length, (k) => argv[k]!)
  if (head.envSplit !== null) return depth < 3 ? inputLanguage(head.envSplit, depth + 1) : "shell"
  const i = head.index
  if (i < 0) return undefined
  const name = basename(argv[i]!)
  const args = argv.slice(i + 1)
  // sqlite3, gdb, psql, mysql read console commands; tclsh, lua, R… a language nothing here reads.
  const console = consoleOf(name.toLowerCase())
  if (console !== null) return consoleReadsStdin(console, args) ? console : "shell"
  // (What `go run`, `java X.java` or run-parts' programs read is their data.)
  if (!COMPILED.has(name) && runsOpaqueCode(name, args)) return "opaque"
  const language = byProgram(name)
  if (language === undefined) return undefined
  // `bash -c '…'`: the reader is whatever that text runs.
  if (language === "shell") {
    const c = argv.indexOf("-c", i + 1)
    return c > 0 && c + 1 < argv.length && depth < 3 ? inputLanguage(argv[c + 1]!, depth + 1) : "shell"
  }
  // `python3 -m pdb x.py`: the debugger's commands are Python.
  return readsCode(language, name, args) || readsStdinCodeToo(name, args) ? language : "shell"
}

/** The language text typed into the process started by `command` is read as. */
export const inputLanguage = (command: string, depth = 0): InputReader => {
  // The last list element (after ; && || & or a newline) reads what is typed later.
  const lines = command.split("\n").filter((line) => line.trim().length > 0 && !line.trim().startsWith("#"))
  const segments: Array<Array<string>> = [[]]
  for (const word of words(lines[lines.length - 1] ?? "")) {
    if (word === ";" || word === "&&" || word === "||" || word === "&") segments.push([])
    else if (word !== "(" && word !== ")") segments[segments.length - 1]!.push(word)
  }
  const tail = segments.filter((segment) => segment.length > 0).pop() ?? []
  // The first element of a pipeline reads its stdin.
  const bar = tail.indexOf("|")
  const first = bar < 0 ? tail : tail.slice(0, bar)
  return simpleCommand(first, depth) ?? "shell"
}
