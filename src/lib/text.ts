/**
 * The text helpers shared across the runtime: escape stripping, the
 * redaction entry points (one per audience, so each one's options live
 * here), `~` expansion and output truncation. Pure string work.
 */
import { homedir } from "node:os"
import { posix } from "node:path"
import { isCredentialName } from "./credentialNames.js"
import { redactSecrets } from "./redact.js"
import type { CapturedOutput } from "../services/TerminalBackend.js"

export { redactSecrets } from "./redact.js"
export type { RedactOptions } from "./redact.js"

// ---------------------------------------------------------------------------
// Escape sequences

const ESC = 0x1b
const BEL = 0x07
const ST8 = 0x9c

const inRange = (c: number, lo: number, hi: number): boolean => c >= lo && c <= hi

/** End (exclusive) of a CSI body starting at `i` (after the introducer), or -1. */
const csiEnd = (s: string, i: number): number => {
  let j = i
  while (j < s.length && inRange(s.charCodeAt(j), 0x30, 0x3f)) j++
  while (j < s.length && inRange(s.charCodeAt(j), 0x20, 0x2f)) j++
  return j < s.length && inRange(s.charCodeAt(j), 0x40, 0x7e) ? j + 1 : -1
}

/** End of a string control terminated by ST (ESC \\), optionally BEL or 8-bit ST. */
const stringEnd = (s: string, i: number, bel: boolean, st8: boolean): number => {
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j)
    if (bel && c === BEL) return j + 1
    if (st8 && c === ST8) return j + 1
    if (c === ESC && s.charCodeAt(j + 1) === 0x5c) return j + 2
  }
  return -1
}

/** Length of the escape sequence at `i` (0 when the byte there starts none). */
const escapeLength = (s: string, i: number): number => {
  const c = s.charCodeAt(i)
  if (c === ESC) {
    const n = s.charCodeAt(i + 1)
    if (Number.isNaN(n)) return 0
    let end = -1
    if (n === 0x5b) end = csiEnd(s, i + 2)
    else if (n === 0x5d) end = stringEnd(s, i + 2, true, false)
    else if (n === 0x50 || n === 0x58 || n === 0x5e || n === 0x5f) end = stringEnd(s, i + 2, false, false)
    else if (inRange(n, 0x20, 0x2f)) {
      let j = i + 1
      while (j < s.length && inRange(s.charCodeAt(j), 0x20, 0x2f)) j++
      if (j < s.length && inRange(s.charCodeAt(j), 0x30, 0x7e)) end = j + 1
    }
    if (end > 0) return end - i
    // A malformed introducer still drops as a two-byte Fp/Fe/Fs sequence.
    return inRange(n, 0x30, 0x7e) ? 2 : 0
  }
  if (c === 0x9b) {
    const end = csiEnd(s, i + 1)
    if (end > 0) return end - i
  } else if (c === 0x9d) {
    const end = stringEnd(s, i + 1, true, true)
    if (end > 0) return end - i
  }
  return inRange(c, 0x80, 0x9f) ? 1 : 0
}

const hasCandidate = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === ESC || inRange(c, 0x80, 0x9f)) return true
  }
  return false
}

/**
 * Remove ECMA-48 escapes (CSI, OSC, DCS/SOS/PM/APC strings, nF, single-byte
 * Fp/Fe/Fs and 8-bit C1). A hand-written scanner: escapes are rare, so the
 * common case is one pass over a string with none. Approval normalises
 * commands with it, so what it strips is security relevant.
 */
export const stripAnsi = (s: string): string => {
  if (!hasCandidate(s)) return s
  let out = ""
  let from = 0
  for (let i = 0; i < s.length; ) {
    const len = escapeLength(s, i)
    if (len > 0) {
      out += s.slice(from, i)
      i += len
      from = i
    } else i++
  }
  return out + s.slice(from)
}

/** Characters that redraw or reorder what a screen shows: C0/C1 controls but tab and newline, DEL, bidi and invisible marks. */
const HIDING = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g
const BLANK_RUN = /[ \t]{16,}/g

/**
 * Text as an approver must see it: a command (or a note naming files) whose ESC sequences, carriage returns,
 * backspaces, bidirectional overrides or zero-width characters would redraw the line or reorder it on a terminal or
 * in an editor shows them as escapes instead, so `rm -rf ~\r\x1b[2Kls` cannot pass for `ls`; a long run of blanks
 * that would push the rest off the visible line is shown by its length.
 */
