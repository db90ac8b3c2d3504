/**
 * One pass over a file's bytes, in chunks of any size: counts its lines and
 * keeps only the requested window, each line clamped in bytes, so neither a
 * huge file nor a pathological single line is ever held whole.
 */

/** Hermes' `tool_output.max_line_length`: longer lines are cut and marked. */
export const MAX_LINE_CHARS = 2000
/** A UTF-8 character is at most 4 bytes: this many bytes always hold more than MAX_LINE_CHARS characters. */
const LINE_BYTE_CLAMP = 4 * MAX_LINE_CHARS + 1

export interface Page {
  /** The window's lines, decoded (U+FFFD for bad bytes), not yet clamped in characters. */
  readonly lines: ReadonlyArray<string>
  /** Lines in the file; a last line without a newline counts. */
  readonly totalLines: number
}

const decoder = new TextDecoder("utf-8")

export class LinePager {
  private line = 1
  private newlines = 0
  private bytes = 0
  private lastByte = -1
  private readonly page: Array<Uint8Array> = []
  private current: Array<Uint8Array> = []
  private currentBytes = 0

  /** Lines `first`..`last` (1-based, inclusive) are kept. */
  constructor(private readonly first: number, private readonly last: number) {}

  private keep(bytes: Uint8Array) {
    if (this.currentBytes >= LINE_BYTE_CLAMP || bytes.length === 0) return
    const room = LINE_BYTE_CLAMP - this.currentBytes
    const part = bytes.length > room ? bytes.subarray(0, room) : bytes
    this.current.push(part)
    this.currentBytes += part.length
  }

  private endLine() {
    this.page.push(this.current.length === 1 ? (this.current[0] as Uint8Array) : Buffer.concat(this.current))
    this.current = []
    this.currentBytes = 0
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return
    this.bytes += chunk.length
    this.lastByte = chunk[chunk.length - 1] as number
    let pos = 0
    while (pos < chunk.length) {
      if (this.line > this.last) {
        // Past the window: only the count matters.
        let nl = chunk.indexOf(10, pos)
        while (nl >= 0) {
          this.newlines++
          nl = chunk.indexOf(10, nl + 1)
        }
        return
      }
      const inWindow = this.line >= this.first
      const nl = chunk.indexOf(10, pos)
      if (nl < 0) {
        if (inWindow) this.keep(chunk.subarray(pos))
        return
      }
      if (inWindow) {
        this.keep(chunk.subarray(pos, nl))
        this.endLine()
      }
      this.newlines++
      this.line++
      pos = nl + 1
    }
  }

  finish(): Page {
    const unterminated = this.bytes > 0 && this.lastByte !== 10
    if (unterminated && this.line >= this.first && this.line <= this.last) this.endLine()
    return {
      lines: this.page.map((bytes) => decoder.decode(bytes)),
      totalLines: this.newlines + (unterminated ? 1 : 0)
    }
  }
}

/** `line` cut at MAX_LINE_CHARS characters, marked when cut. */
export const clampLine = (line: string): string =>
  line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS)}... [truncated]`

/**
 * Keep whole `N|text` lines while they fit in `maxChars`. When not even the
 * first fits, it is cut so the read never comes back empty and the next offset
 * still moves forward.
 */
export const truncateToCharBudget = (lines: ReadonlyArray<string>, maxChars: number): { readonly kept: ReadonlyArray<string>; readonly cut: boolean } => {
  let total = 0
  for (let i = 0; i < lines.length; i++) {
    total += (lines[i] as string).length + (i > 0 ? 1 : 0)
    if (total > maxChars) {
      return i === 0 ? { kept: [(lines[0] as string).slice(0, maxChars)], cut: true } : { kept: lines.slice(0, i), cut: true }
    }
  }
  return { kept: lines, cut: false }
}
