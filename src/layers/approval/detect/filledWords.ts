/**
 * What xargs, find and fd put in place of `{}` (or append) when the command runs: a word whose value is only known
 * then (`"$(cat)"`, which the resolver cannot compute), so `find … -exec mv {} /tmp/ \;` moves a source computed at
 * run time and `xargs unlink` has an operand. Each use is a fresh word, remembered so that readers of the original
 * arguments (`xargs sh -c` takes its code from the input) can leave it out.
 */
import type { Word } from "../shell/ast.js"
import { lexWord } from "../shell/parser.js"
import { gitOptions } from "./gitOptions.js"

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

/**
 * xargs without a replacement string appends what it reads as any number of words: options and subcommands too
 * (`victim -delete` for find, `-c CODE` for python3, `-C repo clean -fdx` for git, `-e e` for sed). A program with
 * options or subcommands that delete, write or run code is then run with arguments only known when it runs.
 */
export const APPENDED_ARGUMENTS_DESCRIPTION =
  "runs a program with arguments xargs reads when it runs (they may be options or subcommands that delete, write or run code)"

/**
 * Programs every argument of which is text to read, a file to read, or an operand with no more power than its
 * name: what the input appends cannot make them write or run anything. (chmod: its options only reach the files
 * its operands, which the input names anyway, already reach.) Not rg (`--pre CMD`), sort/uniq (`-o`, an output
 * operand), file (`-C` writes), diff and git log (`--output`).
 */
const ARGUMENTS_TO_READ = new Set([
  "cat", "tac", "head", "tail", "wc", "ls", "grep", "egrep", "fgrep", "echo", "printf", "stat", "du", "basename",
  "dirname", "realpath", "readlink", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
  "cksum", "test", "[", "true", "false", "nl", "od", "strings", "cmp", "chmod", "pwd", "id", "whoami", "which"
])

/** git subcommands whose options neither write files nor run programs: the input appends to their operands. */
const GIT_TO_READ = new Set(["add", "status", "ls-files", "blame", "check-ignore", "check-attr"])

/**
 * Whether what xargs appends can give `program` (its words after wrappers, as the line spells them) options or a
 * subcommand with power. `wholeNames`: the input items are whole names a lister printed under a start path
 * (`find . … -print0 | xargs -0`): they cannot start with `-`, so they are operands.
 */
export const appendedArgumentsMatter = (words: ReadonlyArray<string>, wholeNames: boolean): boolean => {
  const [program = "", ...args] = words
  const name = program.slice(program.lastIndexOf("/") + 1)
  if (ARGUMENTS_TO_READ.has(name) || wholeNames) return false
  // git's own options come before the subcommand: the input only reaches the subcommand's.
  if (name === "git") return !GIT_TO_READ.has(args[gitOptions(args).sub] ?? "")
  return true
}

/**
 * Programs for which one option word (xargs -I puts each input line in as one word) does no more than an operand:
 * `xargs -I{} cp {} dest/` given `-t x` copies nothing else. (Not sort: `-o FILE` writes, nor file: `-C` writes.)
 */
const ONE_WORD_TO_READ = new Set(["cp", "mv", "ln", "mkdir", "touch", "rmdir", "diff"])

/**
 * Whether a word xargs -I fills (one input line, which may begin with `-`) can give `program` an option or a
 * subcommand with power: `xargs -I{} find d {}` given `-delete`, `xargs -I{} python3 {}` given `-cCODE`.
 */
export const filledWordMatters = (words: ReadonlyArray<string>, wholeNames: boolean): boolean => {
  const program = words[0] ?? ""
  return !ONE_WORD_TO_READ.has(program.slice(program.lastIndexOf("/") + 1)) && appendedArgumentsMatter(words, wholeNames)
}
