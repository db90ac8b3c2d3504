/**
 * Jupyter notebooks for read_file, as Hermes reads them: the cells' sources
 * as text under `# ── Code cell N ──` style headers (outputs left out), paged
 * and numbered like any file, with `extracted_document: true`. A notebook
 * that does not parse, or has no readable cells, is read as the JSON it is.
 */
import { Effect } from "effect"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import { redactFileLines } from "../../lib/text.js"
import { clampLine } from "./linePager.js"
import { lookupTable } from "../../lib/lookupTable.js"

const LABELS: Record<string, string> = lookupTable({ markdown: "Markdown", code: "Code", raw: "Raw" })

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** A cell's `source`: a string, or a list of strings joined. */
const sourceText = (source: unknown): string =>
  typeof source === "string" ? source : Array.isArray(source) ? source.filter((s): s is string => typeof s === "string").join("") : ""

/** The notebook's text, or undefined when it is not a notebook with readable cells. */
export const notebookText = (json: string): string | undefined => {
  let root: unknown
  try {
    root = JSON.parse(json)
  } catch {
    return undefined
  }
  if (!isRecord(root)) return undefined
  // nbformat 4 keeps `cells` at the top; nbformat 3 inside `worksheets`.
  const cells: ReadonlyArray<unknown> = Array.isArray(root["cells"])
    ? root["cells"]
    : (Array.isArray(root["worksheets"]) ? root["worksheets"] : []).flatMap((ws: unknown) => (isRecord(ws) && Array.isArray(ws["cells"]) ? ws["cells"] : []))
  const counts: Record<string, number> = { markdown: 0, code: 0, raw: 0 }
  const out: Array<string> = []
  for (const cell of cells) {
    if (!isRecord(cell)) continue
    const type = cell["cell_type"]
    if (typeof type !== "string" || LABELS[type] === undefined) continue
    counts[type] = (counts[type] ?? 0) + 1
    const number = type === "raw" ? "" : ` ${counts[type]}`
    out.push(`# ── ${LABELS[type]} cell${number} ──`, sourceText(cell["source"]).replace(/\n+$/, ""), "")
  }
  if (out.length === 0) return undefined
  return `${out.join("\n").replace(/\n+$/, "")}\n`
}

/** Python's `str.splitlines()`: every line boundary it knows, no empty last line for a trailing one. */
const splitLines = (text: string): Array<string> => {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/)
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop()
  return lines
}

interface Window {
  readonly offset: number
  readonly limit: number
  readonly maxChars: number
  /** The path as the model wrote it. */
  readonly shown: string
}

/** read_file's answer for a notebook, or undefined to read the file as plain text. */
export const readNotebook = (env: TerminalEnvironment, path: string, window: Window): Effect.Effect<Record<string, unknown> | undefined> =>
  Effect.gen(function*() {
    const data = yield* Effect.orElseSucceed(env.readFile(path), () => undefined)
    if (data === undefined) return undefined
    const text = notebookText(new TextDecoder("utf-8").decode(data))
    if (text === undefined) return undefined
    const { offset, limit, maxChars } = window
    const lines = splitLines(text)
    const total = lines.length
    const end = offset + limit - 1
    const page = lines.slice(offset - 1, end)
    // Like Hermes: an empty page (offset past the end) is empty content.
    const content = page.length === 0 || page.join("\n").length === 0
      ? ""
      : redactFileLines(page).map((line, i) => `${offset + i}|${clampLine(line)}`).join("\n")
    if (content.length > maxChars) {
      return {
        error: `Read produced ${content.length.toLocaleString("en-US")} characters which exceeds the safety limit (${maxChars.toLocaleString("en-US")} chars). ` +
          `Use offset and limit to read a smaller range. The document has ${total} lines of extracted text.`,
        path: window.shown,
        total_lines: total,
        file_size: data.length
      }
    }
    const result: Record<string, unknown> = { content, total_lines: total, file_size: data.length, truncated: total > end, extracted_document: true }
    if (total > end) result["hint"] = `Use offset=${end + 1} to continue reading (showing ${offset}-${Math.min(end, total)} of ${total} lines)`
    return result
  })
