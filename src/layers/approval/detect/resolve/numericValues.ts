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

/** A stage's words when they are literal and its output is its own (no `2>&1`), else null. */
const literalStage = (c: Cmd): ReadonlyArray<string> | null =>
  !c.funcDef && keepsOutput(c) && c.words.length > 0 && !c.words.some((w) => w.expands) ? c.words.map((w) => w.value) : null

/** Filters that keep a number a number: trimming (`tr -d ' '`, `xargs`), picking lines, sorting. */
const keepsNumbers = (name: string, args: ReadonlyArray<string>): boolean => {
  switch (name) {
    case "tr":
      return args[0] === "-d" && args.length === 2
    case "xargs":
      return args.length === 0
    case "head":
    case "tail":
      return args.every((a) => /^-(?:n|c)?[0-9]*$|^--lines=[0-9]+$/.test(a) || /^[0-9]+$/.test(a))
    case "sort":
      return args.every((a) => /^-[nrgu]+$/.test(a))
    case "uniq":
      return args.length === 0
    default:
      return false
  }
}

/** `awk '{print $1}'`, `cut -d' ' -f1`: the first field, which for `wc` is the count before the file name. */
const firstField = (name: string, args: ReadonlyArray<string>): boolean =>
  (name === "awk" && args.length === 1 && /^\{\s*print \$1;?\s*\}$/.test(args[0] ?? "")) ||
  (name === "cut" && args.includes("-f1") && args.every((a) => a === "-f1" || /^-d.?$/.test(a) || a === " "))

/** One pipeline prints only numbers: a counting program, then only filters that keep them so. */
const numericPipeline = (stages: ReadonlyArray<Cmd>): boolean => {
  let numeric = false
  let counted = false
  for (const stage of stages) {
    const words = literalStage(stage)
    if (words === null) return false
    const [head = "", ...args] = words
    const name = basename(head)
    if (countingProgram(name, args)) numeric = true
    else if (name === "wc" && args.every((a) => a.startsWith("-") || !/[\s$`]/.test(a))) {
      // `wc -l file` prints the count and the name: numeric once the first field is taken.
      counted = true
      numeric = false
    } else if (counted && firstField(name, args)) {
      counted = false
      numeric = true
    } else if (!(numeric && keepsNumbers(name, args))) {
      numeric = false
      counted = false
    }
  }
  return numeric
}

/** Prints nothing or a literal number (`|| true`, `|| echo 0`). */
const fallback = (stages: ReadonlyArray<Cmd>): boolean => {
  const words = stages.length === 1 && stages[0] !== undefined ? literalStage(stages[0]) : null
  if (words === null) return false
  const [head = "", ...args] = words
  return head === "true" || head === ":" || ((head === "echo" || head === "printf") && args.length <= 1 && args.every((a) => /^-?[0-9]+$/.test(a)))
}

/**
 * The body of a `$(…)` prints only numbers: pipelines whose last counting
 * program's output reaches the end only through filters that keep numbers
 * (`wc -l < "$f"`, `ls | wc -l | tr -d ' '`, `wc -l f | awk '{print $1}'`,
 * `git rev-list --count HEAD`), or fallbacks that print a number or nothing
 * (`grep -c x f || true`). The stages before the counting program are
 * commands like any other (judged where they appear); only what reaches the
 * output matters.
 */
export const numericOutput = (source: string): boolean => {
  const cmds = lexCommands(source)
  if (cmds === null || cmds.length === 0) return false
  const pipelines: Array<Array<Cmd>> = []
  for (const c of cmds) {
    if (c.pipePrev !== null && c.pipePrev === pipelines[pipelines.length - 1]?.at(-1)) pipelines[pipelines.length - 1]?.push(c)
    else if (c.pipePrev !== null) return false
    else pipelines.push([c])
  }
  return pipelines.some(numericPipeline) && pipelines.every((p) => numericPipeline(p) || fallback(p))
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
