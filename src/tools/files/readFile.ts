/**
 * `read_file` (toolset `file`): a text file as `N|line` with pagination.
 *
 * Pipeline (Hermes §10.3): device guard (literal path, symlink hops, resolved
 * path) → binary-extension guard → secret/credential read block → not found
 * (Hermes' empty read result with the error and `similar_files` spelled like
 * the path given) / not a regular file → hard links to protected files →
 * `.ipynb` notebooks as cell text → dedup of unchanged regions → one pass over the bytes (binary sniff, line
 * count, the window, private-key blocks anywhere in the file) → the character
 * budget, cut on a whole line with `next_offset` → secrets masked (key lines,
 * shaped tokens, literal secret assignments) → consecutive-read warning and block.
 * Every read result carries Hermes' `is_binary` / `is_image` keys.
 */
import { Effect, Schema } from "effect"
import { Config } from "../../services/Config.js"
import { Environments } from "../../services/Environments.js"
import { FileReadTracker } from "../../services/FileReadTracker.js"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import { TerminalBackend } from "../../services/TerminalBackend.js"
import { KEY_MARKERS, privateKeyLines, REDACTED_KEY_LINE } from "../../lib/redact.js"
import { redactFileLines } from "../../lib/text.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { lenient } from "../../lib/tool/lenient.js"
import { posix } from "node:path"
import { extensionOf, formatSize, hasBinaryExtension, identifyBinary, looksBinary, SAMPLE_BYTES } from "../../lib/binaryFiles.js"
import { clampLine, LinePager, truncateToCharBudget } from "./linePager.js"
import { deviceReadError, isBlockedDevice, readBlockError } from "../../lib/pathSafety.js"
import { makeTwinFinder } from "./hardLinks.js"
import { readNotebook } from "./notebook.js"
import { similarPaths } from "./suggest.js"
import { FileToolError, resolveTarget, safetyPaths, taskFiles } from "./taskFiles.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const READ_DEFAULT_LIMIT = 500
export const READ_MAX_LIMIT = 2000
/** Above this size a file is read in chunks rather than at once. */
const WHOLE_READ_BYTES = 8 * 1024 * 1024
const CHUNK_BYTES = 4 * 1024 * 1024
/** A larger file read with a wide window gets a nudge towards narrower reads. */
const LARGE_FILE_HINT_BYTES = 512_000

export const ReadFileParameters = Schema.Struct({
  // A missing path reads as "" and answers "File not found", as in Hermes, rather than a decode error.
  path: lenient(Schema.String, (value) => (typeof value === "number" ? String(value) : ""), {
    description: "Path to the file to read (absolute, relative, or ~/path)"
  }),
  // Bounds are advertised; out-of-range values are clamped by the handler, as Hermes does.
  offset: Schema.optional(Schema.Int.annotations({
    description: "Line number to start reading from (1-indexed, default: 1)",
    default: 1,
    jsonSchema: { type: "integer", minimum: 1 }
  })),
  limit: Schema.optional(Schema.Int.annotations({
    description: `Maximum number of lines to read (default: ${READ_DEFAULT_LIMIT}, max: ${READ_MAX_LIMIT})`,
    default: READ_DEFAULT_LIMIT,
    jsonSchema: { type: "integer", maximum: READ_MAX_LIMIT }
  }))
})

export type ReadFileArgs = typeof ReadFileParameters.Type

export const UNCHANGED_MESSAGE =
  "File unchanged since last read. The content from the earlier read_file result in this conversation is still current — refer to that instead of re-reading."

type Result = Record<string, unknown>

interface Scan {
  readonly lines: ReadonlyArray<string>
  readonly totalLines: number
  readonly bytes: number
  readonly sample: Uint8Array
  /** Window lines that belong to a private key found anywhere in the file (by index in `lines`). */
  readonly keyLines: ReadonlyArray<boolean>
}

const hasKeyMarker = (data: Uint8Array): boolean => KEY_MARKERS.some((marker) => Buffer.from(data.buffer, data.byteOffset, data.length).includes(marker))

/**
 * Which window lines are private-key material, judged on the whole file: a
 * window that starts inside a key block (an offset past its BEGIN line) is
 * redacted like one that shows the whole block.
 */
const keyLinesOf = (data: Uint8Array | undefined, first: number, window: ReadonlyArray<string>): ReadonlyArray<boolean> => {
  if (data === undefined) {
    // Too large to look at whole: any base64-only window line counts.
    const shaped = privateKeyLines(window)
    return window.map((line, i) => shaped[i] === true || /^\s*[A-Za-z0-9+/]{16,}={0,2}\s*$/.test(line))
  }
  const all = privateKeyLines(new TextDecoder("utf-8").decode(data).split("\n"))
  return window.map((_, i) => all[first - 1 + i] === true)
}

