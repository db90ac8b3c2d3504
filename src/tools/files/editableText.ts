/**
 * A text file opened for editing: decoded, BOM removed and line endings
 * made `\n` so matching is the same for every file, with the file's
 * conventions remembered to put back on write.
 */
import { Effect } from "effect"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import { formatSize, looksBinary, SAMPLE_BYTES } from "../../lib/binaryFiles.js"
import { normalizeLineEndings } from "./writeText.js"

/** Patching a file larger than this is refused (the whole file is held in memory). */
export const MAX_EDIT_BYTES = 50 * 1024 * 1024

export interface EditableText {
  /** Content with `\n` line endings and no BOM. */
  readonly text: string
  readonly bom: boolean
  readonly crlf: boolean
}

export type OpenResult =
  | { readonly _tag: "Opened"; readonly file: EditableText }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Refused"; readonly reason: string }

export const openEditable = (env: TerminalEnvironment, path: string): Effect.Effect<OpenResult> =>
  Effect.gen(function*() {
    const stat = yield* Effect.either(env.stat(path))
    if (stat._tag === "Left") {
      return stat.left.reason === "NotFound" ? { _tag: "Missing" } as const : { _tag: "Refused", reason: stat.left.message } as const
    }
    if (stat.right.type !== "file") return { _tag: "Refused", reason: "not a regular file" } as const
    if (stat.right.size > MAX_EDIT_BYTES) {
      return { _tag: "Refused", reason: `file is too large to patch (${formatSize(stat.right.size)}); use write_file or the terminal` } as const
    }
    const data = yield* Effect.either(env.readFile(path))
    if (data._tag === "Left") return { _tag: "Refused", reason: data.left.message } as const
    if (looksBinary(data.right.subarray(0, SAMPLE_BYTES))) return { _tag: "Refused", reason: "binary file" } as const
    const raw = Buffer.from(data.right).toString("utf8")
    const bom = raw.charCodeAt(0) === 0xfeff
    const body = bom ? raw.slice(1) : raw
    const crlf = body.slice(0, 4096).includes("\r\n")
    return { _tag: "Opened", file: { text: crlf ? body.replace(/\r\n/g, "\n") : body, bom, crlf } } as const
  })

/** Edited text back in the file's conventions. */
export const restoreFormat = (text: string, file: Pick<EditableText, "bom" | "crlf">): string =>
  (file.bom ? "\ufeff" : "") + (file.crlf ? normalizeLineEndings(text, "\r\n") : text)
