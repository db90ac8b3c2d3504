/**
 * Writing text the way write_file and patch do: keep the existing file's BOM
 * and line endings, refuse what looks like read_file's own display text,
 * pass the syntax gate, then replace the file atomically.
 */
import { Effect } from "effect"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import { UNCHANGED_MESSAGE } from "./readFile.js"
import { syntaxProblem, syntaxRefusal } from "./syntaxGate.js"
import { FileToolError } from "./taskFiles.js"

const BOM = "\ufeff"

export interface ExistingFormat {
  readonly exists: boolean
  readonly bom: boolean
  readonly crlf: boolean
}

/** BOM and dominant line ending of the file now at `path` (from its first 4 KB). */
export const existingFormat = (env: TerminalEnvironment, path: string): Effect.Effect<ExistingFormat> =>
  env.readFile(path, { offset: 0, length: 4096 }).pipe(
    Effect.map((head) => {
      const text = Buffer.from(head).toString("utf8")
      return { exists: true, bom: text.startsWith(BOM), crlf: text.includes("\r\n") }
    }),
    Effect.orElseSucceed((): ExistingFormat => ({ exists: false, bom: false, crlf: false }))
  )

/** Every line ending (CRLF, CR, LF) as `eol`. */
export const normalizeLineEndings = (text: string, eol: "\n" | "\r\n"): string => {
  const lf = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text
  return eol === "\n" ? lf : lf.replace(/\n/g, "\r\n")
}

/** `content` in the existing file's conventions (a new file gets the content as given). */
export const matchFormat = (content: string, format: ExistingFormat): string => {
  if (!format.exists) return content
  const body = content.startsWith(BOM) ? content.slice(1) : content
  const withEol = body.includes("\n") || body.includes("\r") ? normalizeLineEndings(body, format.crlf ? "\r\n" : "\n") : body
  return format.bom ? BOM + withEol : withEol
}

/**
 * read_file's `N|line` display, echoed back as file content: most non-empty
 * lines carry consecutive numbered gutters. A single `1|x` line is legitimate.
 */
export const looksLikeReadFileOutput = (content: string): boolean => {
  const lines = content.split(/\r?\n/).filter((l) => l.trim().length > 0)
  if (lines.length < 2) return false
  const numbers: Array<number> = []
  for (const line of lines) {
    const m = /^\s*(\d+)\|/.exec(line)
    if (m !== null) numbers.push(Number(m[1]))
  }
  if (numbers.length < 2 || numbers.length / lines.length < 0.6) return false
  let consecutive = 0
  for (let i = 1; i < numbers.length; i++) if (numbers[i] === (numbers[i - 1] as number) + 1) consecutive++
  return consecutive >= numbers.length - 1
}

/** The dedup stub's message written as if it were the file (alone or barely wrapped). */
export const isInternalStatusText = (content: string): boolean => {
  const stripped = content.trim()
  return stripped.length > 0 && stripped.includes(UNCHANGED_MESSAGE) && stripped.length <= 2 * UNCHANGED_MESSAGE.length
}

export const INTERNAL_CONTENT_REFUSAL =
  "Refusing to write internal read_file display text as file content. Strip read_file line-number prefixes or reconstruct the intended file contents before writing."

/**
 * Syntax gate, then one atomic replace of `real`, the link-resolved path the caller judged (approval, protected
 * paths): written there, and only while it still resolves to itself, so a symlink swapped by another process after
 * the judgement cannot carry the write elsewhere. Returns the bytes written.
 */
export const writeTextAtomic = (env: TerminalEnvironment, real: string, shown: string, content: string): Effect.Effect<number, FileToolError> =>
  Effect.gen(function*() {
    const problem = syntaxProblem(real, content)
    if (problem !== undefined) return yield* new FileToolError({ message: syntaxRefusal(shown, problem) })
    const data = Buffer.from(content, "utf8")
    yield* env.writeFile(real, data, { atomic: true, expectedReal: real }).pipe(
      Effect.mapError((e) => new FileToolError({ message: e.reason === "Denied" ? e.message : `Failed to write ${shown}: ${e.message}` }))
    )
    return data.length
  })
