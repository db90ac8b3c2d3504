/**
 * Write targets the shell completes only when it runs. `cp x "$(cat f)/pre-commit"`, `read d < f; … > "$d"`, or a
 * variable an earlier call left in a persistent shell: the text does not say where the write lands, and a file
 * planted in one call can steer the next. Such a write needs approval, unless every run-time part can only be a
 * number (`$$`, `$RANDOM`, a count), a value the line computes itself (`$(mktemp)`, `$(date +%F)`, `$(git rev-parse
 * --git-dir)`, echo/printf: already substituted before this is asked), a variable the task's exports will give
 * (the judge looks again with them), or where the shell stands (`$PWD/…`, `$(pwd)/…` at the start, read as `./…`).
 */
import type { Part } from "../../shell/ast.js"
import { substitutionBodies } from "./numericValues.js"

export interface TargetNames {
  /** The name's values are known, surely numbers, or the task's exports will say. */
  readonly settled: (name: string) => boolean
  /** The shell computes this substitution's output from the line alone, or it can only be a number. */
  readonly computes: (source: string) => boolean
  /** The line set the positional parameters to text (`set -- "$(cat f)"`). */
  readonly positionalText: boolean
}

const PARAM = /^(#)?(!)?([A-Za-z_][A-Za-z0-9_]*|\d+|[@*#?$!-])(\[[^\]]*\])?([\s\S]*)$/
const NAMES_IN = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g
/** Where the shell stands, as the first part of a target: asCommandSees reads it as `.`. */
const HERE = /^(?:\$PWD|\$\{PWD\})$/

/** Positional parameters (unless the line set them to text), `$?` `$#` `$$` `$!` (numbers), or a settled name. */
const name = (n: string, names: TargetNames): boolean => {
  if (/^\d+$|^[@*]$/.test(n)) return !names.positionalText
  if (/^[?#$!]$/.test(n)) return true
  return /^[A-Za-z_]/.test(n) && names.settled(n)
}

/** `${…}`: its name, and what its operator's operand expands (`${x:-$(cat f)}`). */
const braced = (text: string, names: TargetNames): boolean => {
  const m = PARAM.exec(text)
  if (m === null) return false
  const [, length, bang, base = "", index, rest = ""] = m
  // Indirection and arrays (`mapfile -t a < f; … "${a[0]}"`) are not followed.
  if (bang !== undefined || index !== undefined) return false
  if (length !== undefined) return rest === ""
  if (!name(base, names)) return false
  if (!rest.includes("$") && !rest.includes("`")) return true
  if (!substitutionBodies(rest).every(names.computes)) return false
  for (const found of rest.matchAll(NAMES_IN)) if (!names.settled(found[1] ?? "")) return false
  return true
}

const partKnown = (p: Part, names: TargetNames, first: boolean): boolean => {
  switch (p.kind) {
    case "literal":
    case "singleQuoted":
      return true
    case "doubleQuoted":
      return p.parts.every((q, i) => partKnown(q, names, first && i === 0))
    case "variable":
      return (first && HERE.test(p.text)) || name(p.text.slice(1), names)
    case "bracedParam":
      if (first && HERE.test(`\${${p.text}}`)) return true
      return braced(p.text, names)
    case "commandSubst":
    case "backtick":
      return (first && /^\s*pwd(?:\s+-[LP])?\s*$/.test(p.source)) || names.computes(p.source)
    case "raw":
      // `$((…))` is a number; `>(…)` is a pipe, not a path.
      return /^\$(?:\(\(|\[)|^[<>]\(/.test(p.text)
  }
}

/** Some part of a write target is only known when the command runs. */
export const computedAtRunTime = (parts: ReadonlyArray<Part>, names: TargetNames): boolean =>
  !parts.every((p, i) => partKnown(p, names, i === 0))
