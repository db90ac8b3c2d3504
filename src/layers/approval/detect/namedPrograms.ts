/**
 * Programs that start another program named in one of their options, with
 * some of their own words as its arguments: `su -s /bin/rm root -- -rf x`
 * runs `rm -rf x`, `runuser -u root -- rm -rf x` runs `rm -rf x`, `su root
 * x.sh` runs the user's shell on x.sh, `capsh --shell=P -- args` runs
 * `P args`, `start-stop-daemon --start --exec P -- args` likewise, `machinectl shell .host P args`; `sg`,
 * `newgrp`, and wrappers with no command (`chroot /`, `fakeroot`, `sudo -i`)
 * start a shell that reads their standard input. The
 * command they start is judged like one xargs starts (hardline, scripts it
 * reads, code it is given), built from the words that make it up. So are
 * the bodies of functions a command hands a child bash in its environment.
 */
import type { Cmd, Word } from "../shell/ast.js"
import type { ParseCtx } from "../shell/parser.js"
import { lexWord, parseInto } from "../shell/parser.js"
import { basename } from "../shell/words.js"
import { judgeThrough } from "./throughCommand.js"
import { lookupTable } from "../../../lib/lookupTable.js"

/** A long option's name and whether it takes a value. */
type Long = readonly [string, boolean]

interface Grammar {
  readonly long: ReadonlyArray<Long>
  /** Short letters that take a value (the rest of the word, or the next word). */
  readonly valued: string
  /** Options naming the program (long names without dashes, short letters). */
  readonly program: ReadonlySet<string>
  /** Options carrying shell text the program gets after `-c` (su's -c and --session-command). */
  readonly command: ReadonlySet<string>
}

/** util-linux su (getopt "c:fg:G:lmpPs:u:hVw:", arguments permuted). */
const SU_LONG: ReadonlyArray<Long> = [
  ["command", true], ["session-command", true], ["fast", false], ["group", true], ["supp-group", true], ["login", false],
  ["preserve-environment", false], ["pty", false], ["no-pty", false], ["shell", true], ["whitelist-environment", true],
  ["help", false], ["version", false]
]
const SU: Grammar = {
  long: SU_LONG,
  valued: "cgGsuw",
  program: new Set(["shell", "s"]),
  command: new Set(["command", "session-command", "c"])
}
const RUNUSER: Grammar = { ...SU, long: [...SU_LONG, ["user", true]] }

/** An option as given: its name (long without dashes, or the letter), and where its value is, if it takes one. */
interface Given {
  readonly name: string
  /** Index of the word holding the value, and the offset of the value in it (0: the whole word). */
  readonly at: number
  readonly offset: number
}

/** getopt_long's reading of a long option: an exact name, or a prefix of exactly one. */
const longOption = (grammar: Grammar, name: string): Long | undefined => {
  const exact = grammar.long.find(([n]) => n === name)
  if (exact !== undefined) return exact
  const prefixed = grammar.long.filter(([n]) => n.startsWith(name))
  return prefixed.length === 1 ? prefixed[0] : undefined
}

/** GNU getopt with permutation: options anywhere before `--`, the other words positional in order. */
const scan = (grammar: Grammar, values: ReadonlyArray<string>, from: number): { options: Given[]; positional: number[] } => {
  const options: Given[] = []
  const positional: number[] = []
  for (let i = from; i < values.length; i++) {
    const a = values[i] ?? ""
    if (a === "--") {
      for (let k = i + 1; k < values.length; k++) positional.push(k)
      break
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=")
      const option = longOption(grammar, a.slice(2, eq < 0 ? undefined : eq))
      if (option === undefined) continue
      const [name, valued] = option
      if (!valued) options.push({ name, at: -1, offset: 0 })
      else if (eq >= 0) options.push({ name, at: i, offset: eq + 1 })
      else options.push({ name, at: ++i, offset: 0 })
      continue
    }
    if (a.length < 2 || !a.startsWith("-")) {
      positional.push(i)
      continue
    }
    for (let k = 1; k < a.length; k++) {
      const letter = a[k] ?? ""
      if (!grammar.valued.includes(letter)) {
        options.push({ name: letter, at: -1, offset: 0 })
        continue
      }
      options.push(k < a.length - 1 ? { name: letter, at: i, offset: k + 1 } : { name: letter, at: ++i, offset: 0 })
      break
    }
  }
  return { options, positional }
}

