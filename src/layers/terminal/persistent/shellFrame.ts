/**
 * What a persistent shell (`persistentShell.ts`) is sent and what it sends back.
 *
 * One long-lived `bash` reads commands from its stdin. Each command is one
 * frame: go to the tracked directory, export the command's own variables, run
 * the command with `eval` (stdin from /dev/null, stderr merged into stdout),
 * then report. The command runs in the shell itself, so a builtin such as
 * `echo hi` costs no process at all, and `cd`/`export` simply stay.
 *
 * The report follows the command's output on the same pipe (so nothing of the
 * output can arrive after it), as records that each start with a newline and
 * the frame's seal `__HERMES_<random per shell>_<counter>_<random per frame>__`:
 *
 *   R  the exports (`export -p`) follow, when the exports travel in the stream (also when written to a file)
 *   C  the directory the command ended in
 *   F  the shell functions it holds (`declare -F`): approval must know a later
 *      call's `ls` may be a function an earlier call defined
 *   I  its variables with an attribute that changes what an assignment does
 *      (`declare -ilnucr`): integer (a later call's harmless-looking
 *      `n=$(cat f)` would evaluate the text as arithmetic, where `a[$(cmd)]`
 *      runs cmd), lower, upper or capitalised case (`y=RM` stores `rm`,
 *      `-c`'s `y=/BIN/RM` stores `/bin/rm`), nameref (`p=/x`
 *      sets PATH). The next frame drops them, as a fresh shell per command,
 *      started from exports only, would. A read-only variable or function
 *      (whose assignment or definition then fails, keeping an earlier value
 *      or body) cannot be dropped: the shell is replaced after the frame
 *   L  the command left a background job (`cmd &`): the shell is replaced after it
 *   X  the exit code: the frame is over, the shell waits for the next one
 *   Q  the shell itself is exiting (`exit`, a signal): its process's exit ends the frame
 *
 * Bash reads a script from a pipe one byte per system call (it must not read
 * past the line it runs), ~1.6 µs a byte here: a frame sent as script cost
 * ~1 ms for `echo hi` and ~6 ms for a 4 KB heredoc. So a frame goes as one
 * short line that reads the rest with `read -N <bytes>` (buffered) and
 * `eval`s it.
 *
 * Markers go to a descriptor saved at start (19), never to the command's own
 * stdout, so a command that redirects its stdout (`exec >log`) cannot swallow
 * them. The shell's EXIT trap reports too, with the frame's public mark
 * `__HERMES_<random per shell>_<counter>__` and `Q`: a command that exits, or a
 * shell stopped by SIGTERM on a timeout, still hands back its cwd and exports,
 * as a fresh shell per command did.
 *
 * The command runs in the very shell that reports on it, so it could print a
 * report of its own: one that leaves out the PATH entry it just added, say,
 * so that a later `ls` is judged as the system's and runs the planted one.
 * Only the seal makes a report the frame's, and the command never sees it: it
 * is written on the frame's last line, after the command has ended and
 * everything it could have left running code there is gone (`GUARD`). The
 * public mark ends a frame only with the shell's own exit, and a new shell
 * starts from what that report said, so a forged one changes nothing the
 * runtime does not know. (A process that outlived its call and still holds
 * the shell's output pipe could still add lines inside a report's records:
 * docs/security.md, "What outlives its call in a persistent shell".)
 */
import { shellQuote } from "../shellScript.js"

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** High and fixed (bash 3.2 cannot allocate one), out of the way of `exec 3<>…`. */
const MARK_FD = 19

