/**
 * Destructive commands Hermes' table lets through: deleting or shredding
 * files, emptying them, moving whole directories away, permission changes
 * over the system, kernel knobs, replacing the crontab.
 */
import { D, HL } from "../descriptions.js"
import { isHomeDir, isRootDir, isSystemDir, pathParts } from "../pathClasses.js"
import type { CmdView } from "../ruleInput.js"
import type { Rule, RuleEnv } from "./engine.js"
import { argumentWrites, argv, hasFlag, isLong, isOption, operands, optionValues, redirectWrite, runsAs } from "./operands.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

const TRUNCATE_VALUED = new Set(["-s", "--size", "-r", "--reference"])
const MV_VALUED = new Set(["-t", "--target-directory", "-S", "--suffix"])
const OWNER_VALUED = new Set(["--reference", "--from"])
const PERMISSION_PROGRAMS = ["chmod", "chown", "chgrp", "chattr", "setfacl"]

/** A source that is a directory by its spelling alone. */
const directoryLike = (p: string, env: RuleEnv): boolean => {
  if (p === "." || p === ".." || p === "./" || p === "../" || p.endsWith("/")) return true
  if (isRootDir(p) || isSystemDir(p) || isHomeDir(p, env)) return true
  const parts = p.startsWith("/") ? pathParts(p) : p.split("/").filter((x) => x !== "" && x !== ".")
  const last = parts[parts.length - 1] ?? ""
  return last === ".." || last === ".git"
}

const mvSources = (args: ReadonlyArray<string>): string[] => {
  const ops = operands(args, MV_VALUED)
  return optionValues(args, "-t", "--target-directory").length > 0 ? ops : ops.slice(0, -1)
}

/**
 * `rsync --delete` (`--del`, `--delete-after`, `--delete-excluded`, …) removes what the source lacks; so does
 * `tar --recursive-unlink` (abbreviated too), which empties each directory the archive holds before extracting it.
 */
const syncDeletes = (c: CmdView, i: number): boolean =>
  (runsAs(c, i, ["rsync"]) && argv(c).some((a) => a.startsWith("--del"))) ||
  (runsAs(c, i, ["tar"]) && argv(c).some((a) => isLong(a, "--recursive-unlink", "--recursiv"))) ||
  (runsAs(c, i, ["rclone"]) && operands(argv(c))[0] === "sync")

const RCLONE_DELETING = new Set(["delete", "deletefile", "purge", "rmdirs", "cleanup"])
const CMAKE_DELETING = new Set(["rm", "remove", "remove_directory"])
const GIO_DELETING = new Set(["remove", "rm", "trash"])
/** Programs whose whole job is deleting, recursively (node's rimraf and del-cli, secure-delete's srm, wipe). */
const DELETERS = new Set(["rimraf", "del-cli", "del", "premove", "srm", "wipe"])
/** Runners that fetch or find a package's program and run it: `npx rimraf d`, `pnpm dlx rimraf d`, `yarn rimraf d`. */
const PACKAGE_RUNNERS = new Set(["npx", "pnpx", "bunx"])
const RUNNER_VERBS: Readonly<Record<string, ReadonlySet<string>>> = lookupTable({
  npm: new Set(["exec", "x"]),
  pnpm: new Set(["dlx", "exec"]),
  yarn: new Set(["dlx", "exec"]),
  bun: new Set(["x"])
})
const RUNNER_VALUED = new Set(["-p", "--package", "-c", "--call", "-w", "--workspace"])

