/**
 * What xargs, find and fd put in place of `{}` (or append) when the command runs: a word whose value is only known
 * then (`"$(cat)"`, which the resolver cannot compute), so `find … -exec mv {} /tmp/ \;` moves a source computed at
 * run time and `xargs unlink` has an operand. Each use is a fresh word, remembered so that readers of the original
 * arguments (`xargs sh -c` takes its code from the input) can leave it out.
 */
import type { Word } from "../shell/ast.js"
import { lexWord } from "../shell/parser.js"

/** Each filled word, and the command that lists the names (`find … -name '*.py'`, grep -l before `| xargs`), when known. */
const filled = new WeakMap<Word, ReadonlyArray<string> | null>()

export const filledWord = (lister: ReadonlyArray<string> | null = null): Word => {
  const w = lexWord('"$(cat)"')
  filled.set(w, lister)
  return w
}

export const isFilled = (w: Word): boolean => filled.has(w)

/** The argv of the program whose output names fill the word (null: not known, or read from a file). */
export const filledFrom = (w: Word): ReadonlyArray<string> | null => filled.get(w) ?? null
