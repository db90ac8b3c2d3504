/**
 * The execute_code RPC channel for backends the host cannot reach by socket
 * (ssh, containers): a directory in the environment, read and written through
 * the environment's own file access. The script writes `req_NNNNNN` (a 4-byte
 * length, then the request); once it is whole this side answers with
 * `res_NNNNNN`, written atomically. Both stay until the run directory is
 * removed (one round trip less per call on ssh). Polls briefly while calls arrive, backing off when idle.
 */
import { Effect } from "effect"
import type { Scope } from "effect"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"

const REQUEST = /^req_(\d+)$/
const FAST_POLL_MS = 20
const IDLE_POLL_MS = 250

export const serveDirectory = (
  env: TerminalEnvironment,
  dir: string,
  handle: (request: string) => Effect.Effect<string>
): Effect.Effect<void, never, Scope.Scope> => {
  const answered = new Set<string>()
  const once: Effect.Effect<boolean> = Effect.gen(function*() {
    const entries = yield* Effect.orElseSucceed(env.readDir(dir), () => [])
    const requests = entries.flatMap((entry) => {
      const match = REQUEST.exec(entry.name)
      return match === null ? [] : [match[1]!]
    }).sort()
    let handled = 0
    for (const seq of requests) {
      if (answered.has(seq)) continue
      const path = `${dir}/req_${seq}`
      const read = yield* Effect.either(env.readFile(path))
      if (read._tag === "Left") continue
      const bytes = Buffer.from(read.right)
      // Still being written: the next poll takes it.
      if (bytes.length < 4 || bytes.length < 4 + bytes.readUInt32BE(0)) continue
      answered.add(seq)
      handled++
      const answer = yield* handle(bytes.subarray(4, 4 + bytes.readUInt32BE(0)).toString("utf8"))
      yield* Effect.ignore(env.writeFile(`${dir}/res_${seq}`, answer, { atomic: true }))
    }
    return handled > 0
  })
  const loop = (delay: number): Effect.Effect<never> =>
    Effect.flatMap(once, (busy) => {
      const next = busy ? FAST_POLL_MS : Math.min(IDLE_POLL_MS, Math.ceil(delay * 1.5))
      return Effect.zipRight(Effect.sleep(next), Effect.suspend(() => loop(next)))
    })
  return Effect.asVoid(Effect.forkScoped(loop(FAST_POLL_MS)))
}
