/**
 * Server-sent events → the `data` of each event. Only what chat-completion
 * streams use: `data:` lines (several join with "\n"), comments and other
 * fields ignored, an event ends at a blank line or at the end of the body.
 */
import { Stream } from "effect"

export const sseData = <E, R>(bytes: Stream.Stream<Uint8Array, E, R>): Stream.Stream<string, E, R> =>
  Stream.suspend(() => {
    let data: Array<string> = []
    const flush = (): Array<string> => {
      if (data.length === 0) return []
      const event = data.join("\n")
      data = []
      return [event]
    }
    return bytes.pipe(
      Stream.decodeText(),
      Stream.splitLines,
      Stream.mapConcat((line) => {
        if (line.length === 0) return flush()
        if (line.startsWith(":")) return []
        const colon = line.indexOf(":")
        const field = colon < 0 ? line : line.slice(0, colon)
        if (field !== "data") return []
        const value = colon < 0 ? "" : line.slice(colon + 1)
        data.push(value.startsWith(" ") ? value.slice(1) : value)
        return []
      }),
      Stream.concat(Stream.suspend(() => Stream.fromIterable(flush())))
    )
  })
