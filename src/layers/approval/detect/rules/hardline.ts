/**
 * The hardline tier: commands that never run. Only commands the shell would
 * actually execute count (their program word after wrappers), never prose.
 */
import { H, HL } from "../descriptions.js"
import { isBlockDevice } from "../pathClasses.js"
import type { RmTarget } from "../pathClasses.js"
import type { CmdView, View } from "../ruleInput.js"
import type { Rule, RuleEnv } from "./engine.js"
import { findDeletesAll, protectedTarget, rmOperands, startDirs, syncDestination } from "./protectedTargets.js"
import { ruleSet } from "./engine.js"
import { hasForkBomb } from "./dangerousSystem.js"
import { destructiveHardline } from "./destructive.js"
import { isDash, skipDashes, startsTok, startsTokAny } from "./tokenMatchers.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

const DELETERS = new Set(["rm", "find", "rsync", "rclone"])
const isDeleter = (name: string): boolean => DELETERS.has(name)
const isMkfs = (name: string): boolean => /^mkfs(?![\w])/.test(name)
const isPowerProgram = (name: string): boolean => /^(?:shutdown|reboot|halt|poweroff)(?![\w])/.test(name)
const KILLERS = new Set(["kill", "killall5", "pkill", "killall"])
const NONE: ReadonlySet<RmTarget> = new Set()

/**
 * The protected directories (root, system, home) that any operand (not only the first, unlike Hermes) of rm, of a
 * find deleting all it walks, or the destination of a deleting sync lands on: written plainly, through `..`, a
 * glob, the home's own path, or relative to where the command starts. The three rules below ask in turn about the
 * same command, so the last answer is kept.
 */
let last: { v: View; c: CmdView; env: RuleEnv; kinds: ReadonlySet<RmTarget> } | undefined
const protectedKinds = (v: View, c: CmdView, env: RuleEnv): ReadonlySet<RmTarget> => {
  if (last !== undefined && last.c === c && last.v === v && last.env === env) return last.kinds
  const words = rmOperands(c) ?? findDeletesAll(c) ?? [syncDestination(c) ?? ""].filter((w) => w !== "")
  // Directory bookkeeping only when some operand is relative.
  const dirs = words.some((t) => !t.startsWith("/") && !t.startsWith("~") && !t.startsWith("$")) ? startDirs(v, c, env) : []
  const kinds = words.length === 0 ? NONE : new Set(words.map((t) => protectedTarget(t, env, dirs)))
  last = { v, c, env, kinds }
  return kinds
}
const deletesProtected = (v: View, c: CmdView, env: RuleEnv, kind: RmTarget): boolean =>
  DELETERS.has(c.name) && protectedKinds(v, c, env).has(kind)

const POWER_TARGET = /^(?:poweroff|reboot|halt|kexec|soft-reboot|rescue|emergency)(?:\.target)?$/

/**
 * `systemctl poweroff`/`reboot`/`halt`/`kexec` (`loginctl` too), and the same reached through their targets:
 * `systemctl isolate rescue.target`, `systemctl start reboot.target`.
 */
