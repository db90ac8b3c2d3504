/**
 * Which word of a simple command is the program that runs: peel assignments
 * and the wrappers Hermes peels (sudo, env, exec, nohup, setsid, time,
 * command, builtin) with their options; and the commands that xargs and
 * find -exec run on the user's behalf.
 */
import { basename } from "../shell/words.js"
import { gitBisectRun } from "./inputCommands.js"
import { consoleOf } from "./consoleCommands.js"
import { lookupTable } from "../../../lib/lookupTable.js"

const WRAPPERS = new Set([
  "sudo", "env", "exec", "nohup", "setsid", "time", "command", "builtin", "timeout", "nice", "stdbuf", "ionice", "doas",
  "unbuffer",
  // Beyond Hermes: programs whose operands are a command they run (scheduling, locking, namespaces, tracing, sessions).
  "taskset", "chrt", "flock", "unshare", "nsenter", "setpriv", "chroot", "prlimit", "numactl", "firejail", "fakeroot",
  "eatmydata", "nocache", "catchsegv", "xvfb-run", "faketime", "proxychains", "proxychains4", "torsocks", "strace",
  "ltrace", "valgrind", "setarch", "linux32", "linux64", "coproc", "pkexec", "systemd-run", "ssh-agent",
  "dbus-run-session", "dbus-launch", "tini", "dumb-init", "envdir",
  // Multi-call binaries: the applet named next is the program (`busybox reboot`, `toybox rm -rf /`).
  "busybox", "toybox"
])
/** Wrappers that take positional words before the command (`timeout 5 cmd`, `taskset -c 0 cmd`, `flock /tmp/l cmd`). */
const POSITIONAL: Readonly<Record<string, number>> = lookupTable({ timeout: 1, taskset: 1, chrt: 1, flock: 1, chroot: 1, faketime: 1, setarch: 1, envdir: 1 })
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/

const OPTIONS_WITH_VALUE: Readonly<Record<string, ReadonlySet<string>>> = lookupTable({
  sudo: new Set([
    "-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-c", "--close-from",
    "-C", "-D", "--chdir", "-r", "--role", "-t", "--type", "-U", "--other-user", "-T", "--command-timeout"
  ]),
  env: new Set(["-u", "--unset", "-C", "--chdir", "-a", "--argv0"]),
  exec: new Set(["-a"]),
  time: new Set(["-f", "--format", "-o", "--output"]),
  timeout: new Set(["-s", "--signal", "-k", "--kill-after"]),
  nice: new Set(["-n", "--adjustment"]),
  stdbuf: new Set(["-i", "-o", "-e", "--input", "--output", "--error"]),
  ionice: new Set(["-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"]),
  doas: new Set(["-u", "-C"]),
  chrt: new Set(["-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"]),
  flock: new Set(["-w", "--timeout", "-E", "--conflict-exit-code", "-c", "--command"]),
  unshare: new Set([
    "-S", "--setuid", "-G", "--setgroups", "-R", "--root", "-w", "--wd", "--map-user", "--map-group", "--map-users",
    "--map-groups", "--propagation"
  ]),
  nsenter: new Set(["-t", "--target", "-S", "--setuid", "-G", "--setgroups"]),
  setpriv: new Set([
    "--reuid", "--regid", "--ruid", "--euid", "--rgid", "--egid", "--groups", "--inh-caps", "--ambient-caps",
    "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access",
    "--landlock-rule"
  ]),
  chroot: new Set(["--userspec", "--groups"]),
  prlimit: new Set(["-p", "--pid", "-o", "--output"]),
  numactl: new Set(["-N", "-m", "-C", "-i", "-p", "--cpunodebind", "--membind", "--physcpubind", "--interleave", "--preferred"]),
  fakeroot: new Set(["-l", "--lib", "--faked", "-s", "-i", "-b"]),
  "xvfb-run": new Set(["-n", "--server-num", "-f", "--auth-file", "-e", "--error-file", "-p", "--xauth-protocol", "-s", "--server-args", "-w", "--wait"]),
  proxychains: new Set(["-f"]),
  proxychains4: new Set(["-f"]),
  torsocks: new Set(["-u", "--user", "-p", "--pass", "-a", "--address", "-P", "--port"]),
  strace: new Set(["-o", "-e", "-p", "-s", "-u", "-E", "-O", "-S", "-X", "-P", "-a", "-b", "-I", "-U"]),
  ltrace: new Set(["-o", "-e", "-p", "-s", "-u", "-a", "-A", "-D", "-F", "-l", "-n", "-x"]),
  "systemd-run": new Set(["-p", "--property", "-u", "--unit", "-E", "--setenv", "--description", "--slice", "-M", "--machine", "-H", "--host", "--uid", "--gid", "--nice", "--working-directory"]),
  pkexec: new Set(["--user", "-u"]),
  "ssh-agent": new Set(["-a", "-E", "-P", "-t"]),
  tini: new Set(["-p", "-e"])
})

