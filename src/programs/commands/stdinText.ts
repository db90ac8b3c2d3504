/**
 * All of standard input as text. `readFileSync(0)` fails with EAGAIN when the
 * pipe feeding us is non-blocking and not yet full (a large input written by a
 * slower producer), so stdin is read as the stream it is.
 */
import { Effect } from "effect"

export const readStdinText = <E>(onError: (message: string) => E): Effect.Effect<string, E> =>
  Effect.tryPromise({
    try: async () => {
      const chunks: Array<Buffer> = []
      for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer))
      return Buffer.concat(chunks).toString("utf8")
    },
    catch: (e) => onError(e instanceof Error ? e.message : String(e))
  })
