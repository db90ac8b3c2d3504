/**
 * Programs that run commands found in what they read or are given, beyond
 * shells and interpreters: sed's `e` command and `s///e` flag run the pattern
 * space (a planted file's line) as a shell command; awk's `system()`, `cmd |
 * getline` and `print | cmd` run strings built from its input; git runs the
 * command of `rebase -x`, `submodule foreach`, `difftool -x`, `bisect run`
 * and the `filter-branch` filters.
 *
 * What runs text only known when the command runs is dangerous; a literal
 * command (`awk 'BEGIN { system("date") }'`, `git rebase -x 'npm test'`) is
 * handed back to be judged as shell like any other.
 */

import { gitOptions } from "./gitOptions.js"
import { lookupTable } from "../../../lib/lookupTable.js"

export interface InputCommands {
  /** Runs text it reads or computes as commands. */
  readonly runs: boolean
  /** Literal command texts it runs, with the index of the argument holding each (-1: inside a larger one). */
  readonly payloads: ReadonlyArray<{ readonly text: string; readonly arg: number }>
}

const NONE: InputCommands = { runs: false, payloads: [] }

// ---- sed ---------------------------------------------------------------------

/** Skips a delimited part (`/regex/`, the parts of `s`), backslash escapes included; returns the index after it. */
const skipDelimited = (s: string, from: number, delimiter: string): number => {
  let i = from
  while (i < s.length && s[i] !== delimiter) i += s[i] === "\\" ? 2 : 1
  return i + 1
}

/** What a sed script does beyond editing its stream: runs the pattern space, or writes files (`w`, `W`, `s///w`). */
export interface SedEffects {
  readonly runs: boolean
  readonly writes: ReadonlyArray<string>
}

/** The rest of the line from `i`: a file name sed reads up to the newline (leading blanks skipped). */
const lineFrom = (script: string, i: number): { readonly text: string; readonly end: number } => {
  const nl = script.indexOf("\n", i)
  const end = nl < 0 ? script.length : nl
  return { text: script.slice(i, end).replace(/^[ \t]+/, ""), end }
}

/** Walks a sed script once: its `e` command and `s///e` flag (runs), and the files `w`, `W` and `s///w` name. */
export const sedScriptEffects = (script: string): SedEffects => {
  const writes: string[] = []
  let runs = false
  let i = 0
  while (i < script.length) {
    const c = script[i] ?? ""
    if (/[\s;{}!]/.test(c) || /[0-9$,~+]/.test(c)) {
      i++
      continue
    }
    if (c === "/") {
      i = skipDelimited(script, i + 1, "/")
      continue
    }
    if (c === "\\") {
      i = skipDelimited(script, i + 2, script[i + 1] ?? "")
      continue
    }
    if (c === "e") {
      runs = true
      i = lineFrom(script, i + 1).end
      continue
    }
    if (c === "s" || c === "y") {
      const d = script[i + 1] ?? ""
      i = skipDelimited(script, skipDelimited(script, i + 2, d), d)
      if (c === "y") continue
      const flags = /^[a-zA-Z0-9]*/.exec(script.slice(i))?.[0] ?? ""
      if (flags.includes("e")) runs = true
      const w = flags.indexOf("w")
      // `w file` as a flag takes the rest of the line (letters glued after it are the file's name).
      if (w >= 0) {
        const file = lineFrom(script, i + w + 1)
        if (file.text !== "") writes.push(file.text)
        i = file.end
      } else i += flags.length
      continue
    }
    if (c === "w" || c === "W") {
      const file = lineFrom(script, i + 1)
      if (file.text !== "") writes.push(file.text)
      i = file.end
      continue
    }
    if (c === "#" || c === ":" || /[aicrRbtTlqQvF=]/.test(c)) {
      // Text, file names, labels and comments run to the end of the line (labels also to `;`).
      const nl = script.indexOf("\n", i)
      const semi = /[btT:]/.test(c) ? script.indexOf(";", i) : -1
      const end = [nl, semi].filter((n) => n >= 0)
      i = end.length === 0 ? script.length : Math.min(...end) + 1
      continue
    }
    i++
  }
  return { runs, writes }
}