/** The window's lines and the file's line count, or the first bytes when the file is binary. */
const scanFile = (env: TerminalEnvironment, path: string, size: number, first: number, last: number) =>
  Effect.gen(function*() {
    const pager = new LinePager(first, last)
    if (size <= WHOLE_READ_BYTES) {
      // Size 0 may still have content (/proc files): read those to the end.
      const data = yield* (size === 0 ? env.readFile(path) : env.readFile(path, { offset: 0, length: size }))
      const sample = data.subarray(0, SAMPLE_BYTES)
      if (looksBinary(sample)) return { _tag: "Binary", sample, bytes: data.length } as const
      pager.push(data)
      const page = pager.finish()
      const keyLines = hasKeyMarker(data) ? keyLinesOf(data, first, page.lines) : []
      return { _tag: "Text", ...page, keyLines, bytes: data.length, sample } as const
    }
    let offset = 0
    let sample: Uint8Array | undefined
    let marked = false
    for (;;) {
      const chunk = yield* env.readFile(path, { offset, length: CHUNK_BYTES })
      if (sample === undefined) {
        sample = chunk.subarray(0, SAMPLE_BYTES)
        if (looksBinary(sample)) return { _tag: "Binary", sample, bytes: size } as const
      }
      pager.push(chunk)
      marked ||= hasKeyMarker(chunk)
      offset += chunk.length
      if (chunk.length < CHUNK_BYTES) break
    }
    const page = pager.finish()
    return { _tag: "Text", ...page, keyLines: marked ? keyLinesOf(undefined, first, page.lines) : [], bytes: offset, sample: sample ?? new Uint8Array() } as const
  })

/** Hermes' read result with nothing read: every key its result type always has, in its order. */
const EMPTY_READ = { content: "", total_lines: 0, file_size: 0, truncated: false, is_binary: false, is_image: false } as const

/** The directory of `path` as the model wrote it (`.` for a bare name; absolute for `~`), for suggestions. */
const shownDirectory = (path: string, absolute: string): string => {
  if (path.startsWith("~")) return posix.dirname(absolute)
  const dir = posix.dirname(path)
  return dir === "." && !path.startsWith("./") ? "." : dir
}

const continueHint = (next: number, offset: number, total: number) =>
  `Use offset=${next} to continue reading (showing ${offset}-${Math.max(offset, next - 1)} of ${total} lines)`