/** How a word of the started command is made: a whole word of the line, part of one, or a fixed word. */
export type Piece = { readonly word: number; readonly offset: number } | { readonly text: string }

const valueOf = (g: Given): Piece => ({ word: g.at, offset: g.offset })

/**
 * su / runuser: `-u USER cmd…` (runuser) starts cmd itself; otherwise the `-s` program (else the user's shell) runs
 * with `-c TEXT` when given and the words after the user name (a first `-` asks for a login shell).
 */
const switchedUser = (grammar: Grammar, values: ReadonlyArray<string>, head: number): ReadonlyArray<Piece> | null => {
  const { options, positional } = scan(grammar, values, head + 1)
  const valued = (names: ReadonlySet<string>): Given | undefined => [...options].reverse().find((o) => names.has(o.name) && o.at >= 0 && o.at < values.length)
  if (options.some((o) => o.name === "u" || o.name === "user")) return positional.length === 0 ? null : positional.map((word) => ({ word, offset: 0 }))
  const words = values[positional[0] ?? -1] === "-" ? positional.slice(1) : positional
  const args = words.slice(1).map((word): Piece => ({ word, offset: 0 }))
  const shell = valued(grammar.program)
  const command = valued(grammar.command)
  // Without -s the shell is the user's own: what it runs is judged as bash's, a script, or what it reads on standard
  // input when there are no words (the -c text alone is read already).
  if (shell === undefined) return command !== undefined ? null : [{ text: "bash" }, ...args]
  return [valueOf(shell), ...(command === undefined ? [] : [{ text: "-c" }, valueOf(command)]), ...args]
}

/** capsh runs `--shell` (default /bin/bash) at `--` with the words after it; `==` runs capsh again instead. */
const capsh = (values: ReadonlyArray<string>, head: number): ReadonlyArray<Piece> | null => {
  let shell: Piece = { text: "/bin/bash" }
  for (let i = head + 1; i < values.length; i++) {
    const a = values[i] ?? ""
    if (a === "==") return null
    if (a.startsWith("--shell=")) shell = { word: i, offset: "--shell=".length }
    if (a === "--") return [shell, ...values.slice(i + 1).map((_, k): Piece => ({ word: i + 1 + k, offset: 0 }))]
  }
  return null
}

/** start-stop-daemon --start: `--startas` (else `--exec`), with the words after `--`. Its options that take a value. */
const STOP_VALUED = new Set([
  "-x", "--exec", "-a", "--startas", "-n", "--name", "-u", "--user", "-p", "--pidfile", "-c", "--chuid", "-g", "--group",
  "-r", "--chroot", "-d", "--chdir", "-N", "--nicelevel", "-P", "--procsched", "-I", "--iosched", "-k", "--umask", "-s",
  "--signal", "-R", "--retry", "--ppid", "--output", "--notify-timeout"
])
const startStop = (values: ReadonlyArray<string>, head: number): ReadonlyArray<Piece> | null => {
  let exec: Piece | null = null
  let startas: Piece | null = null
  let start = false
  let rest: ReadonlyArray<Piece> = []
  for (let i = head + 1; i < values.length; i++) {
    const a = values[i] ?? ""
    if (a === "--") {
      rest = values.slice(i + 1).map((_, k): Piece => ({ word: i + 1 + k, offset: 0 }))
      break
    }
    if (a === "-S" || a === "--start") start = true
    const eq = a.startsWith("--") ? a.indexOf("=") : -1
    const name = eq >= 0 ? a.slice(0, eq) : a
    if (!STOP_VALUED.has(name)) continue
    const value: Piece = eq >= 0 ? { word: i, offset: eq + 1 } : { word: ++i, offset: 0 }
    if (name === "-x" || name === "--exec") exec = value
    else if (name === "-a" || name === "--startas") startas = value
  }
  const program = startas ?? exec
  return start && program !== null ? [program, ...rest] : null
}

