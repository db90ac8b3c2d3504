/**
 * Editors that run commands: vim's and ex's `:!cmd`, `:r !cmd`, `:w !cmd` and
 * range filters run shell commands, and vimscript (`:call system(…)`,
 * `:exe`, `:py3`, `:lua`, `:source`, a `\=` substitute) runs anything; ed
 * runs `!cmd`. They take these commands inline (`vim -c '…'`, `--cmd`,
 * `+cmd`), from script files (`-S`, `-u`, `-s`) and, in ex mode, from
 * standard input (`ed f <<EOF`, `vim -es < script`). emacs evaluates lisp
 * given with `--eval`, `-l`, `--script` or `-f`.
 *
 * Literal shell commands are handed back to be judged as shell; anything else
 * that runs code is reported, since what it runs is not spelled out.
 */
import type { EditorReader } from "../../../services/Approval.js"
import type { InputCommands } from "./inputCommands.js"
import { readsCode } from "./resolve/codeSources.js"

const VIM_FAMILY = new Set(["vi", "vim", "nvim", "view", "ex", "exim", "gvim", "vimdiff", "nvi", "elvis", "rvim", "rview", "vim.basic", "vim.tiny"])
const ED_FAMILY = new Set(["ed", "red"])
const EMACS_FAMILY = new Set(["emacs", "emacs-nox", "emacsclient"])
/** Every program this module reads commands for. */
export const EDITORS: ReadonlySet<string> = new Set([...VIM_FAMILY, ...ED_FAMILY, ...EMACS_FAMILY])

const NONE: InputCommands = { runs: false, payloads: [] }

/** vim's startup files that are not files: `-u NONE`, `-u NORC`, `-u DEFAULTS`. */
const NO_FILE = new Set(["NONE", "NORC", "DEFAULTS"])

