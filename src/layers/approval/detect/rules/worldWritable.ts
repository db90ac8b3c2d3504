/**
 * Hermes' "world/other-writable permissions" read as the mode it is, not its
 * spelling: Hermes matches `777`, `666`, `o+w` and `a+w` as text, so `0777`,
 * `757`, `a=rwx`, `go+w`, `o=u`, `mkdir -m 777` or an ACL granting others
 * write pass. Same description, so the same allowlist key.
 */
import type { CmdView } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { argv, isLong, runsAs } from "./operands.js"

export const WORLD_WRITABLE = "world/other-writable permissions"

/** A numeric mode (`0777`, `2757`): the last digit is the others' class. */
const numericGrants = (mode: string): boolean => /^[0-7]{1,5}$/.test(mode) && ((Number(mode[mode.length - 1]) & 2) === 2)

/**
 * A symbolic mode (`a=rwx`, `go+w`, `u=rwx,o=u`): some clause names others (`o` or `a`) and adds or sets write,
 * or copies another class's bits (`o=u`), which usually hold it. A clause naming no class is cut by the umask.
 */
const symbolicGrants = (mode: string): boolean =>
  mode.split(",").some((clause) => {
    const m = /^([ugoa]*)((?:[-+=][rwxXstugo]*)+)$/.exec(clause)
    if (m === null) return false
    const who = m[1] ?? ""
    if (!who.includes("o") && !who.includes("a")) return false
    return (m[2]?.match(/[-+=][rwxXstugo]*/g) ?? []).some((op) => op[0] !== "-" && /[wugo]/.test(op.slice(1)))
  })

export const modeGrantsOthersWrite = (mode: string): boolean => numericGrants(mode) || symbolicGrants(mode)

const CHMOD_FLAGS = /^-[RcfvHLP]+$/

/** chmod's mode: the first argument that is not one of its options (a mode may itself start with `-`: `-w`). */
const chmodGrants = (args: ReadonlyArray<string>): boolean => {
  for (const a of args) {
    if (a === "--") continue
    // `--reference=f` copies a mode the line does not show.
    if (isLong(a, "--reference", "--ref")) return true
    if (a.startsWith("--") || CHMOD_FLAGS.test(a)) continue
    return modeGrantsOthersWrite(a)
  }
  return false
}

/** `-m MODE`, `-mMODE`, `--mode=MODE`, `--mode MODE` (mkdir, install, mkfifo, mknod). */
const modeOption = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  args.forEach((a, k) => {
    if (a === "-m" || a === "--mode") out.push(args[k + 1] ?? "")
    else if (a.startsWith("--mode=")) out.push(a.slice(7))
    else if (/^-m./.test(a)) out.push(a.slice(2))
  })
  return out
}

/** An ACL entry for others (`o::rwx`, `other::w`, default entries `d:o::rwx`) holding write. */
const aclGrants = (args: ReadonlyArray<string>): boolean =>
  args.some((a, k) => {
    const spec = a === "-m" || a === "--modify" || a === "--set" ? (args[k + 1] ?? "") : /^--(?:modify|set)=/.test(a) ? a.slice(a.indexOf("=") + 1) : ""
    return spec.split(",").some((e) => /^(?:d(?:efault)?:)?o(?:ther)?:[^:]*:?[rwxX-]*w/.test(e))
  })

/** `umask 000`, `umask 0`, `umask o+w`: every file the shell creates from then on is writable by others. */
const umaskOpens = (args: ReadonlyArray<string>): boolean => {
  const mode = args.find((a) => !a.startsWith("-"))
  if (mode === undefined) return false
  if (/^[0-7]{1,4}$/.test(mode)) return (Number(mode[mode.length - 1]) & 2) === 0
  return symbolicGrants(mode)
}

const grants = (c: CmdView, i: number): boolean => {
  const args = argv(c)
  if (runsAs(c, i, ["chmod"])) return chmodGrants(args)
  if (runsAs(c, i, ["mkdir", "install", "mkfifo", "mknod"])) return modeOption(args).some(modeGrantsOthersWrite)
  if (runsAs(c, i, ["setfacl"])) return aclGrants(args)
  return runsAs(c, i, ["umask"]) && umaskOpens(args)
}

/** Ours, after Hermes' table: the modes its text patterns miss. */
export const worldWritableRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: WORLD_WRITABLE,
    on: ["chmod", "mkdir", "install", "mkfifo", "mknod", "setfacl", "umask"],
    at: "end",
    test: (_v, c, i) => grants(c, i)
  }
]