/** The program a package runner runs (without its `@version`), or null. */
const runnerProgram = (name: string, args: ReadonlyArray<string>): string | null => {
  let k = 0
  if (!PACKAGE_RUNNERS.has(name)) {
    const verbs = RUNNER_VERBS[name]
    if (verbs === undefined) return null
    while (k < args.length && isOption(args[k] ?? "")) k++
    // yarn runs a package's program by its bare name too (`yarn rimraf d`).
    if (verbs.has(args[k] ?? "")) k++
    else if (name !== "yarn") return null
  }
  while (k < args.length && (isOption(args[k] ?? "") || args[k] === "--")) k += RUNNER_VALUED.has(args[k] ?? "") ? 2 : 1
  const word = args[k]
  return word === undefined ? null : word.replace(/(?<=.)@.*$/, "").replace(/^.*\//, "")
}

/** A deleting program run directly or through a package runner, with something to delete. */
const deleterRuns = (c: CmdView, i: number): boolean => {
  if (i !== c.head) return false
  const args = argv(c)
  if (DELETERS.has(c.name)) return runsAs(c, i, [c.name]) && operands(args).length > 0
  const program = runnerProgram(c.name, args)
  return program !== null && DELETERS.has(program) && runsAs(c, i, [c.name])
}

/** The deleting command of a program that has one among others (`cmake -E rm`, `gio trash`, `rclone purge`). */
const toolDeletes = (c: CmdView, i: number): boolean => {
  const args = argv(c)
  if (runsAs(c, i, ["cmake"])) {
    const e = args.indexOf("-E")
    return e >= 0 && CMAKE_DELETING.has(args[e + 1] ?? "")
  }
  if (runsAs(c, i, ["gio"])) return GIO_DELETING.has(operands(args)[0] ?? "")
  if (runsAs(c, i, ["rclone"])) return RCLONE_DELETING.has(operands(args)[0] ?? "")
  // `ninja -t clean`: removes every output the build file names, wherever that is.
  if (runsAs(c, i, ["ninja", "samu"])) return args.some((a, k) => (a === "-t" && /^clean/.test(args[k + 1] ?? "")) || /^-tclean/.test(a))
  return runsAs(c, i, ["trash-put", "trash", "gtrash", "trash-rm", "trash-empty"]) || deleterRuns(c, i)
}

/**
 * A device node, or /dev itself (a file moved into it by its name replaces the node of that name, `mv null /dev/`);
 * not the tmpfs folders under /dev.
 */
const deviceNode = (p: string): boolean => {
  if (!p.startsWith("/")) return false
  const parts = pathParts(p)
  return parts[0] === "dev" && parts[1] !== "shm" && parts[1] !== "mqueue"
}
const LN_VALUED = new Set(["-S", "--suffix", "-t", "--target-directory"])
const INSTALL_VALUED = new Set(["-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "-t", "--target-directory", "--strip-program", "-Z", "--context"])

/** Where mv, `ln -f` or install puts its file: `-t dir`, else the last operand. */
const destination = (args: ReadonlyArray<string>, valued: ReadonlySet<string>): string | undefined => {
  const target = optionValues(args, "-t", "--target-directory")
  if (target.length > 0) return target[target.length - 1]
  const ops = operands(args, valued)
  return ops.length > 1 ? ops[ops.length - 1] : undefined
}

const replacesDevice = (c: CmdView, i: number): boolean => {
  const args = argv(c)
  if (runsAs(c, i, ["mv"])) return deviceNode(destination(args, MV_VALUED) ?? "")
  if (runsAs(c, i, ["install"])) return deviceNode(destination(args, INSTALL_VALUED) ?? "")
  return runsAs(c, i, ["ln"]) && hasFlag(args, "f", "--force") && deviceNode(destination(args, LN_VALUED) ?? "")
}

const recursive = (args: ReadonlyArray<string>): boolean => hasFlag(args, "R", "--recursive")

/** Operands of a permission/owner program (its mode or owner word is never a path starting with / or ~). */
const permissionTargets = (c: CmdView): string[] => operands(argv(c), OWNER_VALUED)

/** Kernel state written through a file: /proc/sys*, /proc/sysrq-trigger, /sys/. */
const kernelPath = (p: string): boolean => {
  if (!p.startsWith("/")) return false
  const parts = pathParts(p)
  return (parts[0] === "proc" && (parts[1] ?? "").startsWith("sys")) || (parts[0] === "sys" && parts.length > 1)
}
const sysrq = (p: string): boolean => p.startsWith("/") && pathParts(p).join("/") === "proc/sysrq-trigger"

const sysctlWrites = (c: CmdView, i: number): boolean =>
  runsAs(c, i, ["sysctl"]) &&
  argv(c).some((a) => a === "-w" || a === "--write" || a === "-p" || a.startsWith("--load") || a === "--system" || (!a.startsWith("-") && a.includes("=")))

export const destructiveRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: D.removeAfter,
    on: ["tar", "bsdtar", "rsync", "zip", "7z", "7za"],
    at: "end",
    test: (_v, c, i) => {
      // Long options as getopt takes them, abbreviated too (`--remove-f`).
      if (runsAs(c, i, ["tar", "bsdtar"])) return argv(c).some((a) => isLong(a, "--remove-files", "--rem"))
      if (runsAs(c, i, ["rsync"])) return argv(c).some((a) => a.startsWith("--remove-s"))
      if (runsAs(c, i, ["zip"])) return argv(c).some((a) => isLong(a, "--move", "--mo") || (/^-[A-Za-z]+$/.test(a) && a.includes("m")))
      return runsAs(c, i, ["7z", "7za"]) && argv(c).some((a) => a === "-sdel")
    }
  },
  {
    kind: "word",
    description: D.syncDelete,
    on: ["rsync", "rclone", "tar"],
    at: "end",
    test: (_v, c, i) => syncDeletes(c, i)
  },
  {
    kind: "word",
    description: D.toolDelete,
    // `any`: a word's tokens split at `-`, so trash-put's first token is `trash`.
    on: ["cmake", "gio", "rclone", "ninja", "samu", "trash", "gtrash", "rimraf", "del", "premove", "srm", "wipe", "npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "bun"],
    at: "any",
    test: (_v, c, i) => toolDeletes(c, i)
  },
  {
    // Hermes' `find -exec rm` for fd, whose -x/-X run a command for each match.
    kind: "word",
    description: D.fdExecRm,
    on: ["fd", "fdfind"],
    at: "any",
    test: (_v, c, i) =>
      c.texts.some((t, k) => k > i && /^(?:-x|--exec|-X|--exec-batch)$/.test(t) && /^(?:\/\S*\/)?rm(?![\w])/.test(c.texts[k + 1] ?? ""))
  },
  {
    kind: "word",
    description: D.unlink,
    on: ["unlink"],
    at: "end",
    test: (_v, c, i) => runsAs(c, i, ["unlink"]) && operands(argv(c)).length > 0
  },
  {
    kind: "word",
    description: D.shred,
    on: ["shred"],
    at: "end",
    test: (_v, c, i) => runsAs(c, i, ["shred"]) && argv(c).length > 0
  },
  {
    kind: "word",
    description: D.truncate,
    on: ["truncate"],
    at: "end",
    test: (_v, c, i) => {
      if (!runsAs(c, i, ["truncate"])) return false
      const args = argv(c)
      const sizes = optionValues(args, "-s", "--size")
      // Only growing a file (`-s +1M`, `-s >1M`) leaves its contents in place.
      const grows = sizes.length > 0 && sizes.every((s) => s.startsWith("+") || s.startsWith(">"))
      return !grows && operands(args, TRUNCATE_VALUED).length > 0
    }
  },
  {
    kind: "word",
    description: D.replaceDevice,
    on: ["mv", "ln", "install"],
    at: "end",
    test: (_v, c, i) => replacesDevice(c, i)
  },
  {
    kind: "word",
    description: D.moveDir,
    on: ["mv"],
    at: "end",
    test: (_v, c, i, env) => runsAs(c, i, ["mv"]) && mvSources(argv(c)).some((p) => directoryLike(p, env))
  },
  {
    kind: "word",
    description: D.permsTree,
    on: PERMISSION_PROGRAMS,
    at: "end",
    test: (_v, c, i, env) => {
      if (!runsAs(c, i, PERMISSION_PROGRAMS)) return false
      const targets = permissionTargets(c)
      if (targets.some(isRootDir)) return true
      return recursive(argv(c)) && targets.some((p) => isSystemDir(p) || isHomeDir(p, env))
    }
  },
  {
    kind: "word",
    description: D.kernelWrite,
    on: ["proc", "sys", "sysctl"],
    at: "any",
    test: (_v, c, i) => sysctlWrites(c, i) || argumentWrites(c).some(kernelPath)
  },
  {
    kind: "redirect",
    description: D.kernelWrite,
    test: (_v, c, r) => kernelPath(redirectWrite(c, r) ?? "")
  },
  {
    kind: "word",
    description: D.crontab,
    on: ["crontab"],
    at: "end",
    test: (_v, c, i) => {
      if (!runsAs(c, i, ["crontab"])) return false
      const args = argv(c)
      if (args.some((a) => /^-[A-Za-z]*[re]/.test(a))) return true
      // `crontab file`, `crontab -` and a bare `crontab` (stdin) all install a new table.
      const listing = args.some((a) => /^-[A-Za-z]*[lTVh]/.test(a))
      return !listing || operands(args, new Set(["-u", "-T"])).length > 0
    }
  }
]

export const destructiveHardline: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: HL.permsRoot,
    on: PERMISSION_PROGRAMS,
    at: "end",
    test: (_v, c, i) => runsAs(c, i, PERMISSION_PROGRAMS) && recursive(argv(c)) && permissionTargets(c).some(isRootDir)
  },
  {
    kind: "redirect",
    description: HL.sysrq,
    test: (_v, c, r) => sysrq(redirectWrite(c, r) ?? "")
  },
  {
    kind: "word",
    description: HL.sysrq,
    on: ["sysrq"],
    at: "any",
    test: (_v, c) => argumentWrites(c).some(sysrq)
  }
]
