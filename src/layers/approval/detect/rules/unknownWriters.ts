/**
 * Programs the gate does not model, given a file other programs run. Whether such a program writes the path it is
 * given (`openssl enc -out ~/.bashrc`, `msgfmt -o .git/hooks/x`, `tool --dest=.git/config`, a path inside its
 * script text) cannot be told from outside, so every path it is given counts as written, failing closed. Only
 * programs known to read (cat, grep, ls, diff…) or to change nothing a later program runs (mkdir, touch, rm) are
 * left alone; the programs whose writes are modelled (operands.ts, outputFiles.ts) are judged by what they write.
 */
import { bareGitName } from "../implicitExec.js"
import { asCommandSees } from "../pathClasses.js"
import type { CmdView } from "../ruleInput.js"

/**
 * Programs that never write a file named by their arguments (reading, listing, comparing, hashing, printing), or
 * only do things a later program does not run (making directories, empty files, deleting: other rules judge deletes;
 * chmod's arming of a file is judged apart, outputFiles.ts `armedFiles`).
 */
const PURE_READERS = new Set([
  "cat", "tac", "less", "more", "most", "bat", "batcat", "head", "tail", "nl", "od", "hexdump", "hd", "strings", "wc",
  "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "zegrep", "zfgrep", "bzgrep", "xzgrep", "zstdgrep", "pcregrep", "pcre2grep",
  "zcat", "bzcat", "xzcat", "zstdcat", "lz4cat", "lzcat", "zless", "zmore", "bzless", "xzless",
  "ls", "dir", "vdir", "tree", "exa", "eza", "lsd", "stat", "file", "du", "df", "realpath", "readlink", "namei", "lsattr", "getfacl",
  "dirname", "basename", "pathchk", "test", "[", "[[", "true", "false", ":", "echo", "printf", "type", "which", "whereis", "command", "hash",
  "diff", "cmp", "comm", "colordiff", "wdiff", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "shasum", "md5",
  "cut", "paste", "join", "column", "fold", "fmt", "expand", "unexpand", "rev", "look", "jq", "gron",
  "cd", "pushd", "popd", "source", ".", "export", "declare", "typeset", "local", "readonly", "unset", "alias", "unalias", "set", "shopt",
  "mkdir", "rmdir", "touch", "rm", "unlink", "chmod", "chown", "chgrp", "shellcheck", "lsof", "fuser", "id", "whoami", "pwd", "date", "sleep", "wait"
])

export const isPureReader = (name: string): boolean => PURE_READERS.has(name)

/** Words worth classifying: a path (`/`, `~`), a dot-file (`.bashrc`, `.envrc`), or a start-up name without either. */
const PATH_HINT = /[/~]|^\.|(?:rc|profile|customize\.py|\.pth|config\.fish|startup\.jl|\.envrc)$/

/**
 * The operating system's own trees: root's to write, and named all the time as programs and data to read
 * (`make SHELL=/bin/bash`, `ldd /usr/bin/node`). A write there by an unmodelled program through an output option is
 * still judged (operands.ts); a mere mention is not.
 */
const SYSTEM_TREE = /^\/+(?:usr|bin|sbin|lib\d*|etc|opt|snap|nix|boot|sys|dev)(?:\/|$)/

const push = (out: string[], text: string): void => {
  if (PATH_HINT.test(text) && !SYSTEM_TREE.test(asCommandSees(text)) && !bareGitName(text)) out.push(text)
}

/**
 * The path texts a word can carry: itself; after `=` (`--out=f`, `of=f`); after a short option's letter (`-of`);
 * and, in a program text (an awk or perl script, a format, a here-string), each path-like token it holds.
 */
const pathTexts = (w: string, out: string[]): void => {
  push(out, w)
  const eq = w.indexOf("=")
  if (eq >= 0) push(out, w.slice(eq + 1))
  if (w.length > 2 && w.startsWith("-") && !w.startsWith("--")) push(out, w.slice(2))
  // A program text: the path may stand anywhere in it (`print > "x/.git/config"`, `open(F, ">", ".bashrc")`).
  if (/[\s"'(){};,<>|]/.test(w) && w.length <= 8192) {
    for (const token of w.split(/[\s"'`(){};,<>|=!&*]+/)) if (token !== w && token !== "") push(out, token)
  }
}

/**
 * Path texts an unmodelled program is given (arguments, option values, paths inside its script texts): each is
 * judged as written. Empty for pure readers and for programs `modelled` says are judged by what they write.
 */
export const namedByUnknownWriter = (c: CmdView, modelled: (name: string) => boolean): ReadonlyArray<string> => {
  if (PURE_READERS.has(c.name) || modelled(c.name)) return []
  const out: string[] = []
  const words = c.cmd.words
  for (let k = c.head + 1; k < words.length; k++) pathTexts(words[k]?.value ?? "", out)
  return out
}
