/**
 * The hardline floor's "recursive delete of root / a system directory / home"
 * read as the directory an operand lands on, not its spelling: Hermes matches
 * `/`, `/etc`, `~` as text, so `/usr/..`, `~/.`, `/e*`, `~agent` or
 * `/home/agent` (the user's own home), `cd / && rm -rf *` (or `rm -rf *` in a shell already in `/`),
 * `find / -delete` and `rsync --delete empty/ /` pass.
 */
import { absolutePath, globMatches, hasGlob, pathParts, rmTarget, unquote } from "../pathClasses.js"
import type { RmTarget } from "../pathClasses.js"
import type { CmdView, View } from "../ruleInput.js"
import type { RuleEnv } from "./engine.js"
import { isDash } from "./tokenMatchers.js"

const SYSTEM_TOP = [
  "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt", "proc", "root", "run",
  "sbin", "snap", "srv", "sys", "usr", "var"
]
const SYSTEM_SECOND: ReadonlyArray<readonly [string, string]> = [
  ...["bin", "sbin", "lib", "lib32", "lib64", "libexec", "include", "share", "local"].map((d) => ["usr", d] as const),
  ["var", "lib"]
]

/** A component matching every name (`*`, `**`, `{*,.*}`): the operand is everything inside its parent. */
const everything = (part: string): boolean => /^(?:\*+|\{\*,\.\*\}|\{\.\*,\*\})$/.test(part)

const componentMatches = (pattern: string, name: string): boolean =>
  pattern === name || name === "*" || (hasGlob(pattern) && globMatches(pattern, name))

const sameShape = (parts: ReadonlyArray<string>, target: ReadonlyArray<string>): boolean =>
  parts.length === target.length && parts.every((p, k) => componentMatches(p, target[k] ?? ""))

/** The class of an absolute path (lower-cased, globs allowed), its `..` and `.` already resolved lexically. */
const classify = (parts: ReadonlyArray<string>, home: ReadonlyArray<string> | null): RmTarget => {
  if (parts.length === 0) return "root"
  const last = parts[parts.length - 1] ?? ""
  if (everything(last)) return classify(parts.slice(0, -1), home) ?? (parts.length === 1 ? "root" : null)
  if (home !== null && home.length > 0 && sameShape(parts, home)) return "home"
  if (parts.length === 1 && SYSTEM_TOP.some((d) => componentMatches(parts[0] ?? "", d))) return "system"
  if (parts.length === 2 && SYSTEM_SECOND.some((t) => sameShape(parts, t))) return "system"
  return null
}

const HOME_WORD = /^\$\{?home\}?(?=\/|$)/

/**
 * The protected directory an operand (lower-cased word text) deletes, relative ones judged from each directory
 * the command may start in (`cwds`); null when none. Words holding other expansions are left to the resolver.
 */
export const protectedTarget = (word: string, env: RuleEnv, cwds: ReadonlyArray<string>): RmTarget => {
  const spelled = rmTarget(word)
  if (spelled !== null) return spelled
  const w = unquote(word).replace(HOME_WORD, "$HOME")
  if (w === "" || w.includes("`") || w.includes("$(") || /\$(?!HOME(?:\/|$))/.test(w)) return null
  const home = env.home?.toLowerCase()
  const homeParts = home === undefined ? null : pathParts(home)
  const rooted = w.startsWith("/") || w.startsWith("~") || w.startsWith("$HOME")
  const bases = rooted ? [null] : cwds
  for (const base of bases) {
    const abs = base === null ? absolutePath(w, { home, hermesHome: undefined }) : `${base}/${w}`
    // `~/..` with the home unknown: at least the home itself.
    if (abs === null) return /^(?:~|\$HOME)(?:\/\.{1,2})*\/?$/.test(w) ? "home" : null
    const found = classify(pathParts(abs), homeParts)
    if (found !== null) return found
  }
  return null
}

const CD_OPTIONS = /^-[LPe@]+$/

