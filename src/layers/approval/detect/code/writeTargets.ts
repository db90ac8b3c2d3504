/**
 * Where a write in interpreter code lands, when the call does not spell it plainly: a path held in a variable, a
 * name joined to the home, an archive unpacked into a directory where files run.
 */
import { bareGitName } from "../implicitExec.js"
import type { RuleEnv } from "../rules/engine.js"
import { PLANTABLE, PLANTABLE_HOME } from "../rules/operands.js"
import { strings } from "./calls.js"
import type { Tok } from "./lexer.js"
import { linkTargetRuns } from "../implicitExec.js"
import { writtenPath } from "../rules/implicitWrites.js"
import { plantingWrite, sensitiveWrite } from "./sensitivePaths.js"

/** An archive unpacked into `dir` can plant the files programs run there (a hook, a config, an autostart entry). */
export const unpacksWhereFilesRun = (dir: string, env: RuleEnv): boolean => {
  const d = dir.replace(/\/+$/, "")
  const names = d === "~" || d === env.home ? PLANTABLE_HOME : PLANTABLE
  return names.some((n) => sensitiveWrite(`${d}/${n}`, env))
}
/**
 * A symbolic link made by code (`os.symlink("repo/.git", "d")`, `fs.symlinkSync`, perl's `symlink`) to one of the
 * paths its call spells, where writes through the link would run: judged as those writes (a swap of the link
 * between the judgement of a later write and the write itself would carry it there).
 */
export const linksIntoRunPlaces = (where: ReadonlyArray<string>, env: RuleEnv): boolean =>
  where.some((p) => PATH_LIKE.test(p) && !p.includes("\n") && linkTargetRuns(writtenPath(p, env), { home: env.home }) !== null)

/** A string that names a file rather than being data. */
export const PATH_LIKE = /[/~]|^\.|\.\w+$/
/** The code builds paths from the home directory (`os.homedir()`, `expanduser`, `$HOME`). */
const HOME_SOURCES = new Set(["homedir", "expanduser", "HOME", "USERPROFILE", "home"])

/**
 * Whether a write given the strings of its call (`where`) lands somewhere sensitive: a path spelled there, one of its
 * names joined to the home when the code reads the home (`path.join(os.homedir(), ".bashrc")`), or, when the call
 * spells no path at all (`open(p, "a")`), any sensitive path the file spells, since the variable may hold it.
 */
export const writeChecker = (toks: ReadonlyArray<Tok>, env: RuleEnv): ((where: ReadonlyArray<string>) => boolean) => {
  let everyString: ReadonlyArray<string> | undefined
  let readsHome: boolean | undefined
  const inHome = (raw: string): boolean => {
    // Perl's `"$ENV{HOME}/.bashrc"`: the home, spelled inside the string.
    const p = raw.replace(/^\$ENV\{["']?HOME["']?\}/, "~")
    readsHome ??= toks.some((t) => (t.kind === "identifier" || t.kind === "string") && HOME_SOURCES.has(t.value))
    // A name or suffix joined to the home: `".bashrc"`, `"/.bashrc"` after `expanduser("~") +`.
    return readsHome && !p.startsWith("~") && PATH_LIKE.test(p) && plantingWrite(`~/${p.replace(/^\.?\/+/, "")}`, env)
  }
  // Spelled elsewhere in the file, only paths where a write plants code count: system paths are mostly read there,
  // and a bare ".git" is a folder skipped in a walk.
  const elsewhere = (p: string): boolean => !bareGitName(p) && (plantingWrite(p, env) || inHome(p))
  // A `~` path is the home itself, whatever else the file reads.
  const spelledHome = (p: string): boolean => /^\$ENV\{["']?HOME["']?\}\//.test(p) && plantingWrite(p.replace(/^\$ENV\{["']?HOME["']?\}/, "~"), env)
  return (where) =>
    where.some((p) => sensitiveWrite(p, env) || inHome(p) || spelledHome(p)) ||
    (!where.some((p) => PATH_LIKE.test(p)) && (everyString ??= strings(toks)).some((p) => elsewhere(p) || spelledHome(p)))
}