export const readFileTool = defineTool<ReadFileArgs, typeof ReadFileParameters.Encoded, Config | Environments | FileReadTracker | TerminalBackend>({
  name: "read_file",
  toolset: "file",
  emoji: "📖",
  // It has its own character budget (Hermes pins read_file out of result persistence).
  maxResultChars: Infinity,
  parallel: "safe",
  description:
    "Read a text file with line numbers and pagination. Use this instead of cat/head/tail in terminal. Output format: 'LINE_NUM|CONTENT'. " +
    "Suggests similar filenames if not found. Use offset and limit for large files: a read longer than about 100K characters is cut on a whole line " +
    "and tells you the next offset. NOTE: cannot read images or other binary files.",
  parameters: ReadFileParameters,
  check: Effect.flatMap(TerminalBackend, (backend) => backend.available),
  handler: observedFn("read_file")(function*(args) {
    const offset = Math.max(1, args.offset ?? 1)
    const limit = Math.max(1, Math.min(args.limit ?? READ_DEFAULT_LIMIT, READ_MAX_LIMIT))
    if (args.path.length === 0) return yield* new FileToolError({ message: "File not found: " })
    const files = yield* taskFiles
    const { env, context, settings } = files
    const tracker = yield* FileReadTracker

    const target = yield* resolveTarget(env, args.path)
    if (yield* isBlockedDevice(target.absolute, env, target.real)) return yield* new FileToolError({ message: deviceReadError(args.path) })

    if (hasBinaryExtension(target.real)) {
      return yield* new FileToolError({
        message: `Cannot read binary file '${args.path}' (${extensionOf(target.real)}). Use vision_analyze for images, or terminal to inspect binary files.`
      })
    }
    const safety = yield* safetyPaths(files)
    const blocked = readBlockError(target.real, safety, { literal: target.absolute })
    if (blocked !== undefined) return yield* new FileToolError({ message: blocked })

    const stat = yield* Effect.either(env.stat(target.real))
    if (stat._tag === "Left") {
      if (stat.left.reason !== "NotFound") return yield* new FileToolError({ message: `Failed to read file: ${stat.left.message}` })
      // Hermes' not-found payload is its whole (empty) read result; suggestions are spelled like the path asked for.
      const similar = yield* similarPaths(env, target.absolute, shownDirectory(args.path, target.absolute))
      const result: Result = { ...EMPTY_READ, error: `File not found: ${args.path}` }
      if (similar.length > 0) result["similar_files"] = similar
      return result
    }
    if (stat.right.type !== "file") {
      return yield* new FileToolError({
        message: `Cannot read '${args.path}': not a regular file (directory, FIFO, socket, or device). Reading it could block indefinitely.`
      })
    }

    // A hard link to a protected file is that file under another name.
    const twin = yield* makeTwinFinder(files, safety)(target.real, stat.right)
    if (twin !== undefined) {
      return yield* new FileToolError({ message: readBlockError(twin, safety, { shown: `${args.path} (a hard link to ${twin})` }) ?? `Access denied: ${args.path}` })
    }

    // Notebooks as text (Hermes extracts them before its dedup; here after the safety checks, which Hermes runs later).
    if (extensionOf(target.real) === ".ipynb") {
      const notebook = yield* readNotebook(env, target.real, { offset, limit, maxChars: settings.readMaxChars, shown: args.path })
      if (notebook !== undefined) return notebook
    }

    const dedup = yield* tracker.checkDedup(context.taskId, target.real, offset, limit, stat.right.mtimeMs)
    if (dedup._tag === "Unchanged") {
      if (dedup.hits >= 2) {
        return {
          error: `BLOCKED: You have called read_file on this exact region ${dedup.hits + 1} times and the file has NOT changed. ` +
            "STOP calling read_file for this path — the content from your earlier read_file result in this conversation is still current. " +
            "Proceed with your task using the information you already have.",
          path: args.path,
          already_read: dedup.hits + 1
        }
      }
      return { status: "unchanged", message: UNCHANGED_MESSAGE, path: args.path, dedup: true, content_returned: false }
    }

    const end = offset + limit - 1
    const scan = yield* scanFile(env, target.real, stat.right.size, offset, end).pipe(
      Effect.mapError((e) => new FileToolError({ message: `Failed to read file: ${e.message}` }))
    )
    const fileSize = Math.max(stat.right.size, scan.bytes)
    if (scan._tag === "Binary") {
      return { ...EMPTY_READ, file_size: fileSize, is_binary: true, error: `Binary file (${identifyBinary(scan.sample)}, ${formatSize(fileSize)}) — cannot display as text.` }
    }

    const result: Result = yield* Effect.sync(() => shapeRead(scan, { offset, limit, fileSize, maxChars: settings.readMaxChars }))
    const count = yield* tracker.recordRead(context.taskId, { path: target.real, offset, limit, mtimeMs: stat.right.mtimeMs })
    if (count >= 4) {
      return {
        error: `BLOCKED: You have read this exact file region ${count} times in a row. The content has NOT changed. ` +
          "You already have this information. STOP re-reading and proceed with your task.",
        path: args.path,
        already_read: count
      }
    }
    if (count >= 3) {
      result["_warning"] = `You have read this exact file region ${count} times consecutively. The content has not changed since your last read. ` +
        "Use the information you already have. If you are stuck in a loop, stop reading and proceed with writing or responding."
    }
    return result
  })
})

/** Number, clamp, budget and mask one window of lines into Hermes' result shape. */
const shapeRead = (
  scan: Scan,
  options: { readonly offset: number; readonly limit: number; readonly fileSize: number; readonly maxChars: number }
): Result => {
  const { offset, limit, fileSize, maxChars } = options
  const total = scan.totalLines
  if (fileSize === 0 || total === 0) {
    return { content: "", total_lines: 0, file_size: fileSize, truncated: false, hint: "File is empty (0 bytes).", is_binary: false, is_image: false }
  }
  if (offset > total) {
    return {
      content: "",
      total_lines: total,
      file_size: fileSize,
      truncated: false,
      hint: `Note: offset ${offset} is beyond the end of the file (${total} lines total). Retry with offset <= ${total}.`,
      is_binary: false,
      is_image: false
    }
  }
  // Masked before numbering: assignments are recognised at the start of a line, and no mask adds or drops one.
  const masked = redactFileLines(scan.lines.map((line, i) => (scan.keyLines[i] === true ? REDACTED_KEY_LINE : line)))
  const numbered = masked.map((line, i) => {
    const text = i === 0 && offset === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line
    return `${offset + i}|${clampLine(text)}`
  })
  const budget = truncateToCharBudget(numbered, maxChars)
  const next = offset + budget.kept.length
  const truncated = budget.cut || total > offset + limit - 1
  const result: Result = {
    content: budget.kept.join("\n"),
    total_lines: total,
    file_size: fileSize,
    truncated
  }
  if (budget.cut) result["truncated_by"] = "bytes"
  if (truncated) {
    result["next_offset"] = next
    result["hint"] = continueHint(next, offset, total)
  }
  result["is_binary"] = false
  result["is_image"] = false
  if (truncated && fileSize > LARGE_FILE_HINT_BYTES && limit > 200) {
    result["_hint"] = `This file is large (${fileSize.toLocaleString("en-US")} bytes). Consider reading only the section you need with offset and limit to keep context usage efficient.`
  }
  return result
}