export interface Head {
  /** Index of the program word, or -1 (no command, or a query such as `command -v`). */
  readonly index: number
  /** Words that are wrappers (they are command words for deobfuscation). */
  readonly wrappers: ReadonlyArray<number>
  /** `env -S 'prog args'`: the string env splits and runs. */
  readonly envSplit: string | null
}

const NONE: Head = { index: -1, wrappers: [], envSplit: null }

/**
 * `nameAt(i)` spells word i (deobfuscated; asked lazily, only up to the
 * program word). The first word that is not a wrapper, one of its options or
 * an assignment is the program.
 */
export const resolveHead = (count: number, nameAt: (i: number) => string): Head => {
  const wrappers: number[] = []
  let wrapper: string | null = null
  let options = false
  let positional = 0
  for (let i = 0; i < count; i++) {
    const w = nameAt(i)
    if (wrapper !== null && positional > 0 && !(options && w.length > 1 && w.startsWith("-"))) {
      positional--
      options = false
      continue
    }
    if (wrapper !== null && options && w === "--") {
      options = false
      continue
    }
    if (wrapper !== null && options && w.length > 1 && w.startsWith("-")) {
      const eq = w.indexOf("=")
      const opt = eq < 0 ? w : w.slice(0, eq)
      if (wrapper === "command" && !opt.startsWith("--") && /[vV]/.test(opt)) return NONE // a lookup, runs nothing
      if (wrapper === "env" && (opt === "--split-string" || opt.startsWith("-S"))) {
        const inline = eq >= 0 ? w.slice(eq + 1) : opt.length > 2 ? opt.slice(2) : null
        const words: string[] = []
        for (let k = inline !== null ? i + 1 : i + 2; k < count; k++) words.push(nameAt(k))
        return { index: -1, wrappers, envSplit: [inline ?? (i + 1 < count ? nameAt(i + 1) : ""), ...words].join(" ") }
      }
      if (eq < 0 && OPTIONS_WITH_VALUE[wrapper]?.has(opt)) i++
      continue
    }
    if (ASSIGNMENT.test(w)) continue
    // env puts any `NAME=value` word before the program into its environment, names bash would refuse too (`BASH_FUNC_ls%%=…`).
    if (wrapper === "env" && w.includes("=") && !w.startsWith("=")) continue
    const name = basename(w).toLowerCase()
    if (WRAPPERS.has(name)) {
      wrappers.push(i)
      wrapper = name
      options = true
      positional = POSITIONAL[name] ?? 0
      continue
    }
    return { index: i, wrappers, envSplit: null }
  }
  return { ...NONE, wrappers }
}

const EXEC_VALUED = new Set(["--package", "-p", "--workspace", "-w", "--filter", "-F", "--dir", "-C"])

/** `npm exec … cmd`, `pnpm exec cmd`, `yarn exec cmd`: the command starts after exec's options (or `--`). */
const execSubcommand = (name: string, values: ReadonlyArray<string>, head: number): number => {
  if (!((name === "npm" || name === "pnpm" || name === "yarn") && values[head + 1] === "exec")) return -1
  for (let i = head + 2; i < values.length; i++) {
    const v = values[i] ?? ""
    if (v === "--") return i + 1 < values.length ? i + 1 : -1
    if (v === "-c" || v === "--call" || v === "--shell-mode") return -1 // a shell string: judged as a payload
    if (!v.startsWith("-")) return i
    if (EXEC_VALUED.has(v)) i++
  }
  return -1
}