/** Whether a sed script holds an `e` command or an `s` command with the `e` flag. */
export const sedScriptRuns = (script: string): boolean => sedScriptEffects(script).runs

const SED_VALUED = new Set(["-l", "--line-length", "-s", "--separate"])

/** The sed scripts among the arguments: their texts and indexes; none under `--sandbox` or with `-f`. */
export const sedScripts = (args: ReadonlyArray<string>): ReadonlyArray<{ readonly text: string; readonly arg: number }> => {
  if (args.includes("--sandbox")) return []
  const scripts: Array<{ text: string; arg: number }> = []
  let operand: { text: string; arg: number } | undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-e" || a === "--expression" || /^-[a-zA-Z]*e$/.test(a)) {
      scripts.push({ text: args[i + 1] ?? "", arg: i + 1 })
      i++
    } else if (a.startsWith("--expression=")) scripts.push({ text: a.slice("--expression=".length), arg: i })
    else if (a.startsWith("-e") && a.length > 2) scripts.push({ text: a.slice(2), arg: i })
    else if (a === "-f" || a === "--file" || a.startsWith("--file=") || /^-[a-zA-Z]*f/.test(a)) return []
    else if (SED_VALUED.has(a)) i++
    else if (!a.startsWith("-") && operand === undefined) operand = { text: a, arg: i }
  }
  return scripts.length === 0 && operand !== undefined ? [operand] : scripts
}

const sed = (args: ReadonlyArray<string>): InputCommands =>
  sedScripts(args).some((s) => sedScriptRuns(s.text)) ? { runs: true, payloads: [] } : NONE

// ---- awk ---------------------------------------------------------------------

const STRING = /"(?:[^"\\]|\\.)*"/g

/** An awk string literal's text (JSON's escapes are a subset of awk's: anything else is kept as written). */
const awkString = (literal: string): string => {
  try {
    return JSON.parse(literal) as string
  } catch {
    return literal.slice(1, -1)
  }
}

/** The awk program: `-f` means it is in a file (judged with the files), else the first operand. */
export const awkProgram = (args: ReadonlyArray<string>): { readonly text: string; readonly arg: number } | null => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-f" || a.startsWith("--file") || a.startsWith("-f")) return null
    if (a === "-F" || a === "-v" || a === "--assign" || a === "--field-separator") {
      i++
      continue
    }
    if (a === "--") return args[i + 1] === undefined ? null : { text: args[i + 1] ?? "", arg: i + 1 }
    if (a.startsWith("-")) continue
    return { text: a, arg: i }
  }
  return null
}