/** The report records (above). `__hermes_env`: where the exports go (empty: into the stream). */
const REPORT_FUNCTION = [
  // One redirection for the whole report (each one costs bash several system calls), to the saved descriptor. Tests
  // are `[[ ]]` (a keyword: no function named `[` can stand in for it while the seal is in the arguments).
  // A frame's report takes everything from its arguments, literals on the frame's last line: $3 the seal every record
  // starts with, $4 the names to unexport, $5 the exports file, $6 "1" to send the exports in the stream as well. The
  // frame's variables are only for the EXIT trap's report (public mark): a command may have made them read-only.
  `__hermes_report() {`,
  `  [[ -n "\${4-$__hermes_unexport}" ]] && builtin export -n \${4-$__hermes_unexport} 2>/dev/null`,
  // PATH and HOME steer the shell itself (command lookup, `~`) exported or not: the exports always carry them, so
  // approval judges the next call by the values this shell holds (`export -n PATH; PATH=planted:$PATH` included).
  `  case " \${4-$__hermes_unexport} " in *" PATH "*) ;; *) builtin export PATH;; esac; ` +
  `case " \${4-$__hermes_unexport} " in *" HOME "*) ;; *) builtin export HOME;; esac`,
  `  [[ -n "\${5-$__hermes_env}" ]] && builtin export -p > "\${5-$__hermes_env}" 2>/dev/null`,
  // Both: the file read back and sent in one write (on ssh every write is a packet; `export -p` writes a line each),
  // through a local variable: one a command made read-only cannot be declared local, and the exports then go as below.
  `  if [[ -n "\${5-$__hermes_env}" ]] && [[ -n "\${6-$__hermes_both}" ]] && builtin local __hermes_x= 2>/dev/null && ` +
  `{ LC_ALL=C IFS= builtin read -rd '' __hermes_x < "\${5-$__hermes_env}" 2>/dev/null; [[ -n "$__hermes_x" ]]; }; then ` +
  `builtin printf '\\n%sR\\n%s\\n%s' "\${3:-$__hermes_mark}" "$__hermes_x" "\${3:-$__hermes_mark}"`,
  `  elif [[ -z "\${5-$__hermes_env}" ]] || [[ -n "\${6-$__hermes_both}" ]]; then builtin printf '\\n%sR\\n' "\${3:-$__hermes_mark}"; builtin export -p; builtin printf '\\n%s' "\${3:-$__hermes_mark}"`,
  `  else builtin printf '\\n%s' "\${3:-$__hermes_mark}"; fi`,
  // No `2>/dev/null` (a dozen system calls a frame): should the directory be gone, bash's complaint goes to the
  // shell's own stderr, which only the runtime's diagnostics read.
  `  builtin printf 'C'; builtin pwd -P || builtin printf '\\n'`,
  `  builtin printf '\\n%sF\\n' "\${3:-$__hermes_mark}"; builtin declare -F`,
  `  builtin printf '\\n%sI\\n' "\${3:-$__hermes_mark}"; builtin declare -ilnucr`,
  `  [[ "$!" = "$__hermes_bg" ]] || builtin printf '\\n%sL\\n' "\${3:-$__hermes_mark}"`,
  `  builtin printf '\\n%s%s%s\\n' "\${3:-$__hermes_mark}" "$2" "$1"`,
  `} >&${MARK_FD}`
].join("\n")

/**
 * Once the command has ended, before the frame's report (whose seal must stay
 * unseen), nothing the command left may run code: no aliases, no tracing and
 * no traps but ours (DEBUG, ERR, RETURN and every signal's). A PS4 holding
 * `$(…)` or a DEBUG trap would see the report's line as BASH_COMMAND, a signal
 * trap fired by a job of the command would see the report function's
 * arguments. With no trap left, nothing runs either while the shell waits for
 * the next frame (so `START` can wait until then). Options that would break
 * the report (`set -e`, `-u`) go too. Every word is quoted: no alias applies
 * while the line is read. The EXIT trap is ours again, for the report of a
 * shell that exits from here on. DEBUG, ERR and RETURN traps are reset inline,
 * not in a function (bash sets them aside while a function runs and restores
 * them after it); signal traps are global, so their reset can be a function's.
 */
const GUARD =
  `\\builtin unalias -a; \\builtin set +e +u +x +v +T; \\builtin trap - DEBUG ERR RETURN; \\__hermes_untrap; ` +
  `\\builtin trap '__hermes_report "$?" Q' EXIT`

/**
 * `set` options as a fresh non-interactive bash has them, those that change
 * how a later line is read or what its words do: allexport, notify, keyword
 * (`cmd NAME=v` puts NAME in cmd's environment), monitor, noclobber,
 * errtrace, noglob, physical, pipefail, posix, braceexpand, hashall and
 * interactive-comments (off, `#` no longer starts a comment).
 */
const SET_DEFAULTS = "+a +b +k +m +C +E +f +P -B -h +o pipefail +o posix -o interactive-comments"

