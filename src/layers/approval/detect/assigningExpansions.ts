/**
 * The shell's ways of assigning a variable inside an expansion or a redirection, judged as `NAME=value` is
 * (red team 9): `: ${BASH_ENV:=./x.sh}` (also inside `"…"`, `$((…))`, `((…))`, a heredoc's body or a redirection
 * target), `${!ref:=…}` (assigns the variable `ref` names: any, fail closed) and `exec {BASH_ENV}>f` (a descriptor
 * number, a relative file name bash then sources). Each assigns in the shell itself, so a later `export` or a
 * persistent shell's next call hands the value on.
 */
import type { Cmd, Part } from "../shell/ast.js"
import { D } from "./descriptions.js"
import type { RuleEnv } from "./rules/engine.js"
import { assignedValueRunsCode } from "./rules/loaderVariables.js"

/** `${NAME:=v}`, `${NAME=v}`, `${NAME[0]:=v}`, and the indirect `${!ref:=v}`, anywhere in a text. */
const ASSIGNING = /\$\{(!?)([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?:?=((?:[^{}]|\{[^{}]*\})*)\}/g

/** Why an assignment written in `text` (expanded by the shell) needs approval, or null. */
export const assignmentsIn = (text: string, env: RuleEnv): string | null => {
  if (!text.includes("${")) return null
  for (const m of text.matchAll(ASSIGNING)) {
    if (m[1] === "!") return D.loaderVariable
    const found = assignedValueRunsCode(m[2] ?? "", m[3] ?? "", env)
    if (found !== null) return found
  }
  return null
}

/** The texts of `parts` the shell expands (not single-quoted ones), braced parameters with their `${…}`. */
const expanded = (parts: ReadonlyArray<Part>): string =>
  parts.map((p) => (p.kind === "doubleQuoted" ? expanded(p.parts) : p.kind === "bracedParam" ? `\${${p.text}}` : p.kind === "raw" ? p.text : "")).join(" ")

/** `{NAME}` just before a redirection: bash puts the descriptor it opens in NAME. */
const FD_VARIABLE = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/

/** Why `cmd` assigns such a variable through an expansion, a heredoc body or a descriptor variable; else null. */
export const assigningExpansion = (cmd: Cmd, env: RuleEnv): string | null => {
  if (cmd.cls !== "exec" && cmd.origin !== "heredoc") return null
  for (const [i, w] of cmd.words.entries()) {
    const found = w.raw.includes("${") ? assignmentsIn(expanded(w.parts), env) : null
    if (found !== null) return found
    const fd = FD_VARIABLE.exec(w.raw)?.[1]
    if (fd !== undefined && cmd.redirs.some((r) => r.after === i + 1 || r.after === i) && assignedValueRunsCode(fd, "$fd", env) !== null) return assignedValueRunsCode(fd, "$fd", env)
  }
  for (const r of cmd.redirs) {
    const found = (r.target !== null && r.target.raw.includes("${") ? assignmentsIn(expanded(r.target.parts), env) : null) ??
      (r.body !== null && r.op.startsWith("<<") && r.op !== "<<<" ? assignmentsIn(r.body, env) : null)
    if (found !== null) return found
  }
  return null
}
