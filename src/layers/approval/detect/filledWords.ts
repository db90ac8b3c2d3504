/**
 * What xargs, find and fd put in place of `{}` (or append) when the command runs: a word whose value is only known
 * then (`"$(cat)"`, which the resolver cannot compute), so `find … -exec mv {} /tmp/ \;` moves a source computed at
 * run time and `xargs unlink` has an operand. Each use is a fresh word, remembered so that readers of the original
 * arguments (`xargs sh -c` takes its code from the input) can leave it out.
 */
import type { Word } from "../shell/ast.js"
import { lexWord } from "../shell/parser.js"

const filled = new WeakSet<Word>()

export const filledWord = (): Word => {
  const w = lexWord('"$(cat)"')
  filled.add(w)
  return w
}

export const isFilled = (w: Word): boolean => filled.has(w)
