/**
 * Consoles with a shell escape: sqlite3 (`.shell`, `.system`, `.once '|cmd'`),
 * gdb (`shell`, `!`, `pipe`, `python`, `run` through the shell), psql (`\!`,
 * `\o |cmd`, `COPY … PROGRAM`) and mysql/mariadb (`\!`, `system`, `pager`).
 * They take these commands inline (`sqlite3 db '.shell …'`, `gdb -ex …`,
 * `psql -c …`, `mysql -e …`), from files (`sqlite3 -init`, `gdb -x`,
 * `psql -f`) and from standard input (`sqlite3 db < s.sql`, a heredoc).
 * The `!cmd` lines of sftp, ftp, lftp, telnet and mail (bangConsoles.ts) are
 * read the same way.
 *
 * Any escape asks: a console that starts programs is not an ordinary agent
 * step, and what it hands the shell is often quoted in the console's own way.
 * Its text is also handed back to be judged as shell (a hardline `rm -rf /`
 * stays one). Files the console writes (`.output f`, `\o f`, `tee f`, gdb's
 * log) are judged as writes, as a redirect to them would be. Plain SQL and
 * debugging commands stay quiet.
 */
import type { ConsoleName, EditorReader } from "../../../services/Approval.js"
import { asRedirect, type ExCommands, typedEditorInput } from "./editorCommands.js"
import type { InputCommands } from "./inputCommands.js"
import { readsCode } from "./resolve/codeSources.js"
import { bangArgs, bangLine, BANG_PROGRAMS } from "./bangConsoles.js"
import { lookupTable } from "../../../lib/lookupTable.js"

export type Console = ConsoleName

const NAMES: Readonly<Record<string, Console>> = lookupTable({
  sqlite3: "sqlite3",
  sqlite: "sqlite3",
  gdb: "gdb",
  "gdb-multiarch": "gdb",
  psql: "psql",
  mysql: "mysql",
  mariadb: "mysql",
  ...Object.fromEntries(Object.keys(BANG_PROGRAMS).map((name) => [name, "bang-lines"]))
})

const CONSOLES: ReadonlySet<string> = new Set<Console>([...Object.values(NAMES), "mail-compose"])
const EDITOR_READERS: ReadonlySet<string> = new Set<EditorReader>(["ed-commands", "ex-commands", "vim-keys", "pager-keys"])
/** A console, or an editor whose typed commands are judged the same way (consoleText). */
export const isConsole = (reader: string | undefined): reader is Console | EditorReader =>
  reader !== undefined && (CONSOLES.has(reader) || EDITOR_READERS.has(reader))

/** The console program `name` (basename, lower-cased) is, or null. */
export const consoleOf = (name: string): Console | null => NAMES[name] ?? null

/** A program whose standard input may be code or commands: a shell, an interpreter, a console. */
export const readsCodeOrCommands = (name: string): boolean => readsCode(name) || NAMES[name] !== undefined

interface Collect {
  runs: boolean
  readonly shell: Array<string>
  readonly writes: Array<string>
}