export const displayText = (text: string): string =>
  text
    .replace(HIDING, (c) => {
      const code = c.charCodeAt(0)
      return code === 13 ? "\\r" : code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`
    })
    .replace(BLANK_RUN, (run) => ` ⟨${run.length} blanks⟩ `)

/** `stripAnsi` for command output, which also turns `\r\n` (PTY line ends) into `\n`. */
export const stripAnsiOutput = (text: string): string => stripAnsi(text).replace(/\r\n/g, "\n")

// ---------------------------------------------------------------------------
// Redaction: `lib/redact.ts` is the policy; these are its audiences.

/**
 * Approval prompts, the audit log and error text: every credential-named
 * assignment is masked (a command line's `TOKEN=…` is rarely code). Only
 * the shown and recorded copies are redacted; the raw command is what runs.
 */
export const redactAuditText = (text: string): string => redactSecrets(text, { assignments: "any" })

/**
 * File content shown by read_file and search_files: assignments masked only
 * when their value is a literal that looks like a secret (source code keeps
 * `MAX_TOKENS = 100`), and key lines replaced one by one so numbering holds.
 */
export const redactFileText = (text: string): string => redactSecrets(text, { assignments: "literal", keepLines: true })

/** `redactFileText` line by line: one output line per input line (read_file numbers them afterwards). */
export const redactFileLines = (lines: ReadonlyArray<string>): ReadonlyArray<string> => {
  const masked = redactFileText(lines.join("\n")).split("\n")
  return masked.length === lines.length ? masked : lines.map(redactFileText)
}

/** `NAME=value`, `export NAME=value` and `declare -x NAME="value"` lines of an environment dump. */
const ENV_LINE = /^((?:declare -x |export )?([A-Za-z_][A-Za-z0-9_]*)=)(.*)$/gm
const ENV_DUMP = /(?:^|[;&|(]\s*)(?:env|printenv|set|export|declare|compgen\s+-v)\b/

/**
 * Command output: private keys (also stray body lines, as `sed -n 2,3p`
 * prints them), shaped tokens, auth headers, URL passwords. `NAME=value`
 * lines with a credential-looking name only when `command` dumps the
 * environment (elsewhere such lines are usually source code, e.g. `MAX_TOKENS=100`).
 */
export const redactToolOutput = (text: string, command = ""): string => {
  let out = redactSecrets(text)
  if (ENV_DUMP.test(command)) {
    out = out.replace(ENV_LINE, (line, prefix: string, name: string, value: string) =>
      isCredentialName(name) && value.length > 0 && !value.includes("[REDACTED]") ? `${prefix}[REDACTED]` : line)
  }
  return out
}

// ---------------------------------------------------------------------------
// Paths

/**
 * `~` and `~/x` against `home`; anything else (`~user` too) unchanged.
 * POSIX joining: the path may belong to a task's (remote) environment.
 */
export const expandHome = (path: string, home: string = homedir()): string =>
  path === "~" ? home : path.startsWith("~/") ? posix.join(home, path.slice(2)) : path

// ---------------------------------------------------------------------------
// Truncation: what the model may see of long output (40% head, 60% tail, a marker saying how much was dropped)

/** Hermes' `tool_output.max_bytes` default. */
export const MAX_OUTPUT_CHARS = 50_000

const marker = (omitted: number, total: number) =>
  `\n\n... [OUTPUT TRUNCATED - ${omitted} chars omitted out of ${total} total] ...\n\n`

/** Keep the first 40% and the last 60% of `max` characters. */
export const truncateMiddle = (text: string, max: number = MAX_OUTPUT_CHARS): string => {
  if (text.length <= max) return text
  const head = Math.floor(max * 0.4)
  const tail = max - head
  return text.slice(0, head) + marker(text.length - head - tail, text.length) + text.slice(text.length - tail)
}

/** The capped text of a bounded capture (whose middle may already be gone). */
export const capOutput = (output: CapturedOutput, max: number = MAX_OUTPUT_CHARS): string => {
  if (output.omittedBytes === 0) return truncateMiddle(output.head + output.tail, max)
  const headMax = Math.floor(max * 0.4)
  const head = output.head.slice(0, headMax)
  const tail = output.tail.slice(Math.max(0, output.tail.length - (max - headMax)))
  // Dropped bytes count as characters: exact for ASCII, an upper bound otherwise.
  const total = output.head.length + output.tail.length + output.omittedBytes
  return head + marker(total - head.length - tail.length, total) + tail
}

/** The last `chars` characters, escapes stripped. */
export const tailText = (text: string, chars: number): string => {
  const clean = stripAnsiOutput(text)
  return clean.length <= chars ? clean : clean.slice(clean.length - chars)
}