/**
 * The rest of what a fresh shell per command starts with, restored before
 * each command:
 * - shell options (`shopt`, `set -o`): an earlier call's `shopt -s
 *   nocasematch` or `extglob` changes what `${x/pat/}` yields, `set -k`
 *   what `cmd NAME=v` does; approval judges every command as a fresh
 *   shell would run it. Told apart from the defaults by bash's own
 *   `$BASHOPTS`/`$SHELLOPTS` (a string comparison), restored only when they differ;
 * - no positional parameters (an earlier call's `set -- 'a[$(…)]'` would be
 *   there), an empty hash table and the default PS4: what an earlier command
 *   planted (`hash -p /bin/rm ls`) would run something other than what the
 *   approval gate judged. (Functions stay: approval is told which ones the
 *   shell holds.) A read-only PS4 fails its own line only;
 * - CDPATH and IFS only when exported (a fresh shell has neither otherwise:
 *   bash ignores an inherited IFS, and only an exported CDPATH reaches it):
 *   approval sees the exports, and `cd name` or `$x` must mean what it judged.
 *   Bash < 4.4 has no `${x@a}` (expanding it would abort the line): there both go.
 *
 * A template (single-quoted when sent: it holds no `'`): the shell fills in its own defaults (`@B@`, `@S@`, the shopt
 * commands `@ON@`/`@OFF@`) when it starts, so the lists are literals in a
 * read-only function rather than variables a command could change.
 */
const START_TEMPLATE = [
  `__hermes_start() {`,
  `  builtin hash -r`,
  `  [[ $BASHOPTS == "@B@" ]] || { :; @ON@ @OFF@ }`,
  `  [[ $SHELLOPTS == "@S@" ]] || builtin set ${SET_DEFAULTS}`,
  `  PS4="+ "`,
  `  if (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )); then ` +
  `[[ \${CDPATH@a} == *x* ]] || builtin unset -v CDPATH; [[ \${IFS@a} == *x* ]] || builtin unset -v IFS; ` +
  `[[ \${GLOBIGNORE@a} == *x* ]] || builtin unset -v GLOBIGNORE; ` +
  `else builtin unset -v CDPATH IFS GLOBIGNORE; fi`,
  `}`
].join("\n")

/** The positional parameters are the caller's own, so `set --` stays on the frame's line. */
const START = `builtin set --; \\__hermes_start`

/**
 * Sent once when the shell starts: the descriptor for the reports; the
 * report function; the signals this bash can trap (by number: a name costs
 * bash a table search per signal) and its shopt defaults, written into the
 * functions that reset them; then every function made read-only, so that no
 * command can redefine or unset one (bash offers no way back), which also
 * spares each frame defining them again; no trap but ours.
 */
export const SHELL_INIT = [
  `exec ${MARK_FD}>&1`,
  REPORT_FUNCTION,
  `__hermes_l=; for __hermes_s in {1..64}; do builtin trap -- - "$__hermes_s" 2>/dev/null && __hermes_l+=" $__hermes_s"; done`,
  `builtin eval "__hermes_untrap() { \${__hermes_l:+builtin trap -$__hermes_l;} :; }"`,
  // The shopt options as this bash starts with them (two that cannot be set left out).
  // (No here-document or here-string: an older bash writes those to a temporary file, which a sandbox may not allow.)
  `__hermes_on=; __hermes_off=; __hermes_w=($(builtin shopt -p)); for (( __hermes_s = 0; __hermes_s + 2 < \${#__hermes_w[@]}; __hermes_s += 3 )); do ` +
  `__hermes_o=\${__hermes_w[__hermes_s + 2]}; case "$__hermes_o" in login_shell|restricted_shell) ;; ` +
  `*) if [[ \${__hermes_w[__hermes_s + 1]} == -s ]]; then __hermes_on+=" $__hermes_o"; else __hermes_off+=" $__hermes_o"; fi;; esac; done`,
  `builtin set ${SET_DEFAULTS} +e +u +x +v +T`,
  `__hermes_t='${START_TEMPLATE}'`,
  `__hermes_t=\${__hermes_t/@B@/"$BASHOPTS"}; __hermes_t=\${__hermes_t/@S@/"$SHELLOPTS"}`,
  `__hermes_t=\${__hermes_t/@ON@/"\${__hermes_on:+builtin shopt -s$__hermes_on;}"}; __hermes_t=\${__hermes_t/@OFF@/"\${__hermes_off:+builtin shopt -u$__hermes_off;}"}`,
  `builtin eval "$__hermes_t"`,
  `builtin unset -v __hermes_l __hermes_s __hermes_on __hermes_off __hermes_w __hermes_o __hermes_t`,
  // Read-only: no command can redefine or unset them, and their bodies were read before any command could define an alias.
  `builtin readonly -f __hermes_report __hermes_start __hermes_untrap`,
  GUARD,
  ""
].join("\n")

