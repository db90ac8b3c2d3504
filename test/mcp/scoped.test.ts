/**
 * `Mcp.connectScoped`: servers handed over for one scope (an ACP session) rather
 * than config.yaml. Scopes passing the same server share one process; the last one
 * to close stops it and removes its tools; a configured name or a name in use with
 * another target is refused.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { Mcp } from "../../src/services/Mcp.js"
import type { McpScopedServer } from "../../src/services/Mcp.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { demoHttpServer } from "../support/mcpServers/httpServer.js"
import { call, connected, gone, isAlive, pidFrom, STDIO_SERVER, stdioEntry } from "./helpers.js"
import { withServers } from "./suite.js"

const server = (name: string, args: ReadonlyArray<string>): McpScopedServer => ({
  name,
  transport: { kind: "stdio", command: process.execPath, args: [STDIO_SERVER, ...args], env: {} }
})

describe("Mcp.connectScoped", () => {
  it.scopedLive("shares a server between scopes, stops it with the last one, refuses clashing names", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "hermes-mcp-scoped-"))
      const beta = server("beta", ["--pid-file", join(dir, "beta.pid")])
      yield* withServers({ alpha: stdioEntry() }, Effect.gen(function*() {
        yield* connected("alpha")
        const mcp = yield* Mcp
        const registry = yield* ToolRegistry
        const first = yield* Scope.make()
        const second = yield* Scope.make()
        const [a] = yield* Scope.extend(mcp.connectScoped([beta]), first)
        expect(a?.state).toBe("connected")
        expect(a?.tools).toContain("mcp__beta__add")
        const pid = pidFrom(dir, "beta")!
        const [b, clash, configured] = yield* Scope.extend(
          mcp.connectScoped([beta, server("beta", ["--name", "other"]), server("alpha", [])]),
          second
        )
        expect(b?.state).toBe("connected")
        expect(pidFrom(dir, "beta")).toBe(pid)
        expect(clash?.state).toBe("invalid")
        expect(clash?.error).toContain("another session")
        expect(configured?.state).toBe("invalid")
        expect(configured?.error).toContain("config.yaml")
        // Scoped servers are not config servers: `mcp list` does not show them.
        expect((yield* mcp.status).map((s) => s.name)).toEqual(["alpha"])

        yield* Scope.close(first, Exit.void)
        expect(isAlive(pid)).toBe(true)
        expect(registry.get("mcp__beta__add")).toBeDefined()
        yield* Scope.close(second, Exit.void)
        expect(yield* gone(pid)).toBe(true)
        expect(registry.get("mcp__beta__add")).toBeUndefined()
        expect(registry.get("mcp__alpha__add")).toBeDefined()
      }))
    }))

  it.scopedLive("an http server with headers, its session ended when the scope closes", () =>
    Effect.gen(function*() {
      const http = yield* demoHttpServer
      yield* withServers({}, Effect.gen(function*() {
        const mcp = yield* Mcp
        const scope = yield* Scope.make()
        const [web] = yield* Scope.extend(
          mcp.connectScoped([{ name: "web", transport: { kind: "http", url: http.url, headers: { Authorization: "Bearer scoped-1" } } }]),
          scope
        )
        expect(web?.state).toBe("connected")
        expect(yield* call("mcp__web__add", { a: 1, b: 2 })).toEqual({ result: "3" })
        expect(http.headers.every((h) => h["authorization"] === "Bearer scoped-1")).toBe(true)
        yield* Scope.close(scope, Exit.void)
        expect(http.openSessions()).toBe(0)
        expect(yield* call("mcp__web__add", { a: 1, b: 2 })).toMatchObject({ error: expect.stringContaining("does not exist") })
      }))
    }))
})
