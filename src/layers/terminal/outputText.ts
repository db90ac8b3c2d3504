/**
 * Turning raw command output into what the model may see: the size cap
 * (40% head, 60% tail, with a marker saying how much was dropped), terminal
 * escape sequences removed, and secrets masked.
 */
import type { CapturedOutput } from "../../services/TerminalBackend.js"
import { redactSecrets as redactWithPolicy } from "../../lib/redact.js"
import { isCredentialName } from "./childEnv.js"

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

// CSI (ESC [ … final), OSC (ESC ] … BEL/ST), 8-bit CSI, and two-byte escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x9b[0-?]*[ -/]*[@-~]|\x1b[P^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]/g

export const stripAnsi = (text: string): string =>
  (text.includes("\x1b") || text.includes("\x9b") ? text.replace(ANSI, "") : text).replace(/\r\n/g, "\n")

/** `NAME=value`, `export NAME=value` and `declare -x NAME="value"` lines of an environment dump. */
const ENV_LINE = /^((?:declare -x |export )?([A-Za-z_][A-Za-z0-9_]*)=)(.*)$/gm
const ENV_DUMP = /(?:^|[;&|(]\s*)(?:env|printenv|set|export|declare|compgen\s+-v)\b/

/**
 * Mask secrets in output with the one policy (`lib/redact.ts`): private keys
 * (also stray body lines, as `sed -n 2,3p` prints them), shaped tokens, auth
 * headers, URL passwords. `NAME=value` lines with a credential-looking name
 * only when the command dumps the environment (elsewhere such lines are
 * usually source code, e.g. `MAX_TOKENS=100`).
 */
export const redactSecrets = (text: string, command = ""): string => {
  let out = redactWithPolicy(text)
  if (ENV_DUMP.test(command)) {
    out = out.replace(ENV_LINE, (line, prefix: string, name: string, value: string) =>
      isCredentialName(name) && value.length > 0 && !value.includes("[REDACTED]") ? `${prefix}[REDACTED]` : line)
  }
  return out
}

/** The last `chars` characters, escapes stripped. */
export const tailText = (text: string, chars: number): string => {
  const clean = stripAnsi(text)
  return clean.length <= chars ? clean : clean.slice(clean.length - chars)
}
