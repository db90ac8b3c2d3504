/**
 * Parse a prepared command line and enrich every simple command as it
 * completes: resolve the program behind wrappers, collect exec-flag
 * findings, and queue what must be read as more shell — payloads (bash -c,
 * rg --pre, eval, env -S) as commands, and quoted prose / comments as data.
 */
import { exportsHeldVariable } from "./heldExports.js"
import { assigningExpansion, assignmentsIn } from "./assigningExpansions.js"
import { delegatedCommands, replacementStrings, resolveHead } from "./commandHead.js"
import { startBareShell, startNamedProgram } from "./namedPrograms.js"
import { judgeThrough } from "./throughCommand.js"
import { execFindings, shellString } from "./execFlags.js"
import { EDITORS, editorCommands, editorInput, readsCommandsFromStdin } from "./editorCommands.js"
import { consoleCommands, consoleOf, consoleReadsStdin, inputConsole, readsCodeOrCommands } from "./consoleCommands.js"
import { inputCommands } from "./inputCommands.js"
import { historyFileWrite } from "./historyFile.js"
import { PIP_PLACES, pipBuild } from "./resolve/pipBuilds.js"
import { scanGrep } from "./grepSafety.js"
import type { Cmd, Origin, Word } from "../shell/ast.js"
import type { ParseCtx } from "../shell/parser.js"
import { newParseCtx, parseInto } from "../shell/parser.js"
import { APPENDED_ARGUMENTS_DESCRIPTION, appendedArgumentsMatter, filledWord, filledWordMatters } from "./filledWords.js"
import { FD_FILLED_DESCRIPTION, fdFillsOptions } from "./fdFilled.js"
import { gitOptions } from "./gitOptions.js"
import { basename, deobfuscate } from "../shell/words.js"
import type { ResolveOptions } from "./resolve/resolver.js"
import { readsCode } from "./resolve/codeSources.js"
import { Resolver } from "./resolve/resolver.js"
import { trapActionIndex, watchCommandStart } from "./resolve/codeText.js"
import { ShellAliases } from "./aliases.js"
import { D, SHELL_FLAG_DESCRIPTION } from "./descriptions.js"

export interface CmdInfo {
  /** Program word index, -1 when none. */
  readonly head: number
  /** Deobfuscated spellings of the wrapper and program words (index → text). */
  readonly spelled: ReadonlyMap<number, string>
  /** Words hidden from rules (single-quoted grep -P patterns). */
  readonly hidden: ReadonlySet<number>
}

/** What the enrichment learns, filled in while parsing. */
interface Findings {
  readonly info: Array<CmdInfo | undefined>
  /** Exec-flag findings of primary commands, in source order. */
  readonly findings: string[]
  grepMalformed: boolean
  /** Editors whose heredoc body was read as their commands (a body is only there once its first line is parsed). */
  editorBodies?: Set<Cmd>
  /** pip's variables naming where it finds packages that the task's exports or the line so far set. */
  pipPlaces?: Set<string>
  /** Reading the pip options handed back for those variables (they are not handed back again). */
  inPipPlaces?: boolean
  /** The line runs a pip that builds: the exports' pip variables matter to it. */
  pipBuilds?: boolean
  /** Names a persistent shell may hold that the line exports, judged without the exports (heldExports.ts). */
  heldExports?: Array<string>
}

export interface Analysis extends Readonly<Findings> {
  readonly ctx: ParseCtx
  /** What resolving the words found (null when the line had nothing to resolve and nothing was asked). */
  readonly resolution: Resolver | null
}

/**
 * Lines with none of these hold no expansion or brace: no word changes, no variable matters. Arithmetic
 * (`((…))`, `let`, `[[ x -eq y ]]`) reads variables by bare name. xargs, find and fd fill in names when they run
 * (`delegate`), which counts as an expansion.
 */
