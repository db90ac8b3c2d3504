/**
 * Values that can only be numbers when the command runs.
 *
 * Bash evaluates a variable read in arithmetic (`$((n))`, `[[ $n -eq 1 ]]`,
 * `${a[n]}`, a value assigned to an integer) as an arithmetic expression in
 * turn, and expands an array subscript there: a value `a[$(cmd)]` runs cmd.
 * So a value computed at run time (a file's text read by `read` or `$(cat …)`)
 * is code there, unless it can only be a number: the output of a counting
 * program (`$(wc -l < f)`), an arithmetic result, a length.
 */
import type { Cmd, Part } from "../../shell/ast.js"
import { lexCommands } from "../../shell/parser.js"
import { basename } from "../../shell/words.js"

/** Integers, possibly signed or empty (arithmetic reads "" as 0): no name bash would evaluate. */
export const NUMBER = /^[-+]?[0-9]*$/

/** Shell variables bash sets that only ever hold numbers. */
export const NUMERIC_SHELL_VARIABLES: ReadonlySet<string> = new Set([
  "RANDOM", "SRANDOM", "SECONDS", "LINENO", "PPID", "UID", "EUID", "GROUPS", "SHLVL", "BASHPID", "EPOCHSECONDS",
  "EPOCHREALTIME", "HISTCMD", "COLUMNS", "LINES", "OPTIND", "PIPESTATUS", "COPROC"
])

/** Variables bash always evaluates as arithmetic when assigned (they carry the integer attribute from the start). */
export const INTEGER_SHELL_VARIABLES: ReadonlyArray<string> = ["OPTIND", "RANDOM", "SRANDOM", "HISTCMD"]

const GREP_VALUE_FLAGS = new Set(["-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D"])

/** `grep -c` over standard input or one file prints a bare count (with more files, `name:count`). */
const grepCount = (args: ReadonlyArray<string>): boolean => {
  let count = false
  let patternGiven = false
  const operands: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") {
      operands.push(...args.slice(i + 1))
      break
    }
    if (GREP_VALUE_FLAGS.has(a)) {
      if (a === "-e" || a === "-f") patternGiven = true
      i++
      continue
    }
    if (a === "--count") count = true
    else if (/^--(?:with-filename|recursive|dereference-recursive|files-with(?:out)?-match(?:es)?|null)$/.test(a)) return false
    else if (/^--(?:regexp|file)=/.test(a)) patternGiven = true
    else if (a.startsWith("--")) continue
    else if (/^-[a-zA-Z]+$/.test(a)) {
      // A flag group ending in one that takes a value (`-ce PAT`) is not worth following.
      if (/[efmABCdDHrRlLZ]/.test(a)) return false
      if (a.includes("c")) count = true
    } else operands.push(a)
  }
  return count && operands.length <= (patternGiven ? 1 : 2)
}

/** Date formats of numeric fields only (`+%s`, `+%Y%m%d`). */
const NUMERIC_DATE = /^\+(?:%[sNYmdHMSjuVwCgGeklI]|[0-9])+$/
/** stat formats of numeric fields only (`%s`, `%Y`, `%i`…), separated by blanks. */
const NUMERIC_STAT = /^(?:%[sYXZWihugbBado]|[ \t0-9]|\\n)+$/

/** The program prints only numbers, whatever it reads, given these literal arguments. */
const countingProgram = (name: string, args: ReadonlyArray<string>): boolean => {
  switch (name) {
    case "wc":
      // File operands would print their names.
      return args.length > 0 && args.every((a) => /^-[lcwmL]+$/.test(a) || /^--(?:lines|bytes|chars|words|max-line-length)$/.test(a))
    case "nproc":
      return args.every((a) => /^--(?:all|ignore=[0-9]+)$/.test(a))
    case "id":
      return args.length > 0 && args.every((a) => /^-[ugGr]+$/.test(a))
    case "date":
      return args.length === 1 && NUMERIC_DATE.test(args[0] ?? "")
    case "seq":
      return args.length >= 1 && args.length <= 3 && args.every((a) => /^-?[0-9]+$/.test(a))
    case "stat": {
      const i = args.findIndex((a) => a === "-c" || a === "--format" || a === "--printf")
      const format = i >= 0 ? args[i + 1] : args.find((a) => /^--(?:format|printf)=/.test(a))?.replace(/^[^=]*=/, "")
      const others = args.filter((a, k) => (i < 0 || (k !== i && k !== i + 1)) && a.startsWith("-") && !/^--(?:format|printf)=/.test(a))
      return format !== undefined && NUMERIC_STAT.test(format) && others.every((a) => a === "-L" || a === "--dereference")
    }
    case "grep":
    case "egrep":
    case "fgrep":
      return grepCount(args)
    case "git":
      return args[0] === "rev-list" && args.includes("--count")
    case "tput":
      return args.length === 1 && /^(?:cols|lines|colors)$/.test(args[0] ?? "")
    case "pidof":
      return true
    case "pgrep":
      return args.every((a) => !/^-[a-zA-Z]*[la]|^--list/.test(a))
    case "getconf":
      return args.length === 1 && /^(?:_?NPROCESSORS_(?:ONLN|CONF)|PAGE_?SIZE|ARG_MAX|LONG_BIT)$/.test(args[0] ?? "")
    default:
      return false
  }
}

