/**
 * Programs whose command lines hand `!cmd` to a shell: file-transfer clients (sftp, ftp, lftp, smbclient, cadaver),
 * telnet (a line after its escape character ^])
 * and mail readers (mail, mailx, s-nail), in batch files, piped or typed text. A mail reader also runs the compose
 * escapes `~!cmd` and `~|cmd`, starts an editor on `~v`/`~e`, and its commands `|`, `pipe`, `sh` run programs;
 * `get`, `save`, `write`, `~w` write local files. A lone `!` starts an interactive shell that reads what follows.
 * Like a console's escapes, any of these asks, and the shell text is judged as shell too.
 */

/** What one line adds to the console's findings (the same shape consoleCommands collects). */
export interface BangCollect {
  runs: boolean
  readonly shell: Array<string>
  readonly writes: Array<string>
}

/** Commands that start a program (a shell, a pager, an editor) or run another file of commands. */
const RUNS = /^(?:sh|shell|pipe|pi|\||source|macdef|\$|edit|e|visual|v|exec|local|lpipe|cmd|!+)$/i
/** Commands that fetch or save into a local file (the last word); `lcd` changes where relative names land. */
const WRITES = /^(?:get|recv|reget|mget|newer|s|save|Save|w|write|copy|Copy|c|lcd|mirror|pget|output)$/

const unquote = (s: string): string => s.trim().replace(/^(['"])([\s\S]*)\1$/, "$2")

/** One line of commands; in a message being composed (`mail user < body`) only the `~` escapes are commands. */
export const bangLine = (line: string, c: BangCollect, compose = false): void => {
  // telnet's escape character (^]) puts it in command mode for the rest of the line.
  const t = line.trim().replace(/^\x1d\s*/, "")
  if (t === "" || t.startsWith("#") || (compose && !t.startsWith("~"))) return
  // `!cmd`, and the compose escapes `~!cmd` (run) and `~<!cmd` (insert its output).
  const escape = /^(?:~<?)?!/.exec(t)
  if (escape !== null) {
    c.runs = true
    const rest = t.slice(escape[0].length).trim()
    if (rest !== "") c.shell.push(rest)
    return
  }
  if (t.startsWith("~")) {
    // `~w file` writes the message; `~|cmd`, `~v`, `~e`, `~:cmd`/`~_cmd` (a command-mode command) run programs.
    const w = /^~w\s+(\S+)/.exec(t)
    if (w !== null) c.writes.push(unquote(w[1] ?? ""))
    else if (/^~[|ve:_.]/.test(t)) c.runs = true
    return
  }
  // A local file named `|cmd` (ftp's `get x |cmd`), or any other `|`: the text goes to a program.
  if (t.includes("|")) c.runs = true
  const words = t.split(/\s+/)
  const command = words[0] ?? ""
  if (RUNS.test(command)) c.runs = true
  else if (WRITES.test(command) && words.length > 1) {
    if (command === "lcd") c.runs = true
    else c.writes.push(unquote(words.at(-1) ?? ""))
  }
}

/** How each program takes commands: inline (`-c`, `-e`), from files (`-b`, `-f`), and its other valued options. */
interface BangArgs {
  readonly inline: ReadonlySet<string>
  readonly files: ReadonlySet<string>
  readonly valued: ReadonlySet<string>
  /** A mail reader: with a recipient it composes a message from its input. */
  readonly mail?: boolean
}

const SFTP: BangArgs = { inline: new Set(), files: new Set(["-b"]), valued: new Set(["-B", "-c", "-D", "-F", "-i", "-J", "-l", "-o", "-P", "-R", "-S", "-s", "-X"]) }
const MAIL: BangArgs = { mail: true, inline: new Set(), files: new Set(), valued: new Set(["-s", "-a", "-b", "-c", "-r", "-q", "-f", "-u", "-S", "-A", "-T", "-O", "-X", "-Y"]) }

export const BANG_PROGRAMS: Readonly<Record<string, BangArgs>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, BangArgs>, {
    sftp: SFTP,
    ftp: { inline: new Set(), files: new Set(), valued: new Set(["-P", "-s", "-o", "-T"]) },
    tnftp: { inline: new Set(), files: new Set(), valued: new Set(["-P", "-s", "-o", "-T"]) },
    pftp: { inline: new Set(), files: new Set(), valued: new Set(["-P", "-s", "-o", "-T"]) },
    lftp: { inline: new Set(["-c", "-e"]), files: new Set(["-f"]), valued: new Set(["-p", "-u"]) },
    smbclient: { inline: new Set(["-c", "--command"]), files: new Set(), valued: new Set(["-U", "-W", "-I", "-p", "-m", "-n", "-s", "-l", "-d", "-A", "-O", "-T", "-D", "-b", "-t", "-M", "-L"]) },
    cadaver: { inline: new Set(), files: new Set(), valued: new Set(["-p", "-r"]) },
    ncftp: { inline: new Set(), files: new Set(), valued: new Set(["-u", "-p", "-P", "-j"]) },
    yafc: { inline: new Set(), files: new Set(), valued: new Set(["-u", "-p", "-a"]) },
    // telnet with no host reads commands; on a connection, a line after ^] is one (`!cmd` runs locally).
    telnet: { inline: new Set(), files: new Set(), valued: new Set(["-l", "-e", "-n", "-b", "-X", "-k", "-S"]) },
    mail: MAIL,
    mailx: MAIL,
    "bsd-mailx": MAIL,
    "s-nail": MAIL,
    nail: MAIL,
    heirloom: MAIL
  })
)

export interface BangParsed {
  readonly inline: ReadonlyArray<string>
  readonly files: ReadonlyArray<string>
  readonly stdin: boolean
  readonly compose: boolean
}

/** The inline command texts, command files and whether standard input is commands, for a program of BANG_PROGRAMS. */
export const bangArgs = (spec: BangArgs, args: ReadonlyArray<string>): BangParsed => {
  const inline: string[] = []
  const files: string[] = []
  let stdin = true
  let operands = 0
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") {
      operands += args.length - i - 1
      break
    }
    if (!a.startsWith("-") || a === "-") {
      operands++
      continue
    }
    const [name, attached] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined]
    if (spec.inline.has(name)) {
      const v = attached ?? args[++i]
      if (v !== undefined) inline.push(...v.split(";"))
    } else if (spec.files.has(name)) {
      const v = attached ?? args[++i]
      // `sftp -b -` reads its batch from standard input.
      if (v !== undefined && v !== "-") {
        files.push(v)
        stdin = false
      }
    } else if (spec.valued.has(name) && attached === undefined) i++
  }
  return { inline, files, stdin, compose: spec.mail === true && operands > 0 }
}
