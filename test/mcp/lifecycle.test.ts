/**
 * The life of stdio servers under the runtime: start-up that never blocks,
 * failures that are reported and retried, a server crashing mid-call, one that
 * never answers `initialize`, and shutdown leaving no process behind.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Layer, Schedule, Schema, TestClock } from "effect"
import { makeMcpLive } from "../../src/layers/McpLive.js"
import { registerTool } from "../../src/lib/tool/registerTool.js"
import { Mcp } from "../../src/services/Mcp.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { defineTool } from "../../src/lib/tool/defineTool.js"
import { testRuntime } from "../support/runtime.js"
import { call, connected, gone, isAlive, parse, pidFrom, stdioEntry, waitFor } from "./helpers.js"
import { withServers } from "./suite.js"

const pidDir = () => mkdtempSync(join(tmpdir(), "hermes-mcp-pids-"))
const withPid = (dir: string, name: string, flags: ReadonlyArray<string> = []) => ["--pid-file", join(dir, `${name}.pid`), ...flags]

/** Reconnect quickly in tests that watch a reconnect happen for real. */
const fastRetry = { retry: Schedule.spaced("20 millis") }

describe("MCP server lifecycle (stdio)", () => {
  it.scopedLive("stdio servers get a filtered environment plus their own `env`", () =>
    Effect.gen(function*() {
      process.env["HERMES_MCP_TEST_API_KEY"] = "sk-should-not-leak-0000000000000000"
      process.env["HERMES_MCP_TEST_PLAIN"] = "also-not-passed"
      yield* withServers({ demo: stdioEntry([], { env: { DEMO_SETTING: "on", DEMO_PORT: 8080 } }) }, Effect.gen(function*() {
        yield* connected("demo")
        expect(yield* call("mcp__demo__env", { name: "DEMO_SETTING" })).toEqual({ result: "on" })
        expect(yield* call("mcp__demo__env", { name: "DEMO_PORT" })).toEqual({ result: "8080" })
        expect(yield* call("mcp__demo__env", { name: "PATH" })).toEqual({ result: process.env["PATH"] })
        expect(yield* call("mcp__demo__env", { name: "HERMES_MCP_TEST_API_KEY" })).toEqual({ result: "(unset)" })
        expect(yield* call("mcp__demo__env", { name: "HERMES_MCP_TEST_PLAIN" })).toEqual({ result: "(unset)" })
      }))
    }))

  it.scopedLive("start-up does not wait for servers: the runtime works while one is still connecting", () =>
    Effect.gen(function*() {
      const dir = pidDir()
      yield* withServers({ slow: stdioEntry(withPid(dir, "slow", ["--hang"])) }, Effect.gen(function*() {
        const [status] = yield* Effect.flatMap(Mcp, (m) => m.status)
        expect(status?.state).toBe("connecting")
        // Built-in tools answer at once.
        const todo = parse(yield* Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool: "todo", args: {} })))
        expect(todo).toHaveProperty("todos")
        // Calling a tool of a server that never connected: it is simply not there yet.
        expect(yield* call("mcp__slow__echo")).toMatchObject({ error: expect.stringContaining("does not exist") })
        yield* Effect.promise(async () => {
          while (pidFrom(dir, "slow") === undefined) await new Promise((r) => setTimeout(r, 10))
        })
      }))
      // Closing the runtime mid-handshake ends the server process too.
      expect(yield* gone(pidFrom(dir, "slow")!)).toBe(true)
    }))

  it.scopedLive("a server that never answers initialize times out and is retried; the others are unaffected", () =>
    Effect.gen(function*() {
      const dir = pidDir()
      const servers = {
        mute: stdioEntry(withPid(dir, "mute", ["--hang"]), { connect_timeout: 0.5 }),
        good: stdioEntry([])
      }
      yield* withServers(servers, Effect.gen(function*() {
        const good = yield* connected("good")
        expect(good.tools).toContain("mcp__good__echo")
        expect(yield* call("mcp__good__echo", { text: "fine" })).toEqual({ result: "echo: fine" })
        const mute = yield* waitFor("mute", (s) => s.state === "failed")
        expect(mute.error).toMatch(/^no answer to initialize within 0\.5s/)
        expect(mute.tools).toEqual([])
        // The timed-out attempt's process is gone; the next attempt starts on the retry schedule.
        const firstPid = pidFrom(dir, "mute")!
        expect(yield* gone(firstPid)).toBe(true)
        yield* waitFor("mute", (s) => s.attempts >= 2)
        // Still the only one affected.
        expect((yield* connected("good")).state).toBe("connected")
      }), fastRetry)
    }))

  it.scopedLive("a server that crashes mid-call: the call fails, the tools become unavailable, and it reconnects", () =>
    Effect.gen(function*() {
      yield* withServers({ flaky: stdioEntry([]) }, Effect.gen(function*() {
        yield* connected("flaky")
        const registry = yield* ToolRegistry
        const check = registry.get("mcp__flaky__echo")!.check!
        expect(yield* check).toBe(true)
        const crashed = yield* call("mcp__flaky__crash")
        expect(crashed).toEqual({ error: "MCP server 'flaky' disconnected during the call to 'crash'" })
        const down = yield* waitFor("flaky", (s) => s.state !== "connected")
        expect(down.error ?? "").toMatch(/connection closed|crashing on purpose/)
        // The tools stay registered, their availability follows the connection.
        expect(registry.get("mcp__flaky__echo")).toBeDefined()
        // Back after the retry delay, with the same tools.
        const back = yield* waitFor("flaky", (s) => s.state === "connected" && s.attempts === 2)
        expect(back.tools).toContain("mcp__flaky__echo")
        expect(yield* check).toBe(true)
        expect(yield* call("mcp__flaky__echo", { text: "again" })).toEqual({ result: "echo: again" })
      }), fastRetry)
    }))

  it.scopedLive("between a crash and the reconnect, calls say the server is not connected", () =>
    Effect.gen(function*() {
      // A retry far in the future keeps the server down for the rest of the test.
      yield* withServers({ flaky: stdioEntry([]) }, Effect.gen(function*() {
        yield* connected("flaky")
        const registry = yield* ToolRegistry
        const executor = yield* ToolExecutor
        yield* call("mcp__flaky__crash")
        yield* waitFor("flaky", (s) => s.state === "disconnected")
        expect(yield* registry.get("mcp__flaky__echo")!.check!).toBe(false)
        const outcome = yield* executor.execute({ tool: "mcp__flaky__echo", args: { text: "x" } })
        // Within Hermes' availability grace the handler runs and says why; after it, dispatch says unavailable.
        expect(outcome.result).toMatch(/MCP server 'flaky' is not connected|not available right now/)
      }), { retry: Schedule.spaced("1 hour") })
    }))

  it.scopedLive("when the retry schedule gives up, the server's tools and its alias are removed", () =>
    Effect.gen(function*() {
      yield* withServers({ flaky: stdioEntry([]) }, Effect.gen(function*() {
        yield* connected("flaky")
        const registry = yield* ToolRegistry
        expect((yield* registry.resolve({ enabled: ["flaky"] })).tools).toContain("mcp__flaky__echo")
        yield* call("mcp__flaky__crash")
        const final = yield* waitFor("flaky", (s) => (s.error ?? "").includes("gave up"))
        expect(final).toMatchObject({ state: "failed", tools: [], attempts: 1 })
        expect(registry.names().filter((n) => n.startsWith("mcp__"))).toEqual([])
        expect((yield* registry.resolve({ enabled: ["flaky"] })).unknown).toEqual(["flaky"])
      }), { retry: Schedule.stop })
    }))

  it.scoped("a server that fails at start is reported with its stderr and retried with exponential backoff (TestClock)", () =>
    Effect.gen(function*() {
      /** The retry's sleep is registered (the server's process I/O is real, so poll in real time). */
      const retryArmed = (delayMs: number) =>
        Effect.gen(function*() {
          const due = (yield* TestClock.currentTimeMillis) + delayMs
          while (!Chunk.some(yield* TestClock.sleeps(), (at) => at === due)) {
            yield* Effect.promise(() => new Promise((r) => setTimeout(r, 5)))
          }
        })
      const attempts = Effect.map(Effect.flatMap(Mcp, (m) => m.status), (all) => all[0]?.attempts)
      yield* withServers({ broken: stdioEntry(["--exit-on-start"]) }, Effect.gen(function*() {
        const first = yield* waitFor("broken", (s) => s.failures === 1)
        expect(first.state).toBe("failed")
        expect(first.error).toContain("the server closed the connection during initialize")
        expect(first.error).toContain("boom: cannot start without a license file")
        // 1 s before the second attempt, then 2 s before the third.
        yield* retryArmed(1000)
        yield* TestClock.adjust("999 millis")
        expect(yield* attempts).toBe(1)
        yield* TestClock.adjust("1 millis")
        expect((yield* waitFor("broken", (s) => s.failures === 2)).attempts).toBe(2)
        yield* retryArmed(2000)
        yield* TestClock.adjust("1999 millis")
        expect(yield* attempts).toBe(2)
        yield* TestClock.adjust("1 millis")
        expect((yield* waitFor("broken", (s) => s.failures === 3)).state).toBe("failed")
      }))
    }))

  it.scopedLive("disabled and unusable entries are reported, never silently dropped", () =>
    Effect.gen(function*() {
      const servers = {
        off: stdioEntry([], { enabled: false }),
        nothing: {},
        odd: { url: "ftp://example.invalid/mcp" },
        sse: { url: "http://127.0.0.1:1/sse", transport: "sse" },
        missing: { command: "/nonexistent/hermes-mcp-server" }
      }
      yield* withServers(servers, Effect.gen(function*() {
        const statuses = yield* Effect.flatMap(Mcp, (m) => m.awaitSettled)
        const by = Object.fromEntries(statuses.map((s) => [s.name, s]))
        expect(statuses.map((s) => s.name)).toEqual(["missing", "nothing", "odd", "off", "sse"])
        expect(by["off"]?.state).toBe("disabled")
        expect(by["off"]?.attempts).toBe(0)
        expect(by["nothing"]).toMatchObject({ state: "invalid", error: "server 'nothing' needs `command` (stdio) or `url` (Streamable HTTP)" })
        expect(by["odd"]).toMatchObject({ state: "invalid", error: "`url` must be http(s): ftp://example.invalid/mcp" })
        expect(by["sse"]).toMatchObject({ state: "invalid", error: "transport 'sse' is not supported (stdio or http)" })
        expect(by["missing"]?.state).toBe("failed")
        expect(by["missing"]?.error).toContain("ENOENT")
      }))
    }))

  it.scopedLive("a tool name that belongs to a non-MCP toolset is skipped with a warning", () =>
    Effect.gen(function*() {
      const squatter = defineTool({
        name: "mcp__demo__echo",
        toolset: "custom",
        description: "Registered before the server connected.",
        parameters: Schema.Struct({}),
        handler: () => Effect.succeed("the original")
      })
      const runtime = makeMcpLive().pipe(
        Layer.provideMerge(Layer.effectDiscard(Effect.orDie(registerTool(squatter)))),
        Layer.provideMerge(testRuntime({ mcp_servers: { demo: stdioEntry([]) } }, { mcp: false }))
      )
      yield* Effect.provide(Effect.gen(function*() {
        const status = yield* connected("demo")
        expect(status.tools).not.toContain("mcp__demo__echo")
        expect(status.skipped).toContainEqual({ tool: "echo", reason: "'mcp__demo__echo' would shadow the tool of toolset 'custom'" })
        expect(status.warnings).toContain("tool 'echo' skipped: 'mcp__demo__echo' would shadow the tool of toolset 'custom'")
        expect(yield* Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool: "mcp__demo__echo", args: {} }))).toBe("the original")
        expect(yield* call("mcp__demo__add", { a: 1, b: 1 })).toEqual({ result: "2" })
      }), runtime)
    }))

  it.scopedLive("closing the runtime leaves no server process behind", () =>
    Effect.gen(function*() {
      const dir = pidDir()
      const servers = {
        one: stdioEntry(withPid(dir, "one")),
        two: stdioEntry(withPid(dir, "two", ["--no-extras"])),
        stuck: stdioEntry(withPid(dir, "stuck", ["--hang"]))
      }
      yield* withServers(servers, Effect.gen(function*() {
        yield* connected("one")
        yield* connected("two")
        // A call in flight when the runtime closes is interrupted with it.
        yield* Effect.forkDaemon(call("mcp__one__stall"))
        yield* Effect.promise(async () => {
          while (pidFrom(dir, "stuck") === undefined) await new Promise((r) => setTimeout(r, 10))
        })
        for (const name of ["one", "two", "stuck"]) expect(isAlive(pidFrom(dir, name)!)).toBe(true)
      }))
      for (const name of ["one", "two", "stuck"]) expect(yield* gone(pidFrom(dir, name)!)).toBe(true)
    }))

  it.scopedLive("Mcp.test connects afresh, times the handshake and the listing, and reports what would register", () =>
    Effect.gen(function*() {
      const servers = {
        demo: stdioEntry([], { enabled: false, tools: { exclude: ["crash"] } }),
        broken: stdioEntry(["--exit-on-start"], { enabled: false })
      }
      yield* withServers(servers, Effect.gen(function*() {
        const mcp = yield* Mcp
        const report = yield* mcp.test("demo")
        expect(report.ok).toBe(true)
        expect(report.connectMs).toBeGreaterThan(0)
        expect(report.listMs).toBeGreaterThan(0)
        expect(report.serverInfo).toEqual({ name: "demo", version: "1.2.3" })
        expect(report.capabilities).toEqual({ tools: true, resources: true, prompts: true })
        expect(report.tools.find((t) => t.tool === "echo")).toMatchObject({ registeredAs: "mcp__demo__echo", skipped: undefined })
        expect(report.tools.find((t) => t.tool === "crash")?.skipped).toBe("in tools.exclude")
        expect(report.tools.find((t) => t.tool === "weird.name-x")?.warnings.length).toBeGreaterThan(0)
        // Testing does not register anything: the server is disabled.
        expect((yield* Effect.flatMap(ToolRegistry, (r) => Effect.succeed(r.names()))).some((n) => n.startsWith("mcp__"))).toBe(false)
        const failed = yield* mcp.test("broken")
        expect(failed.ok).toBe(false)
        expect(failed.error).toContain("boom: cannot start")
        const unknown = yield* Effect.flip(mcp.test("nope"))
        expect(unknown.message).toBe("no MCP server named 'nope' under mcp_servers (configured: broken, demo)")
      }))
    }))
})
