import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { demoHttpServer } from "../support/mcpServers/httpServer.js"
import { call, connected, waitFor } from "./helpers.js"
import { mcpSuite, withServers } from "./suite.js"

mcpSuite({
  transport: "http",
  entry: (extra = {}) => Effect.map(demoHttpServer, (server) => ({ url: server.url, ...extra }))
})

describe("MCP over Streamable HTTP", () => {
  it.scopedLive("sends the configured headers, and ends its session when the runtime closes", () =>
    Effect.gen(function*() {
      const server = yield* demoHttpServer
      yield* withServers({ web: { url: server.url, headers: { Authorization: "Bearer test-token-123" } } }, Effect.gen(function*() {
        yield* connected("web")
        expect(yield* call("mcp__web__add", { a: 1, b: 2 })).toEqual({ result: "3" })
        expect(server.openSessions()).toBe(1)
      }))
      expect(server.headers.length).toBeGreaterThan(0)
      expect(server.headers.every((h) => h["authorization"] === "Bearer test-token-123")).toBe(true)
      // The client said goodbye (DELETE of its session) on the way out.
      expect(server.openSessions()).toBe(0)
    }))

  it.scopedLive("a server that is not listening is reported as failed, with the reason", () =>
    Effect.gen(function*() {
      const server = yield* demoHttpServer
      const dead = server.url.replace(/:(\d+)\//, (_m, port: string) => `:${Number(port) === 1 ? 2 : 1}/`)
      yield* withServers({ dead: { url: dead }, live: { url: server.url } }, Effect.gen(function*() {
        const failed = yield* waitFor("dead", (s) => s.state === "failed")
        expect(failed.error).toMatch(/fetch failed|ECONNREFUSED/)
        expect(failed.tools).toEqual([])
        // The other server is unaffected.
        const live = yield* connected("live")
        expect(live.tools.length).toBeGreaterThan(0)
        expect(yield* call("mcp__live__echo", { text: "x" })).toEqual({ result: "echo: x" })
      }))
    }))
})
