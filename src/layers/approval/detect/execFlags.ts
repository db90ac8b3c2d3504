/**
 * Structural findings for programs that execute text handed to them:
 * interpreters with an inline-code flag or a heredoc, shells with -c, and
 * read-only tools with a program-running option. Shell and tool payloads are
 * returned so detection can parse them as commands too.
 */
import {
  INTERPRETER_FLAG_DESCRIPTION,
  INTERPRETER_HEREDOC_DESCRIPTION,
  MALFORMED_DESCRIPTION,
  SHELL_FLAG_DESCRIPTION,
  programOptionDescription
} from "./descriptions.js"
import { lookupTable } from "../../../lib/lookupTable.js"

export interface ExecFinding {
  readonly description: string
  readonly payload: string | null
  /** Index (into the args) of the word carrying the payload, if any. */
  readonly payloadArg: number
}

type Family = "python" | "node" | "perl" | "ruby" | "php" | "powershell"

const FAMILY_NAMES: ReadonlyArray<readonly [Family, RegExp]> = [
  ["python", /^(?:py|python[23]?(?:\.\d+)*)(?:\.exe)?$/],
  ["node", /^node(?:js)?(?:\.exe)?$/],
  ["perl", /^perl\d*(?:\.\d+)*(?:\.exe)?$/],
  ["ruby", /^ruby[\d.]*(?:\.exe)?$/],
  ["php", /^php(?:\.exe)?$/],
  ["powershell", /^(?:powershell|pwsh)(?:\.exe)?$/]
]

const CODE_FLAGS: Readonly<Record<Family, ReadonlySet<string>>> = {
  python: new Set(["-c"]),
  node: new Set(["-e", "--eval", "-p", "--print"]),
  perl: new Set(["-e", "--eval"]),
  ruby: new Set(["-e"]),
  php: new Set(["-r"]),
  powershell: new Set(["-command", "-c", "-file", "-f"])
}

// Options whose value is the next word: that word is data, never a flag.
const VALUE_FLAGS: Readonly<Record<Family, ReadonlySet<string>>> = {
  python: new Set(["-W", "-X", "--check-hash-based-pycs"]),
  node: new Set([
    "-C", "--conditions", "--cpu-prof-dir", "--diagnostic-dir", "--icu-data-dir", "--import", "--loader",
    "--openssl-config", "--require", "--title"
  ]),
  perl: new Set(["-0", "-F", "-I", "-M", "-m", "-x"]),
  ruby: new Set(["-C", "-E", "-F", "-I", "-K", "-r"]),
  php: new Set(["-c", "-d", "-z"]),
  powershell: new Set([
    "-configurationname", "-custompipename", "-executionpolicy", "-inputformat", "-outputformat",
    "-settingsfile", "-version", "-windowstyle", "-workingdirectory"
  ])
}

export const interpreterFamily = (name: string): Family | null => {
  // Every family's names start with p, n or r: most programs are told apart by their first letter.
  const first = name.charCodeAt(0)
  if (first !== 112 && first !== 110 && first !== 114) return null
  for (const [family, re] of FAMILY_NAMES) if (re.test(name)) return family
  return null
}

const hasCodeFlag = (family: Family, args: ReadonlyArray<string>): boolean => {
  const flags = CODE_FLAGS[family]
  const valued = VALUE_FLAGS[family]
  const ps = family === "powershell"
  for (let i = 0; i < args.length; i++) {
    const token = args[i] ?? ""
    if (token === "--" || (!ps && !token.startsWith("-"))) return false
    const eq = token.indexOf("=")
    const opt = eq < 0 ? token : token.slice(0, eq)
    const key = ps ? opt.toLowerCase() : opt
    if (flags.has(key)) return true
    // `python -m timeit STMT`: the statements (and -s setup) are code given inline, as with -c.
    if (family === "python" && key === "-m") return args[i + 1] === "timeit"
    // `-Wonce` / `ruby -rjson` carry an attached value; only a genuine bundle (`-Ic`) can hide the flag.
    const attached = [...valued].some((v) => !v.startsWith("--") && opt.length > v.length && opt.startsWith(v))
    if (!ps && !opt.startsWith("--") && opt.length > 2 && !attached) {
      for (const ch of opt.slice(1)) if (flags.has(`-${ch}`)) return true
    }
    if (eq < 0 && valued.has(key)) i++
  }
  return false
}

const SHELLS = new Set(["bash", "sh", "zsh", "ksh"])
const SHELL_VALUE_FLAGS = new Set(["-O", "+O", "-o", "+o", "--init-file", "--rcfile"])
const SHELL_LETTERS = /^[ilrsDcabefhkmnptuvxBCEHPTOo]+$/

