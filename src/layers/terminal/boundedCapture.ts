/**
 * Output capture with a fixed memory bound: the first 40% of the budget is
 * kept as it arrives, the last 60% in a window that slides, and everything in
 * between is only counted. A command printing gigabytes costs the budget,
 * not the gigabytes.
 */
import type { CapturedOutput } from "../../services/TerminalBackend.js"

/** Default budget: the terminal tool's 50 000-char cap, in bytes. */
export const DEFAULT_CAPTURE_BYTES = 50_000

/** Chunks are kept by reference: producers must hand over buffers they do not reuse (Node streams and node-pty do not). */
export interface BoundedCapture {
  readonly push: (chunk: Uint8Array) => void
  readonly result: () => CapturedOutput
}

/** Drop leading UTF-8 continuation bytes so a window cut mid-character decodes cleanly. */
const alignStart = (bytes: Buffer): Buffer => {
  let i = 0
  while (i < bytes.length && i < 3 && (bytes[i]! & 0xc0) === 0x80) i++
  return i === 0 ? bytes : bytes.subarray(i)
}

/** A cut at the end may split a character: keep it whole or drop it. */
const alignEnd = (bytes: Buffer): Buffer => {
  let i = bytes.length - 1
  let continuation = 0
  while (i >= 0 && continuation < 3 && (bytes[i]! & 0xc0) === 0x80) {
    i--
    continuation++
  }
  if (i < 0) return bytes
  const lead = bytes[i]!
  const need = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0
  return need > continuation ? bytes.subarray(0, i) : bytes
}

export const makeBoundedCapture = (maxBytes: number = DEFAULT_CAPTURE_BYTES): BoundedCapture => {
  const headMax = Math.floor(maxBytes * 0.4)
  const tailMax = maxBytes - headMax
  const head: Array<Buffer> = []
  let headBytes = 0
  // Tail chunks; trimmed from the front once they hold more than twice the window.
  let tail: Array<Buffer> = []
  let tailBytes = 0
  let total = 0

  const compactTail = () => {
    const joined = Buffer.concat(tail, tailBytes)
    const kept = joined.subarray(joined.length - tailMax)
    tail = [Buffer.from(kept)]
    tailBytes = kept.length
  }

  return {
    push: (chunk) => {
      let buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      total += buf.length
      if (headBytes < headMax) {
        const take = Math.min(headMax - headBytes, buf.length)
        head.push(buf.subarray(0, take))
        headBytes += take
        buf = buf.subarray(take)
        if (buf.length === 0) return
      }
      if (buf.length >= tailMax) {
        tail = [buf.subarray(buf.length - tailMax)]
        tailBytes = tailMax
        return
      }
      tail.push(buf)
      tailBytes += buf.length
      if (tailBytes > tailMax * 2) compactTail()
    },
    result: () => {
      if (tailBytes > tailMax) compactTail()
      const headBuf = Buffer.concat(head, headBytes)
      const tailBuf = Buffer.concat(tail, tailBytes)
      const omitted = total - headBytes - tailBytes
      if (omitted === 0) {
        return { head: Buffer.concat([headBuf, tailBuf]).toString("utf8"), tail: "", omittedBytes: 0, totalBytes: total }
      }
      return {
        head: alignEnd(headBuf).toString("utf8"),
        tail: alignStart(tailBuf).toString("utf8"),
        omittedBytes: omitted,
        totalBytes: total
      }
    }
  }
}
