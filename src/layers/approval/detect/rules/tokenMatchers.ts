/**
 * Small predicates rules are written with. Texts are lower-cased words; a
 * "token" is a run of word characters, so `/usr/bin/rm` ends with the token
 * `rm` and `tee.log` contains the token `tee` (Hermes' `\b` semantics).
 */
import type { CmdView, View } from "../ruleInput.js"

export const isWordChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90) || c > 127

const boundaryBefore = (t: string, i: number): boolean => i === 0 || !isWordChar(t.charCodeAt(i - 1))
const boundaryAfter = (t: string, i: number): boolean => i >= t.length || !isWordChar(t.charCodeAt(i))

/** The word ends with `name` as a whole token (`rm`, `/bin/rm`, `--rm`). */
export const endsTok = (t: string, name: string): boolean =>
  t.endsWith(name) && boundaryBefore(t, t.length - name.length)

/** The word starts with `name` followed by a token boundary (`stop`, `stop.`, not `stopped`). */
export const startsTok = (t: string, name: string): boolean => t.startsWith(name) && boundaryAfter(t, name.length)

export const startsTokAny = (t: string, names: ReadonlyArray<string>): boolean => names.some((n) => startsTok(t, n))

/** `name` occurs as a whole token somewhere in the word. */
export const hasTok = (t: string, name: string): boolean => {
  for (let i = t.indexOf(name); i >= 0; i = t.indexOf(name, i + 1)) {
    if (boundaryBefore(t, i) && boundaryAfter(t, i + name.length)) return true
  }
  return false
}

export const hasTokAny = (t: string, names: ReadonlyArray<string>): boolean => names.some((n) => hasTok(t, n))

/** `needle` occurs followed by a token boundary (regex `needle\b`, no boundary required before). */
export const hasEndingAt = (t: string, needle: string): boolean => {
  for (let i = t.indexOf(needle); i >= 0; i = t.indexOf(needle, i + 1)) {
    if (boundaryAfter(t, i + needle.length)) return true
  }
  return false
}

export const isDash = (t: string | undefined): boolean => t !== undefined && t.startsWith("-")

/** Index of the first word at or after `from` that is not an option. */
export const skipDashes = (c: CmdView, from: number): number => {
  let j = from
  while (j < c.texts.length && isDash(c.texts[j])) j++
  return j
}

/** Any text after word `i` of `c` (rest of the command, its redirect targets, later commands). */
export const laterSome = (v: View, c: CmdView, i: number, pred: (t: string) => boolean): boolean => {
  for (let k = c.base + i + 1; k < v.flat.length; k++) if (pred(v.flat[k] ?? "")) return true
  return false
}

/** Any text in commands before `c`. */
export const earlierSome = (v: View, c: CmdView, pred: (t: string) => boolean): boolean => {
  for (let k = 0; k < c.base; k++) if (pred(v.flat[k] ?? "")) return true
  return false
}

/** Any text anywhere. */
export const anywhere = (v: View, pred: (t: string) => boolean): boolean => v.flat.some(pred)

export const restSome = (c: CmdView, i: number, pred: (t: string) => boolean): boolean => {
  for (let k = i + 1; k < c.texts.length; k++) if (pred(c.texts[k] ?? "")) return true
  return false
}

/** The command that follows `c` through a pipe, if any. */
export const pipedNext = (v: View, c: CmdView): CmdView | undefined => {
  const next = c.cmd.pipeNext
  return next === null ? undefined : v.bySeq[next.seq]
}

/** Commands after `c` that are reached through `|` or `||` (Hermes' `\|`). */
export const laterPipedInto = (v: View, c: CmdView, pred: (d: CmdView) => boolean): boolean => {
  for (const d of v.cmds) {
    if (d.base > c.base && (d.cmd.prevOp === "|" || d.cmd.prevOp === "||") && pred(d)) return true
  }
  return false
}
