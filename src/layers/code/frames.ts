/**
 * Length-prefixed frames for the execute_code socket: a 4-byte big-endian
 * length, then the payload. Unlike newline framing, a payload may contain
 * any bytes and is never cut where a read happens to end.
 */

/** Larger frames close the connection: no tool result or request is this big. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024

export const encodeFrame = (payload: string): Buffer => {
  const body = Buffer.from(payload, "utf8")
  const header = Buffer.allocUnsafe(4)
  header.writeUInt32BE(body.length, 0)
  return Buffer.concat([header, body])
}

/** Feeds chunks in, hands complete payloads out; `undefined` from `push` means a frame was too large. */
export const makeFrameReader = () => {
  let chunks: Array<Buffer> = []
  let buffered = 0
  let expected: number | undefined
  const take = (size: number): Buffer => {
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered)
    const out = all.subarray(0, size)
    const rest = all.subarray(size)
    chunks = rest.length === 0 ? [] : [rest]
    buffered = rest.length
    return out
  }
  return {
    push: (chunk: Buffer): Array<string> | undefined => {
      chunks.push(chunk)
      buffered += chunk.length
      const frames: Array<string> = []
      for (;;) {
        if (expected === undefined) {
          if (buffered < 4) break
          expected = take(4).readUInt32BE(0)
          if (expected > MAX_FRAME_BYTES) return undefined
        }
        if (buffered < expected) break
        frames.push(take(expected).toString("utf8"))
        expected = undefined
      }
      return frames
    }
  }
}
