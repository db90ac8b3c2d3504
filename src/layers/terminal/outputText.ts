/**
 * Capping raw command output to what the model may see: 40% head, 60% tail,
 * with a marker saying how much was dropped. Escape stripping and secret
 * masking live in `lib/text.ts`.
 */
import { stripAnsiOutput } from "../../lib/text.js"
import type { CapturedOutput } from "../../services/TerminalBackend.js"

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