/** Whether a shell gets `-c`, and the string it would run. */
const shellPayload = (args: ReadonlyArray<string>): { found: boolean; payload: number } => {
  for (let i = 0; i < args.length; ) {
    const token = args[i] ?? ""
    if (token === "--" || !(token.startsWith("-") || token.startsWith("+"))) break
    if (SHELL_VALUE_FLAGS.has(token)) {
      i += 2
      continue
    }
    const letters = token.slice(1)
    if (token.startsWith("--") || !SHELL_LETTERS.test(letters)) {
      i++
      continue
    }
    // -o/-O take the next word even inside a bundle, so `-lo posix -lc …` still finds -c.
    const takesValue = letters.includes("o") || letters.includes("O") ? 1 : 0
    if (letters.includes("c")) return { found: true, payload: i + 1 + takesValue }
    i += 1 + takesValue
  }
  return { found: false, payload: -1 }
}

const TOOL_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = lookupTable({
  sort: new Set(["--compress-program"]),
  rg: new Set(["--pre", "--hostname-bin"]),
  ag: new Set(["--pager"]),
  man: new Set(["--pager", "--html", "-P", "-H"]),
  // `split --filter=CMD` runs CMD through $SHELL for every piece.
  split: new Set(["--filter"])
})

const TOOL_LONG_VALUES: Readonly<Record<string, ReadonlySet<string>>> = lookupTable({
  rg: new Set([
    "--after-context", "--before-context", "--color", "--colors", "--context", "--context-separator",
    "--dfa-size-limit", "--encoding", "--engine", "--field-context-separator", "--field-match-separator", "--file",
    "--generate", "--glob", "--hostname-bin", "--hyperlink-format", "--iglob", "--ignore-file", "--max-columns",
    "--max-count", "--max-depth", "--max-filesize", "--path-separator", "--pre", "--pre-glob", "--regex-size-limit",
    "--regexp", "--replace", "--sort", "--sortr", "--threads", "--type", "--type-add", "--type-clear", "--type-not"
  ]),
  sort: new Set([
    "--batch-size", "--buffer-size", "--compress-program", "--field-separator", "--files0-from", "--key", "--output",
    "--parallel", "--random-source", "--sort", "--temporary-directory"
  ]),
  split: new Set(["--additional-suffix", "--bytes", "--filter", "--line-bytes", "--lines", "--number", "--separator", "--suffix-length"]),
  man: new Set([
    "--config-file", "--encoding", "--extension", "--locale", "--manpath", "--pager", "--preprocessor", "--prompt",
    "--recode", "--sections", "--systems"
  ]),
  ag: new Set([
    "--ackmate-dir-filter", "--color-line-number", "--color-match", "--color-path", "--depth", "--filename-pattern",
    "--file-search-regex", "--ignore", "--ignore-dir", "--max-count", "--pager", "--path-to-ignore", "--width",
    "--workers"
  ])
})

const TOOL_SHORT_VALUES: Readonly<Record<string, string>> = lookupTable({
  rg: "efEmjgdtTABCMr",
  sort: "koStT",
  man: "CRLmMSserEPp",
  split: "abClnt",
  ag: "gGmpW"
})

const toolProgram = (tool: string, args: ReadonlyArray<string>): { option: string; payload: string; arg: number } | null => {
  const flags = TOOL_FLAGS[tool]
  const longValues = TOOL_LONG_VALUES[tool]
  const shortValues = TOOL_SHORT_VALUES[tool] ?? ""
  if (flags === undefined || longValues === undefined) return null
  for (let i = 0; i < args.length; ) {
    const token = args[i] ?? ""
    if (token === "--") break
    const eq = token.indexOf("=")
    const opt = eq < 0 ? token : token.slice(0, eq)
    let payload: string | null = eq < 0 ? null : token.slice(eq + 1)
    let matched = flags.has(opt) ? opt : null
    if (tool === "man" && token.length > 2 && (token.startsWith("-P") || token.startsWith("-H"))) {
      matched = token.slice(0, 2)
      payload = token.slice(2)
    }
    if (matched !== null) {
      let arg = i
      if (payload === null && i + 1 < args.length) {
        payload = args[i + 1] ?? ""
        arg = i + 1
      }
      // The option owns its program argument whatever it looks like (`--pager -x` runs `-x`).
      if (payload !== null && payload !== "") return { option: matched, payload, arg }
      i += payload !== null && eq < 0 ? 2 : 1
    } else if (eq < 0 && longValues.has(opt)) {
      i += 2
    } else if (token.length > 1 && token.startsWith("-") && !token.startsWith("--")) {
      // In a short bundle the first value-taking letter owns the rest, or the next word if it is last.
      let owner = -1
      for (let k = 1; k < token.length; k++) {
        if (shortValues.includes(token[k] ?? "")) {
          owner = k
          break
        }
      }
      i += owner === token.length - 1 ? 2 : 1
    } else {
      i++
    }
  }
  return null
}

