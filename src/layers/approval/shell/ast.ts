/**
 * What the shell parser produces: a flat, source-ordered list of simple
 * commands. Nesting (subshells, `$(…)`, heredoc bodies, payloads) is kept as
 * provenance on each command rather than as a tree, because every rule asks
 * "is there a command like X anywhere that would run (or be mentioned)?".
 */

/** `exec`: the shell would run it. `data`: text that only mentions a command (quoted prose, comments). */
export type Cls = "exec" | "data"

export type Origin =
  | "top" // the command line itself
  | "subst" // $(…), backticks, <(…)
  | "heredoc" // a heredoc body, read as script like Hermes does
  | "payload" // bash -c, rg --pre, … argument
  | "eval" // eval's joined arguments
  | "through" // the command run by xargs / find -exec
  | "data" // quoted text or escaped-space words
  | "comment"

export type Part =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "singleQuoted"; readonly text: string }
  | { readonly kind: "doubleQuoted"; readonly parts: ReadonlyArray<Part> }
  | { readonly kind: "commandSubst"; readonly source: string } // $(…) body
  | { readonly kind: "backtick"; readonly source: string } // `…` body, unescaped
  | { readonly kind: "bracedParam"; readonly text: string } // ${…} body
  | { readonly kind: "variable"; readonly text: string } // $name (raw, with the $)
  | { readonly kind: "raw"; readonly text: string } // $((…)), <(…) and other kept-verbatim text

export interface Word {
  readonly raw: string
  /** Quote removal and escape resolution; expansions stay verbatim (like shlex). */
  readonly value: string
  readonly parts: ReadonlyArray<Part>
  /** Any quoting or escaping was used. */
  readonly quoted: boolean
  /** A quote was still open at end of input, or a backslash had nothing to escape. */
  readonly unterminated: boolean
  /** Contains $-expansions or backticks outside single quotes. */
  readonly expands: boolean
}

export interface Redir {
  /** Operator without its fd: `>`, `>>`, `<`, `<<`, `<<-`, `<<<`, `<>`, `>&`, `<&`, `>|`, `&>`, `&>>`. */
  readonly op: string
  readonly target: Word | null
  /** How many argv words precede it, so rules can ask "right after word i". */
  readonly after: number
  body: string | null
}

/** `prevOp` of the first command inside a `(` glued to a word: `f(x)` is a call in some other language. */
export const CALL_PAREN = "call("

export interface Cmd {
  readonly seq: number
  readonly words: Word[]
  readonly redirs: Redir[]
  readonly cls: Cls
  readonly origin: Origin
  readonly depth: number
  /** Operator before / after this command in its list: `|`, `||`, `&&`, `;`, `&`, `\n`, `(`, … ; `EOF` at end of input. */
  prevOp: string
  nextOp: string
  /** The next command of the same pipeline. */
  pipeNext: Cmd | null
  /** `cmd & ;` — a background operator directly followed by `;`. */
  ampSemi: boolean
  /** `cmd &` with nothing after it. */
  bgEnd: boolean
  /** This entry only names a function (`f() …`); the body follows as its own commands. */
  funcDef: boolean
  /** Which source text (the line, one payload, one backtick body…) it came from; see ParseCtx.frames. */
  readonly frame: number
  /** Inside a subshell, group, `$(…)` or compound command of its source: its assignments may not stick. */
  readonly nested: boolean
  /** What its standard input is piped from: the previous pipeline element, "group" when that is not a simple command. */
  readonly pipePrev: Cmd | "group" | null
  /** For a heredoc body's commands: the command the heredoc is attached to. */
  readonly heredocOf: Cmd | null
  /** The word list stopped at a `(` (as in `a=(x y)`, an array assignment). */
  parenNext: boolean
}

/** A source text parsed into the command list, and the one whose command queued it. */
export interface Frame {
  readonly parent: number
  readonly origin: Origin
}

export interface FuncDef {
  readonly name: string
  readonly cls: Cls
  /** Index range of the body's commands in the command list. */
  readonly from: number
  readonly to: number
  /** The body as written (`{ rm "$@"; }`), to be read again with a call's arguments in place. */
  readonly body: string
}
