/**
 * Any command that names a path inside the runtime's home (config, approval
 * allowlist, skills): through `~`, `$HOME`, a glob (`/ro?t/.herm[e]s-effect`, matched name by name),
 * an option (`--output=P`, `-oP`, `of=P`), a relative path after `cd`, or a
 * variable still unresolved (`$HERMES_EFFECT_HOME`). Reads count too: the
 * home holds the config. Bulk writers aimed at one of its ancestors
 * (`tar -x -C ~`, `rsync -a x/ ~/`, `ln -s ~ link`) count as well.
 *
 * Normalisation has already folded the home's absolute spelling to
 * `~/.hermes/…` (Hermes' own home); both spellings count.
 */
import { D } from "../descriptions.js"
import type { PathEnv } from "../pathClasses.js"
import { absolutePath, asCommandSees, globAncestor, globCovers, hasGlob, pathParts } from "../pathClasses.js"
import type { CmdView, View } from "../ruleInput.js"
import type { Rule, RuleEnv } from "./engine.js"
import { argv, hasFlag, operands, optionValues } from "./operands.js"

const HOME_VARIABLE = /\$\{?(?:HERMES_EFFECT_HOME|HERMES_HOME)(?![A-Za-z0-9_])/
const FOLDED_FORM = /^~[^/]*\/\.hermes(?:\/|$)/

interface Home {
  readonly parts: ReadonlyArray<string>
  readonly base: string
}

let cached: { readonly key: string | undefined; readonly home: Home | null } = { key: undefined, home: null }

const homeOf = (env: RuleEnv): Home | null => {
  if (cached.key === env.hermesHome) return cached.home
  const parts = env.hermesHome === undefined ? [] : pathParts(env.hermesHome.replace(/\\/g, "/"))
  const home = parts.length === 0 ? null : { parts, base: parts[parts.length - 1] ?? "" }
  cached = { key: env.hermesHome, home }
  return home
}

/** Where a path word points: absolute components, or null when it depends on an unknown directory. */
const resolve = (word: string, env: PathEnv, cwd: ReadonlyArray<string> | null): string[] | null => {
  // `/proc/<pid>/root/x` is `/x` (any process sharing our mounts), `/proc/self/cwd/x` is `./x`.
  const p = asCommandSees(word)
  const abs = absolutePath(p, env)
  if (abs !== null) return pathParts(abs)
  if (cwd === null || p.startsWith("$") || p.startsWith("~")) return null
  return pathParts(`/${cwd.join("/")}/${p}`)
}

/** The path texts a word can carry: itself, after `=` (`--output=P`, `of=P`), after a short option (`-oP`). */
const candidates = (w: string): string[] => {
  const out = [w]
  const eq = w.indexOf("=")
  if (eq >= 0) out.push(w.slice(eq + 1))
  if (w.length > 2 && w.startsWith("-") && !w.startsWith("--")) {
    const at = w.search(/[/~]/)
    if (at > 1) out.push(w.slice(at))
  }
  return out
}

const worthChecking = (w: string, home: Home | null, cwdKnown: boolean): boolean =>
  w.includes("/") ||
  w.includes("~") ||
  w.includes("$") ||
  (home !== null && w.includes(home.base)) ||
  (cwdKnown && (hasGlob(w) || w.startsWith(".")))

const reaches = (word: string, home: Home | null, env: PathEnv, cwd: ReadonlyArray<string> | null): boolean => {
  if (HOME_VARIABLE.test(word)) return true
  const p = asCommandSees(word)
  // The folded spelling; `~root/…` folds to `~~/.hermes/…`.
  if (FOLDED_FORM.test(p)) return true
  if (home === null) return false
  const parts = resolve(p, env, cwd)
  if (parts !== null) return globCovers(parts, home.parts)
  // Relative to a directory we do not know: only the home's own name is telling.
  const first = p.split("/").find((x) => x !== "" && x !== ".")
  return first === home.base
}

/** Names the home or one of its ancestors (`/`, `~`, a glob of one). */
const ancestorOrSelf = (p: string, home: Home | null, env: PathEnv, cwd: ReadonlyArray<string> | null): boolean => {
  if (home === null) return false
  const parts = resolve(p, env, cwd)
  return parts !== null && globAncestor(parts, home.parts)
}

const GIT_TREE_WRITERS = new Set(["checkout", "restore", "reset", "switch", "worktree", "clone", "pull", "merge", "stash", "apply", "am", "read-tree", "checkout-index", "rebase", "cherry-pick", "revert"])
const COPY_VALUED = new Set(["-t", "-S", "--suffix", "-e", "--rsh", "-m", "--mode"])

const NO_DESTINATIONS: ReadonlyArray<string | null> = []

/** Directories a bulk writer (archive extraction, recursive copy, tree checkout) fills; `null` entry: the cwd. */
const bulkDestinations = (c: CmdView): ReadonlyArray<string | null> => {
  switch (c.name) {
    case "tar":
    case "bsdtar": {
      const args = argv(c)
      const extracting = args.some((a, k) => a === "--extract" || a === "--get" || /^-[A-Za-z]*x/.test(a) || (k === 0 && /^[A-Za-z]*x[A-Za-z]*$/.test(a)))
      if (!extracting) return []
      const dirs = optionValues(args, "-C", "--directory")
      return dirs.length > 0 ? dirs : [null]
    }
    case "unzip": {
      const args = argv(c)
      const dirs = optionValues(args, "-d", null)
      return dirs.length > 0 ? dirs : [null]
    }
    case "cp":
    case "scp":
    case "rsync": {
      const args = argv(c)
      const recursive = c.name === "rsync" || hasFlag(args, "r", "--recursive") || hasFlag(args, "R", null) || hasFlag(args, "a", "--archive")
      if (!recursive) return []
      const t = optionValues(args, "-t", "--target-directory")
      if (t.length > 0) return t
      const ops = operands(args, COPY_VALUED)
      return ops.length >= 2 ? [ops[ops.length - 1] ?? ""] : []
    }
    case "git": {
      const args = argv(c)
      const trees = [...optionValues(args, null, "--work-tree"), ...optionValues(args, "-C", null)]
      const sub = operands(args, new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace"]))
      if (!GIT_TREE_WRITERS.has(sub[0] ?? "")) return []
      if (sub[0] === "clone" && sub.length >= 3) return [sub[sub.length - 1] ?? ""]
      return trees.length > 0 ? trees : [null]
    }
    default:
      return NO_DESTINATIONS
  }
}

const CHANGES_DIR = new Set(["cd", "pushd"])

const touchesHome = (v: View, env: RuleEnv): boolean => {
  const home = homeOf(env)
  let cwd: string[] | null = null
  for (const c of v.cmds) {
    if (c.cmd.cls !== "exec" || c.cmd.origin === "heredoc") continue
    // Assignments too (`h=<home>; cp x "$h/config.yaml"`): the name is set up to be used.
    for (let k = 0; k < c.cmd.words.length; k++) {
      const w = c.cmd.words[k]?.value ?? ""
      if (worthChecking(w, home, cwd !== null) && candidates(w).some((p) => reaches(p, home, env, cwd))) return true
    }
    for (const r of c.cmd.redirs) {
      const w = r.target?.value ?? ""
      if (worthChecking(w, home, cwd !== null) && reaches(w, home, env, cwd)) return true
    }
    if (c.head < 0) continue
    if (bulkDestinations(c).some((d) => (d === null ? cwd !== null && home !== null && globAncestor(cwd, home.parts) : ancestorOrSelf(d, home, env, cwd)))) {
      return true
    }
    if (c.name === "ln") {
      const ops = operands(argv(c), new Set(["-t", "-S", "--suffix"]))
      if (ops.length > 0 && ancestorOrSelf(ops[0] ?? "", home, env, cwd)) return true
    }
    if (CHANGES_DIR.has(c.name)) {
      const target = operands(argv(c))[0]
      cwd = target === undefined ? resolve("~", env, null) : target === "-" ? null : resolve(target, env, cwd)
    }
  }
  return false
}

export const runtimeHomeRules: ReadonlyArray<Rule> = [{ kind: "view", description: D.runtimeHome, test: touchesHome }]

/** A path text (no cwd known) that names something in the runtime's home, or refers to it by variable. */
export const reachesRuntimeHome = (p: string, env: RuleEnv): boolean => {
  if (p === "HERMES_EFFECT_HOME" || p === "HERMES_HOME") return true
  return reaches(p, homeOf(env), env, null)
}
