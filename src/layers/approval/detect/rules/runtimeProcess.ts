/**
 * Commands aimed at a running process rather than at files: the agent's own process above all. A debugger or tracer
 * attached to a running process controls what it executes and reads its memory (`gdb -p <pid> -ex 'call …'` runs
 * code inside the runtime, where no approval looks). A signal aimed at the runtime ends the run: by its pid (one an
 * earlier call printed), `$PPID` (on this machine the runtime starts each command's shell), or a `pkill`/`killall`
 * pattern its name or command line matches. Through `/proc`, a write into another process's descriptors or memory
 * (its standard input is where an ACP adapter reads its editor's answers) and a read of its environment (where the
 * runtime keeps its API keys), memory or open files. The text is judged here; links an earlier call made are
 * followed by the judge (`policy/judge.ts` `linkedWrites`).
 */
import { D } from "../descriptions.js"
import type { CmdView, View } from "../ruleInput.js"
import type { Rule, RuleEnv } from "./engine.js"
import { asCommandSees, intoOtherProcess, pathParts, SELF_PID } from "../pathClasses.js"
import { argv, operands, writes } from "./operands.js"

/**
 * Debuggers and tracers, and how each is told to take over a process that is already running: `pid` options attach
 * whatever their value (a pid, or a name for lldb's `-n`), `core` options attach when their value is a number (else
 * it is a core file), `cluster` is the letter that ends a bundle of short options (`strace -fp 42`), and `operand`
 * programs attach to any operand.
 */
interface Attacher {
  readonly pid?: ReadonlyArray<string>
  readonly core?: ReadonlyArray<string>
  readonly cluster?: string
  readonly operand?: boolean
}
const GDB: Attacher = { pid: ["-p", "--pid", "-pid"], core: ["-c", "--core", "-core"] }
const ATTACHERS: Readonly<Record<string, Attacher>> = {
  gdb: GDB,
  "gdb-multiarch": GDB,
  gdbserver: { pid: ["--attach"] },
  strace: { pid: ["--attach"], cluster: "p" },
  ltrace: { cluster: "p" },
  lldb: { pid: ["-p", "--attach-pid", "-attach-pid", "-n", "--attach-name", "-attach-name"] },
  gcore: { operand: true },
  reptyr: { operand: true },
  pyrasite: { operand: true },
  criu: { operand: true }
}

/** gdb's `attach` typed as a command (`-ex 'attach 42'`, `--eval-command=at 42`): its abbreviations too. */
const GDB_ATTACH = /^\s*at(?:t(?:a(?:c(?:h)?)?)?)?(?:\s|$)/
const GDB_COMMAND_OPTIONS = new Set(["-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex", "-init-eval-command", "--init-eval-command"])

const valueOf = (args: ReadonlyArray<string>, k: number, option: string): string | undefined => {
  const a = args[k] ?? ""
  if (a === option) return args[k + 1]
  if (a.startsWith(`${option}=`)) return a.slice(option.length + 1)
  return undefined
}

/** `name` run with `args` takes over a running process. */
const attaches = (name: string, args: ReadonlyArray<string>): boolean => {
  const spec = ATTACHERS[name]
  if (spec === undefined) return false
  if (spec.operand === true) return args.some((a) => a !== "" && !a.startsWith("-"))
  const gdb = spec === GDB
  const cluster = spec.cluster === undefined ? null : new RegExp(`^-[A-Za-z]*${spec.cluster}\\d*$`)
  let operands = 0
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a === "--args" || a === "--") return false
    if ((spec.pid ?? []).some((o) => valueOf(args, k, o) !== undefined || (/^-[a-z]$/.test(o) && a.startsWith(o) && /^\d/.test(a.slice(2))))) return true
    if ((spec.core ?? []).some((o) => /^\d+$/.test(valueOf(args, k, o) ?? ""))) return true
    if (cluster?.test(a) === true) return true
    if (gdb && GDB_COMMAND_OPTIONS.has(a.split("=")[0] ?? "")) {
      const command = a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[++k] ?? ""
      if (GDB_ATTACH.test(command)) return true
      continue
    }
    if (a.startsWith("-")) continue
    // `gdb program 1234`: a second operand that is a number is a process to attach to.
    if (gdb && ++operands === 2 && /^\d+$/.test(a)) return true
  }
  return false
}

/**
 * A command whose program, or a wrapper before it, attaches: strace and ltrace are read as wrappers of the program
 * they start (`strace ./x`), so the words are scanned from the start, up to the program the line runs.
 */