const awk = (args: ReadonlyArray<string>): InputCommands => {
  const program = awkProgram(args)
  if (program === null) return NONE
  const text = program.text
  const payloads: Array<{ text: string; arg: number }> = []
  let runs = false
  // system(…): a single string literal is a command to judge; anything else is built when it runs.
  for (const m of text.matchAll(/\bsystem\s*\(/g)) {
    const rest = text.slice((m.index ?? 0) + m[0].length)
    const literal = /^\s*("(?:[^"\\]|\\.)*")\s*\)/.exec(rest)
    if (literal === null) runs = true
    else payloads.push({ text: awkString(literal[1] ?? "\"\""), arg: -1 })
  }
  // Pipes to and from commands: `cmd | getline`, `print … | cmd` (`||` is logical or; strings are set aside).
  const bare = text.replace(STRING, (s) => (/^"(?:\/(?:usr\/)?bin\/)?(?:ba|da|z|k|c|tc|fi)?sh"$/.test(s) ? "SHELL" : "\"\"")).replace(/\|\|/g, " ")
  if (/SHELL\s*\|\s*getline|\|\s*SHELL/.test(bare)) runs = true
  for (const m of bare.matchAll(/(\S+)\s*\|\s*getline/g)) if (!(m[1] ?? "").endsWith("\"\"")) runs = true
  if (/\bprintf?\b[^;{}\n]*\|\s*(?!getline)[A-Za-z_$(]/.test(bare)) runs = true
  for (const m of text.matchAll(/("(?:[^"\\]|\\.)*")\s*\|\s*getline|\|\s*("(?:[^"\\]|\\.)*")/g)) {
    const literal = m[1] ?? m[2]
    if (literal !== undefined) payloads.push({ text: awkString(literal), arg: -1 })
  }
  return { runs, payloads: payloads.map((p) => ({ ...p, arg: p.arg < 0 ? program.arg : p.arg })) }
}

// ---- git ---------------------------------------------------------------------

/** Index of git's subcommand among its arguments (after global options). */
const gitSubcommand = (args: ReadonlyArray<string>): number => gitOptions(args).sub

/** Options of git subcommands whose value is a shell command git runs. */
const GIT_COMMAND_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = lookupTable({
  rebase: new Set(["-x", "--exec"]),
  difftool: new Set(["-x", "--extcmd"]),
  mergetool: new Set(["--tool-cmd"]),
  "filter-branch": new Set(["--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"]),
  fetch: new Set(["--upload-pack"]),
  pull: new Set(["--upload-pack"]),
  clone: new Set(["-u", "--upload-pack"]),
  "ls-remote": new Set(["--upload-pack"]),
  push: new Set(["--receive-pack", "--exec"]),
  archive: new Set(["--exec"])
})

const git = (args: ReadonlyArray<string>): InputCommands => {
  const sub = gitSubcommand(args)
  const name = args[sub] ?? ""
  const payloads: Array<{ text: string; arg: number }> = []
  if (name === "submodule") {
    const at = args.indexOf("foreach", sub + 1)
    if (at > 0) {
      let from = at + 1
      while ((args[from] ?? "").startsWith("--")) from++
      if (from < args.length) payloads.push({ text: args.slice(from).join(" "), arg: from })
    }
  }
  const options = GIT_COMMAND_OPTIONS[name]
  if (options !== undefined) {
    for (let i = sub + 1; i < args.length; i++) {
      const a = args[i] ?? ""
      const eq = a.indexOf("=")
      const opt = eq < 0 ? a : a.slice(0, eq)
      if (!options.has(opt)) continue
      if (eq >= 0) payloads.push({ text: a.slice(eq + 1), arg: i })
      else if (i + 1 < args.length) payloads.push({ text: args[i + 1] ?? "", arg: ++i })
    }
  }
  return { runs: false, payloads }
}

/** `git … bisect run cmd…`: the word range [from, to) of the command git runs at each step, relative to args. */
export const gitBisectRun = (args: ReadonlyArray<string>): readonly [number, number] | null => {
  const sub = gitSubcommand(args)
  return args[sub] === "bisect" && args[sub + 1] === "run" && sub + 2 < args.length ? [sub + 2, args.length] : null
}

/**
 * The arguments of `name` that are code (sed scripts, the awk program, git's `-c` settings): when one is only
 * known at run time (`sed "$(cat f)"`), the code is unknown too.
 */
export const codeArguments = (name: string, args: ReadonlyArray<string>): ReadonlyArray<number> => {
  switch (name) {
    case "sed":
    case "gsed":
      return sedScripts(args).map((s) => s.arg)
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return [awkProgram(args)?.arg ?? -1].filter((i) => i >= 0)
    case "git": {
      return gitOptions(args).options.filter((o) => o.name === "-c" && o.valueAt >= 0).map((o) => o.valueAt)
    }
    default:
      return []
  }
}

/** What `name` (basename, lower-cased) runs of what it reads or is given. */
export const inputCommands = (name: string, args: ReadonlyArray<string>): InputCommands => {
  switch (name) {
    case "sed":
    case "gsed":
      return sed(args)
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
    case "busybox-awk":
      return awk(args)
    case "git":
      return git(args)
    default:
      return NONE
  }
}
