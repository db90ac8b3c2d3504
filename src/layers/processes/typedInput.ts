/**
 * Text typed into a background process, judged as the program will read it.
 *
 * A program reads lines, not writes: `write "r"` then `submit "m -rf x"` is
 * `rm -rf x` to a shell. So each process keeps what it has been sent since
 * the last complete statement (the pending text), and a write is judged as
 * pending + new text. A statement is complete at a newline outside quotes and
 * brackets and not escaped (a backslash-newline continues it), by the rules of
 * the language the process reads: a shell's `$(`/quotes, Python's brackets and
 * triple quotes, and so on. Where the scanner is unsure it keeps more text
 * pending, never less.
 *
 * Line editors (readline, even on a pipe under `bash -i`; a terminal's line
 * discipline) rewrite input on control keys: Tab completes, ^H/DEL erase,
 * ^W/^U cut, ^T transposes, ESC sequences move the cursor. Text with such keys
 * is refused, so the text judged is the text run. Carriage returns are sent
 * as newlines (readline ends a line on either). On a PTY, ^C is allowed and
 * drops the unfinished line, as the terminal does; ^D (EOF) adds nothing.
 */
import type { CodeLanguage, InputReader } from "../../services/Approval.js"

const CODE_LANGUAGES: ReadonlySet<string> = new Set(["shell", "python", "node", "perl", "ruby", "php"])
const isCodeLanguage = (reader: InputReader): reader is CodeLanguage => CODE_LANGUAGES.has(reader)

export type InputPlan =
  | {
    readonly _tag: "Judge"
    /** What to write: the new text with carriage returns as newlines. */
    readonly written: string
    /** What the program will have read once this is written: judged as one request. */
    readonly judged: string
    /** The unfinished statement after this write, if it is allowed. */
    readonly pending: string
  }
  | { readonly _tag: "Refused"; readonly reason: string }

/** Control characters a line editor acts on (Tab, erase, cursor keys, ESC sequences), and C1 controls. */
const EDITING = /[\x00-\x02\x05-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]/
const INTERRUPT = "\x03"
const EOF = "\x04"

export const REFUSED_CONTROL =
  "Blocked: the text contains control characters (Tab, Escape, erase or cursor keys) that a line editor acts on, so what would run is not what was sent. " +
  "Send plain text and newlines (spaces for indentation)."

/** Drop the unfinished line before each ^C, as a terminal does; ^D adds nothing to the line. */
const applyTerminalKeys = (text: string): string => {
  if (!text.includes(INTERRUPT) && !text.includes(EOF)) return text
  let out = ""
  for (const c of text) {
    if (c === INTERRUPT) out = out.slice(0, out.lastIndexOf("\n") + 1)
    else if (c !== EOF) out += c
  }
  return out
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

/** How to judge and write `data` typed after `pending` into a process reading `language`. */
export const planInput = (
  pending: string,
  data: string,
  options: { readonly pty: boolean; readonly language: InputReader }
): InputPlan => {
  if (EDITING.test(data) || (!options.pty && data.includes(INTERRUPT))) return { _tag: "Refused", reason: REFUSED_CONTROL }
  const written = data.replace(/\r\n?/g, "\n")
  const judged = applyTerminalKeys(pending + written)
  // Consoles and unread languages take a line at a time, as the shell does.
  const syntax: CodeLanguage = isCodeLanguage(options.language) ? options.language : "shell"
  return { _tag: "Judge", written, judged, pending: judged.slice(statementBoundary(judged, syntax)) }
}
