/**
 * Which word of a simple command is the program that runs: peel assignments
 * and the wrappers Hermes peels (sudo, env, exec, nohup, setsid, time,
 * command, builtin) with their options; and the commands that xargs and
 * find -exec run on the user's behalf.
 */
import { basename } from "../shell/words.js"

const WRAPPERS = new Set([
  "sudo", "env", "exec", "nohup", "setsid", "time", "command", "builtin", "timeout", "nice", "stdbuf", "ionice", "doas",
  "unbuffer"
])
/** Wrappers that take positional words before the command (`timeout 5 cmd`). */
const POSITIONAL: Readonly<Record<string, number>> = { timeout: 1 }
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

const OPTIONS_WITH_VALUE: Readonly<Record<string, ReadonlySet<string>>> = {
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
  doas: new Set(["-u", "-C"])
}

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

const XARGS_WITH_VALUE = new Set(["-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--max-lines", "--max-chars", "--eof"])
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"])

/** Word ranges [from, to) of the commands xargs / find -exec run, relative to the command's words. */
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