const EXPANDABLE = /[$`]|\bxargs\b|\bhistory\s+-|\bPIP_(?:FIND_LINKS|INDEX_URL|EXTRA_INDEX_URL)=|\b(?:bash|sh|rbash)\b[^\n]*\s-[a-zA-Z]*i\b|\b(?:find|fd|fdfind)\b[^\n]*\s-(?:exec|ok|x\b|X\b|-exec)|\{[^}]*(?:,|\.\.)|\(\(|\blet\b|\[\[|\b(?:declare|typeset|local)\s+-[A-Za-z]*i|\w\[[^\]]*\]\+?=|\b(?:OPTIND|RANDOM|SRANDOM|HISTCMD)\b|\bpopd\b|\b(?:cd|pushd)\s+(?:-(?=\s|$|[;&|)])|~-|[+-]\d)|\bpushd\s*(?:[;&|)\n]|$)/

/** Outside expanding lines, only these commands need a look: code fed to a possible shell, a glob as program. */
const worthResolving = (cmd: Cmd, head: number): boolean => {
  const program = head >= 0 ? cmd.words[head] : undefined
  if (program === undefined) return false
  if (program.parts.some((p) => p.kind === "literal" && /[*?[]/.test(p.text))) return true
  return (
    (cmd.pipePrev !== null || cmd.redirs.some((r) => r.op === "<<<" || r.op === "<" || r.op === "<&" || r.op === "<>") || cmd.words.some((w) => w.raw.startsWith("<("))) &&
    readsCodeOrCommands(basename(program.value).toLowerCase())
  )
}

/** A here-string with nothing to expand (a heredoc's body is read when it is parsed: `editorHeredoc`). */
const editorStdin = (cmd: Cmd): string | null => {
  for (const r of cmd.redirs) if (r.op === "<<<" && r.target !== null && !r.target.expands) return r.target.value
  return null
}

/** Commands whose findings Hermes reports (payload/eval/delegated ones are inspected, not reported). */
const PRIMARY = new Set<Origin>(["top", "subst", "heredoc"])
const PROSE = /[\s;&|<>()`]|\$\(/
const EMPTY: ReadonlySet<number> = new Set()
const EMPTY_WORD: Word = { raw: "", value: "", parts: [], quoted: false, unterminated: false, expands: false }

/** A quoted word worth reading unquoted: an option (`'-rf'`, `"--hard"`) or a permission mode (`'777'`, `"o+w"`). */
const QUOTED_FLAG = /^(?:-\S+|[0-7]{3,4}|[ugoa]*[-+=][rwxXst]+)$/

/** Quoted text that could itself be read as commands. */
const isProse = (w: Word): boolean => w.quoted && PROSE.test(w.value)

const spell = (w: Word): string => (w.parts.length === 1 && w.parts[0]?.kind === "literal" ? w.value : deobfuscate(w))

const inspectProgram = (a: Findings, ctx: ParseCtx, cmd: Cmd, skip: Set<number>): CmdInfo => {
  const names: string[] = []
  const nameAt = (i: number): string => (names[i] ??= spell(cmd.words[i] ?? EMPTY_WORD))
  const head = resolveHead(cmd.words.length, nameAt)
  const spelled = new Map<number, string>()
  for (const i of head.wrappers) spelled.set(i, nameAt(i))
  if (head.envSplit !== null) parseInto(ctx, head.envSplit, "exec", "payload", cmd.depth + 1, true)
  const values = cmd.words.map((w) => w.value)
  const primary = PRIMARY.has(cmd.origin)
  // A wrapper that hands a shell its own string (`flock f -c 'cmd'`, `strace -o '|cmd' prog`).
  for (const w of head.wrappers) {
    const carried = shellString(basename(nameAt(w)).toLowerCase(), values.slice(w + 1))
    if (carried === null) continue
    if (primary) a.findings.push(SHELL_FLAG_DESCRIPTION)
    skip.add(w + 1 + carried.arg)
    parseInto(ctx, carried.payload, "exec", "payload", cmd.depth + 1, true)
  }
  if (head.index < 0) {
    startBareShell(ctx, cmd, head.wrappers, nameAt) // `… | chroot /`: the shell it starts reads the pipe
    return { head: -1, spelled, hidden: EMPTY }
  }
  const h = head.index
  spelled.set(h, nameAt(h))
  const name = basename(nameAt(h)).toLowerCase()
  let hidden: ReadonlySet<number> = EMPTY
  if (primary && (name === "grep" || name === "egrep")) {
    const scan = scanGrep(cmd, h)
    if (scan.malformed) a.grepMalformed = true
    hidden = new Set(scan.hidden)
  }
  // A quoted option is the same option to the program: `rm '-rf' /x`, `git reset "--hard"`, `chmod '777' f`. Such a
  // word (an option or a mode, no space, nothing to expand) is read unquoted; operands are read unquoted by the rules
  // that look at them, and quoted prose and grep's patterns stay as they are.
  for (let i = h + 1; i < cmd.words.length; i++) {
    const w = cmd.words[i]
    if (w !== undefined && w.quoted && !w.expands && QUOTED_FLAG.test(w.value) && !hidden.has(i)) spelled.set(i, w.value)
  }
  const args = values.slice(h + 1)
  const heredoc = cmd.redirs.some((r) => r.after > h && r.op.startsWith("<<"))
  let malformed = cmd.redirs.some((r) => r.target?.unterminated === true)
  for (let i = h; i < cmd.words.length && !malformed; i++) malformed = cmd.words[i]?.unterminated === true
  for (const f of execFindings(name, args, heredoc, malformed)) {
    if (primary) a.findings.push(f.description)
    if (f.payload === null) continue
    if (f.payloadArg >= 0) skip.add(h + 1 + f.payloadArg)
    parseInto(ctx, f.payload, "exec", "payload", cmd.depth + 1, true)
  }
  // sed's `e`, awk's system() and pipes, git's -x/--exec/foreach commands (inputCommands.ts).
  const input = inputCommands(name, args)
  if (input.runs) a.findings.push(D.inputCommands)
  for (const p of input.payloads) {
    if (p.arg >= 0 && name === "git") skip.add(h + 1 + p.arg)
    parseInto(ctx, p.text, "exec", "payload", cmd.depth + 1, true)
  }
  // Editors' ex commands: `vim -c '!cmd'`, `ed f <<EOF … !cmd`, vimscript (editorCommands.ts).
  if (EDITORS.has(name)) {
    const stdin = editorStdin(cmd)
    const editor = editorCommands(name, args, stdin)
    if (editor.runs) a.findings.push(D.inputCommands)
    for (const p of editor.payloads) parseInto(ctx, p.text, "exec", "payload", cmd.depth + 1, true)
    // `… | ed f`, `ed f <<< "$x"`: its commands are only known when it runs (a `< file` is read by the judge).
    if (readsCommandsFromStdin(name, args) && stdin === null && (cmd.pipePrev !== null || cmd.redirs.some((r) => r.op === "<<<"))) {
      a.findings.push(D.inputCommands)
    }
  }
  // `history -a` with no file name, and an interactive bash on exit, write HISTFILE (historyFile.ts).
  const history = historyFileWrite(name, args, cmd.words.slice(0, h))
  if (history !== null) parseInto(ctx, history, "exec", "eval", cmd.depth + 1, true)
  // PIP_FIND_LINKS, PIP_INDEX_URL, PIP_EXTRA_INDEX_URL: pip reads them as its options; handed back as options
  // (unquoted: pip splits a list on whitespace), the local places they name are judged (pipBuilds.ts).
  for (const w of cmd.words) {
    const set = /^(PIP_[A-Z_]+)=/.exec(w.value)?.[1]
    if (set !== undefined && PIP_PLACES[set] !== undefined) (a.pipPlaces ??= new Set()).add(set)
  }
  const pip = a.inPipPlaces !== true && pipArgs(name, args) !== null
  if (pip) a.pipBuilds = true
  if (pip && a.pipPlaces !== undefined && a.pipPlaces.size > 0) {
    a.inPipPlaces = true
    // One set for this command (`PIP_FIND_LINKS=d pip …`, `env PIP_INDEX_URL=… pip …`) is its value as written.
    const own = (v: string): string | undefined => cmd.words.slice(0, h).reverse().find((w) => w.value.startsWith(`${v}=`))?.raw.slice(v.length + 1)
    // A list is split on whitespace, each item the option's value: `${V// / --find-links }` unquoted.
    const option = (v: string): string => {
      const flag = PIP_PLACES[v] ?? ""
      const value = own(v)
      return value === undefined ? `${flag} \${${v}// / ${flag} }` : `${flag} ${value}`
    }
    parseInto(ctx, `pip download ${[...a.pipPlaces].map(option).join(" ")}`, "exec", "eval", cmd.depth + 1, true)
    a.inPipPlaces = false
  }
  // Consoles' escapes given inline: `sqlite3 db '.shell …'`, `gdb -ex 'python …'`, `psql -c '\\! …'` (consoleCommands.ts);
  // what they read on standard input is read where the resolver follows pipes and redirects.
  const console = consoleOf(name)
  if (console !== null) {
    const found = consoleCommands(console, args, null, name)
    if (found.runs) a.findings.push(D.consoleCommands)
    for (const p of found.payloads) parseInto(ctx, p.text, "exec", "payload", cmd.depth + 1, true)
  }
  // `trap 'action' SIGNAL…`: the action runs as commands (on exit, on errors, before every command for DEBUG).
  if (name === "trap") {
    const action = trapAction(args)
    if (action !== null) {
      skip.add(h + 1 + action.index)
      parseInto(ctx, action.text, "exec", "eval", cmd.depth + 1, true)
    }
  }
  // Text run as commands without a shell flag: `watch cmd…` (its words joined, through sh -c unless -x),
  // `mapfile -C callback` (evaluated every -c lines), tmux and screen commands (run or typed in their server).
  const text = runsText(name, args)
  if (text !== null) {
    skip.add(h + 1 + text.index)
    parseInto(ctx, text.text, "exec", "eval", cmd.depth + 1, true)
  }
  if (name === "eval" && args.length > 0) {
    for (let i = h + 1; i < cmd.words.length; i++) skip.add(i)
    parseInto(ctx, args.join(" "), "exec", "eval", cmd.depth + 1, true)
  }
  if (cmd.origin !== "through") {
    const delegated = delegatedCommands(name, values, h)
    // xargs without a replacement string, and fd, append what they read to the command as arguments.
    const replacements = replacementStrings(name, values, h)
    const appended = name === "fd" || name === "fdfind" || (name === "xargs" && replacements.length === 0)
    const filled = FILLS_NAMES.has(name) ? { replacements, appended, lister: namesLister(a, cmd, name, values, h) } : undefined
    for (const [from, to] of delegated) delegate(ctx, cmd, from, to, filled)
    if (delegated.some(([from, to]) => substitutesCode(values.slice(from, to), appended, replacements))) a.findings.push(D.substitutedCode)
    // What xargs appends is any number of words: options and subcommands of the program too (filledWords.ts). With
    // -I R each input line is one word, an option too where a word begins with R (`xargs -I{} find d {}`: `-delete`).
    // Code given to a shell hands what it gets on as "$@", "$1", `for f;` to the programs it runs.
    if (name === "xargs") {
      const whole = wholeNames(values.slice(h + 1), filled?.lister ?? null)
      const matters = appended ? appendedArgumentsMatter : filledWordMatters
      for (const [from, to] of delegated) {
        const all = values.slice(from, to)
        const at = resolveHead(all.length, (i) => all[i] ?? "").index
        if (at < 0) continue
        const run = all.slice(at)
        if (!appended && !run.some((w, i) => i > 0 && replacements.some((r) => w.startsWith(r)) && !FIND_VALUED.test(basename(run[0] ?? "") === "find" ? (run[i - 1] ?? "") : ""))) continue
        const reached: ReadonlyArray<ReadonlyArray<string>> = runsGivenCode(run) ? positionalPrograms(run) : [run]
        if (reached.some((words) => matters(words, whole && !bareStartReaches(filled?.lister ?? null, words)))) a.findings.push(APPENDED_ARGUMENTS_DESCRIPTION)
      }
    }
    // fd -x / -X fill found names in (a placeholder, or appended): a name can be an option (fdFilled.ts).
    if (name === "fd" || name === "fdfind") {
      for (const [from, to] of delegated) {
        const all = values.slice(from, to)
        const at = resolveHead(all.length, (i) => all[i] ?? "").index
        const batch = values[from - 1] === "-X" || values[from - 1] === "--exec-batch"
        if (at < 0) continue
        const run = all.slice(at)
        // A shell given its code hands the names on as "$@", "$1" to the programs it runs (as under xargs).
        const reached = runsGivenCode(run) ? positionalPrograms(run) : null
        if (fdFillsOptions(values.slice(h + 1, from - 1), run, batch, reached)) a.findings.push(FD_FILLED_DESCRIPTION)
      }
    }
  }
  // `su -s PROG user -- args`, `runuser -u user cmd`, `capsh --shell=P -- args`, `env 'BASH_FUNC_ls%%=() {…}'`.
  startNamedProgram(ctx, cmd, name, h)
  return { head: h, spelled, hidden }
}

/** The words after `pip` of a command that builds (`pip install`, `python3 -m pip wheel`, `uv pip download`), or null. */
const pipArgs = (name: string, args: ReadonlyArray<string>): ReadonlyArray<string> | null => {
  const m = /^python[\d.]*$/.test(name) ? args.findIndex((x, i) => x === "-m" && /^pip[\d.]*$/.test(args[i + 1] ?? "")) : -1
  const words = /^pip[\d.]*$/.test(name) ? args : name === "uv" && args[0] === "pip" ? args.slice(1) : m >= 0 ? args.slice(m + 2) : null
  return words !== null && pipBuild(words) !== null ? words : null
}

/**
 * xargs splits its input only at NULs (`-0`), and the names come from `find … -print0`: each appended word is a whole
 * path, never an option. (Not `-d '\n'`: a name may hold a newline, and what follows it is an item of its own,
 * `z⏎-delete`; nor `-printf`: `%f` and `%P` print a planted `-delete` bare.)
 */
const wholeNames = (xargsArgs: ReadonlyArray<string>, lister: ReadonlyArray<string> | null): boolean => {
  const split = xargsArgs.some((a) => a === "-0" || a === "--null")
  // find prints each name under the start path it was given (`.` when none), which cannot begin with `-`; a start
  // path that is a bare word (`find clean -print0`) is printed itself first, and may be a subcommand (`git clean`).
  return split && lister !== null && basename(lister[0] ?? "") === "find" && lister.includes("-print0") && !lister.some((w) => /^-f?print/.test(w) && w !== "-print0")
}

/**
 * find prints a start path that is a bare word (`find clean -print0`) itself first: to a program the line gives no
 * operand yet, that name is its subcommand or script (`xargs -0 git` runs `git clean …`).
 */
const bareStartReaches = (lister: ReadonlyArray<string> | null, words: ReadonlyArray<string>): boolean => {
  if (lister === null || findStartPaths(lister.slice(1)).every((p) => /^[./~]/.test(p))) return false
  const args = words.slice(1)
  if (basename(words[0] ?? "") === "git") return args[gitOptions(args).sub] === undefined
  return args.every((a) => a.startsWith("-"))
}

/** find's start paths: the words after its options (-H, -L, -P, -D x, -Ox) up to the first test, action or operator. */
const findStartPaths = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  let i = 0
  while (i < args.length && /^-(?:[HLP]+|D|O\d*)$/.test(args[i] ?? "")) i += args[i] === "-D" ? 2 : 1
  const out: string[] = []
  for (; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a.startsWith("-") || a === "(" || a === "!" || a === ",") break
    out.push(a)
  }
  return out
}

