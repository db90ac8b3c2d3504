/**
 * D61–D70: history-destroying git operations and sudo privilege flags.
 *
 * Hermes matches `git reset --hard` and its kin as text, so `git -C . reset --hard`, `git reset -q --hard` or
 * `git clean -d -f` pass. Here the subcommand is found after git's own options and its flags are read wherever
 * they stand, under Hermes' descriptions (the same operation keeps its allowlist key).
 */
import { D } from "../descriptions.js"
import { gitOptions } from "../gitOptions.js"
import type { CmdView, View } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { hasFlag, isLong } from "./operands.js"
import { hasEndingAt, laterSome, restSome, startsTok } from "./tokenMatchers.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

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

/** Index of git's subcommand among `c.texts`, git at `i`: its own options (`-C dir`, `-c k=v`, `--git-dir=d`) skipped. */
const gitSubAt = (c: CmdView, i: number): number =>
  (c.texts[i + 1] ?? "").startsWith("-") ? i + 1 + gitOptions(c.texts.slice(i + 1)).sub : i + 1

const gitSub = (c: CmdView, i: number, sub: string): boolean => c.texts[gitSubAt(c, i)] === sub

/**
 * A short-option bundle carrying `letter`, or the long option as git's parse-options takes it, abbreviated to any
 * prefix of at least `shortest` (`--forc`, `--del`): git accepts every unambiguous prefix.
 */
const hasOption = (args: ReadonlyArray<string>, letter: string | null, long: string, shortest: string): boolean =>
  (letter !== null && hasFlag(args, letter, null)) || args.some((a) => a.startsWith("--") && isLong(a, long, shortest))

/** The subcommand's arguments up to `--` (after it come paths). */
const subArgs = (c: CmdView, i: number): ReadonlyArray<string> => {
  const from = gitSubAt(c, i) + 1
  const end = c.texts.indexOf("--", from)
  return c.texts.slice(from, end < 0 ? c.texts.length : end)
}


/**
 * `git clean` that deletes: anything but a dry run. Without `-f` git refuses only while `clean.requireForce`
 * holds, and an earlier call (or a planted `.git/config`) can turn that off.
 */
const cleanDeletes = (args: ReadonlyArray<string>): boolean =>
  !hasFlag(args, "n", "--dry-run")

/** A push refspec that forces (`+main`) or deletes (`:main`), or a push that deletes or mirrors remote refs. */
const pushRewrites = (args: ReadonlyArray<string>): boolean =>
  hasOption(args, "d", "--delete", "--de") || hasOption(args, null, "--mirror", "--mi") || hasOption(args, null, "--prune", "--pru") ||
  args.some((a) => /^[+:][^\s]/.test(a))

/** `./script` run right after a separator anywhere after `c`. */
const runsLocalScriptLater = (v: View, c: CmdView): boolean =>
  v.cmds.some((d) => d.base > c.base && SEPARATORS.has(d.cmd.prevOp) && (d.texts[0] ?? "").startsWith("./"))

/**
 * A pathspec reaching more than a named file: the whole tree (`.`, `..`), a directory (`src/`), a glob (`*.py`) or
 * pathspec magic (`:/`, `:(top)`). Restoring one named file (`git checkout -- file.py`) is everyday undo and stays quiet.
 */
