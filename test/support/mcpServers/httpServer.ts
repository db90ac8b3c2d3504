/**
 * The demo MCP server over Streamable HTTP on 127.0.0.1 (a free port), one
 * session per client, in the test process. Records the headers it receives.
 */
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { Effect } from "effect"
import { createDemoServer } from "./demoServer.mjs"

export interface DemoHttpServer {
  readonly url: string
  /** Headers of every request, in order. */
  readonly headers: ReadonlyArray<Readonly<Record<string, string | ReadonlyArray<string> | undefined>>>
  /** Sessions currently open (a client that closes cleanly ends its session). */
  readonly openSessions: () => number
}

/** Started for the enclosing scope, stopped (every session closed) when it ends. */
export const demoHttpServer = Effect.acquireRelease(
  Effect.promise(async () => {
    const sessions = new Map<string, StreamableHTTPServerTransport>()
    const headers: Array<Record<string, string | ReadonlyArray<string> | undefined>> = []
    const http = createServer((req, res) => {
      headers.push({ ...req.headers })
      const id = req.headers["mcp-session-id"]
      const existing = typeof id === "string" ? sessions.get(id) : undefined
      if (existing !== undefined) {
        void existing.handleRequest(req, res)
        return
      }
      if (typeof id === "string" || req.method !== "POST") {
        res.writeHead(404).end()
        return
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, transport)
      })
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId)
      }
      void createDemoServer({ name: "demo-http" }).connect(transport).then(() => transport.handleRequest(req, res))
    })
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
    const port = (http.address() as AddressInfo).port
    const server: DemoHttpServer = { url: `http://127.0.0.1:${port}/mcp`, headers, openSessions: () => sessions.size }
    return { server, http, sessions }
  }),
  ({ http, sessions }) =>
    Effect.promise(async () => {
      for (const t of sessions.values()) await t.close().catch(() => undefined)
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    })
).pipe(Effect.map(({ server }) => server))
