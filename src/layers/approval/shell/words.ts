/**
 * Word-level views used by rules: Hermes' flat lower-cased text of a word,
 * and a deobfuscated spelling for command-position words (`$(echo rm)`,
 * `${x:-rm}`, `${0/x/r}m`, quotes inside the word).
 */
import type { Part, Word } from "./ast.js"
import { lexCommands, lexWord } from "./parser.js"

const ESCAPE = /\\([^\n])/g
const EMPTY_QUOTES = /''|""/g

/** Hermes' flat view of one piece of text: `r\m` → `rm`, `r''m` → `rm`. */
export const flattenQuoting = (raw: string): string => {
  let s = raw
  if (s.includes("\\")) s = s.replace(ESCAPE, "$1")
  if (s.includes("''") || s.includes('""')) s = s.replace(EMPTY_QUOTES, "")
  return s
}

/** Lower-cased text of a word as Hermes' normalised string shows it (quotes kept, escapes dropped). */
export const wordText = (w: Word): string => flattenQuoting(w.raw).toLowerCase()

export const basename = (path: string): string => {
  const i = path.lastIndexOf("/")
  return i < 0 ? path : path.slice(i + 1)
}

const SIMPLE_LITERAL = /^[A-Za-z0-9_./:@%+=,-]+$/
const ECHO_FLAGS = /^-[nEe]+$/
const PARAM_REPLACE = /^[^}/\s]+\/[^}/]*\/([^}]*)$/
const PARAM_DEFAULT = /^[^}:\s]+:-([^}]*)$/

/** What `echo LIT` / `printf LIT` / `printf %s LIT` print, without running anything. */
const literalOutput = (script: string): string | null => {
  const cmds = lexCommands(script)
  const cmd = cmds?.length === 1 ? cmds[0] : undefined
  if (cmd === undefined || cmd.redirs.length > 0 || cmd.words.some((w) => w.expands)) return null
  const [name, ...rest] = cmd.words.map((w) => w.value)
  let args = rest
  const lower = name?.toLowerCase()
  if (lower === "echo") {
    while (args.length > 0 && ECHO_FLAGS.test(args[0] ?? "")) args = args.slice(1)
  } else if (lower !== "printf") return null
  if (args.length === 1 && SIMPLE_LITERAL.test(args[0] ?? "")) return args[0] ?? null
  if (lower === "printf" && args.length === 2 && args[0] === "%s" && SIMPLE_LITERAL.test(args[1] ?? "")) {
    return args[1] ?? null
  }
  return null
}

const param = (s: string): string => {
  const replaced = PARAM_REPLACE.exec(s)
  if (replaced !== null) return replaced[1] ?? ""
  const fallback = PARAM_DEFAULT.exec(s)
  return fallback !== null ? (fallback[1] ?? "") : `\${${s}}`
}

const spell = (parts: ReadonlyArray<Part>): string => {
  let out = ""
  for (const p of parts) {
    switch (p.kind) {
      case "literal":
      case "singleQuoted":
      case "variable":
      case "raw":
        out += p.text
        break
      case "doubleQuoted":
        out += spell(p.parts)
        break
      case "commandSubst":
        out += literalOutput(p.source) ?? `$(${p.source})`
        break
      case "backtick":
        out += literalOutput(p.source) ?? `\`${p.source}\``
        break
      case "bracedParam":
        out += param(p.text)
        break
    }
  }
  return out
}

const NEEDS_SECOND_PASS = /[$`'"\\]/

/** How the shell could spell this command word once trivial expansions are resolved (two passes). */
export const deobfuscate = (w: Word): string => {
  const first = w.parts.length === 1 && w.parts[0]?.kind === "literal" ? w.value : spell(w.parts)
  if (!NEEDS_SECOND_PASS.test(first) || first === w.raw) return first
  return spell(lexWord(first).parts)
}
