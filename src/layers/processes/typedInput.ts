/**
 * Text typed into a background process, judged as the program will read it.
 *
 * A program reads lines, not writes: `write "r"` then `submit "m -rf x"` is
 * `rm -rf x` to a shell. So each process keeps what it has been sent (up to
 * MAX_INPUT_HISTORY, cut only where a statement ends), and a write is judged
 * as all of it + the new text. A statement is complete at a newline outside
 * quotes and brackets and not escaped (a backslash-newline continues it), by
 * the rules of the language the process reads: a shell's `$(`/quotes,
 * Python's brackets and triple quotes, and so on. Where the scanner is unsure
 * it keeps more text, never less.
 *
 * Line editors (readline, even on a pipe under `bash -i`; a terminal's line
 * discipline) rewrite input on control keys: Tab completes, ^H/DEL erase,
 * ^W/^U cut, ^T transposes, ESC sequences move the cursor. Text with such keys
 * is refused, so the text judged is the text run. Carriage returns are sent
 * as newlines (readline ends a line on either). ^C (on a PTY) and ^D are
 * allowed, but what they do depends on settings the gate cannot see
 * (`stty -isig` makes ^C an ordinary character): the text is judged in every
 * meaning they may have, and is dangerous if any reading is.
 *
 * Names bound by earlier input (`import shutil as s`, `alias x=rm`) are then
 * known when later input uses them.
 */
import type { CodeLanguage, InputReader } from "../../services/Approval.js"

const CODE_LANGUAGES: ReadonlySet<string> = new Set(["shell", "python", "node", "perl", "ruby", "php"])
const isCodeLanguage = (reader: InputReader): reader is CodeLanguage => CODE_LANGUAGES.has(reader)

/** One reading of the text typed so far, in one language the process may read it as. */
export interface JudgedText {
  readonly language: InputReader
  readonly text: string
  /** Why this reading needs approval whatever it says (a REPL command that runs what the gate cannot read). */
  readonly uncertain?: string | undefined
}

export type InputPlan =
  | {
    readonly _tag: "Judge"
    /** What to write: the new text with carriage returns as newlines. */
    readonly written: string
    /**
     * What the program may have read once this is written (earlier input included), each judged as one request:
     * one per language that may read it and per meaning its ^C/^D may have.
     */
    readonly judged: ReadonlyArray<JudgedText>
    /** The input to keep after this write (raw: control keys as sent), to judge the next write with. */
    readonly typed: string
  }
  | { readonly _tag: "Refused"; readonly reason: string }

/** Control characters a line editor acts on (Tab, erase, cursor keys, ESC sequences), and C1 controls. */
const EDITING = /[\x00-\x02\x05-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]/
const INTERRUPT = "\x03"
const EOF = "\x04"

/** How much earlier input to a process is kept to judge each new write with (complete statements are dropped first). */
export const MAX_INPUT_HISTORY = 256 * 1024

export const REFUSED_CONTROL =
  "Blocked: the text contains control characters (Tab, Escape, erase or cursor keys) that a line editor acts on, so what would run is not what was sent. " +
  "Send plain text and newlines (spaces for indentation)."

/**
 * What a ^C may do: the terminal drops the unfinished line (`line`), the program drops its unfinished statement
 * (`statement`: a shell's PS2, Python's `...`), the program ends and the next reader starts afresh (`restart`); with
 * `stty -isig` or a program in raw mode it is an ordinary character (`literal`) or one the program ignores (`dropped`).
 */
type InterruptMeaning = "line" | "statement" | "restart" | "literal" | "dropped"
/** What a ^D may do: nothing on a non-empty line (`dropped`), end the reader (`restart`), or be a byte (`literal`, on a pipe or in raw mode). */
type EofMeaning = "dropped" | "restart" | "literal"

const INTERRUPT_MEANINGS: ReadonlyArray<InterruptMeaning> = ["line", "statement", "restart", "literal", "dropped"]
const EOF_MEANINGS: ReadonlyArray<EofMeaning> = ["dropped", "restart", "literal"]

/** The text a program reads from `raw` when its ^C and ^D mean these. */
const applyTerminalKeys = (raw: string, interrupt: InterruptMeaning, eof: EofMeaning, syntax: CodeLanguage): string => {
  let out = ""
  for (const c of raw) {
    if (c === INTERRUPT) {
      if (interrupt === "line") out = out.slice(0, out.lastIndexOf("\n") + 1)
      else if (interrupt === "statement") out = out.slice(0, statementBoundary(out, syntax))
      else if (interrupt === "restart") out = ""
      else if (interrupt === "literal") out += c
    } else if (c === EOF) {
      if (eof === "restart") out = ""
      else if (eof === "literal") out += c
    } else {
      out += c
    }
  }
  return out
}

/** Every text `raw` may be read as, in one language: one per meaning of the control keys it holds. */
const readings = (raw: string, language: InputReader): ReadonlyArray<string> => {
  const syntax: CodeLanguage = isCodeLanguage(language) ? language : "shell"
  const interrupts = raw.includes(INTERRUPT) ? INTERRUPT_MEANINGS : INTERRUPT_MEANINGS.slice(0, 1)
  const eofs = raw.includes(EOF) ? EOF_MEANINGS : EOF_MEANINGS.slice(0, 1)
  const out = new Set<string>()
  for (const interrupt of interrupts) for (const eof of eofs) out.add(applyTerminalKeys(raw, interrupt, eof, syntax))
  return [...out]
}