/** A leading range: line numbers, marks, patterns, `%`, `.`, `$`, offsets, separators. */
const RANGE = /^(?:[\s.$%,;]|\d+|'[a-zA-Z<>[\]]|\/(?:[^/\\]|\\.)*\/?|\?(?:[^?\\]|\\.)*\??|[+-]\d*)*/
/**
 * Commands that read, write or edit through a shell: `r !cmd`, `w !cmd`, `e !cmd` (ed and vim alike). vim reads
 * `:w! f` and `:e! f` as forced, so there the space before `!` is required.
 */
const THROUGH_SHELL = /^(?:r(?:e(?:ad?)?)?\s*|(?:w(?:r(?:i(?:te?)?)?)?|e(?:d(?:it?)?)?)\s+)!/
/** ed: `r`, `e`, `E` (edit unconditionally), `w`, `W` (append) and `wq` take `!command` for a file. */
const ED_THROUGH_SHELL = /^(?:[reEW]|wq?)\s*!/
/**
 * vim commands that run code whose text is not a literal shell command: expressions and other languages, sourcing,
 * keystrokes, commands that run 'shell', 'makeprg' or 'grepprg', definitions run later, and modifiers that repeat a
 * command.
 */
const RUNS_CODE = new RegExp(
  "^(?:cal(?:l)?|exe(?:c(?:u(?:te?)?)?)?|ev(?:al)?|so(?:u(?:r(?:ce?)?)?)?|ru(?:n(?:t(?:i(?:me?)?)?)?)?|py\\w*|pyx\\w*|pyf\\w*|lua\\w*|perl\\w*|rub\\w*|tcl\\w*|mz\\w*|ter(?:m(?:i(?:n(?:al?)?)?)?)?|sh(?:e(?:ll?)?)?|l?mak(?:e)?|l?gr(?:e(?:p)?)?(?:add)?|let|unl(?:et)?|au(?:t(?:o(?:c(?:md?)?)?)?)?|com(?:m(?:a(?:nd?)?)?)?|fu(?:n(?:c(?:t(?:i(?:on?)?)?)?)?)?|def|cs(?:cope)?|argdo|bufdo|windo|tabdo|cdo|ldo|cfdo|lfdo|filt(?:er)?|diffpatch)$"
)
/** Modifiers that run the command after them (`:silent !cmd`, `:keepalt r !cmd`). */
const MODIFIER = /^(?:sil(?:ent)?!?|uns(?:ilent)?|vert(?:ical)?|bel(?:owright)?|abo(?:veleft)?|keep\w*|lockm(?:arks)?|noa(?:utocmd)?|hid(?:e)?|conf(?:irm)?|bro(?:wse)?|lefta(?:bove)?|rightb(?:elow)?|to(?:pleft)?|bo(?:tright)?|tab|verb(?:ose)?|sandbox|\d*verb(?:ose)?)\s+/

/** Functions that run programs or queue keystrokes, wherever an expression appears. */
const EXPRESSION_RUNS = /\b(?:system|systemlist|libcall\w*|job_start|jobstart|termopen|term_start|feedkeys|execute|eval|luaeval|py3?eval|pyxeval|rubyeval|perleval)\s*\(/

/** Commands that write the buffer (or a session, viminfo, output) to a file they name: `:w ~/.bashrc`, `:sav f`. */
const WRITES_FILE = /^(?:w(?:r(?:i(?:te?)?)?)?|wq|wqa(?:ll)?|xa?(?:it|ll)?|exi(?:t)?|up(?:d(?:a(?:te?)?)?)?|sav(?:e(?:as?)?)?|wn(?:e(?:xt?)?)?|wN(?:e(?:xt?)?)?|wp(?:r(?:e(?:v(?:i(?:o(?:us?)?)?)?)?)?)?|mks(?:e(?:s(?:s(?:i(?:on?)?)?)?)?)?|mkvie(?:w)?|mkv(?:i(?:m(?:rc?)?)?)?|wv(?:i(?:m(?:i(?:n(?:fo?)?)?)?)?)?|W|redi(?:r)?)!?\s+(?:>>?\s*)?(?:\+\+\S+\s+)*(\S.*)$/

/**
 * What an editor puts into a `!` command's text before the shell sees it: ed and vim replace an unescaped `%` with
 * the current file's name, vim `#` with the alternate file's, and the previous command for ed's leading `!` or any
 * unescaped `!` in vim's. Each is null when this text cannot tell (a name set by an earlier command the editor was
 * typed, a computed operand); "" when there is none (the editor then refuses the command).
 */
export interface ExState {
  file: string | null
  alternate: string | null
  previous: string | null
}

/** Nothing known: text typed into a running editor or a script read apart from its command line. */
const unknownState = (): ExState => ({ file: null, alternate: null, previous: null })

/** vim's other names for text only known when it runs: the word under the cursor, the script, the autocommand's file. */
const VIM_SPECIAL = /^<(?:cword|cWORD|cexpr|cfile|afile|abuf|amatch|sfile|stack|script|slnum|sflnum|client)>/

/**
 * A `!` command's text as the shell gets it, `%`, `#` and `!` replaced; null when a replacement is not known here.
 * A backslash keeps the next character (`\%`); the shell then reads it literally too.
 */
const substitute = (command: string, ed: boolean, state: ExState, fileName = false): string | null => {
  let text = command
  if (ed && text.startsWith("!")) {
    if (state.previous === null) return null
    text = state.previous + text.slice(1)
  }
  let out = ""
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? ""
    if (c === "\\") {
      out += text.slice(i, i + 2)
      i++
      continue
    }
    const rest = text.slice(i + 1)
    if (c === "%" || (!ed && c === "#")) {
      const name = c === "%" ? state.file : state.alternate
      // `%:h`, `%<`, `#2`, `##`: modified names, other buffers, the argument list.
      if (name === null || (!ed && /^(?::[a-zA-Z~.]|<|#|\d)/.test(rest))) return null
      out += name
    } else if (!ed && !fileName && c === "!") {
      if (state.previous === null) return null
      out += state.previous
    } else if (!ed && c === "<" && VIM_SPECIAL.test(text.slice(i))) return null
    else out += c
  }
  return out
}

/** A literal file name (nothing the editor or a shell would expand), else null. */
const literalName = (name: string): string | null => (name !== "" && !/[$`*?[{~%#<!\\]/.test(name) ? name : null)

/** vim commands that stay on the same file; any other one may change the current and alternate files. */
const VIM_SAME_FILE = /^(?:g(?:l(?:o(?:b(?:al?)?)?)?)?|v(?:g(?:l(?:o(?:b(?:al?)?)?)?)?)?|s(?:u(?:b(?:s(?:t(?:i(?:t(?:u(?:te?)?)?)?)?)?)?)?)?|&&?|~|d(?:e(?:l(?:e(?:te?)?)?)?)?|y(?:a(?:nk?)?)?|pu(?:t)?|j(?:o(?:in?)?)?|m(?:o(?:ve?)?)?|co(?:py?)?|t|[<>]+|se(?:t)?|setl(?:ocal)?|setg(?:lobal)?|sy(?:ntax)?|filet(?:ype)?|hi(?:ghlight)?|q(?:u(?:it?)?)?|qa(?:ll)?|wq|x(?:it)?|u(?:n(?:do?)?)?|red(?:o)?|ret(?:ab)?|sor(?:t)?|le(?:ft)?|ce(?:nter)?|ri(?:ght)?|noh(?:lsearch)?|ec(?:ho)?|ma(?:rk)?|k|p(?:r(?:i(?:nt?)?)?)?|nu(?:mber)?|l(?:i(?:st?)?)?|=|a(?:ppend)?|i(?:nsert)?|c(?:hange)?)!?$/

/** How a command that is not a `!` command changes the files `%` and `#` name. */
const follow = (rest: string, ed: boolean, state: ExState): void => {
  const m = /^([A-Za-z]+|[&~<>=]+)(!?)\s*(.*)$/.exec(rest)
  if (m === null) return
  const [, word = "", , argument = ""] = m
  const arg = literalName(argument.trim())
  if (ed) {
    if (argument.trim().startsWith("!") || argument.trim() === "") return
    if (/^[eEf]$/.test(word)) state.file = arg
    else if (/^(?:[rwW]|wq)$/.test(word) && state.file === "") state.file = arg
    return
  }
  const named = argument.trim() !== ""
  if (/^(?:e(?:d(?:it?)?)?|vi(?:s(?:u(?:al?)?)?)?|vie(?:w)?|f(?:i(?:le?)?)?|sav(?:e(?:as?)?)?)$/.test(word)) {
    if (!named) return
    state.alternate = state.file
    state.file = arg
  } else if (/^(?:r(?:e(?:ad?)?)?|w(?:r(?:i(?:te?)?)?)?)$/.test(word)) {
    if (named) state.alternate = arg
  } else if (!VIM_SAME_FILE.test(word + m[2])) {
    state.file = null
    state.alternate = null
  }
}

export interface ExCommands {
  readonly runs: boolean
  readonly shell: ReadonlyArray<string>
  /** Files the commands write: judged as writes, as a redirect to them would be. */
  readonly writes: ReadonlyArray<string>
}

/** A command that runs what it reads on standard input (`sh`, `python3`, `env bash`). */
const feedsCode = (command: string): boolean => {
  const words = command.split(/\s+/).filter((w) => w !== "" && !/^[A-Za-z_]\w*=/.test(w) && w !== "env" && w !== "sudo" && w !== "exec")
  const program = words[0] ?? ""
  return program.includes("$") || readsCode(program.slice(program.lastIndexOf("/") + 1).toLowerCase())
}

/** One ex command (vim's `|` already split off): the shell command it runs, or whether it runs code otherwise. */
const exCommand = (line: string, ed: boolean, shell: string[], writes: string[], state: ExState): boolean => {
  const trimmed = line.replace(/^[\s:]+/, "")
  if (trimmed === "" || trimmed.startsWith("\"")) return false
  let rest = trimmed.replace(RANGE, "")
  const ranged = rest.length < trimmed.length
  for (let m = MODIFIER.exec(rest); m !== null; m = MODIFIER.exec(rest)) rest = rest.slice(m[0].length).replace(RANGE, "")
  // The shell gets the text after the editor's substitutions; one it cannot know here makes the command computed.
  const run = (text: string): { command: string; computed: boolean } => {
    const done = substitute(text, ed, state)
    state.previous = done
    if (done === null) shell.push(text.trim())
    return { command: (done ?? text).trim(), computed: done === null }
  }
  if (rest.startsWith("!")) {
    // ed's `!!` and vim's `:!!` repeat the previous command: the second `!` is substituted like any other.
    const { command, computed } = run(rest.slice(1))
    shell.push(command)
    // `:%!sh` filters the lines through the command: a shell or interpreter runs them.
    return computed || (ranged && feedsCode(command))
  }
  const through = (ed ? ED_THROUGH_SHELL : THROUGH_SHELL).exec(rest)
  if (through !== null) {
    const { command, computed } = run(rest.slice(through[0].length))
    shell.push(command)
    // `:w !sh` writes the lines to the command's input.
    return computed || (/^[wW]/.test(rest) && feedsCode(command))
  }
  // A write's file name is expanded with the names before the command (`:sav %.bak` renames after).
  const before: ExState = { ...state }
  // A file opened or named (`:e .git/config`, ed's `f f`) is the one a bare `:w` later writes: a write of it.
  const named = openedFile(rest, ed, before)
  if (named !== null && named !== "") writes.push(named)
  follow(rest, ed, state)
  // `:e +cmd file`, `:sp +cmd f`, `:n +cmd`: vim runs cmd as an ex command once the file is open (`\ ` is a space).
  const opened = !ed && plusCommands(rest).map((c) => exCommand(c, false, shell, writes, state)).some((r) => r)
  return afterFollow(rest, ed, shell, writes, state, before) || opened || named === null
}

/** vim commands that open a file, or name the buffer's file, which a later bare `:w`, `:wq` or `:x` writes. */
const OPENS_FILE =
  /^(?:e(?:d(?:it?)?)?|vi(?:s(?:u(?:al?)?)?)?|vie(?:w)?|sv(?:iew)?|sp(?:l(?:it?)?)?|vs(?:p(?:l(?:it?)?)?)?|new|vne(?:w)?|tabe(?:d(?:it?)?)?|tabnew|tabf(?:i(?:nd?)?)?|f(?:i(?:le?)?)?|bad(?:d)?|balt|arga(?:d(?:d)?)?|arge(?:d(?:it?)?)?|n(?:e(?:xt?)?)?|ar(?:g(?:s)?)?|fin(?:d)?|sf(?:i(?:nd?)?)?|dr(?:op?)?)$/

/**
 * The file a command opens or names for the buffer (`:e f`, `:sp f`, `:file f`; ed's `e f`, `E f`, `f f`): "" when
 * none, null when only the editor knows it (vim's `%:h`, `$VAR`, a backtick). A `+cmd` or `++opt` before it is skipped.
 */
const openedFile = (rest: string, ed: boolean, state: ExState): string | null => {
  if (ed) {
    const m = /^[eEf]\s+(\S.*)$/.exec(rest)
    const name = (m?.[1] ?? "").trim()
    return name.startsWith("!") ? "" : name
  }
  const m = /^([A-Za-z]+)!?\s+(.*)$/.exec(rest)
  if (m === null || !OPENS_FILE.test(m[1] ?? "")) return ""
  const words = (m[2] ?? "").split(/(?<!\\)\s+/).filter((w) => w !== "" && !w.startsWith("+"))
  return words.length === 0 ? "" : writtenFile(words.join(" "), state)
}

/** The `+cmd` arguments of a vim command that opens a file (`:e +cmd f`; not `++opt`, and `+N`/`+/pat` run nothing). */
const plusCommands = (rest: string): ReadonlyArray<string> => {
  const args = /^[A-Za-z]+!?\s+(.*)$/.exec(rest)?.[1]
  if (args === undefined) return []
  const out: string[] = []
  for (const m of args.matchAll(/(?:^|\s)\+(?!\+)((?:[^\s\\]|\\.)+)/g)) out.push((m[1] ?? "").replace(/\\(\s)/g, "$1"))
  return out
}

/**
 * vim options whose value is a program it runs (`equalprg` on `=`, `formatprg` on `gq`, `keywordprg` on `K`, the
 * shell and its flags), an expression it evaluates, or folders it loads code from (`runtimepath`: ftplugins): set,
 * a harmless key (`:norm gg=G`) runs it.
 */
const PROGRAM_OPTIONS = new Set([
  "shell", "sh", "shellcmdflag", "shcf", "shellpipe", "sp", "shellredir", "srr", "shellquote", "shq", "shellxquote",
  "sxq", "shellxescape", "sxe", "makeprg", "mp", "grepprg", "gp", "keywordprg", "kp", "equalprg", "ep", "formatprg",
  "fp", "cscopeprg", "csprg", "diffexpr", "dex", "patchexpr", "pex", "charconvert", "ccv", "printexpr", "pexpr",
  "foldexpr", "fde", "foldtext", "fdt", "indentexpr", "inde", "includeexpr", "inex", "formatexpr", "fex",
  "completefunc", "cfu", "omnifunc", "ofu", "operatorfunc", "opfunc", "tagfunc", "tfu", "thesaurusfunc", "tsrfu",
  "findfunc", "ffu", "balloonexpr", "bexpr", "statusline", "stl", "tabline", "tal", "titlestring", "iconstring",
  "rulerformat", "ruf", "quickfixtextfunc", "qftf", "imactivatefunc", "imaf", "imstatusfunc", "imsf",
  "runtimepath", "rtp", "packpath", "pp", "modelineexpr", "mle"
])

/** `:set opt=value …` naming one of PROGRAM_OPTIONS (any of `=`, `+=`, `^=`, `-=`, or `no`/`inv` for the flags). */
const setsProgramOption = (rest: string): boolean => {
  const args = /^(?:se(?:t)?|setl(?:ocal)?|setg(?:lobal)?)!?\s+(.*)$/.exec(rest)?.[1]
  if (args === undefined) return false
  return [...args.matchAll(/(?:^|\s)(?:no|inv)?([a-z]+)/g)].some((m) => PROGRAM_OPTIONS.has(m[1] ?? ""))
}

const afterFollow = (rest: string, ed: boolean, shell: string[], writes: string[], state: ExState, before: ExState): boolean => {
  const written = WRITES_FILE.exec(rest)
  if (written !== null) {
    const target = (written[1] ?? "").trim()
    if (ed) {
      if (!target.startsWith("!")) writes.push(target)
      return false
    }
    const file = writtenFile(target.replace(/^@$|^"[a-zA-Z]$/, ""), before)
    if (file === null) return true
    writes.push(file)
    return false
  }
  if (ed) return false
  // `:g/pat/cmd`, `:v/pat/cmd`: cmd runs on every matching line.
  const global = /^(?:g(?:l(?:o(?:b(?:al?)?)?)?)?!?|v(?:g(?:l(?:o(?:b(?:al?)?)?)?)?)?)\s*([^\w\s"|])/.exec(rest)
  if (global !== null) {
    const d = global[1] ?? "/"
    let i = global[0].length
    while (i < rest.length && rest[i] !== d) i += rest[i] === "\\" ? 2 : 1
    return exCommand(rest.slice(i + 1), ed, shell, writes, state)
  }
  // `:s/a/\=expr/`: the replacement is an expression.
  if (/^s(?:u(?:b(?:s(?:t(?:i(?:t(?:u(?:te?)?)?)?)?)?)?)?)?\W/.test(rest) && rest.includes("\\=")) return true
  if (EXPRESSION_RUNS.test(rest)) return true
  // `:@a`, `:@@`, `:@:`: a register's text (a yanked line of the file) runs as ex commands.
  if (rest.startsWith("@")) return true
  if (setsProgramOption(rest)) return true
  // `:colorscheme NAME` / `:compiler NAME` source `colors/NAME.vim` / `compiler/NAME.vim` from 'runtimepath': a NAME
  // with a `/` climbs out of it to any file (`../../../tmp/x`).
  if (/^(?:colo(?:r(?:s(?:c(?:h(?:e(?:me?)?)?)?)?)?)?|comp(?:i(?:l(?:er?)?)?)?)!?\s+\S*\//.test(rest)) return true
  const word = /^[A-Za-z]\w*!?/.exec(rest)?.[0] ?? ""
  // `:normal keys` types keys: harmless unless they reach a command line, ex mode, a register or a control key.
  if (/^norm(?:al)?!?$/.test(word)) return /[:!Q@\x00-\x1f]/.test(rest.slice(word.length))
  return RUNS_CODE.test(word)
}

/**
 * The file a vim write command names, as vim expands it: `%` and `#` become the current and alternate file
 * (`:w repo/.%/config` with `git` open writes `repo/.git/config`). Null when only vim knows it: a name it does not
 * know here or a modified one (`%:h`, `%<`), a variable (`$HOME`), a backtick command or expression (`` `cmd` ``,
 * which also runs), or the text under the cursor. A `~` is left for the redirect to expand.
 */
const writtenFile = (target: string, state: ExState): string | null => {
  if (/[`$]/.test(target.replace(/\\./g, ""))) return null
  const done = substitute(target, false, state, true)
  return done === null ? null : done.replace(/\\(.)/g, "$1")
}

/** ex/vim (or ed) command text: the shell commands it spells out, and whether it runs code otherwise. */
export const exCommands = (text: string, ed: boolean, state: ExState = unknownState()): ExCommands => {
  const shell: string[] = []
  const writes: string[] = []
  let runs = false
  for (const line of text.split(/\r?\n|\r/)) {
    if (ed) {
      runs = exCommand(line, true, shell, writes, state) || runs
      continue
    }
    // `|` separates commands, except after `!` (the shell gets the rest) and inside `:g`.
    let rest = line
    while (rest !== "") {
      const bar = /(?<!\\)\|/.exec(rest)
      const body = rest.replace(/^[\s:]+/, "").replace(RANGE, "")
      if (bar === null || body.startsWith("!") || THROUGH_SHELL.test(body) || /^(?:g|v)\w*!?\s*[^\w\s"|]/.test(body)) {
        runs = exCommand(rest, false, shell, writes, state) || runs
        break
      }
      runs = exCommand(rest.slice(0, bar.index), false, shell, writes, state) || runs
      rest = rest.slice(bar.index + 1)
    }
  }
  return { runs, shell, writes: writes.filter((w) => w !== "") }
}

/** A file an editor writes, as a shell redirect, so the write rules judge it (`: > '~/.bashrc'` keeps the `~`). */
export const asRedirect = (path: string): string =>
  path.startsWith("~/") ? `: > ~/'${path.slice(2).replaceAll("'", "'\\''")}'` : `: > '${path.replaceAll("'", "'\\''")}'`

/** The shell text an editor's commands amount to: the commands it runs, and a redirect for each file it writes. */
export const exShellText = (ex: ExCommands): ReadonlyArray<string> => [...ex.shell, ...ex.writes.map(asRedirect)]

const merge = (parts: ReadonlyArray<ExCommands>): InputCommands => ({
  runs: parts.some((p) => p.runs),
  payloads: parts.flatMap((p) => exShellText(p).map((text) => ({ text, arg: -1 })))
})

/** An ex-mode editor: its standard input is commands (ed always; vim with `-e`/`-E`, or started as ex). */
export const readsCommandsFromStdin = (name: string, args: ReadonlyArray<string>): boolean =>
  ED_FAMILY.has(name) || name === "ex" || name === "exim" || (VIM_FAMILY.has(name) && args.some((a) => /^-[a-zA-Z]*[eE][a-zA-Z]*$/.test(a)))

/**
 * How text typed into a running editor is read. ed and ex mode read it as commands; vim on a terminal reads keys,
 * where a line starting with `:` is one command, and `:`, `!` (a filter), `Q`/`gQ` (ex mode), `@` (a register) or a
 * control key elsewhere may open a command line this text does not show whole.
 */
export const editorReader = (name: string, args: ReadonlyArray<string>): EditorReader | null => {
  if (ED_FAMILY.has(name)) return "ed-commands"
  if (PAGERS.has(name)) return "pager-keys"
  if (!VIM_FAMILY.has(name)) return null
  return readsCommandsFromStdin(name, args) ? "ex-commands" : "vim-keys"
}

/** Pagers whose keys run shell text (man shows its page in one), on a terminal the process tool gives them. */
const PAGERS = new Set(["less", "more", "most", "pg", "man"])

/**
 * A pager's keys: a line `!cmd` (more: also `:!cmd`) runs cmd with `%` (the file shown), `#` (the previous one) and
 * `!` (the previous command) put in, as vim does; `|m cmd` pipes to cmd. A `!` or `|` after other keys, or a
 * control key, may start one this text does not show whole.
 */
const pagerKeys = (text: string): ExCommands => {
  const commands: string[] = []
  const saved: string[] = []
  let other = false
  for (const line of text.split(/\r?\n|\r/)) {
    const start = line.replace(/^ +/, "")
    if (start.startsWith("!") || start.startsWith(":!")) commands.push(start.replace(/^:/, ""))
    // The lines shown go to the command's input, as vim's `:w !cmd` sends them (a shell then runs the file's text).
    else if (start.startsWith("|")) commands.push(`w !${start.slice(2)}`)
    else if (/[!|\x00-\x08\x0b-\x1f\x7f]/.test(start)) other = true
    const save = pagerSave(start)
    if (save === null) other = true
    else if (save !== "") saved.push(save)
  }
  const ex = exCommands(commands.join("\n"), false)
  const withSaves = { ...ex, writes: [...ex.writes, ...saved] }
  return other ? { ...withSaves, runs: true } : withSaves
}

/** less's keys that open a prompt whose text runs to the end of the line (a search, a file to examine, an ex-style command). */
const PAGER_PROMPTS = new Set(["/", "?", "&", ":", "E", "!", "|", "+", "#"])

/**
 * The file a line of less's keys saves to: `s NAME` (a piped input, saved whole), `-o NAME`/`-O NAME` (the log file
 * option set while it runs), after any single-key commands and counts before them. "" when the line saves nothing;
 * null when it may save to a file it does not show (a long option such as `--log-file`, whose name comes next).
 */
const pagerSave = (line: string): string | null => {
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? ""
    if (PAGER_PROMPTS.has(c)) return ""
    // `m x` and `' x` take one letter.
    if (c === "m" || c === "'") {
      i++
      continue
    }
    if (c === "s") return line.slice(i + 1).trim()
    if (c === "-" || c === "_") {
      const option = line.slice(i + 1)
      if (option.startsWith("-")) return c === "-" && /^-l/i.test(option) ? null : ""
      return c === "-" && /^[oO]/.test(option) ? option.slice(1).trim() : ""
    }
  }
  return ""
}

/** The commands text typed into a running editor amounts to; the file names and previous command are not known. */
export const typedEditorInput = (reader: EditorReader, text: string): ExCommands => {
  if (reader === "pager-keys") return pagerKeys(text)
  const ex = exCommands(text, reader === "ed-commands")
  if (reader !== "vim-keys") return ex
  const keys = text.split(/\r?\n|\r/).some((line) => {
    const start = line.replace(/^ +/, "")
    return !start.startsWith(":") && /[:!Q@\x00-\x08\x0b-\x1f\x7f]/.test(start)
  })
  return keys ? { ...ex, runs: true } : ex
}

/** The script files vim runs: `-S file`, `-u vimrc`, `-s scriptin` (keystrokes). */
export const editorScripts = (name: string, args: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (!VIM_FAMILY.has(name)) return []
  const out: string[] = []
  const exMode = readsCommandsFromStdin(name, args)
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") break
    const value = args[i + 1]
    if ((a === "-S" || a === "-u" || a === "-U" || (a === "-s" && !exMode)) && value !== undefined && !value.startsWith("-")) {
      if (!NO_FILE.has(value)) out.push(value)
      i++
    }
  }
  return out
}

/** Options of ed that take a value (`-p prompt`). */
const ED_VALUED = new Set(["-p", "--prompt"])
/** Options of vim that take a value; `-t tag`, `-q errors` and remote editing open a file the line does not name. */
const VIM_VALUED = new Set(["-c", "--cmd", "-S", "-u", "-U", "-i", "-T", "-w", "-W", "--startuptime", "--log", "--servername", "--socketid", "-V"])
const VIM_OTHER_FILE = /^(?:-[tq]|--remote)/

/** The state an editor starts in: its file operand is `%` (none: ""; computed, or opened another way: unknown). */
const startState = (name: string, args: ReadonlyArray<string>): ExState => {
  const ed = ED_FAMILY.has(name)
  let file: string | null = ""
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--" || a === "-") {
      if (a === "--" && args[i + 1] !== undefined) file = literalName(args[i + 1] ?? "")
      break
    }
    if (!ed && VIM_OTHER_FILE.test(a)) return { file: null, alternate: null, previous: "" }
    if ((ed ? ED_VALUED : VIM_VALUED).has(a) || (!ed && a === "-s" && !readsCommandsFromStdin(name, args))) {
      i++
      continue
    }
    if (a.startsWith("-") || a.startsWith("+")) continue
    // `ed !cmd` reads a command's output and names no file.
    file = ed && a.startsWith("!") ? "" : literalName(a)
    break
  }
  return { file, alternate: "", previous: "" }
}

/** vim's commands from its command line, in order: `--cmd`, `-c` and `+cmd`. */
const argumentCommands = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") break
    if ((a === "-c" || a === "--cmd") && i + 1 < args.length) out.push(args[++i] ?? "")
    else if (a.startsWith("+") && a.length > 1 && !/^\+\d*$/.test(a) && !a.startsWith("+/") && !a.startsWith("+?")) out.push(a.slice(1))
  }
  return out
}

/**
 * The commands an ex-mode editor reads on its standard input. With the editor's arguments (a here-document on its
 * command line), `%` is its file after the commands those arguments run; without them (text typed into a running
 * editor), the file names and the previous command are unknown.
 */
export const editorInput = (name: string, text: string, args?: ReadonlyArray<string>): InputCommands => {
  const ed = ED_FAMILY.has(name)
  if (args === undefined) return merge([exCommands(text, ed)])
  const state = startState(name, args)
  if (!ed) for (const c of argumentCommands(args)) exCommands(c, false, state)
  return merge([exCommands(text, ed, state)])
}

/** What an editor runs from its command line, and (when it is given) the command text on its standard input. */
export const editorCommands = (name: string, args: ReadonlyArray<string>, stdin: string | null): InputCommands => {
  if (EMACS_FAMILY.has(name)) {
    return { runs: args.some((a) => /^--?(?:eval|execute|load|script|funcall|l|f|x)(?:=|$)/.test(a)), payloads: [] }
  }
  const ed = ED_FAMILY.has(name)
  if (!ed && !VIM_FAMILY.has(name)) return NONE
  const state = startState(name, args)
  const parts: ExCommands[] = ed ? [] : argumentCommands(args).map((c) => exCommands(c, false, state))
  if (stdin !== null && readsCommandsFromStdin(name, args)) parts.push(exCommands(stdin, ed, state))
  return merge(parts)
}
