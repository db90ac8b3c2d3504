/**
 * A command written back as shell text once its words are resolved, so the
 * ordinary rules can judge what will really run: unquoted expansion results
 * are left to split (and glob) again, quoted ones are quoted, and whatever
 * could not be computed is kept as written.
 */
import type { Cmd, Redir } from "../../shell/ast.js"
import type { Alt } from "./expand.js"
import { MAX_ALTS } from "./expand.js"
import { escapeExpanded, escapeLiteral, shellQuote } from "./computedText.js"

export const renderAlt = (alt: Alt, ifs: string): string => {
  let out = ""
  for (const s of alt) {
    switch (s.kind) {
      case "literal":
        out += escapeLiteral(s.text)
        break
      case "quoted":
        out += shellQuote(s.text)
        break
      case "expanded":
        out += escapeExpanded(s.text, ifs)
        break
      case "uncomputed":
        out += s.inDoubleQuotes ? `"${s.text}"` : s.text
        break
      case "braceBreak":
        out += " "
        break
    }
  }
  return out
}

/** Words of a command: each one's alternatives (a single one when unchanged). */
export type WordChoices = ReadonlyArray<ReadonlyArray<Alt>>

const redirText = (r: Redir, target: string): string =>
  // A heredoc's body was read where it stood; here its only trace is that stdin is fed.
  r.op === "<<" || r.op === "<<-" ? "<<<''" : `${r.op}${target}`

/**
 * Every combination of the words' alternatives as one command line each, or
 * null when there would be too many to judge.
 */
export const renderCommand = (
  cmd: Cmd,
  words: WordChoices,
  targets: WordChoices,
  ifs: string
): ReadonlyArray<string> | null => {
  let lines: string[] = [""]
  const add = (choices: ReadonlyArray<string>): boolean => {
    if (lines.length * choices.length > MAX_ALTS) return false
    const next: string[] = []
    for (const l of lines) for (const c of choices) next.push(l === "" ? c : c === "" ? l : `${l} ${c}`)
    lines = next
    return true
  }
  const redirsAt = (i: number): boolean => {
    for (let k = 0; k < cmd.redirs.length; k++) {
      const r = cmd.redirs[k]
      if (r === undefined || r.after !== i) continue
      const choices = (targets[k] ?? [[]]).map((a) => redirText(r, renderAlt(a, ifs)))
      if (!add(choices)) return false
    }
    return true
  }
  for (let i = 0; i < words.length; i++) {
    if (!redirsAt(i)) return null
    if (!add((words[i] ?? [[]]).map((a) => renderAlt(a, ifs)))) return null
  }
  if (!redirsAt(words.length)) return null
  return lines
}