/**
 * Where to cut `raw` to keep it near MAX_INPUT_HISTORY: only where a statement ends in every language it may be
 * read as (a cut inside `echo '…'` would leave a quote that hides what follows), and never past a control key
 * (what it drops depends on what came before it).
 */
const keptFrom = (raw: string, languages: ReadonlyArray<InputReader>): number => {
  const over = raw.length - MAX_INPUT_HISTORY
  if (over <= 0) return 0
  const control = raw.search(/[\x03\x04]/)
  const prefix = raw.slice(0, control < 0 ? over : Math.min(over, control))
  return Math.min(...languages.map((l) => statementBoundary(prefix, isCodeLanguage(l) ? l : "shell")))
}

type Frame = "base" | "paren" | "single" | "double" | "dollar-single" | "backtick" | "brace"

const WORD_START = new Set([" ", "\t", "\n", ";", "|", "&", "(", ")"])

/** Index just after the last newline that ends a complete shell command (0 when none). */
const shellBoundary = (text: string): number => {
  const stack: Array<Frame> = ["base"]
  let boundary = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    const top = stack[stack.length - 1]!
    if (top === "single") {
      if (c === "'") stack.pop()
      continue
    }
    if (top === "dollar-single") {
      if (c === "\\") i++
      else if (c === "'") stack.pop()
      continue
    }
    if (top === "double") {
      if (c === "\\") i++
      else if (c === "\"") stack.pop()
      else if (c === "`") stack.push("backtick")
      else if (c === "$" && text[i + 1] === "(") {
        stack.push("paren")
        i++
      }
      continue
    }
    // base, paren, backtick: code.
    if (c === "\\") {
      i++
    } else if (c === "'") {
      stack.push("single")
    } else if (c === "\"") {
      stack.push("double")
    } else if (c === "$" && text[i + 1] === "'") {
      stack.push("dollar-single")
      i++
    } else if (c === "$" && text[i + 1] === "(") {
      stack.push("paren")
      i++
    } else if (c === "`") {
      if (top === "backtick") stack.pop()
      else stack.push("backtick")
    } else if (c === "(") {
      stack.push("paren")
    } else if (c === ")") {
      if (top === "paren") stack.pop()
    } else if (c === "#" && (i === 0 || WORD_START.has(text[i - 1]!))) {
      const end = text.indexOf("\n", i)
      if (end < 0) break
      i = end - 1
    } else if (c === "\n" && stack.length === 1) {
      boundary = i + 1
    }
  }
  return boundary
}

interface CodeSyntax {
  readonly tripleQuotes: boolean
  readonly hashComments: boolean
  readonly slashComments: boolean
  /** Backticks quote (a template in JavaScript, a command in Perl/Ruby/PHP). */
  readonly backticks: boolean
}

const SYNTAX: Readonly<Record<Exclude<CodeLanguage, "shell">, CodeSyntax>> = {
  python: { tripleQuotes: true, hashComments: true, slashComments: false, backticks: false },
  node: { tripleQuotes: false, hashComments: false, slashComments: true, backticks: true },
  perl: { tripleQuotes: false, hashComments: true, slashComments: false, backticks: true },
  ruby: { tripleQuotes: false, hashComments: true, slashComments: false, backticks: true },
  php: { tripleQuotes: false, hashComments: true, slashComments: true, backticks: true }
}

/** Index just after the last newline that ends a complete statement of an interpreter (0 when none). */
const codeBoundary = (text: string, syntax: CodeSyntax): number => {
  let depth = 0
  let boundary = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === "\\") {
      i++
    } else if (c === "'" || c === "\"" || (c === "`" && syntax.backticks)) {
      const triple = syntax.tripleQuotes && text.startsWith(c.repeat(3), i)
      const close = triple ? c.repeat(3) : c
      let j = i + close.length
      while (j < text.length && !text.startsWith(close, j)) j += text[j] === "\\" ? 2 : 1
      if (j >= text.length) return boundary
      i = j + close.length - 1
    } else if ((c === "#" && syntax.hashComments) || (c === "/" && syntax.slashComments && text[i + 1] === "/")) {
      const end = text.indexOf("\n", i)
      if (end < 0) break
      i = end - 1
    } else if (c === "/" && syntax.slashComments && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2)
      if (end < 0) return boundary
      i = end + 1
    } else if (c === "(" || c === "[" || c === "{") {
      depth++
    } else if (c === ")" || c === "]" || c === "}") {
      depth = Math.max(0, depth - 1)
    } else if (c === "\n" && depth === 0) {
      boundary = i + 1
    }
  }
  return boundary
}

/** Where the unfinished statement starts in `text`. */
export const statementBoundary = (text: string, language: CodeLanguage): number =>
  language === "shell" ? shellBoundary(text) : codeBoundary(text, SYNTAX[language])

/**
 * How to judge and write `data` typed after `typed` (what was written before, raw) into a process whose input may
 * be read by any of `readers`.
 */
export const planInput = (
  typed: string,
  data: string,
  options: { readonly pty: boolean; readonly readers: ReadonlyArray<InputReader> }
): InputPlan => {
  if (EDITING.test(data) || (!options.pty && data.includes(INTERRUPT))) return { _tag: "Refused", reason: REFUSED_CONTROL }
  const written = data.replace(/\r\n?/g, "\n")
  const raw = typed + written
  const judged: Array<JudgedText> = []
  for (const language of options.readers) for (const text of readings(raw, language)) judged.push({ language, text })
  return { _tag: "Judge", written, judged, typed: raw.slice(keptFrom(raw, options.readers)) }
}