/** `sg GROUP` with no command, like `newgrp`, starts the user's shell (with one, its words are shell text: execFlags.ts). */
const groupShell = (values: ReadonlyArray<string>, head: number): ReadonlyArray<Piece> | null => {
  const rest = values.slice(head + 1).filter((v) => v !== "-")
  return rest.length <= 1 ? [{ text: "bash" }] : null
}

/** util-linux script's options that take a value (the rest of the word, or the next word; `-t[file]` only glued). */
const SCRIPT_VALUED = /^(?:-[a-zA-Z]*[cEIOBTmo]|--(?:command|echo|log-in|log-out|log-io|log-timing|logging-format|output-limit))$/

/**
 * util-linux `script [file]` without `-c` runs the user's shell, interactive, on what it reads: a pipe or a
 * here-string becomes typed commands (`echo 'sh x.sh' | script -q /dev/null`). With `-c` its text is judged already
 * (execFlags.ts).
 */
const scriptShell = (values: ReadonlyArray<string>, head: number): ReadonlyArray<Piece> | null => {
  for (let i = head + 1; i < values.length; i++) {
    const a = values[i] ?? ""
    if (a === "--") break
    if (/^-[a-zA-Z]*c|^--c(?:o(?:m(?:m(?:a(?:nd?)?)?)?)?)?(?:=|$)/.test(a)) return null
    if (SCRIPT_VALUED.test(a)) i++
  }
  // The shell is interactive: it saves its history on exit, into a HISTFILE set on the line (`HISTFILE=f script`).
  const assigned = values.slice(0, head).flatMap((v, i): Piece[] => (/^[A-Za-z_]\w*=/.test(v) ? [{ word: i, offset: 0 }] : []))
  return [...(assigned.length > 0 ? [{ text: "env" }, ...assigned] : []), { text: "bash" }, { text: "-i" }]
}

/** machinectl's options that take a value (the next word unless glued or given with `=`). */
const MACHINECTL_VALUED = new Set(["-p", "--property", "-M", "--machine", "-H", "--host", "-E", "--setenv", "--uid", "-s", "--signal", "--kill-whom", "-o", "--output", "-n", "--lines", "--verify", "--format"])

/**
 * `machinectl shell [[USER@]NAME [COMMAND ARGS…]]` runs COMMAND (a path) in the machine, `.host` being this one, or a
 * login shell on the caller's terminal and input when none is given.
 */
const machineShell = (values: ReadonlyArray<string>, head: number): ReadonlyArray<Piece> | null => {
  const positional: number[] = []
  for (let i = head + 1; i < values.length; i++) {
    const a = values[i] ?? ""
    // The command's own arguments follow it as they are.
    if (positional.length >= 3 || a === "--") {
      for (let k = a === "--" && positional.length < 3 ? i + 1 : i; k < values.length; k++) positional.push(k)
      break
    }
    if (a.startsWith("-") && a.length > 1) {
      if (MACHINECTL_VALUED.has(a)) i++
      continue
    }
    positional.push(i)
  }
  if (values[positional[0] ?? -1] !== "shell") return null
  const command = positional.slice(2)
  return command.length === 0 ? [{ text: "bash" }] : command.map((word): Piece => ({ word, offset: 0 }))
}

const STARTERS: Readonly<Record<string, (values: ReadonlyArray<string>, head: number) => ReadonlyArray<Piece> | null>> = lookupTable({
  machinectl: machineShell,
  script: scriptShell,
  su: (values, head) => switchedUser(SU, values, head),
  runuser: (values, head) => switchedUser(RUNUSER, values, head),
  sg: groupShell,
  newgrp: () => [{ text: "bash" }],
  capsh,
  "start-stop-daemon": startStop
})

/** The words of the command `name` (the program at `head`) starts, as pieces of its own words; null when none. */
export const namedProgram = (name: string, values: ReadonlyArray<string>, head: number): ReadonlyArray<Piece> | null =>
  STARTERS[name]?.(values, head) ?? null