export interface FrameSpec {
  /** `__HERMES_<token>_<n>__`: unique to this frame, and public (the EXIT trap's report starts its records with it). */
  readonly mark: string
  /**
   * `__HERMES_<token>_<n>_<random>__`: what the frame's own report starts its records with. It appears only on the
   * frame's last line, which is read after the command has ended and every way of running code behind it (traps,
   * aliases, tracing) is gone, so the command cannot print a report the runtime would take for the frame's.
   */
  readonly seal: string
  readonly command: string
  readonly cwd: string
  /** Where to go when `cwd` is gone (undefined: an explicit cwd, which must exist). */
  readonly fallbackCwd: string | undefined
  /** A snapshot to source first: the shell does not hold its exports yet (fresh, or another process made it). */
  readonly source: string | undefined
  /**
   * The same as text, run in place: `export` lines the runtime wrote from the variables it read (a remote target,
   * where every snapshot file is writable by what runs there, so the file itself is never sourced).
   */
  readonly sourceText?: string | undefined
  /** Variables for this command only: exported for it, left out of its report. */
  readonly env: Readonly<Record<string, string>> | undefined
  /** Write the exports to this file on the target; undefined: into the stream (an `R` record). */
  readonly envFile: string | undefined
  /** With `envFile`: send them in the stream as well (a remote shell: the caller then needs no round trip to read them). */
  readonly exportsInStream?: boolean | undefined
  /** Shell lines run before the command, output discarded (removing old state files). */
  readonly prelude?: string | undefined
  /** Replace the shell after the frame, from its report (transport.ts `CommandRun.untrusted`). */
  readonly replaceAfter?: boolean | undefined
  /** Variables an earlier frame left with an attribute (its `I` record): the attributes go before the command runs. */
  readonly dropAttributes?: ReadonlyArray<string> | undefined
}

/**
 * What is written to the shell for a frame: one short line (bash reads it a
 * byte per system call) that reads the body by its byte count into `__hf`
 * and runs it in the shell itself. Under a UTF-8 locale `read` counts
 * characters, so a body that is not ASCII is read under `LC_ALL=C` (the
 * switch costs bash a locale reload; an ASCII body needs none). The line
 * calls no function of ours, which a command could have redefined. Where
 * `read -N` is refused (bash < 4.1) the body is simply read as script; a
 * command that makes `__hf` read-only loses the next frame to its timeout,
 * after which the shell is replaced.
 */
export const frameScript = (spec: FrameSpec): string => {
  const body = frameBody(spec)
  const bytes = Buffer.byteLength(body)
  return `${bytes === body.length ? "" : "LC_ALL=C "}IFS= builtin read -rN ${bytes} __hf&&builtin eval "$__hf"\n${body}`
}

const frameBody = (spec: FrameSpec): string => {
  const extra = Object.entries(spec.env ?? {}).filter(([name]) => NAME.test(name))
  const names = extra.map(([name]) => name).join(" ")
  const cd = spec.fallbackCwd === undefined
    ? `builtin cd -- ${shellQuote(spec.cwd)}`
    // Tested first rather than `cd … 2>/dev/null`: opening /dev/null costs bash a dozen system calls every frame.
    : `{ [[ -d ${shellQuote(spec.cwd)} ]] && builtin cd -- ${shellQuote(spec.cwd)}; } || builtin cd -- ${shellQuote(spec.fallbackCwd)}`
  const unexport = shellQuote(names)
  const envFile = shellQuote(spec.envFile ?? "")
  const both = spec.exportsInStream === true ? "1" : "''"
  const state = `__hermes_mark=${spec.mark}; __hermes_unexport=${unexport}; __hermes_env=${envFile}; __hermes_both=${both}`
  return [
    // The frame's text (its seal) must not stay readable by the command: eval holds its own copy.
    // An assignment first: it clears the text even when a command disabled `unset` (`enable -n unset`).
    `__hf=; builtin unset -v __hf; ${state}; __hermes_bg=$!`,
    START,
    ...(spec.prelude === undefined ? [] : [`{ ${spec.prelude}; } </dev/null >/dev/null 2>&1`]),
    ...(spec.source === undefined ? [] : [`. ${shellQuote(spec.source)} </dev/null >/dev/null 2>&1`]),
    ...(spec.sourceText === undefined || spec.sourceText.length === 0 ? [] : [`{\n${spec.sourceText}\n} </dev/null >/dev/null 2>&1`]),
    ...(extra.length === 0 ? [] : [`builtin export ${extra.map(([name, value]) => `${name}=${shellQuote(value)}`).join(" ")}`]),
    ...(spec.dropAttributes === undefined || spec.dropAttributes.length === 0
      ? []
      : [`builtin declare +i +l +u +c +n ${spec.dropAttributes.filter((name) => NAME.test(name)).join(" ")} 2>/dev/null`]),
    // The command's stdout is the saved descriptor's pipe again, whatever an earlier `exec >…` did.
    `if ${cd}; then { builtin eval ${shellQuote(spec.command)}; } </dev/null >&${MARK_FD} 2>&1; __hermes_status=$?; else __hermes_status=126; fi`,
    // Before the seal appears, nothing the command left may run code (GUARD); the report's call is quoted too.
    GUARD,
    // The command may have changed the frame's variables: they are set again before the report.
    state,
    `\\__hermes_report "$__hermes_status" X ${spec.seal} ${unexport} ${envFile} ${both}`,
    ""
  ].join("\n")
}

