/**
 * Terminal writes onto files other programs run without being asked (shell
 * start-up files, git config and hooks, .envrc, ssh config, crontabs,
 * interpreter hooks, programs' config under ~/.config and their dot-directories,
 * PATH directories): redirects, tee, cp/mv/install/ln
 * destinations, sed -i, dd of=, curl -o, wget -O, the outputs of other
 * programs (outputFiles.ts: `openssl -out`, `unxz x.xz`, awk's `print > f`,
 * find -fprintf…), a hook made executable, an inline diff's names, a recursive
 * copy into the home, and every path an unmodelled program is given
 * (unknownWriters.ts). Same classification and descriptions as file-tool
 * writes (implicitExec.ts); Hermes' own rules come first in the table, so
 * `>> ~/.bashrc` keeps Hermes' description.
 */
import { D } from "../descriptions.js"
import { IMPLICIT_EXEC_DESCRIPTIONS, implicitlyExecuted, linkTargetRuns, otherUsersHome, RUNTIME_HOME_DESCRIPTION } from "../implicitExec.js"
import { inlinePatchWrites } from "../patchInputs.js"
import { absolutePath, asCommandSees } from "../pathClasses.js"
import type { CmdView, View } from "../ruleInput.js"
import type { Rule, RuleEnv } from "./engine.js"
import { argv, fillsCurrentDirectory, modelledWriter, operands, PLANTABLE, PLANTABLE_HOME, recursiveCopyDestinations, runs, symbolicLinkTargets, writes } from "./operands.js"
import { armedFiles, AWKS, awkComputedOutput } from "./outputFiles.js"
import { namedByUnknownWriter } from "./unknownWriters.js"

const NONE: ReadonlyArray<string> = []

/** Stand-ins for directories we cannot know here; classification only looks at the names below them. */
const UNKNOWN_CWD = "/.cwd"
const UNKNOWN_DIR = "/.unknown"

/** An absolute path to classify for a written word (relative and variable-led paths keep their tail). */
export const writtenPath = (w: string, env: RuleEnv): string => {
  const abs = absolutePath(w, env)
  if (abs !== null) return abs
  if (w.startsWith("$") || w.startsWith("~")) {
    const slash = w.indexOf("/")
    return slash < 0 ? UNKNOWN_DIR : UNKNOWN_DIR + w.slice(slash)
  }
  return `${UNKNOWN_CWD}/${w}`
}

const isHome = (dir: string, env: RuleEnv): boolean =>
  dir === "~" || dir === "$HOME" || dir === "${HOME}" || (env.home !== undefined && dir === env.home.replace(/\/+$/, ""))

const relative = (w: string): boolean => w !== "" && !w.startsWith("/") && !w.startsWith("~") && !w.startsWith("$")

/**
 * The directory after `cd target`, as a path text writtenPath understands: `cd` alone or `cd ~` is the home,
 * `cd -` and a relative move from an unknown directory keep only what is known (the tail below it).
 */
const changedDirectory = (cwd: string | null, target: string | undefined): string | null => {
  if (target === undefined || target === "~") return "~"
  if (target === "-") return null
  const t = target.replace(/\/+$/, "")
  if (!relative(t)) return t
  return cwd === null ? t : `${cwd}/${t}`
}

/**
 * A recursive copy into the home by its absolute name (`cp -r x/. /home/me`): operands.ts knows `~` and `$HOME`
 * only, so the home's own path is recognised here, where the home is known.
 */
const homeFills = (c: CmdView, env: RuleEnv): ReadonlyArray<string> => {
  if (env.home === undefined || !(c.name === "cp" || c.name === "rsync" || c.name === "scp")) return NONE
  const into = recursiveCopyDestinations(c.name, argv(c)).filter((d) => d.startsWith("/") && isHome(d.replace(/\/+$/, ""), env))
  return into.flatMap((d) => PLANTABLE_HOME.map((n) => `${d.replace(/\/+$/, "")}/${n}`))
}

/**
 * What counts as written beyond the command's own write list: every path an unmodelled program is given, the home's
 * start-up files under a recursive copy into it, and the files chmod makes executable.
 */
const beyondWrites = (c: CmdView, env: RuleEnv): ReadonlyArray<string> => {
  const named = namedByUnknownWriter(c, modelledWriter)
  const filled = homeFills(c, env)
  const armed = armedFiles(c.name, argv(c))
  return named.length + filled.length + armed.length === 0 ? NONE : [...named, ...filled, ...armed]
}

/** Every implicit-exec class the view's commands write to (the runtime home is the runtime-home rule's). */
const writtenClasses = (v: View, env: RuleEnv): ReadonlySet<string> => {
  let found = v.writtenMemo
  if (found !== undefined) return found
  const out = new Set<string>()
  // Where relative writes land once the line has changed directory (`cd .git/hooks && cp x pre-commit`).
  let cwd: string | null = null
  for (const c of v.cmds) {
    const here = cwd === null || !fillsCurrentDirectory(c) ? NONE : isHome(cwd, env) ? PLANTABLE_HOME : PLANTABLE
    const extra = runs(c) ? [...here, ...beyondWrites(c, env)] : here
    for (const written of extra.length === 0 ? writes(c) : [...writes(c), ...extra]) {
      if (written === "/dev/null" || written === "/dev/stderr" || written === "/dev/stdout") continue
      const w = asCommandSees(written)
      const path = writtenPath(cwd !== null && relative(w) ? `${cwd}/${w}` : w, env)
      if (otherUsersHome(path, env.home)) continue
      const d = implicitlyExecuted(path, { home: env.home })
      if (d !== null) out.add(d)
    }
    // A symbolic link into a place whose files run: a write through it may land there after another process swaps it.
    if (runs(c) && (c.name === "ln" || c.name === "cp")) {
      for (const target of symbolicLinkTargets(c.name, argv(c))) {
        const t = asCommandSees(target)
        const path = writtenPath(cwd !== null && relative(t) ? `${cwd}/${t}` : t, env)
        if (otherUsersHome(path, env.home)) continue
        const d = linkTargetRuns(path, { home: env.home })
        if (d !== null) out.add(d)
      }
    }
    if (runs(c) && (c.name === "cd" || c.name === "pushd")) {
      const target = operands(argv(c))[0]
      cwd = changedDirectory(cwd, target === undefined ? undefined : asCommandSees(target))
    }
  }
  // A diff given inline names the files `patch` writes (one in a file is read by the judge).
  for (const written of inlinePatchWrites(v)) {
    const d = implicitlyExecuted(writtenPath(asCommandSees(written), env), { home: env.home })
    if (d !== null) out.add(d)
  }
  found = out
  v.writtenMemo = found
  return found
}

// The runtime's home has a rule of its own (runtimeHome.ts), which also sees reads.
const DESCRIPTIONS = IMPLICIT_EXEC_DESCRIPTIONS.filter((d) => d !== RUNTIME_HOME_DESCRIPTION)

/**
 * awk sending output to a file it names only when it runs (`print > $1`, `print > f` with `f` built from input):
 * where it lands is not known, as with a shell write to a computed target.
 */
const awkComputedRule: Rule = {
  kind: "program",
  description: D.computedWriteTarget,
  only: (name) => AWKS.has(name),
  test: (_v, c) => runs(c) && awkComputedOutput(c.name, argv(c))
}

export const implicitWriteRules: ReadonlyArray<Rule> = [
  ...DESCRIPTIONS.map((description): Rule => ({ kind: "view", description, test: (v, env) => writtenClasses(v, env).has(description) })),
  awkComputedRule
]