/** Redirections the started program reads its standard input from (`su root <<< 'cmds'`, `runuser -u u bash < f`). */
const INPUT = new Set(["<", "<<", "<<-", "<<<", "<&"])

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/** A piece as a word: the line's own word, or the text after an option's name (its expansions kept when unquoted there). */
const pieceWord = (words: ReadonlyArray<Word>, piece: Piece): Word | null => {
  if ("text" in piece) return lexWord(piece.text)
  const w = words[piece.word]
  if (w === undefined) return null
  if (piece.offset === 0) return w
  const cut = w.value.slice(0, piece.offset)
  return lexWord(w.raw.startsWith(cut) ? w.raw.slice(piece.offset) : quote(w.value.slice(piece.offset)))
}

/** `BASH_FUNC_name%%=() { … }` (older bash: `BASH_FUNC_name()=`), as env, `systemd-run -E` or a declarer gives it. */
export const IMPORTED_FUNCTION = /^(?:--setenv=|-E)?BASH_FUNC_[^=]*=/
const FUNCTION_BODY = /^(?:--setenv=|-E)?BASH_FUNC_[^=]*=\s*\(\)\s*(\{[\s\S]*\})\s*$/

/** A child bash defines these as functions that replace a command name: their bodies run as commands. */
const importFunctionBodies = (ctx: ParseCtx, cmd: Cmd): void => {
  if (cmd.cls !== "exec") return
  for (const w of cmd.words) {
    const body = FUNCTION_BODY.exec(w.value)?.[1]
    if (body !== undefined) parseInto(ctx, body, "exec", "payload", cmd.depth + 1, true)
  }
}

/**
 * Add the command `parent` starts through a named program as a command of its own (origin `through`, like the
 * one xargs runs), for the hooks to analyse. Returns whether there was one.
 */
export const startNamedProgram = (ctx: ParseCtx, parent: Cmd, name: string, head: number): boolean => {
  if (parent.words.some((w) => IMPORTED_FUNCTION.test(w.value))) importFunctionBodies(ctx, parent)
  if (STARTERS[name] === undefined) return false
  const pieces = namedProgram(name, parent.words.map((w) => w.value), head)
  if (pieces === null || pieces.length === 0) return false
  const words = pieces.map((p) => pieceWord(parent.words, p))
  if (words.some((w) => w === null)) return false
  start(ctx, parent, words as Word[])
  return true
}

/** Wrappers that start the user's shell when no command follows them (`… | chroot /`, `fakeroot <<< …`, `sudo -i`). */
const BARE_SHELL: Readonly<Record<string, (options: ReadonlyArray<string>) => boolean>> = lookupTable({
  chroot: () => true,
  fakeroot: () => true,
  unshare: () => true,
  nsenter: () => true,
  firejail: () => true,
  sudo: (options) => options.some((a) => a === "--login" || a === "--shell" || /^-[A-Za-z]*[is]/.test(a)),
  doas: (options) => options.some((a) => /^-[A-Za-z]*s/.test(a)),
  // `systemd-run --shell` (`-S`): an interactive shell in a transient unit, on the caller's terminal or input.
  "systemd-run": (options) => options.some((a) => a === "--shell" || a === "-S"),
  // `torsocks --shell`: a shell with the library preloaded, on the caller's input.
  torsocks: (options) => options.some((a) => a === "--shell")
})

/** A line of wrappers and no command (`wrappers`: their word indexes): the shell the last one starts, if it starts one. */
export const startBareShell = (ctx: ParseCtx, parent: Cmd, wrappers: ReadonlyArray<number>, nameAt: (i: number) => string): void => {
  const last = wrappers[wrappers.length - 1]
  if (last === undefined) return
  const starts = BARE_SHELL[basename(nameAt(last)).toLowerCase()]
  if (starts?.(parent.words.slice(last + 1).map((w) => w.value)) === true) start(ctx, parent, [lexWord("bash")])
}

const start = (ctx: ParseCtx, parent: Cmd, words: Word[]): void => judgeThrough(ctx, parent, words, parent.redirs.filter((r) => INPUT.has(r.op)))