/** What a frame reported once it is over. */
export interface FrameReport {
  /** `X`: the shell is ready for the next frame; `Q`: the shell is exiting. */
  readonly end: "X" | "Q"
  readonly code: number
  readonly cwd: string | undefined
  /** `export -p` text, when the exports travel in the stream. */
  readonly exports: string | undefined
  /**
   * The shell must be replaced after this frame: the command left a background job behind, or the frame's report
   * lacks a record it always has (a command made the frame's variables read-only, say), so the runtime cannot
   * know the shell's state; the new shell starts from what the runtime does know.
   */
  readonly leftovers: boolean
  /** Names of the shell functions the shell holds after the command (ours left out). */
  readonly functions: ReadonlyArray<string> | undefined
  /** Variables the command left with an attribute the next frame drops (integer, case, nameref; bash's own left out). */
  readonly attributed: ReadonlyArray<string> | undefined
}

/** Bash's own integer variables: never dropped. */
const SHELL_INTEGERS = new Set(["BASHPID", "EUID", "HISTCMD", "OPTIND", "PPID", "RANDOM", "SRANDOM", "UID"])

/** Read-only variables every shell here has: bash's own and the frames' (`SHELL_INIT`). */
const SHELL_READ_ONLY = new Set([
  "BASHOPTS", "BASH_VERSINFO", "EUID", "PPID", "SHELLOPTS", "UID"
])

/**
 * `f` remembering its last text and answer: a shell's `declare -i` and
 * `declare -F` say the same from frame to frame almost always.
 */
const lastOf = (f: (text: string) => ReadonlyArray<string>) => {
  let text: string | undefined
  let names: ReadonlyArray<string> = []
  return (next: string): ReadonlyArray<string> => {
    if (next !== text) {
      names = f(next)
      text = next
    }
    return names
  }
}

/** What a frame's `I` record says: the names whose attributes the next frame drops, and a read-only one of the command's. */
interface Attributed {
  readonly names: ReadonlyArray<string>
  readonly readOnly: boolean
}

const NO_ATTRIBUTES: Attributed = { names: [], readOnly: false }

/** `declare -ilnucr` lines (`declare -i n="1"`, `declare -ai a=(…)`, `declare -n p="PATH"`, `declare -r x="rm"`). */
const attributedNames = (text: string): Attributed => {
  const names: string[] = []
  let readOnly = false
  for (const line of text.split("\n")) {
    const m = /^declare -([a-zA-Z]+) ([A-Za-z_][A-Za-z0-9_]*)/.exec(line)
    if (m === null || m[1] === undefined || m[2] === undefined) continue
    if (m[1].includes("r")) {
      if (!SHELL_READ_ONLY.has(m[2])) readOnly = true
    } else if (!SHELL_INTEGERS.has(m[2])) names.push(m[2])
  }
  return names.length === 0 && !readOnly ? NO_ATTRIBUTES : { names, readOnly }
}