const attachesIn = (c: CmdView): boolean => {
  const words = c.cmd.words.map((w) => w.value)
  const last = c.head >= 0 ? c.head : words.length - 1
  for (let j = 0; j <= last; j++) {
    const name = (words[j] ?? "").slice((words[j] ?? "").lastIndexOf("/") + 1)
    if (Object.hasOwn(ATTACHERS, name) && attaches(name, words.slice(j + 1))) return true
  }
  return false
}

const KILL_VALUED: ReadonlySet<string> = new Set(["-s", "-n", "--signal"])

/** The words `kill` sends its signal to: its operands, and any `-<n>` but a first one (the signal): a process group. */
const killTargets = (args: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...operands(args, KILL_VALUED),
  ...args.filter((a, k) => k > 0 && /^-\d+$/.test(a))
]

/** `$PPID`: the process that started the command's shell, which on this machine is the runtime. */
const PARENT = /^(?:\$PPID|\$\{PPID\})$/

const namesRuntime = (target: string, runtime: RuleEnv["runtimeProcess"]): boolean => {
  if (PARENT.test(target)) return true
  const pid = /^-?(\d+)$/.exec(target)
  return pid !== null && runtime !== undefined && runtime.pids.includes(Number(pid[1]))
}

/** pkill's pattern (an extended regex) against what it matches: the process name, or with `-f` the command line. */
const pkillMatches = (args: ReadonlyArray<string>, runtime: NonNullable<RuleEnv["runtimeProcess"]>): boolean => {
  let full = false
  let exact = false
  let ignoreCase = false
  let pattern: string | undefined
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (pattern === undefined && a.startsWith("-") && a !== "-" && a !== "--") {
      if (a === "--full") full = true
      else if (a === "--exact") exact = true
      else if (a === "--ignore-case") ignoreCase = true
      else if (/^-[A-Za-z]+$/.test(a)) {
        // Options that take a value (a signal, a user, a group, a parent…) take the next word.
        if (/[sgGPtuUFe]$/.test(a) && !/^-[fxic]+$/.test(a)) k++
        full ||= a.includes("f")
        exact ||= a.includes("x")
        ignoreCase ||= a.includes("i")
      }
      continue
    }
    if (a === "--") continue
    pattern ??= a
  }
  if (pattern === undefined) return false
  let regex: RegExp
  try {
    regex = new RegExp(exact ? `^(?:${pattern})$` : pattern, ignoreCase ? "i" : "")
  } catch {
    // A pattern JavaScript cannot read: it may match anything.
    return true
  }
  return full ? regex.test(runtime.commandLine) : runtime.names.some((n) => regex.test(n))
}

/** killall's names (or `-r` patterns) against the runtime's process names. */
const killallMatches = (args: ReadonlyArray<string>, runtime: NonNullable<RuleEnv["runtimeProcess"]>): boolean => {
  let regexes = false
  let ignoreCase = false
  const names: Array<string> = []
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a.startsWith("-") && names.length === 0) {
      if (a === "--regexp" || /^-[A-Za-z]*r/.test(a)) regexes = true
      if (a === "--ignore-case" || /^-[A-Za-z]*I/.test(a)) ignoreCase = true
      if (a === "-s" || a === "--signal" || a === "-u" || a === "--user" || a === "-o" || a === "-y" || a === "-n" || a === "-Z") k++
      continue
    }
    names.push(a)
  }
  return names.some((name) => {
    if (!regexes) return runtime.names.some((n) => (ignoreCase ? n.toLowerCase() === name.toLowerCase() : n === name))
    try {
      const regex = new RegExp(name, ignoreCase ? "i" : "")
      return runtime.names.some((n) => regex.test(n))
    } catch {
      return true
    }
  })
}

const signalsRuntime = (_v: View, c: CmdView, env: RuleEnv): boolean => {
  const args = argv(c)
  if (c.name === "kill") return killTargets(args).some((t) => namesRuntime(t, env.runtimeProcess))
  const runtime = env.runtimeProcess
  if (runtime === undefined) return false
  return c.name === "pkill" ? pkillMatches(args, runtime) : killallMatches(args, runtime)
}

const KILLERS = new Set(["kill", "pkill", "killall"])

