/**
 * What the judge needs from a git configuration file's text: the folders `core.hooksPath` names (git runs the hooks
 * there), the files `include.path` / `includeIf.*.path` pull in (read as part of this one), and the keys it sets that
 * make git run a program (rules/gitExec.ts). A small reader of git's format: `[section]` or `[section "sub"]`
 * headers (a variable may follow on the header's line), `name = value` lines, `#`/`;` comments, quoted values.
 */
import { gitExecKey } from "../detect/rules/gitExec.js"

export interface GitConfigText {
  readonly hooksPaths: ReadonlyArray<string>
  readonly includes: ReadonlyArray<string>
  /** `section.name` of each key set that makes git run a program (hooksPath and includes among them). */
  readonly execKeys: ReadonlyArray<string>
}

/** A value as git reads it: quotes removed, a comment outside them dropped, `\"`, `\\`, `\t`, `\n` unescaped. */
const valueOf = (raw: string): string => {
  let out = ""
  let quoted = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? ""
    if (c === "\"") quoted = !quoted
    else if (c === "\\" && i + 1 < raw.length) {
      const n = raw[++i] ?? ""
      out += n === "t" ? "\t" : n === "n" ? "\n" : n
    } else if (!quoted && (c === "#" || c === ";")) break
    else out += c
  }
  return out.trim()
}

const HEADER = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/
const VARIABLE = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/

export const gitConfigText = (text: string): GitConfigText => {
  const hooksPaths: string[] = []
  const includes: string[] = []
  const execKeys: string[] = []
  let section = ""
  for (const line of text.split("\n")) {
    let rest = line
    const header = HEADER.exec(line)
    if (header !== null) {
      // `[core.x]` (old subsection form) and `[core "x"]` are both a subsection.
      section = `${(header[1] ?? "").toLowerCase()}${header[2] === undefined ? "" : `.${header[2]}`}`
      rest = header[3] ?? ""
    }
    if (/^\s*(?:[#;]|$)/.test(rest)) continue
    const v = VARIABLE.exec(rest)
    if (v === null || section === "") continue
    const name = (v[1] ?? "").toLowerCase()
    const key = `${section}.${name}`
    // A name alone is `true`; only a value names a folder or file.
    const value = v[2] === undefined ? null : valueOf(v[2])
    if (gitExecKey(key, value)) execKeys.push(key)
    if (value === null) continue
    const head = section.split(".")[0] ?? ""
    if (section === "core" && name === "hookspath") hooksPaths.push(value)
    else if ((head === "include" || head === "includeif") && name === "path") includes.push(value)
  }
  return { hooksPaths, includes, execKeys }
}