/**
 * A shell or interpreter given its code in the line (`sh -c '…'`, `python3 x.py`): what xargs appends are the
 * code's arguments ($0, $1, sys.argv), not options of the interpreter.
 */
const SHELL_OR_PYTHON = /^(?:ba|da|z|k|mk|a)?sh$|^python[\d.]*$/
const runsGivenCode = (words: ReadonlyArray<string>): boolean => {
  const name = basename(words[0] ?? "").toLowerCase()
  if (!readsCode(name)) return false
  const args = words.slice(1)
  // Only a shell's and python's `-c` end their options (perl, ruby, node take more after `-e CODE`).
  const code = args.findIndex((w) => CODE_FLAG.test(w))
  if (code >= 0) return SHELL_OR_PYTHON.test(name) && code + 1 < args.length
  return args.some((w) => !w.startsWith("-") && /\/|\.(?:sh|bash|py|pl|rb|js|mjs|cjs|php)$/.test(w))
}

/** find's tests that take the next word as their value (`-name {}`: a pattern, whatever it begins with). */
const FIND_VALUED = /^-(?:i?name|i?path|i?wholename|i?regex|i?lname|regextype|x?type|user|group|[ug]id|newer\w*|perm|size|[acm](?:time|min)|links|inum|samefile|fstype|context|(?:max|min)depth)$/