/** A console argument with its quotes taken off (`'|sh'`, `"~/.bashrc"`). */
const unquote = (s: string): string => s.trim().replace(/^(['"])([\s\S]*)\1$/, "$2")

/** Functions SQL can call that start a program or load native code. */
const SQL_RUNS = /\b(?:load_extension|edit|writefile|fts3_tokenizer)\s*\(|\b(?:to|from)\s+program\b|\blo_(?:import|export)\s*\(|\bpg_read_(?:binary_)?file\s*\(|\binto\s+(?:out|dump)file\b|\bload_file\s*\(/i

const sqliteLine = (line: string, c: Collect): void => {
  const t = line.trimStart()
  if (!t.startsWith(".")) {
    if (SQL_RUNS.test(t)) c.runs = true
    return
  }
  const m = /^\.(\S+)\s*([\s\S]*)$/.exec(t)
  const command = m?.[1] ?? ""
  const rest = (m?.[2] ?? "").trim()
  if (/^(?:sh(?:e(?:ll?)?)?|sy(?:s(?:t(?:em?)?)?)?)$/.test(command)) {
    c.runs = true
    if (rest !== "") c.shell.push(rest)
    return
  }
  // .read/.load run another file or native code; .excel, .once -x/-e open an application through the shell.
  if (/^(?:rea?d?|loa?d?|excel|ex)$/.test(command) && command.length > 1) {
    c.runs = true
    return
  }
  if (/^(?:output|out|o|once|on|import|imp|save|backup|bac|log)$/.test(command)) {
    // `.output` / `.once` / `.import` take options first; the file (or `|cmd`) is the first word that is not one.
    const words = rest.split(/\s+/).filter((w) => w !== "")
    const target = words.find((w) => !w.startsWith("-"))
    if (words.some((w) => /^-[ewx]$/.test(w)) || (target !== undefined && /^['"]?\|/.test(target))) {
      c.runs = true
      return
    }
    if (command.startsWith("imp")) return
    const file = command.startsWith("bac") || command === "save" ? words.at(-1) : target
    if (file !== undefined) c.writes.push(unquote(file))
  }
}

/** gdb's commands: first words, with the abbreviations gdb accepts. */
const GDB_SHELL = /^(?:she(?:ll?)?|!)\s*/
const GDB_RUNS = /^(?:pipe|\||py(?:t(?:h(?:on?)?)?)?|python-interactive|pi|gu(?:i(?:le?)?)?|guile-repl|gr|so(?:u(?:r(?:ce?)?)?)?|compile|expression|jit-reader-load|add-auto-load-safe-path|add-auto-load-scripts-directory|dump|append|restore|gcore|generate-core-file|target|tar(?:g(?:et?)?)?)$/
const GDB_RUN = /^(?:r(?:un?)?|start|starti)$/

const gdbLine = (line: string, c: Collect): void => {
  const t = line.trim()
  if (t === "" || t.startsWith("#")) return
  const shell = GDB_SHELL.exec(t)
  if (shell !== null && (t.startsWith("!") || /^she/.test(t))) {
    c.runs = true
    const rest = t.slice(shell[0].length)
    if (rest !== "") c.shell.push(rest)
    return
  }
  const word = /^[A-Za-z|][\w-]*|^\|/.exec(t)?.[0] ?? ""
  const rest = t.slice(word.length).trim()
  if (GDB_RUNS.test(word)) {
    c.runs = true
    return
  }
  // `run ARGS`: gdb starts the program through the shell, which expands ARGS (`run $(./x)`).
  if (GDB_RUN.test(word)) {
    if (rest !== "") c.shell.push(`: ${rest}`)
    return
  }
  if (word === "make") {
    c.shell.push(`make ${rest}`)
    return
  }
  // `file ./x` / `exec-file ./x`: the program a later `run` starts.
  if (word === "file" || word === "exec-file") {
    if (rest !== "") c.shell.push(rest)
    return
  }
  // The program under debugging is told to run something: `call system("…")`, a wrapper, a preloaded library.
  if (/^(?:call|p(?:r(?:i(?:nt?)?)?)?|output|set)$/.test(word) && /\b(?:system|exec\w*|popen|dlopen)\s*\(/.test(rest)) {
    c.runs = true
    return
  }
  if (word === "set" || word === "se") {
    if (/^(?:exec-wrapper|startup-with-shell\s+on|env(?:ironment)?\s+(?:LD_|BASH_ENV|ENV\b|NODE_OPTIONS|PYTHON|PERL5|RUBYOPT))/.test(rest)) c.runs = true
    const log = /^logging\s+file\s+(\S+)/.exec(rest)
    if (log !== null) c.writes.push(unquote(log[1] ?? ""))
    return
  }
  if (word === "save") {
    const m = /^\S+\s+(\S+)/.exec(rest)
    if (m !== null) c.writes.push(unquote(m[1] ?? ""))
  }
}

const psqlLine = (line: string, c: Collect): void => {
  const t = line.trim()
  if (SQL_RUNS.test(t)) c.runs = true
  // Meta-commands may follow SQL on the same line (`select 1 \g |sh`).
  for (const m of t.matchAll(/\\([a-zA-Z_!]+)\s*([^\\]*)/g)) {
    const command = m[1] ?? ""
    const rest = (m[2] ?? "").trim()
    if (command === "!") {
      c.runs = true
      if (rest !== "") c.shell.push(rest)
    } else if (/^(?:i|ir|include|include_relative|e|edit|ef|ev|setenv|gexec|copy)$/.test(command)) {
      if (command !== "copy" || /\bprogram\b/i.test(rest)) c.runs = true
    } else if (/^(?:o|out|g|gx|w|write)$/.test(command) && rest !== "") {
      const target = unquote(rest)
      if (target.startsWith("|")) c.runs = true
      else c.writes.push(target.split(/\s+/)[0] ?? "")
    }
  }
}

const mysqlLine = (line: string, c: Collect): void => {
  const t = line.trim()
  if (SQL_RUNS.test(t)) c.runs = true
  const m = /^(?:\\!|system\b)\s*([\s\S]*)$/i.exec(t)
  if (m !== null) {
    c.runs = true
    if ((m[1] ?? "") !== "") c.shell.push(m[1] ?? "")
    return
  }
  if (/^(?:source\b|\\\.|pager\b|\\P|edit\b|\\e)/i.test(t)) {
    c.runs = true
    return
  }
  const tee = /^(?:tee\b|\\T)\s*(\S+)/i.exec(t)
  if (tee !== null) c.writes.push(unquote(tee[1] ?? ""))
}

const LINE: Readonly<Record<Console, (line: string, c: Collect) => void>> = {
  sqlite3: sqliteLine,
  gdb: gdbLine,
  psql: psqlLine,
  mysql: mysqlLine,
  "bang-lines": (line, c) => bangLine(line, c),
  "mail-compose": (line, c) => bangLine(line, c, true)
}

/** A console's command text: the shell commands it spells out, the files it writes, and whether it runs code otherwise. */
export const consoleText = (console: Console | EditorReader, text: string): ExCommands => {
  if (console === "ed-commands" || console === "ex-commands" || console === "vim-keys" || console === "pager-keys") return typedEditorInput(console, text)
  const c: Collect = { runs: false, shell: [], writes: [] }
  for (const line of text.split(/\r?\n|\r/)) LINE[console](line, c)
  return { runs: c.runs, shell: c.shell, writes: c.writes.filter((w) => w !== "") }
}

interface Parsed {
  /** Command texts given inline. */
  readonly inline: ReadonlyArray<string>
  /** Files it reads commands from. */
  readonly files: ReadonlyArray<string>
  /** Whether its standard input is commands. */
  readonly stdin: boolean
  /** Files its options name for output. */
  readonly writes: ReadonlyArray<string>
}

/** `--name=value`, `-name value` (gdb and sqlite3 take one dash or two). */
const optionValue = (args: ReadonlyArray<string>, i: number): readonly [string | undefined, number] => {
  const a = args[i] ?? ""
  const eq = a.indexOf("=")
  return eq >= 0 ? [a.slice(eq + 1), i] : [args[i + 1], i + 1]
}

const SQLITE_VALUED = new Set(["-separator", "-newline", "-nullvalue", "-vfs", "-maxsize", "-mmap", "-escape", "-quote"])

const sqliteArgs = (args: ReadonlyArray<string>): Parsed => {
  const inline: string[] = []
  const files: string[] = []
  let operands = 0
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    const option = a.startsWith("--") ? a.slice(1) : a
    const name = option.split("=")[0] ?? ""
    if (operands === 0 && option.startsWith("-") && option.length > 1) {
      if (name === "-init" || name === "-cmd") {
        const [value, next] = optionValue(args, i)
        i = next
        if (value !== undefined) (name === "-init" ? files : inline).push(value)
      } else if (SQLITE_VALUED.has(name) && !option.includes("=")) i++
      else if (name === "-version" || name === "-help") return { inline: [], files: [], stdin: false, writes: [] }
      continue
    }
    // The database, then SQL or dot-commands, one per argument.
    if (operands++ > 0) inline.push(a)
  }
  return { inline, files, stdin: operands <= 1, writes: [] }
}

const GDB_COMMAND_FILE = new Set(["-x", "-command", "-ix", "-init-command", "-eix", "-early-init-command"])
const GDB_COMMAND = new Set(["-ex", "-eval-command", "-iex", "-init-eval-command", "-eiex", "-early-init-eval-command"])
const GDB_VALUED = new Set(["-p", "-pid", "-c", "-core", "-s", "-symbols", "-e", "-exec", "-se", "-d", "-directory", "-cd", "-D", "-data-directory", "-b", "-l", "-tty", "-i", "-interpreter"])

const gdbArgs = (args: ReadonlyArray<string>): Parsed => {
  const inline: string[] = []
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--args") break
    if (!a.startsWith("-") || a === "-") continue
    const name = (a.startsWith("--") ? a.slice(1) : a).split("=")[0] ?? ""
    if (name === "-version" || name === "-help") return { inline: [], files: [], stdin: false, writes: [] }
    if (GDB_COMMAND_FILE.has(name) || GDB_COMMAND.has(name)) {
      const [value, next] = optionValue(args, i)
      i = next
      if (value !== undefined) (GDB_COMMAND.has(name) ? inline : files).push(value)
    } else if (GDB_VALUED.has(name) && !a.includes("=")) i++
  }
  // gdb reads commands from its input once the options' commands ran (-batch or not).
  return { inline, files, stdin: true, writes: [] }
}

const PSQL_VALUED = new Set(["-d", "-h", "-p", "-U", "-v", "-P", "-F", "-R", "-T", "--dbname", "--host", "--port", "--username", "--set", "--variable", "--pset", "--field-separator", "--record-separator", "--table-attr"])

const psqlArgs = (args: ReadonlyArray<string>): Parsed => {
  const inline: string[] = []
  const files: string[] = []
  const writes: string[] = []
  let stdin = true
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    const name = a.startsWith("--") ? (a.split("=")[0] ?? "") : a.slice(0, 2)
    const attached = a.startsWith("--") ? (a.includes("=") ? a.slice(a.indexOf("=") + 1) : undefined) : a.length > 2 ? a.slice(2) : undefined
    const value = (): string | undefined => attached ?? args[++i]
    if (name === "-c" || name === "--command") {
      const v = value()
      stdin = false
      if (v !== undefined) inline.push(v)
    } else if (name === "-f" || name === "--file") {
      const v = value()
      if (v !== undefined && v !== "-") {
        stdin = false
        files.push(v)
      }
    } else if (name === "-o" || name === "--output" || name === "-L" || name === "--log-file") {
      const v = value()
      if (v !== undefined) {
        if (v.startsWith("|")) inline.push(`\\! ${v.slice(1)}`)
        else writes.push(v)
      }
    } else if (name === "-l" || name === "--list" || name === "-V" || name === "--version") return { inline: [], files: [], stdin: false, writes: [] }
    else if (PSQL_VALUED.has(name) && attached === undefined) i++
  }
  return { inline, files, stdin, writes }
}

const MYSQL_VALUED = new Set(["-h", "-u", "-p", "-P", "-D", "-S", "--host", "--user", "--port", "--database", "--socket"])

const mysqlArgs = (args: ReadonlyArray<string>): Parsed => {
  const inline: string[] = []
  const writes: string[] = []
  let stdin = true
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    const [name, attached] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined]
    if (name === "-e" || name === "--execute" || name === "--init-command") {
      const v = attached ?? args[++i]
      if (name !== "--init-command") stdin = false
      if (v !== undefined) inline.push(...v.split(";"))
    } else if (name === "--pager") inline.push("pager") // every result goes through a program
    else if (name === "--tee") {
      const v = attached ?? args[++i]
      if (v !== undefined) writes.push(v)
    } else if (MYSQL_VALUED.has(name) && attached === undefined && name !== "-p") i++
  }
  return { inline, files: [], stdin, writes }
}

type ArgsOf = (args: ReadonlyArray<string>, program: string) => Parsed

/** sftp, ftp, mail…: each program's own options (bangConsoles.ts): inline commands, batch files, standard input. */
const bangConsoleArgs: ArgsOf = (args, program) => {
  const spec = BANG_PROGRAMS[program]
  if (spec === undefined) return { inline: [], files: [], stdin: true, writes: [] }
  const parsed = bangArgs(spec, args)
  return { inline: parsed.inline, files: parsed.files, stdin: parsed.stdin, writes: [] }
}

const ARGS: Readonly<Record<Console, ArgsOf>> = {
  sqlite3: sqliteArgs,
  gdb: gdbArgs,
  psql: psqlArgs,
  mysql: mysqlArgs,
  "bang-lines": bangConsoleArgs,
  "mail-compose": bangConsoleArgs
}

/** How `program`'s standard input is read: a mail reader given a recipient composes a message (only `~` escapes run). */
export const inputConsole = (console: Console, args: ReadonlyArray<string>, program: string): Console => {
  const spec = console === "bang-lines" ? BANG_PROGRAMS[program] : undefined
  return spec !== undefined && bangArgs(spec, args).compose ? "mail-compose" : console
}

/** Whether console `name`, run with `args`, reads commands from its standard input. */
export const consoleReadsStdin = (console: Console, args: ReadonlyArray<string>, program = ""): boolean => ARGS[console](args, program).stdin

/** The files a console reads commands from (`sqlite3 -init f`, `gdb -x f`, `psql -f f`, `sftp -b f`). */
export const consoleScripts = (console: Console, args: ReadonlyArray<string>, program = ""): ReadonlyArray<string> => ARGS[console](args, program).files

/** What a console runs from its command line, and (when it is given and read) the command text on its standard input. */
export const consoleCommands = (console: Console, args: ReadonlyArray<string>, stdin: string | null, program = ""): InputCommands => {
  const parsed = ARGS[console](args, program)
  const parts = parsed.inline.map((text) => consoleText(console, text))
  if (stdin !== null && parsed.stdin) parts.push(consoleText(inputConsole(console, args, program), stdin))
  parts.push({ runs: false, shell: [], writes: [...parsed.writes] })
  return {
    runs: parts.some((p) => p.runs),
    payloads: parts.flatMap((p) => [...p.shell, ...p.writes.map(asRedirect)].map((text) => ({ text, arg: -1 })))
  }
}