/** The last `I` record's text and what it said (the same from frame to frame almost always). */
const attributesOf = (() => {
  let text: string | undefined
  let said: Attributed = NO_ATTRIBUTES
  return (next: string): Attributed => {
    if (next !== text) {
      said = attributedNames(next)
      text = next
    }
    return said
  }
})()

/** The shell functions frames use (`SHELL_INIT`): read-only, so no command can be behind these names. */
const OWN_FUNCTIONS = new Set(["__hermes_report", "__hermes_start", "__hermes_untrap"])

/** `declare -F` lines (`declare -f name`, `declare -fx name`): the names, without the frames' own functions. */
const functionNames = lastOf((text: string): ReadonlyArray<string> => {
  const out: string[] = []
  for (const line of text.split("\n")) {
    const m = /^declare -[a-zA-Z]+ (.+)$/.exec(line)
    if (m !== null && m[1] !== undefined && !OWN_FUNCTIONS.has(m[1])) out.push(m[1])
  }
  return out
})

/**
 * A read-only function of the command's (`declare -fr name`): a later call's definition of that name fails and the
 * old body runs where approval read the new one.
 */
const readOnlyFunction = (text: string): boolean => {
  for (const line of text.split("\n")) {
    const m = /^declare -([a-zA-Z]+) (.+)$/.exec(line)
    if (m !== null && m[1]?.includes("r") === true && m[2] !== undefined && !OWN_FUNCTIONS.has(m[2])) return true
  }
  return false
}

const NEWLINE = 0x0a
const X = 0x58
const Q = 0x51
const R = 0x52
const C = 0x43
const F = 0x46
const I = 0x49
const L = 0x4c

/**
 * The text of bytes, remembered for the next bytes equal to them: a shell's
 * exports, functions and integers are the same from frame to frame almost
 * always, and comparing bytes costs less than decoding them (the same string
 * back also makes the next comparison of the texts an identity check).
 */
const lastTextOf = () => {
  let bytes: Buffer | undefined
  let text = ""
  return (next: Buffer): string => {
    if (bytes === undefined || !next.equals(bytes)) {
      text = next.toString("utf8")
      // A copy: `next` is a view of one frame's report.
      bytes = Buffer.from(next)
    }
    return text
  }
}

const exportsText = lastTextOf()
const functionsText = lastTextOf()
const attributesText = lastTextOf()

/** The records after the first separator: kind letter first (`R`, `C`, …), as far as they go. */
/**
 * Splits one frame's stream: output (passed on as it comes, minus a possible
 * beginning of a mark held back) and the report records after it. Two kinds
 * of record count: the frame's own, which start with its seal and end with
 * `X`, and the EXIT trap's, which start with the public mark and end with `Q`
 * (the shell is exiting: its process's exit ends the frame). Anything else
 * after the output (a command's imitation of a report with the public mark,
 * what a job it left prints) is neither: a sealed `X` ends the frame whatever
 * came before it, and its records are the report.
 */
