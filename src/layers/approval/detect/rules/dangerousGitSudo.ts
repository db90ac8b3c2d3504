/** D61–D70: history-destroying git operations and sudo privilege flags. */
import type { CmdView, View } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { hasEndingAt, isDash, laterSome, restSome, startsTok } from "./tokenMatchers.js"

const RESET_HARD = /^--h(?:a(?:r(?:d)?)?)?(?![\w])/
const FORCE_LONG = /--forc[a-z]*(?![\w])/
const DELETE_FLAG = (t: string): boolean => hasEndingAt(t, "-d") || hasEndingAt(t, "--delete")
const FORCE_FLAG = (t: string): boolean => hasEndingAt(t, "-f") || hasEndingAt(t, "--force")
const SUDO_PRIVILEGE = /^(?:-s|-a|--st[a-z]*|--a[a-z]*)(?![\w])/
const SUDO_BUNDLE = /^-[a-z]*[sa][a-z]*(?![\w])/
const SEPARATORS = new Set([";", "&", "|", "&&", "||"])

/** Within `git branch …`: a word matching `first`, then a later one matching `second`. */
const inOrder = (c: CmdView, i: number, first: (t: string) => boolean, second: (t: string) => boolean): boolean => {
  const k = c.texts.findIndex((t, j) => j > i + 1 && first(t))
  return k >= 0 && c.texts.some((t, j) => j > k && second(t))
}

const gitSub = (c: CmdView, i: number, sub: string): boolean => c.texts[i + 1] === sub

/** `./script` run right after a separator anywhere after `c`. */
const runsLocalScriptLater = (v: View, c: CmdView): boolean =>
  v.cmds.some((d) => d.base > c.base && SEPARATORS.has(d.cmd.prevOp) && (d.texts[0] ?? "").startsWith("./"))

export const gitSudoRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: "git reset --hard (destroys uncommitted changes)",
    on: ["git"],
    at: "end",
    test: (_v, c, i) => gitSub(c, i, "reset") && RESET_HARD.test(c.texts[i + 2] ?? "")
  },
  {
    kind: "word",
    description: "git force push (rewrites remote history)",
    on: ["git"],
    at: "end",
    test: (v, c, i) => startsTok(c.texts[i + 1] ?? "", "push") && laterSome(v, c, i + 1, (x) => FORCE_LONG.test(x))
  },
  {
    kind: "word",
    description: "git force push short flag (rewrites remote history)",
    on: ["git"],
    at: "end",
    test: (v, c, i) => startsTok(c.texts[i + 1] ?? "", "push") && laterSome(v, c, i + 1, (x) => hasEndingAt(x, "-f"))
  },
  {
    kind: "word",
    description: "git clean with force (deletes untracked files)",
    on: ["git"],
    at: "end",
    test: (_v, c, i) => gitSub(c, i, "clean") && isDash(c.texts[i + 2]) && (c.texts[i + 2] ?? "").indexOf("f", 1) > 0
  },
  {
    kind: "word",
    description: "git branch force delete",
    on: ["git"],
    at: "end",
    // Hermes matches lower-cased text, so `-d` (merged-only delete) collapses into `-D` here too.
    test: (_v, c, i) => gitSub(c, i, "branch") && startsTok(c.texts[i + 2] ?? "", "-d")
  },
  {
    kind: "word",
    description: "git branch force delete (long flags)",
    on: ["git"],
    at: "end",
    test: (_v, c, i) => startsTok(c.texts[i + 1] ?? "", "branch") && inOrder(c, i, DELETE_FLAG, FORCE_FLAG)
  },
  {
    kind: "word",
    description: "git branch force delete (long flags, force-first)",
    on: ["git"],
    at: "end",
    test: (_v, c, i) => startsTok(c.texts[i + 1] ?? "", "branch") && inOrder(c, i, FORCE_FLAG, DELETE_FLAG)
  },
  {
    kind: "word",
    description: "chmod +x followed by immediate execution",
    on: ["chmod"],
    at: "end",
    test: (v, c, i) => startsTok(c.texts[i + 1] ?? "", "+x") && runsLocalScriptLater(v, c)
  },
  {
    kind: "word",
    description: "sudo with privilege flag (stdin/askpass/shell/list)",
    on: ["sudo"],
    at: "any",
    test: (_v, c, i) => restSome(c, i, (x) => SUDO_PRIVILEGE.test(x))
  },
  {
    kind: "word",
    description: "sudo with combined-flag privilege escalation",
    on: ["sudo"],
    at: "any",
    test: (_v, c, i) => restSome(c, i, (x) => SUDO_BUNDLE.test(x))
  }
]
