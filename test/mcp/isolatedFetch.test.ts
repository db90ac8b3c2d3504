/** The Streamable HTTP fetch wrapper: no listener left on the shared signal, aborts still reach every request. */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { getEventListeners } from "node:events"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { isolatedFetch } from "../../src/layers/mcp/isolatedFetch.js"

const server = Effect.acquireRelease(
  Effect.promise(async () => {
    const http = createServer((req, res) => {
      if (req.url === "/stream") {
        res.writeHead(200, { "content-type": "text/event-stream" })
        res.write("data: first\n\n")
        return // never ends
      }
      if (req.url === "/empty") return void res.writeHead(202).end()
      res.writeHead(200, { "content-type": "application/json" }).end("{\"ok\":true}")
    })
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
    return { http, base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` }
  }),
  ({ http }) => Effect.sync(() => {
    http.closeAllConnections()
    http.close()
  })
)

describe("isolatedFetch", () => {
  it.scopedLive("leaves no listener on the connection's signal once responses are read or cancelled", () =>
    Effect.gen(function*() {
      const { base } = yield* server
      const shared = new AbortController()
      yield* Effect.promise(async () => {
        for (let i = 0; i < 200; i++) {
          const res = await isolatedFetch(`${base}/json`, { method: "POST", body: "{}", signal: shared.signal })
          expect(await res.json()).toEqual({ ok: true })
          const accepted = await isolatedFetch(`${base}/empty`, { method: "POST", body: "{}", signal: shared.signal })
          expect(accepted.status).toBe(202)
          await accepted.body?.cancel()
        }
      })
      expect(getEventListeners(shared.signal, "abort")).toHaveLength(0)
    }))

  it.scopedLive("aborting the connection's signal still ends a stream in flight", () =>
    Effect.gen(function*() {
      const { base } = yield* server
      const shared = new AbortController()
      const outcome = yield* Effect.promise(async () => {
        const res = await isolatedFetch(`${base}/stream`, { signal: shared.signal })
        const reader = res.body!.getReader()
        const first = new TextDecoder().decode((await reader.read()).value)
        expect(getEventListeners(shared.signal, "abort")).toHaveLength(1)
        shared.abort(new Error("connection closed"))
        const rest = await reader.read().then(() => "still open", (e: unknown) => `ended: ${e instanceof Error ? e.message : String(e)}`)
        return { first, rest }
      })
      expect(outcome.first).toBe("data: first\n\n")
      expect(outcome.rest).toBe("ended: connection closed")
      expect(getEventListeners(shared.signal, "abort")).toHaveLength(0)
    }))
})