export const makeFrameReader = (
  mark: string,
  seal: string,
  onData: (chunk: Buffer) => void,
  /** The frame's report carries the exports (`R`): they travel in the stream. */
  exportsInReport = true
) => {
  const quitSeparator = Buffer.from(`\n${mark}`)
  const sealSeparator = Buffer.from(`\n${seal}`)
  const longest = Math.max(quitSeparator.length, sealSeparator.length)
  let pending: Buffer = Buffer.alloc(0)
  let inReport = false
  let report: Buffer = Buffer.alloc(0)

  /** The records after each `separator` in the report (separators are ASCII: no character is cut in two). */
  const recordsIn = (separator: Buffer): Array<Buffer> => {
    const out: Array<Buffer> = []
    let at = report.indexOf(separator)
    while (at >= 0) {
      const start = at + separator.length
      const next = report.indexOf(separator, start)
      out.push(report.subarray(start, next < 0 ? report.length : next))
      at = next
    }
    return out
  }

  /** The report of one kind, once its final record (`X` after the seal, `Q` after the mark) has arrived. */
  const parse = (separator: Buffer, end: "X" | "Q"): FrameReport | undefined => {
    const parts = recordsIn(separator)
    const last = parts[parts.length - 1]
    if (last === undefined || last[0] !== (end === "X" ? X : Q)) return undefined
    const code = /^[XQ](-?\d+)\n/.exec(last.toString("latin1", 0, Math.min(last.length, 24)))
    if (code === null) return undefined
    let cwd: string | undefined
    let exports: string | undefined
    let leftovers = false
    let functions: ReadonlyArray<string> | undefined
    let attributes: Attributed | undefined
    for (let i = 0; i < parts.length - 1; i++) {
      const part = parts[i] as Buffer
      const kind = part[0]
      if (kind === R) exports = exportsText(part.subarray(2))
      else if (kind === C) cwd = part.toString("utf8", 1).replace(/\n$/, "")
      else if (kind === F) {
        const text = functionsText(part.subarray(2))
        functions = functionNames(text)
        if (readOnlyFunction(text)) leftovers = true
      } else if (kind === I) attributes = attributesOf(attributesText(part.subarray(2)))
      else if (kind === L) leftovers = true
    }
    // The frame's own report always has these: without one, the shell's state is not what the runtime would keep.
    const whole = cwd !== undefined && functions !== undefined && attributes !== undefined && (exports !== undefined || !exportsInReport)
    // What a read-only variable or function holds cannot be changed back: a new shell starts from the exports.
    const replace = leftovers || attributes?.readOnly === true || (end === "X" && !whole)
    return { end, code: Number.parseInt(code[1] ?? "", 10), cwd, exports, leftovers: replace, functions, attributed: attributes?.names }
  }

  /** Whether the last record after `separator` is a complete `kind` one (exports arrive a line per write: no parse for each). */
  const endsWith = (separator: Buffer, kind: number): boolean => {
    const at = report.lastIndexOf(separator)
    if (at < 0) return false
    return report[at + separator.length] === kind && report.indexOf(NEWLINE, at + separator.length) >= 0
  }

  const over = (): FrameReport | undefined =>
    endsWith(sealSeparator, X) ? parse(sealSeparator, "X") : endsWith(quitSeparator, Q) ? parse(quitSeparator, "Q") : undefined

  /** Where a tail of `buffer` that may begin either separator starts (it has one newline, at its start), else its length. */
  const heldFrom = (buffer: Buffer): number => {
    const nl = buffer.lastIndexOf(NEWLINE)
    if (nl < 0 || nl < buffer.length - longest + 1) return buffer.length
    const tail = buffer.subarray(nl)
    const begins = (separator: Buffer) => tail.length <= separator.length && separator.subarray(0, tail.length).equals(tail)
    return begins(sealSeparator) || begins(quitSeparator) ? nl : buffer.length
  }

  return {
    /** Feed a chunk; the report once the frame is over. */
    push: (chunk: Buffer): FrameReport | undefined => {
      if (inReport) {
        report = Buffer.concat([report, chunk])
        return over()
      }
      const buffer = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      const sealAt = buffer.indexOf(sealSeparator)
      const quitAt = buffer.indexOf(quitSeparator)
      const at = sealAt < 0 ? quitAt : quitAt < 0 ? sealAt : Math.min(sealAt, quitAt)
      if (at >= 0) {
        if (at > 0) onData(buffer.subarray(0, at))
        pending = Buffer.alloc(0)
        inReport = true
        report = Buffer.from(buffer.subarray(at))
        return over()
      }
      const hold = heldFrom(buffer)
      if (hold > 0) onData(buffer.subarray(0, hold))
      pending = hold < buffer.length ? Buffer.from(buffer.subarray(hold)) : Buffer.alloc(0)
      return undefined
    },
    /**
     * The shell ended mid-frame: what was held back is output after all; the
     * report so far, if any (the frame's own records when it got as far as
     * one, else the EXIT trap's).
     */
    flush: (): Partial<FrameReport> | undefined => {
      if (pending.length > 0) onData(pending)
      pending = Buffer.alloc(0)
      if (!inReport) return undefined
      const sealed = recordsIn(sealSeparator)
      const parts = sealed.length > 0 ? sealed : recordsIn(quitSeparator)
      let cwd: string | undefined
      let exports: string | undefined
      let functions: ReadonlyArray<string> | undefined
      for (const part of parts) {
        // The last record may be cut short: a cwd or a function list counts only once its line is complete.
        const complete = part[part.length - 1] === NEWLINE
        if (part[0] === R) exports = part.toString("utf8", 2)
        else if (part[0] === C && complete) cwd = part.toString("utf8", 1, part.length - 1)
        else if (part[0] === F && complete) functions = functionNames(part.toString("utf8", 2))
      }
      return { cwd, exports, functions }
    }
  }
}