/** A link whose target is another process's descriptor or memory: writing the link later writes into that process. */
const OTHER_PROCESS_SEGMENT = /(?:^|\/)proc\/+([^/]+)(?:\/+task\/+[^/]+)?\/+(fd|mem)(?:\/|$)/
const LINKERS = new Set(["ln", "link"])

/** Where the next command stands after `c`: a literal `cd`/`pushd` moves it; one only known when it runs, or home, loses it. */
const afterCd = (c: CmdView, cwd: string | null): string | null => {
  if (c.head < 0 || (c.name !== "cd" && c.name !== "pushd")) return cwd
  const target = argv(c).find((a) => !a.startsWith("-"))
  if (target === undefined || target.includes("$") || target.includes("`") || target.startsWith("~")) return null
  if (target.startsWith("/")) return `/${pathParts(target).join("/")}`
  return cwd === null ? null : `/${pathParts(`${cwd}/${target}`).join("/")}`
}

/** `text` as a path from where the command stands (null: relative, and where it stands is not known). */
const placed = (text: string, cwd: string | null): string | null => {
  const seen = asCommandSees(text)
  if (seen.startsWith("/")) return seen
  return cwd === null || seen.startsWith("-") ? null : `/${pathParts(`${cwd}/${seen}`).join("/")}`
}

/**
 * A write (a redirect, or a program's output) that lands in another process's descriptors or memory: as written, or
 * relative to where the command stands, following the line's own literal `cd`s from the directory it starts in
 * (`cd /proc/<pid>/fd && echo x > 0`). Links an earlier call made are the judge's to follow.
 */
const writesIntoProcess = (v: View, env: RuleEnv): boolean => {
  let cwd: string | null = env.cwd ?? null
  for (const c of v.cmds) {
    for (const w of writes(c)) {
      const path = placed(w, cwd)
      if (path !== null && intoOtherProcess(path)) return true
    }
    cwd = afterCd(c, cwd)
  }
  return false
}

/**
 * What another process keeps to itself, named by path: its environment (where the runtime holds the API keys it never
 * hands to commands), its memory, the files it has open (`/proc/<pid>/fd/<n>`: its config, its state database). The
 * folder of descriptors itself only lists numbers and names.
 */
const PRIVATE_TO_PROCESS = /^\/+proc\/+([^/]+)(?:\/+task\/+[^/]+)?\/+(?:environ|mem|fd\/+[^/]+)/

const readsProcessPrivate = (v: View, env: RuleEnv): boolean => {
  let cwd: string | null = env.cwd ?? null
  /** `relative`: the word may be a path relative to where the command stands (an operand, a redirect). */
  const private_ = (text: string, relative: boolean): boolean => {
    const path = placed(text, relative ? cwd : null)
    const m = path === null ? null : PRIVATE_TO_PROCESS.exec(path)
    return m !== null && !SELF_PID.test(m[1] ?? "")
  }
  for (const c of v.cmds) {
    const operands = c.head >= 0 && c.name !== "echo" && c.name !== "printf"
    if (c.cmd.words.some((w, k) => private_(w.value, operands && k > c.head))) return true
    if (c.cmd.redirs.some((r) => r.target !== null && private_(r.target.value, true))) return true
    // `ps e` / `ps eww`: BSD-style options (no dash) with `e` print every process's environment.
    if (c.name === "ps" && argv(c).some((a) => /^[A-Za-z]*e[A-Za-z]*$/.test(a) && !a.startsWith("-"))) return true
    cwd = afterCd(c, cwd)
  }
  return false
}

const linksIntoProcess = (_v: View, c: CmdView): boolean => {
  const args = argv(c)
  if (c.name === "cp" && !args.some((a) => a === "--symbolic-link" || /^-[A-Za-z]*s/.test(a))) return false
  return args.some((a) => {
    const m = OTHER_PROCESS_SEGMENT.exec(a)
    return m !== null && (m[2] === "mem" || !SELF_PID.test(m[1] ?? ""))
  })
}

export const runtimeProcessRules: ReadonlyArray<Rule> = [
  { kind: "view", description: D.attachProcess, test: (v) => v.cmds.some(attachesIn) },
  { kind: "program", description: D.signalRuntime, only: (name) => KILLERS.has(name), test: signalsRuntime },
  { kind: "program", description: D.otherProcessFiles, only: (name) => LINKERS.has(name) || name === "cp", test: linksIntoProcess },
  { kind: "view", description: D.otherProcessFiles, test: writesIntoProcess },
  { kind: "view", description: D.otherProcessSecrets, test: readsProcessPrivate }
]
