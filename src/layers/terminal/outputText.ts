/**
 * Turning raw command output into what the model may see: the size cap
 * (40% head, 60% tail, with a marker saying how much was dropped), terminal
 * escape sequences removed, and secrets masked.
 */
import type { CapturedOutput } from "../../services/TerminalBackend.js"
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

const PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*?)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g

/** Credentials with a recognisable shape, whatever surrounds them. */
const TOKENS: ReadonlyArray<RegExp> = [
  /\bsk-(?:ant-|proj-|or-v1-|live-|test-)?[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g
]

const AUTH_HEADER = /\b((?:Proxy-)?Authorization\s*:\s*(?:Bearer|Basic|Token|Bot)\s+)[^\s"']+/gi
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi
/** `NAME=value`, `export NAME=value` and `declare -x NAME="value"` lines of an environment dump. */
const ENV_LINE = /^((?:declare -x |export )?([A-Za-z_][A-Za-z0-9_]*)=)(.*)$/gm
const ENV_DUMP = /(?:^|[;&|(]\s*)(?:env|printenv|set|export|declare|compgen\s+-v)\b/

const mask = (secret: string) => `${secret.slice(0, 4)}…[REDACTED]`

/**
 * Mask secrets in output. Shaped tokens, auth headers, URL passwords and
 * private keys always; `NAME=value` lines with a credential-looking name only
 * when the command dumps the environment (elsewhere such lines are usually
 * source code, e.g. `MAX_TOKENS=100`).
 */
export const redactSecrets = (text: string, command = ""): string => {
  let out = text.replace(PRIVATE_KEY, (_m, kind: string) => `-----BEGIN ${kind}PRIVATE KEY-----\n[REDACTED]\n-----END ${kind}PRIVATE KEY-----`)
  for (const pattern of TOKENS) out = out.replace(pattern, mask)
  out = out.replace(AUTH_HEADER, "$1[REDACTED]").replace(URL_PASSWORD, "$1[REDACTED]@")
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