const widePathspec = (a: string): boolean => /^\.{1,2}\/?$/.test(a) || a.endsWith("/") || /[*?[]/.test(a) || a.startsWith(":")

/** Operands before `--`, and the paths after it. */
const operandsOf = (all: ReadonlyArray<string>): { readonly before: ReadonlyArray<string>; readonly paths: ReadonlyArray<string> } => {
  const end = all.indexOf("--")
  const before = (end < 0 ? all : all.slice(0, end)).filter((a) => !a.startsWith("-"))
  return { before, paths: end < 0 ? [] : all.slice(end + 1) }
}

/**
 * `git checkout [<tree>] [--] <paths>` overwrites those paths' uncommitted changes: it asks when a pathspec
 * reaches more than a named file. Without `--` the first word may be a branch (a switch keeps changes).
 */
const checkoutDiscards = (args: ReadonlyArray<string>, all: ReadonlyArray<string>): boolean => {
  if (hasOption(args, "f", "--force", "--fo")) return true
  const { before, paths } = operandsOf(all)
  const branching = hasFlag(args, "b", null) || hasFlag(args, "B", null) || hasOption(args, null, "--orphan", "--or")
  if (branching) return false
  return paths.some(widePathspec) || before.some((a, k) => (k > 0 || a !== "-") && widePathspec(a)) ||
    hasOption(args, null, "--pathspec-from-file", "--pa")
}

/** `git restore <paths>` rewrites the working tree unless it only unstages (`--staged` without `--worktree`). */
const restoreDiscards = (args: ReadonlyArray<string>, all: ReadonlyArray<string>): boolean => {
  const staged = hasOption(args, "S", "--staged", "--sta")
  const worktree = hasOption(args, "W", "--worktree", "--w")
  const { before, paths } = operandsOf(all)
  return (!staged || worktree) &&
    (before.some(widePathspec) || paths.some(widePathspec) || hasOption(args, null, "--pathspec-from-file", "--pa"))
}

/** What `gitDiscards` looks for, by subcommand: the arguments up to `--`, and every word after the subcommand. */
const DISCARDING: Readonly<Record<string, (args: ReadonlyArray<string>, all: ReadonlyArray<string>) => boolean>> = lookupTable({
  checkout: checkoutDiscards,
  restore: restoreDiscards,
  switch: (args) => hasOption(args, "f", "--force", "--forc") || hasOption(args, null, "--discard-changes", "--di"),
  stash: (args) => args[0] === "drop" || args[0] === "clear",
  reflog: (args) => args[0] === "expire" || args[0] === "delete",
  worktree: (args) => args[0] === "remove" && hasOption(args, "f", "--force", "--fo"),
  // Deleting a ref by hand is `branch -D` without its checks.
  "update-ref": (args) => hasOption(args, "d", "--delete", "--d"),
  // Rewrite every commit; filter-repo keeps no backup. Its analysis and dry runs only read.
  "filter-branch": () => true,
  "filter-repo": (args) => !hasOption(args, null, "--analyze", "--an") && !hasOption(args, null, "--dry-run", "--dr")
})

/**
 * Ours, beyond Hermes' table: git commands that throw away work the way `reset --hard` does. Read with their case
 * kept, where Hermes' lower-casing would merge options (`git restore -S` only unstages; `-s` names a source).
 */
const gitDiscards = (c: CmdView, i: number): boolean => {
  const sub = gitSubAt(c, i)
  const test = DISCARDING[c.texts[sub] ?? ""]
  if (test === undefined) return false
  const all = c.cmd.words.slice(sub + 1).map((w) => w.value)
  const end = all.indexOf("--")
  return test(end < 0 ? all : all.slice(0, end), all)
}

export const gitSudoRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: "git reset --hard (destroys uncommitted changes)",
    on: ["git"],
    at: "end",
    test: (_v, c, i) => gitSub(c, i, "reset") && subArgs(c, i).some((a) => RESET_HARD.test(a))
  },
  {
    kind: "word",
    description: "git force push (rewrites remote history)",
    on: ["git"],
    at: "end",
    test: (v, c, i) => {
      const sub = gitSubAt(c, i)
      return startsTok(c.texts[sub] ?? "", "push") && (laterSome(v, c, sub, (x) => FORCE_LONG.test(x)) || pushRewrites(subArgs(c, i)))
    }
  },
  {
    kind: "word",
    description: "git force push short flag (rewrites remote history)",
    on: ["git"],
    at: "end",
    test: (v, c, i) => {
      const sub = gitSubAt(c, i)
      return startsTok(c.texts[sub] ?? "", "push") && (laterSome(v, c, sub, (x) => hasEndingAt(x, "-f")) || hasFlag(subArgs(c, i), "f", null))
    }
  },
  {
    kind: "word",
    description: "git clean with force (deletes untracked files)",
    on: ["git"],
    at: "end",
    test: (_v, c, i) => gitSub(c, i, "clean") && cleanDeletes(subArgs(c, i))
  },
  {
    kind: "word",
    description: "git branch force delete",
    on: ["git"],
    at: "end",
    // Hermes matches lower-cased text, so `-d` (merged-only delete) collapses into `-D` here too.
    test: (_v, c, i) => {
      if (!gitSub(c, i, "branch")) return false
      const args = subArgs(c, i)
      // `--delete` spelled whole with `--force` keeps Hermes' long-flag keys below; alone or abbreviated it is `-d`.
      const longDelete = args.some((a) => isLong(a, "--delete", "--de"))
      return hasFlag(args, "d", null) || (longDelete && !(args.includes("--delete") && args.some(FORCE_FLAG)))
    }
  },
  {
    kind: "word",
    description: "git branch force delete (long flags)",
    on: ["git"],
    at: "end",
    test: (_v, c, i) => startsTok(c.texts[gitSubAt(c, i)] ?? "", "branch") && inOrder(c, i, DELETE_FLAG, FORCE_FLAG)
  },
  {
    kind: "word",
    description: "git branch force delete (long flags, force-first)",
    on: ["git"],
    at: "end",
    test: (_v, c, i) => startsTok(c.texts[gitSubAt(c, i)] ?? "", "branch") && inOrder(c, i, FORCE_FLAG, DELETE_FLAG)
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

/** Ours, after Hermes' table (dangerous.ts). */
export const gitDiscardRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: D.gitDiscard,
    on: ["git"],
    at: "end",
    test: (_v, c, i) => gitDiscards(c, i)
  }
]