/** Programs that hand one of their arguments to a shell, and the options that carry it. */
const SHELL_STRING_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = lookupTable({
  flock: new Set(["-c", "--command"]),
  script: new Set(["-c", "--command"]),
  su: new Set(["-c", "--command", "--session-command"]),
  runuser: new Set(["-c", "--command", "--session-command"]),
  npx: new Set(["-c", "--call"]),
  npm: new Set(["-c", "--call"]),
  pnpm: new Set(["-c", "--shell-mode"])
})

/**
 * The shell text such a program runs: `flock f -c 'cmd'`, `script -c 'cmd'`,
 * `su -c 'cmd'`, `npx -c 'cmd'`, `npm exec -c 'cmd'`, `pnpm exec -c cmd args`
 * (its words joined), `sg group -c 'cmd'`, `strace -o '|cmd' prog` (output
 * piped to a command).
 */
export const shellString = (name: string, args: ReadonlyArray<string>): { payload: string; arg: number } | null => {
  if (name === "sg") {
    const from = args[0] === "-" ? 2 : 1
    const at = args[from] === "-c" ? from + 1 : from
    return at < args.length && args.length > 1 ? { payload: args.slice(at).join(" "), arg: at } : null
  }
  if (name === "strace" || name === "ltrace") {
    for (let i = 0; i < args.length; i++) {
      const a = args[i] ?? ""
      const value = a === "-o" ? args[i + 1] : a.startsWith("-o") ? a.slice(2) : undefined
      if (value !== undefined && (value.startsWith("|") || value.startsWith("!"))) return { payload: value.slice(1), arg: a === "-o" ? i + 1 : i }
      if (!a.startsWith("-")) return null
    }
    return null
  }
  const options = SHELL_STRING_OPTIONS[name]
  if (options === undefined) return null
  if ((name === "npm" || name === "pnpm") && args[0] !== "exec") return null
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") return null
    const eq = a.indexOf("=")
    let opt = eq < 0 ? a : a.slice(0, eq)
    // A short bundle (`script -qc cmd`): the letter takes the rest of the word, or the next word when it is last.
    if (!opt.startsWith("--") && opt.length > 2 && opt.startsWith("-")) {
      const at = [...opt.slice(1)].findIndex((ch) => options.has(`-${ch}`))
      if (at < 0) continue
      if (at + 2 < a.length && name !== "pnpm") return { payload: a.slice(at + 2), arg: i }
      opt = `-${opt[at + 1] ?? ""}`
    }
    if (!options.has(opt)) continue
    // pnpm's -c is a switch: the words after it are the shell text.
    if (name === "pnpm") return i + 1 < args.length ? { payload: args.slice(i + 1).join(" "), arg: i + 1 } : null
    if (eq >= 0) return { payload: a.slice(eq + 1), arg: i }
    return i + 1 < args.length ? { payload: args[i + 1] ?? "", arg: i + 1 } : null
  }
  return null
}

/**
 * Findings for program `name` (deobfuscated basename, lower-cased) with
 * argument values `args`. `heredoc`: a `<<`-style redirect follows it;
 * `malformed`: its quoting never closed.
 */
export const execFindings = (
  name: string,
  args: ReadonlyArray<string>,
  heredoc: boolean,
  malformed: boolean
): ReadonlyArray<ExecFinding> => {
  const family = interpreterFamily(name)
  const tool = TOOL_FLAGS[name] !== undefined
  if (malformed) {
    return family !== null || tool ? [{ description: MALFORMED_DESCRIPTION, payload: null, payloadArg: -1 }] : []
  }
  if (family !== null && hasCodeFlag(family, args)) {
    return [{ description: INTERPRETER_FLAG_DESCRIPTION, payload: null, payloadArg: -1 }]
  }
  if (family !== null && heredoc) return [{ description: INTERPRETER_HEREDOC_DESCRIPTION, payload: null, payloadArg: -1 }]
  const out: ExecFinding[] = []
  if (SHELLS.has(name)) {
    const r = shellPayload(args)
    if (r.found) {
      const payload = args[r.payload]
      out.push({ description: SHELL_FLAG_DESCRIPTION, payload: payload ?? null, payloadArg: payload === undefined ? -1 : r.payload })
    }
  }
  const carried = shellString(name, args)
  if (carried !== null) out.push({ description: SHELL_FLAG_DESCRIPTION, payload: carried.payload, payloadArg: carried.arg })
  if (tool) {
    const r = toolProgram(name, args)
    if (r !== null) out.push({ description: programOptionDescription(name, r.option), payload: r.payload, payloadArg: r.arg })
  }
  return out
}
