/**
 * How shells and interpreters take their code: from a `-c`/`-e` string, a
 * script file named by their first operand, or standard input.
 */
import type { CodeLanguage } from "../../../../services/Approval.js"
import { interpreterFamily } from "../execFlags.js"

const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "hush", "yash", "posh", "fish", "csh", "tcsh", "rbash"])

/** `busybox sh …` is sh. Returns the shell's arguments, or null when `name` is not a shell. */
export const shellArgs = (name: string, args: ReadonlyArray<string>): ReadonlyArray<string> | null => {
  if (SHELLS.has(name)) return args
  if (name === "busybox" && SHELLS.has(args[0] ?? "")) return args.slice(1)
  return null
}

const SHELL_VALUED = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"])

/** Paths that are the program's own standard input: a script named so reads the pipe or redirect. */
const STDIN_PATH = /^(?:\/dev\/stdin|\/dev\/fd\/0|\/proc\/(?:self|thread-self|\d+|\$\$)\/fd\/0)$/
export const isStdinPath = (path: string): boolean => path === "-" || STDIN_PATH.test(path)

export type CodeSource =
  | { readonly from: "flag" } // -c / -e: the code is an argument (judged elsewhere)
  | { readonly from: "info" } // --version and the like: runs no code
  | { readonly from: "file"; readonly path: string; readonly language: CodeLanguage }
  | { readonly from: "stdin"; readonly language: CodeLanguage }

const shellSource = (args: ReadonlyArray<string>): CodeSource => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--" || a === "-") {
      const next = a === "-" ? a : args[i + 1]
      return next === undefined || isStdinPath(next)
        ? { from: "stdin", language: "shell" }
        : { from: "file", path: next, language: "shell" }
    }
    if (a === "--version" || a === "--help") return { from: "info" }
    if (SHELL_VALUED.has(a)) {
      i++
      continue
    }
    if (a.startsWith("--")) continue
    if ((a.startsWith("-") || a.startsWith("+")) && a.length > 1) {
      const letters = a.slice(1)
      if (letters.includes("c")) return { from: "flag" }
      if (letters.includes("s")) return { from: "stdin", language: "shell" }
      if (letters.includes("o") || letters.includes("O")) i++
      continue
    }
    return isStdinPath(a) ? { from: "stdin", language: "shell" } : { from: "file", path: a, language: "shell" }
  }
  return { from: "stdin", language: "shell" }
}

type Family = NonNullable<ReturnType<typeof interpreterFamily>>

interface InterpreterOptions {
  readonly code: ReadonlySet<string>
  readonly valued: ReadonlySet<string>
  readonly info: ReadonlySet<string>
}

const OPTIONS: Partial<Record<Family, InterpreterOptions>> = {
  python: {
    code: new Set(["-c", "-m"]),
    valued: new Set(["-W", "-X", "--check-hash-based-pycs"]),
    info: new Set(["-V", "--version", "-h", "--help", "-VV"])
  },
  node: {
    code: new Set(["-e", "--eval", "-p", "--print"]),
    valued: new Set(["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--title", "--env-file"]),
    info: new Set(["-v", "--version", "-h", "--help"])
  },
  perl: { code: new Set(["-e", "-E"]), valued: new Set(["-I", "-M", "-m", "-x"]), info: new Set(["-v", "-V", "--version", "-h", "--help"]) },
  ruby: { code: new Set(["-e"]), valued: new Set(["-I", "-r", "-C", "-E", "-F"]), info: new Set(["-v", "--version", "-h", "--help"]) },
  php: { code: new Set(["-r"]), valued: new Set(["-c", "-d", "-z"]), info: new Set(["-v", "--version", "-h", "--help", "-m", "-i"]) }
}