/** Redirections that keep a stage's output its own (`2>&1`, `&>` would add error text, which names files). */
const keepsOutput = (c: Cmd): boolean => c.redirs.every((r) => r.op !== ">&" && r.op !== "&>" && r.op !== "&>>")

/**
 * The body of a `$(…)` prints only numbers: one pipeline whose last stage is
 * a counting program with literal arguments (`wc -l < "$f"`, `ls | wc -l`,
 * `git rev-list --count HEAD`). The stages before it are commands like any
 * other (judged where they appear); only what reaches the output matters.
 */
export const numericOutput = (source: string): boolean => {
  const cmds = lexCommands(source)
  if (cmds === null || cmds.length === 0) return false
  const last = cmds[cmds.length - 1]
  if (last === undefined || last.funcDef) return false
  // One pipeline: each command after the first is piped from the one before it.
  for (let i = 1; i < cmds.length; i++) if (cmds[i]?.pipePrev !== cmds[i - 1]) return false
  if (!keepsOutput(last) || last.words.length === 0 || last.words.some((w) => w.expands)) return false
  const [head, ...args] = last.words.map((w) => w.value)
  return countingProgram(basename(head ?? ""), args)
}

/** `$?`, `$#`, `$$`, `$!`: numbers. */
const NUMERIC_SPECIALS = new Set(["$?", "$#", "$$", "$!"])

/**
 * The parts of a value (an assignment's, a `for` list word) can only make a
 * number: digits, arithmetic expansions, lengths, numeric variables
 * (`numericName`) and substitutions of counting programs.
 */
export const numericParts = (parts: ReadonlyArray<Part>, numericName: (name: string) => boolean): boolean =>
  parts.length > 0 &&
  parts.every((p) => {
    switch (p.kind) {
      case "literal":
      case "singleQuoted":
        return NUMBER.test(p.text)
      case "doubleQuoted":
        return p.parts.length === 0 || numericParts(p.parts, numericName)
      case "raw":
        return p.text.startsWith("$((") || p.text.startsWith("$[")
      case "variable":
        return NUMERIC_SPECIALS.has(p.text) || numericName(p.text.slice(1))
      case "bracedParam":
        return /^#[A-Za-z_][A-Za-z0-9_]*$|^[#?$!]$/.test(p.text) || (/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.text) && numericName(p.text))
      case "commandSubst":
      case "backtick":
        return numericOutput(p.source)
    }
  })

/** Index of the bracket closing the one at `from` (nesting counted), or the text's length when it never closes. */
export const closing = (text: string, from: number, open: string, close: string): number => {
  let depth = 0
  for (let i = from; i < text.length; i++) {
    if (text[i] === open) depth++
    else if (text[i] === close && --depth === 0) return i
  }
  return text.length
}

/** The bodies of the command substitutions (`$(…)`, backticks) in a text, arithmetic `$((…))` left out. */
export const substitutionBodies = (text: string): ReadonlyArray<string> => {
  const out: string[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "`") {
      const end = text.indexOf("`", i + 1)
      out.push(text.slice(i + 1, end < 0 ? text.length : end))
      if (end < 0) break
      i = end
    } else if (c === "$" && text[i + 1] === "(" && text[i + 2] !== "(") {
      const j = closing(text, i + 1, "(", ")")
      out.push(text.slice(i + 2, j))
      i = j
    }
  }
  return out
}