/** A shell's code reading its arguments: "$@", "$*", "$0", "$1", `${2:-x}`, `shift`, or `for f; do` / `for f do` (over "$@"). */
const POSITIONAL_USE = /\$(?:[@*0-9]|\{[@*0-9])|\bshift\b|\bfor\s+\w+\s*(?:;|\n|do\b)/
const KEYWORD = /^(?:do|then|else|elif|if|while|until|!|time|\{|\()$/

/**
 * The commands of a shell's given code (`sh -c 'find "$@"' _`) that may get the arguments xargs fills in, as word
 * lists (quotes dropped, past keywords, assignments and wrappers); none when the code reads no arguments, and
 * none for other interpreters (their code hands arguments on in ways not read here).
 */
const positionalPrograms = (run: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  if (!SHELL_OR_PYTHON.test(basename(run[0] ?? "").toLowerCase()) || /^python/.test(basename(run[0] ?? ""))) return []
  const flag = run.findIndex((w, i) => i > 0 && CODE_FLAG.test(w))
  // A script file (`bash x.sh`): what it does with "$@" is not read here (it may hand the names to `find "$@"`), so
  // the arguments count as reaching a program that may take options.
  if (flag < 0) return [run]
  const code = run[flag + 1] ?? ""
  if (!POSITIONAL_USE.test(code)) return []
  const out: Array<ReadonlyArray<string>> = []
  for (const segment of code.split(/[;&|\n(){}`]|\$\(/)) {
    if (!segment.includes("$")) continue
    const words = segment.trim().split(/\s+/).map((w) => w.replace(/["']/g, ""))
    let k = 0
    while (k < words.length && (KEYWORD.test(words[k] ?? "") || ASSIGNMENT_WORD.test(words[k] ?? ""))) k++
    if (/^(?:for|case|in|done|fi|esac|select)$/.test(words[k] ?? "")) continue
    const rest = words.slice(k)
    const head = resolveHead(rest.length, (i) => rest[i] ?? "").index
    if (head >= 0) out.push(rest.slice(head))
  }
  return out
}

/** Flags after which an interpreter or shell takes its code as the next argument (`sh -c`, `python -c`, `node -e`). */
const CODE_FLAG = /^-[a-zA-Z]*[ceErp]$|^--(?:eval|command|print)$/

/**
 * A command xargs or find runs whose code holds text they put in at run time: `xargs -I{} sh -c 'echo {}'`,
 * `find -exec bash -c 'wc {}' \;` (an input line or a file name `$(…)` is then code), or whose code is missing,
 * so the input becomes it (`xargs sh -c`). `sh -c '…"$1"…' _ {}`, the safe idiom, passes it as an argument.
 */
const substitutesCode = (all: ReadonlyArray<string>, appended: boolean, replacements: ReadonlyArray<string>): boolean => {
  // After wrappers (`env`, `nice`, `timeout 5`…), the program.
  const at = resolveHead(all.length, (i) => all[i] ?? "").index
  const words = at < 0 ? [] : all.slice(at)
  const program = basename(words[0] ?? "").toLowerCase()
  if (!readsCode(program)) return false
  const flag = words.findIndex((w, i) => i > 0 && CODE_FLAG.test(w))
  if (flag < 0) return false
  const code = words[flag + 1]
  if (code === undefined) return appended
  return replacements.some((r) => code.includes(r))
}

/**
 * tmux commands that run shell text, or type it into a pane (`send-keys`), in a server that may be the user's own:
 * started before the task, outside its environment and marker. Their options that take a value.
 */
const TMUX_RUNS = new Set([
  "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window",
  "respawnw", "run-shell", "run", "display-popup", "popup", "if-shell", "if", "send-keys", "send", "pipe-pane", "pipep"
])
const TMUX_VALUED = new Set(["-c", "-e", "-F", "-n", "-s", "-t", "-x", "-y", "-l", "-w", "-f", "-T", "-p"])
/** send-keys: `-l` (literal), `-X`, `-H` take no value there. */
const TMUX_SEND_VALUED = new Set(["-N", "-t"])
const TMUX_KEYS = /^(?:Enter|C-m|C-j|KPEnter|Escape|Space|Tab|BSpace|C-[a-z])$/

/** The shell text of `tmux [global options] <command> [options] text…` (keys such as Enter left out). */
const tmuxText = (args: ReadonlyArray<string>): { readonly text: string; readonly index: number } | null => {
  let i = 0
  // Global options before the command (-S socket, -L name, -f file take a value).
  while (i < args.length && (args[i] ?? "").startsWith("-")) i += ["-S", "-L", "-f", "-c", "-T"].includes(args[i] ?? "") ? 2 : 1
  const command = args[i] ?? ""
  if (!TMUX_RUNS.has(command)) return null
  const valued = command === "send-keys" || command === "send" ? TMUX_SEND_VALUED : TMUX_VALUED
  const words: Array<string> = []
  let first = -1
  for (let k = i + 1; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a.startsWith("-") && words.length === 0) {
      if (valued.has(a)) k++
      continue
    }
    if (TMUX_KEYS.test(a)) continue
    if (first < 0) first = k
    words.push(a)
  }
  return words.length === 0 ? null : { text: words.join(" "), index: first }
}

/** `screen -dm cmd…` runs a command; `screen -X stuff text` types text into a window of a running session. */
const screenText = (args: ReadonlyArray<string>): { readonly text: string; readonly index: number } | null => {
  const stuff = args.findIndex((a, k) => a === "stuff" && args[k - 1] === "-X")
  if (stuff >= 0) return stuff + 1 < args.length ? { text: (args[stuff + 1] ?? "").replace(/\\[nr]|\^M/g, "\n"), index: stuff + 1 } : null
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (!a.startsWith("-")) return { text: args.slice(i).join(" "), index: i }
    if (["-S", "-c", "-t", "-e", "-h", "-p", "-X", "-r", "-x", "-R", "-s", "-T", "-L", "-Logfile"].includes(a)) i++
  }
  return null
}

/** The command text `watch`, `mapfile -C`, tmux or screen runs, and the index of the argument it starts at. */
const PROMPT_EXPANSION = /\$\{[^{}]*@P\}/

const runsText = (name: string, args: ReadonlyArray<string>): { readonly text: string; readonly index: number } | null => {
  if (name === "tmux") return tmuxText(args)
  if (name === "screen") return screenText(args)
  if (name === "watch") {
    const from = watchCommandStart(args)
    return from < 0 ? null : { text: args.slice(from).join(" "), index: from }
  }
  // `mapfile -C callback`, and `compgen -C command` / `complete -C command`, which run it to list completions.
  if (name === "mapfile" || name === "readarray" || name === "compgen" || name === "complete") {
    for (let i = 0; i < args.length; i++) {
      const a = args[i] ?? ""
      if (a === "-C" && i + 1 < args.length) return { text: args[i + 1] ?? "", index: i + 1 }
      if (a.startsWith("-C") && a.length > 2) return { text: a.slice(2), index: i }
    }
  }
  return null
}

/**
 * The argv of the program that lists the names xargs, find or fd fill in: find and fd themselves, or the
 * command piped into xargs (not when xargs reads a file, `-a f`); null when unknown or computed.
 */
const namesLister = (a: Findings, cmd: Cmd, name: string, values: ReadonlyArray<string>, h: number): ReadonlyArray<string> | null => {
  if (name !== "xargs") return cmd.words.some((w) => w.expands) ? null : values.slice(h)
  if (values.slice(h + 1).some((v) => v === "-a" || /^-a.|^--arg-file/.test(v))) return null
  const prev = cmd.pipePrev
  if (prev === null || prev === "group") return null
  const head = a.info[prev.seq]?.head ?? -1
  if (head < 0 || prev.words.some((w) => w.expands)) return null
  return prev.words.slice(head).map((w) => w.value)
}

/** Programs that fill in names they find or read (`{}`, `-I R`, appended input) when the command runs. */
const FILLS_NAMES = new Set(["xargs", "find", "fd", "fdfind"])

/** xargs / find -exec: the delegated words form a command of their own. */
const delegate = (
  ctx: ParseCtx,
  parent: Cmd,
  from: number,
  to: number,
  filled?: { readonly replacements: ReadonlyArray<string>; readonly appended: boolean; readonly lister: ReadonlyArray<string> | null }
): void => {
  const slice = parent.words.slice(from, to)
  const words = filled === undefined ? slice : [
    ...slice.map((w) => (filled.replacements.some((r) => w.value.includes(r)) ? filledWord(filled.lister) : w)),
    ...(filled.appended ? [filledWord(filled.lister)] : [])
  ]
  judgeThrough(ctx, parent, words, [])
}

/** `ed f <<EOF … EOF`, `vim -es <<EOF`: the body is the editor's commands (editorCommands.ts). */
const editorHeredoc = (a: Findings, ctx: ParseCtx, owner: Cmd): void => {
  if (a.editorBodies?.has(owner) === true) return
  ;(a.editorBodies ??= new Set()).add(owner)
  const head = a.info[owner.seq]?.head ?? -1
  if (head < 0) return
  const name = basename(owner.words[head]?.value ?? "").toLowerCase()
  const args = owner.words.slice(head + 1).map((w) => w.value)
  const body = owner.redirs.find((r) => (r.op === "<<" || r.op === "<<-") && r.body !== null)?.body
  if (body === undefined || body === null) return
  const console = consoleOf(name)
  if (console !== null && !consoleReadsStdin(console, args, name)) return
  if (console === null && !readsCommandsFromStdin(name, args)) return
  const ex = console === null ? editorInput(name, body, args) : consoleCommands(inputConsole(console, args, name), [], body)
  if (ex.runs) a.findings.push(console === null ? D.inputCommands : D.consoleCommands)
  for (const p of ex.payloads) parseInto(ctx, p.text, "exec", "payload", owner.depth + 1, true)
}

/** Quoted words and redirect targets that read like shell are parsed again, as prose. */
const readProse = (ctx: ParseCtx, cmd: Cmd, skip: ReadonlySet<number>, hidden: ReadonlySet<number>): void => {
  cmd.words.forEach((w, i) => {
    if (!skip.has(i) && !hidden.has(i) && isProse(w)) parseInto(ctx, w.value, "data", "data", cmd.depth + 1, false)
  })
  for (const r of cmd.redirs) {
    if (r.target !== null && isProse(r.target)) parseInto(ctx, r.target.value, "data", "data", cmd.depth + 1, false)
  }
}

const onComplete =
  (a: Findings) =>
  (cmd: Cmd, ctx: ParseCtx): void => {
    if (cmd.funcDef) return
    if (cmd.origin === "heredoc" && cmd.heredocOf !== null) editorHeredoc(a, ctx, cmd.heredocOf)
    // `${x@P}` expands x as a prompt, which runs the command substitutions its value holds (a file's text).
    if (cmd.words.some((w) => PROMPT_EXPANSION.test(w.raw)) || cmd.redirs.some((r) => r.target !== null && PROMPT_EXPANSION.test(r.target.raw))) {
      a.findings.push(D.promptExpansion)
    }
    const skip = new Set<number>()
    const info = cmd.cls === "exec" ? inspectProgram(a, ctx, cmd, skip) : undefined
    a.info[cmd.seq] = info
    // A delegated command's words were already read as part of its parent.
    if (cmd.origin !== "through") readProse(ctx, cmd, skip, info?.hidden ?? EMPTY)
  }

/** The action of `trap [--] action signal…` and its index in args, or null (listing, resetting with `-`). */
const trapAction = (args: ReadonlyArray<string>): { readonly text: string; readonly index: number } | null => {
  const k = trapActionIndex(args)
  return k < 0 ? null : { text: args[k] ?? "", index: k }
}

/** Bash calls this function for every command name it cannot find: with it held, any name may reach it. */
const NOT_FOUND_HANDLER = "command_not_found_handle"

const ASSIGNMENT_WORD = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/

/**
 * A command that calls, by its literal name, a function the shell already
 * holds and this line has not (re)defined before it. Only a name in first
 * position (after assignments or `time`) reaches a function: `command`, `env`, `sudo`
 * and the like run programs.
 */
const callsHeldFunction = (ctx: ParseCtx, cmd: Cmd, head: number, held: ReadonlySet<string>): boolean => {
  if (cmd.cls !== "exec" || cmd.funcDef || head < 0 || cmd.origin === "data" || cmd.origin === "comment" || cmd.origin === "heredoc") return false
  const word = cmd.words[head]
  if (word === undefined || word.expands || !(held.has(word.value) || held.has(NOT_FOUND_HANDLER))) return false
  for (let i = 0; i < head; i++) {
    const w = cmd.words[i]?.value ?? ""
    if (!(ASSIGNMENT_WORD.test(w) || w === "time" || w === "-p")) return false
  }
  return !ctx.funcs.some((f) => f.name === word.value && f.cls === "exec")
}

/**
 * `resolve`: resolve words against the line's variables and the task's
 * exports (and note scripts and paths when `locals` is given).
 */
export const analyze = (prepared: string, resolve?: ResolveOptions): Analysis => {
  const found: Findings = { info: [], findings: [], grepMalformed: false }
  const exported = Object.keys(resolve?.variables ?? {}).filter((v) => PIP_PLACES[v] !== undefined)
  if (exported.length > 0) found.pipPlaces = new Set(exported)
  const enrich = onComplete(found)
  const held = resolve?.shellFunctions !== undefined && resolve.shellFunctions.size > 0 ? resolve.shellFunctions : undefined
  let resolver: Resolver | null = null
  let aliases: ShellAliases | null = null
  const expand = resolve !== undefined && (EXPANDABLE.test(prepared) || (exported.length > 0 && /\bpip/.test(prepared)))
  const eager = resolve !== undefined && (expand || resolve.locals !== undefined)
  const ctx: ParseCtx = newParseCtx(
    {
      complete: (cmd, c) => {
        resolver?.prefix(cmd)
        enrich(cmd, c)
        if (held !== undefined && callsHeldFunction(c, cmd, found.info[cmd.seq]?.head ?? -1, held)) found.findings.push(D.shellFunction)
        const heldExport = resolve?.shellKeepsVariables === true ? exportsHeldVariable(cmd, found.info[cmd.seq]?.head ?? -1, resolve.variables) : null
        if (heldExport !== null) {
          found.findings.push(heldExport.description)
          if (resolve?.variables === undefined) (found.heldExports ??= []).push(heldExport.name)
        }
        const assigned = resolve === undefined ? null : assigningExpansion(cmd, resolve.env)
        if (assigned !== null) found.findings.push(assigned)
        if (resolver === null && resolve !== undefined && cmd.cls === "exec" && worthResolving(cmd, found.info[cmd.seq]?.head ?? -1)) {
          resolver = new Resolver(ctx, found.info, resolve, false)
        }
        resolver?.command(cmd)
        if (cmd.cls === "exec" && !cmd.funcDef) {
          const head = found.info[cmd.seq]?.head ?? -1
          if (aliases !== null || (head >= 0 && cmd.words[head]?.value === "alias")) {
            aliases ??= new ShellAliases()
            aliases.command(c, cmd, head, PRIMARY.has(cmd.origin) ? "top" : "payload")
          }
        }
      },
      comment: (text, depth, c) => parseInto(c, text, "data", "comment", depth + 1, false),
      arith: (text) => {
        // `(( ${BASH_ENV:=10} ))`: the expansion assigns before the arithmetic is evaluated.
        const assigned = resolve === undefined ? null : assignmentsIn(text, resolve.env)
        if (assigned !== null) found.findings.push(assigned)
        return resolver?.arith(text)
      }
    },
    // Prose is re-read at each quoting level; bound the total so nesting cannot blow up.
    prepared.length * 16 + 16_384
  )
  if (eager && resolve !== undefined) resolver = new Resolver(ctx, found.info, resolve, expand)
  parseInto(ctx, prepared, "exec", "top", 0, true)
  resolver?.finish()
  // Read without the exports: a pip build asks for them (judged again with them, its variables are read above).
  if (found.pipBuilds === true && resolve?.variables === undefined) for (const v of Object.keys(PIP_PLACES)) resolver?.missing.add(v)
  return { ctx, ...found, resolution: resolver }
}