const interpreterSource = (family: Family, args: ReadonlyArray<string>): CodeSource | null => {
  const o = OPTIONS[family]
  if (o === undefined) return null
  const language = family as CodeLanguage
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-") return { from: "stdin", language }
    if (a === "--") {
      const next = args[i + 1]
      return next === undefined || isStdinPath(next) ? { from: "stdin", language } : { from: "file", path: next, language }
    }
    if (!a.startsWith("-")) return isStdinPath(a) ? { from: "stdin", language } : { from: "file", path: a, language }
    const eq = a.indexOf("=")
    const opt = eq < 0 ? a : a.slice(0, eq)
    if (o.info.has(opt)) return { from: "info" }
    if (o.code.has(opt)) return { from: "flag" }
    // A short bundle (`perl -ne`, `python -Bc`) hides the code flag, unless it opens with a valued option (`-Wignore`).
    if (!opt.startsWith("--") && opt.length > 2 && !o.valued.has(opt.slice(0, 2))) {
      if ([...opt.slice(1)].some((ch) => o.code.has(`-${ch}`))) return { from: "flag" }
      continue
    }
    if (family === "php" && opt === "-f") {
      const path = eq >= 0 ? a.slice(eq + 1) : args[i + 1]
      return path === undefined ? { from: "stdin", language } : { from: "file", path, language }
    }
    if (eq < 0 && o.valued.has(opt)) i++
  }
  return { from: "stdin", language }
}

/**
 * `at` and `batch` queue shell text for atd to run later, outside the task (its environment, its marker, its
 * timeout): the job is read from `-f file` or standard input. Listing, removing or showing jobs runs none.
 */
const SCHEDULERS = new Set(["at", "batch"])
const AT_VALUED = new Set(["-q", "-t"])
const AT_INFO = new Set(["-l", "-d", "-r", "-c", "-V", "-h", "--help", "--version"])

const schedulerSource = (args: ReadonlyArray<string>): CodeSource => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-f") {
      const path = args[i + 1]
      return path === undefined || isStdinPath(path) ? { from: "stdin", language: "shell" } : { from: "file", path, language: "shell" }
    }
    if (a.startsWith("-f") && a.length > 2) return { from: "file", path: a.slice(2), language: "shell" }
    if (AT_INFO.has(a)) return { from: "info" }
    if (AT_VALUED.has(a)) i++
  }
  return { from: "stdin", language: "shell" }
}

/** Modules that read Python from standard input whatever script they are given: debuggers and the console. */
const PYTHON_STDIN_MODULES = new Set(["pdb", "ipdb", "pudb", "code", "IPython"])

/**
 * Whether an interpreter reads code from standard input besides its script or `-m` module: `python3 -i x.py`
 * (after the script), `python3 -m pdb x.py` (debugger commands are Python), `node -i`.
 */
export const readsStdinCodeToo = (name: string, args: ReadonlyArray<string>): boolean => {
  const family = interpreterFamily(name)
  if (family === "node") return args.some((a) => a === "-i" || a === "--interactive")
  if (family !== "python") return false
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-m") return PYTHON_STDIN_MODULES.has(args[i + 1] ?? "")
    if (a === "--" || !a.startsWith("-") || a === "-c") return false
    if (/^-[a-zA-Z]*i/.test(a) && !a.startsWith("-W") && !a.startsWith("-X")) return true
    if (a === "-W" || a === "-X") i++
  }
  return false
}

/** A program that may read code (a shell, source/., an interpreter, at/batch). */
export const readsCode = (name: string): boolean =>
  SHELLS.has(name) || name === "busybox" || name === "source" || name === "." || SCHEDULERS.has(name) || interpreterFamily(name) !== null

/** Where program `name` (basename, lower-cased) gets its code; null for programs that are not shells or interpreters. */
export const codeSource = (name: string, args: ReadonlyArray<string>): CodeSource | null => {
  const shell = shellArgs(name, args)
  if (shell !== null) return shellSource(shell)
  if (SCHEDULERS.has(name)) return schedulerSource(args)
  if (name === "source" || name === ".") {
    const path = args[0]
    return path === undefined ? { from: "info" } : STDIN_PATH.test(path) ? { from: "stdin", language: "shell" } : { from: "file", path, language: "shell" }
  }
  const family = interpreterFamily(name)
  return family === null ? null : interpreterSource(family, args)
}
