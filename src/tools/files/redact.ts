/**
 * Secret masking for file content shown by read_file and search_files: the
 * one policy in `lib/redact.ts`, with assignments masked when their value is
 * a literal that looks like a secret (source code keeps `MAX_TOKENS = 100`),
 * and private-key lines redacted wherever they are in a window.
 */
import { redactSecrets } from "../../lib/redact.js"

export const maskSecrets = (text: string): string => redactSecrets(text, { assignments: "literal", keepLines: true })

/** The same, line by line: one output line per input line (read_file numbers them afterwards). */
export const maskLines = (lines: ReadonlyArray<string>): ReadonlyArray<string> => {
  const masked = maskSecrets(lines.join("\n")).split("\n")
  return masked.length === lines.length ? masked : lines.map(maskSecrets)
}