const powersOff = (c: CmdView): boolean => {
  const verb = c.texts[skipDashes(c, c.head + 1)] ?? ""
  if (startsTokAny(verb, ["poweroff", "reboot", "halt", "kexec", "soft-reboot"])) return true
  if (c.name !== "systemctl" || !/^(?:isolate|start|restart|reload-or-restart|try-restart)$/.test(verb)) return false
  return c.texts.slice(c.head + 1).some((t) => POWER_TARGET.test(t.replace(/^["']|["']$/g, "")))
}

/** dd's `of=` naming a block device. */
const ddOutputDevice = (t: string): boolean => {
  const m = /(?:^|[^\w])of=["']?([^"'\s]+)/.exec(t)
  return m !== null && isBlockDevice(m[1] ?? "")
}
const unquote = (t: string): string => t.replace(/^["']|["']$/g, "")
const arg = (c: CmdView, k: number): string => c.texts[c.head + k] ?? ""

/**
 * `kill` of pid -1 (every process the user may signal), however the signal is given (`-9`, `-KILL`, `-s KILL`,
 * `-n 9`, none) and wherever -1 stands among the pids; `killall5` signals every process.
 */
const killsAll = (c: CmdView): boolean => {
  if (c.name === "killall5") return true
  if (c.name !== "kill") return false
  let options = true
  for (let j = c.head + 1; j < c.texts.length; j++) {
    const t = unquote(c.texts[j] ?? "")
    if (options && (t === "-s" || t === "-n")) j++
    else if (options && t === "--") options = false
    else if (startsTok(t, "-1")) return true
  }
  return false
}

/** A pattern every process name or command line matches. */
const MATCH_ALL = /^(?:|\.|\.\*|\.\+|\^|\$|\^\.\*\$?|\.\*\$|\[\^\]\]|\w\*)$/
const PKILL_VALUED = new Set(["-u", "-U", "-g", "-G", "-P", "-s", "-t", "-F", "--signal", "--euid", "--uid", "--pgroup", "--group", "--parent", "--session", "--terminal", "--pidfile", "--ns", "--nslist", "-e", "--echo"])

/**
 * Every process killed by name: `pkill`/`killall -r` with a pattern that matches any name (`.`, `.*`, `^`, an empty
 * one), or pkill's `-v` (every process the pattern does not match).
 */
const killsEveryName = (c: CmdView): boolean => {
  if (c.name !== "pkill" && c.name !== "killall") return false
  const args = c.texts.slice(c.head + 1).map(unquote)
  if (c.name === "killall") {
    const regex = args.some((a) => a === "-r" || a === "--regexp" || /^-[a-z]*r[a-z]*$/.test(a))
    return regex && args.some((a) => !a.startsWith("-") && MATCH_ALL.test(a))
  }
  let pattern: string | undefined
  let invert = false
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a === "-v" || a === "--inverse" || /^-[a-z]*v[a-z]*$/.test(a)) invert = true
    else if (PKILL_VALUED.has(a)) k++
    else if (!a.startsWith("-") || a === "") pattern ??= a
  }
  return pattern !== undefined && (invert || MATCH_ALL.test(pattern))
}

/** Signals that make pid 1 reboot, power off or halt (systemd: SIGINT, SIGRTMIN+3…6, +13…16), or end a container's init. */
const INIT_STOPPING = /^(?:(?:sig)?(?:int|term|kill)|2|9|15|(?:sig)?rtmin\+(?:[3-6]|1[3-6])|3[7-9]|40|4[7-9]|50)$/

/** `kill` of pid 1 with a signal that shuts the system (or the container) down; the default is TERM. */
const signalsInit = (c: CmdView): boolean => {
  if (c.name !== "kill") return false
  let signal = "term"
  let options = true
  let initNamed = false
  const args = c.texts.slice(c.head + 1).map(unquote)
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (options && (a === "-s" || a === "-n" || a === "--signal")) signal = args[++k] ?? ""
    else if (options && a.startsWith("--signal=")) signal = a.slice(9)
    else if (options && a === "--") options = false
    else if (options && a.startsWith("-") && a !== "-1") signal = a.slice(1)
    else if (a === "1") initNamed = true
  }
  return initNamed && INIT_STOPPING.test(signal)
}

/**
 * Whether a disk tool writes, given its options: not when it is told to act on nothing (`noAct`: mke2fs -n, sgdisk
 * -P) or every option asks only for information (`fdisk -l`, `sfdisk -d`, `sgdisk -p`).
 */
const writesUnless = (noAct: ReadonlyArray<string>, info: ReadonlyArray<string>) => (options: ReadonlyArray<string>): boolean =>
  !options.some((o) => noAct.includes(o)) &&
  !(options.length > 0 && options.every((o) => info.includes(o) || o === "-h" || o === "--help" || o === "-V" || o === "--version"))
const FORMATS = writesUnless(["-n"], [])
const PARTITIONS = writesUnless([], ["-l", "--list"])

/**
 * Tools that format, partition or wipe the disk they are given, by what makes them write: always (a format,
 * blkdiscard), unless asked only for information (`fdisk -l`, `sfdisk -d`, `wipefs` without `-a`, `mke2fs -n`),
 * or for their writing commands (`parted … mklabel`, `cryptsetup luksFormat`, `nvme format`, `hdparm --security-erase`).
 */
const DISK_TOOLS: Readonly<Record<string, (options: ReadonlyArray<string>, words: ReadonlyArray<string>) => boolean>> = lookupTable({
  mke2fs: FORMATS,
  mkswap: FORMATS,
  mkdosfs: FORMATS,
  mkntfs: FORMATS,
  mkexfatfs: FORMATS,
  blkdiscard: () => true,
  wipefs: (o) => writesUnless(["-n", "--no-act"], [])(o) && o.some((x) => x === "--all" || x === "--offset" || /^-[a-z]*[ao]/.test(x)),
  sgdisk: writesUnless(["-P", "--pretend"], ["-p", "--print", "-i", "--info", "-v", "--verify", "-L", "--list-types"]),
  sfdisk: writesUnless(["-n", "--no-act"], ["-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-g", "--show-geometry", "--verify", "-F", "--list-free"]),
  fdisk: PARTITIONS,
  gdisk: PARTITIONS,
  cfdisk: PARTITIONS,
  parted: (o, w) => writesUnless([], ["-l", "--list"])(o) && (w.length === 0 || w.some((x) => /^(?:mklabel|mktable|mkpart|mkpartfs|rm|resizepart|resize)$/.test(x))),
  cryptsetup: (_o, w) => w.some((x) => /^(?:luksformat|erase|lukserase|reencrypt|lukskillslot|luksremovekey)$/.test(x)),
  nvme: (_o, w) => w.some((x) => x === "format" || x === "sanitize"),
  hdparm: (o) => o.some((x) => /^--(?:security-erase|trim-sector-ranges|write-sector|make-bad-sector)/.test(x)),
  badblocks: (o) => o.some((x) => /^-[a-z]*w/.test(x))
})
/** Programs that write their last operand (cp, mv, install) or every operand (tee, shred). */
const LAST_WRITTEN = new Set(["cp", "mv", "install", "rsync"])
const ALL_WRITTEN = new Set(["tee", "shred"])

/** A raw disk formatted, partitioned, wiped or overwritten by a program other than dd (its own rule above). */
const writesDisks = (name: string): boolean => DISK_TOOLS[name] !== undefined || LAST_WRITTEN.has(name) || ALL_WRITTEN.has(name)

const writesDisk = (c: CmdView): boolean => {
  const tool = DISK_TOOLS[c.name]
  // Any other program writes no disk here: decided before its words are copied.
  if (!writesDisks(c.name)) return false
  const args = c.texts.slice(c.head + 1).map(unquote)
  const operands = args.filter((t) => !isDash(t))
  if (!operands.some((t) => isBlockDevice(t))) return false
  if (tool !== undefined) return tool(args.filter(isDash), operands.filter((t) => !isBlockDevice(t)))
  if (LAST_WRITTEN.has(c.name)) return isBlockDevice(operands[operands.length - 1] ?? "")
  return ALL_WRITTEN.has(c.name)
}

const HARDLINE_RULES: ReadonlyArray<Rule> = [
  { kind: "program", description: H.rootDelete, only: isDeleter, test: (v, c, env) => deletesProtected(v, c, env, "root") },
  { kind: "program", description: H.systemDelete, only: isDeleter, test: (v, c, env) => deletesProtected(v, c, env, "system") },
  { kind: "program", description: H.homeDelete, only: isDeleter, test: (v, c, env) => deletesProtected(v, c, env, "home") },
  { kind: "program", description: H.mkfs, only: isMkfs, test: (_v, c) => isMkfs(c.name) },
  {
    kind: "program",
    description: H.ddDevice,
    only: (n) => n === "dd",
    test: (_v, c) => c.name === "dd" && c.texts.some((t, j) => j > c.head && ddOutputDevice(t))
  },
  {
    kind: "redirect",
    description: H.redirectDevice,
    test: (_v, c, r) => (c.cmd.redirs[r]?.op.endsWith(">") ?? false) && isBlockDevice(unquote(c.redirectTexts[r] ?? ""))
  },
  { kind: "view", description: H.forkBomb, test: (v) => hasForkBomb(v, true) },
  { kind: "program", description: H.killAll, only: (n) => KILLERS.has(n), test: (_v, c) => killsAll(c) || killsEveryName(c) },
  { kind: "program", description: H.shutdown, only: (n) => n === "kill", test: (_v, c) => signalsInit(c) },
  { kind: "program", description: H.shutdown, only: isPowerProgram, test: (_v, c) => isPowerProgram(c.name) },
  { kind: "program", description: H.init, only: (n) => n === "init", test: (_v, c) => c.name === "init" && /^[06](?![\w])/.test(arg(c, 1)) },
  {
    kind: "program",
    description: H.systemctlPower,
    only: (n) => n === "systemctl" || n === "loginctl",
    test: (_v, c) =>
      (c.name === "systemctl" || c.name === "loginctl") && powersOff(c)
  },
  { kind: "program", description: H.telinit, only: (n) => n === "telinit", test: (_v, c) => c.name === "telinit" && /^[06](?![\w])/.test(arg(c, 1)) },
  ...destructiveHardline,
  { kind: "program", description: HL.diskWrite, only: writesDisks, test: (_v, c) => writesDisk(c) }
]

export const hardlineSet = ruleSet(HARDLINE_RULES, true)

/** Program names the hardline rules look at (a command word computed at run time may turn out to be any of them). */
export const HARDLINE_PROGRAMS: ReadonlyArray<string> = [
  "rm", "mkfs", "dd", "kill", "shutdown", "reboot", "halt", "poweroff", "init", "systemctl", "telinit", "chmod", "chown",
  "chgrp", "killall5", "wipefs", "blkdiscard", "sgdisk", "parted", "sfdisk", "cryptsetup", "mkswap", "tee", "cp", "shred"
]