/**
 * Directories command `c` may start in: the shell's own (`env.cwd`), as moved by the line's `cd`s before `c`.
 * A `cd` followed by `&&` replaces the candidates; after `;` a failed `cd` leaves the shell where it was, so both
 * count. A target the line computes leaves no candidate from that point.
 */
export const startDirs = (v: View, c: CmdView, env: RuleEnv): ReadonlyArray<string> => {
  let dirs: ReadonlyArray<string> = env.cwd === undefined ? [] : [env.cwd.toLowerCase()]
  const home = env.home?.toLowerCase()
  for (let k = 0; k < v.cmds.length; k++) {
    const d = v.cmds[k]
    if (d === undefined || d.base >= c.base) break
    if (d.head < 0 || (d.name !== "cd" && d.name !== "pushd")) continue
    const arg = d.texts.slice(d.head + 1).find((t) => !CD_OPTIONS.test(t) && t !== "--")
    const word = unquote(arg ?? "~").replace(HOME_WORD, "$HOME")
    let targets: ReadonlyArray<string>
    if (word.includes("$") && !word.startsWith("$HOME") || word.includes("`") || word === "-") targets = []
    else if (word.startsWith("/") || word.startsWith("~") || word.startsWith("$HOME")) {
      const abs = absolutePath(word, { home, hermesHome: undefined })
      targets = abs === null ? [] : [abs]
    } else targets = dirs.map((base) => `${base}/${word}`)
    const chained = v.cmds[k + 1]?.cmd.prevOp === "&&"
    dirs = chained ? targets : [...targets, ...dirs]
  }
  return dirs
}

/** The operands of rm at `c` (`busybox rm` too: busybox is a wrapper, its applet is the program). */
export const rmOperands = (c: CmdView): ReadonlyArray<string> | null =>
  c.name === "rm" ? c.texts.slice(c.head + 1).filter((t) => !isDash(t)) : null

/** Tests that pick some files out of the tree: with one, `find / … -delete` is selective, not the whole tree. */
const SELECTIVE = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname",
  "-newer", "-anewer", "-cnewer", "-newermt", "-newerct", "-neweraa", "-mtime", "-mmin", "-atime", "-amin", "-ctime",
  "-cmin", "-used", "-size", "-user", "-group", "-uid", "-gid", "-nouser", "-nogroup", "-perm", "-empty", "-links",
  "-inum", "-samefile", "-readable", "-writable", "-executable", "-fstype", "-context", "-prune", "-false"
])
const FIND_LEADING = /^-(?:[hlp]|d|o\d*)$/

/** `find <start>… <expr>` deleting everything under its start points (`-delete`, or `-exec rm`) with no test choosing files. */
export const findDeletesAll = (c: CmdView): ReadonlyArray<string> | null => {
  if (c.name !== "find") return null
  const args = c.texts.slice(c.head + 1).map(unquote)
  let k = 0
  while (k < args.length && FIND_LEADING.test(args[k] ?? "")) k += args[k] === "-d" ? 2 : 1
  const starts: Array<string> = []
  while (k < args.length && !/^[-(!]/.test(args[k] ?? "")) starts.push(args[k++] ?? "")
  const expr = args.slice(k)
  const deletes = expr.some((a, j) => a === "-delete" || (/^-(?:exec|execdir|ok|okdir)$/.test(a) && /^(?:\S*\/)?rm$/.test(expr[j + 1] ?? "")))
  if (!deletes || expr.some((a) => SELECTIVE.has(a))) return null
  const depth = expr.indexOf("-maxdepth")
  if (depth >= 0 && Number(expr[depth + 1] ?? "0") < 2) return null
  return starts.length === 0 ? ["."] : starts
}

/** `rsync --delete…` / `rclone sync` into a destination: what the source lacks there is removed. */
export const syncDestination = (c: CmdView): string | null => {
  const args = c.texts.slice(c.head + 1)
  const operands = args.filter((t) => !isDash(t))
  if (c.name === "rsync" && args.some((a) => a.startsWith("--del"))) return operands[operands.length - 1] ?? null
  if (c.name === "rclone" && operands[0] === "sync") return operands[2] ?? null
  return null
}