const XARGS_WITH_VALUE = new Set(["-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--max-lines", "--max-chars", "--eof"])
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"])
const FD_EXEC = new Set(["-x", "--exec", "-X", "--exec-batch"])

/**
 * The strings xargs / find / fd put in place of their input in the command they run: `{}` for find, the `-I R` /
 * `-i[R]` / `--replace[=R]` string for xargs (none without one: the input is appended as arguments).
 */
export const replacementStrings = (name: string, values: ReadonlyArray<string>, head: number): ReadonlyArray<string> => {
  if (name === "find") return ["{}"]
  if (name === "fd" || name === "fdfind") return ["{}", "{/}", "{//}", "{.}", "{/.}"]
  if (name !== "xargs") return []
  const out: string[] = []
  for (let i = head + 1; i < values.length; i++) {
    const v = values[i] ?? ""
    if (v === "--" || !v.startsWith("-") || v === "-") break
    if (v === "-I") out.push(values[i + 1] ?? "{}")
    else if (v.startsWith("-I")) out.push(v.slice(2))
    else if (v === "-i" || v === "--replace") out.push("{}")
    else if (v.startsWith("-i")) out.push(v.slice(2))
    else if (v.startsWith("--replace=")) out.push(v.slice("--replace=".length))
    if (XARGS_WITH_VALUE.has(v)) i++
  }
  return out.filter((r) => r !== "")
}

/** Options of gdb that take the next word (when not given as `--opt=value`). */
const GDB_VALUED = /^--?(?:x|command|ix|init-command|eix|early-init-command|ex|eval-command|iex|init-eval-command|eiex|early-init-eval-command|p|pid|c|core|s|symbols|e|exec|se|d|directory|cd|D|data-directory|b|l|tty|i|interpreter)$/

/**
 * The program gdb debugs, as a command it would run: `gdb --args prog a b` (the rest of the line), `gdb prog [core]`
 * (the program alone); null when it names none. It runs on `run`/`start`, from its commands or typed later.
 */
const gdbProgram = (args: ReadonlyArray<string>): readonly [number, number] | null => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--args") return i + 1 < args.length ? [i + 1, args.length] : null
    if (a.startsWith("-")) {
      if (GDB_VALUED.test(a)) i++
      continue
    }
    return [i, i + 1]
  }
  return null
}

/** Word ranges [from, to) of the commands xargs / find -exec / fd -x run, relative to the command's words. */
export const delegatedCommands = (name: string, values: ReadonlyArray<string>, head: number): Array<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  if (name === "xargs") {
    let i = head + 1
    while (i < values.length) {
      const v = values[i] ?? ""
      if (v === "--") {
        i++
        break
      }
      if (!v.startsWith("-") || v === "-") break
      i += XARGS_WITH_VALUE.has(v) ? 2 : 1
    }
    if (i < values.length) out.push([i, values.length])
  } else if (execSubcommand(name, values, head) >= 0) {
    out.push([execSubcommand(name, values, head), values.length])
  } else if (name === "git") {
    const run = gitBisectRun(values.slice(head + 1))
    if (run !== null) out.push([head + 1 + run[0], head + 1 + run[1]])
  } else if (name === "fd" || name === "fdfind") {
    // `fd … -x cmd args… [;]`: the rest of the line (or up to `;`) is the command run for each match.
    for (let i = head + 1; i < values.length; i++) {
      if (!FD_EXEC.has(values[i] ?? "")) continue
      let j = i + 1
      while (j < values.length && values[j] !== ";") j++
      if (j > i + 1) out.push([i + 1, j])
      i = j
    }
  } else if (consoleOf(name) === "gdb") {
    const program = gdbProgram(values.slice(head + 1))
    if (program !== null) out.push([head + 1 + program[0], head + 1 + program[1]])
  } else if (name === "find") {
    for (let i = head + 1; i < values.length; i++) {
      if (!FIND_EXEC.has(values[i] ?? "")) continue
      let j = i + 1
      while (j < values.length && values[j] !== ";" && values[j] !== "+") j++
      if (j > i + 1) out.push([i + 1, j])
      i = j
    }
  }
  return out
}
