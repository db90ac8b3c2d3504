/**
 * One behaviour suite for every MCP transport: each transport's test file
 * calls `mcpSuite` with a way to get a `mcp_servers` entry for the demo server
 * (started for the test's scope). Everything goes through the runtime the way
 * the model sees it: the registry's definitions and dispatch.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Logger, LogLevel, Schedule } from "effect"
import type { Scope } from "effect"
import type { McpOptions } from "../../src/layers/McpLive.js"
import { Mcp } from "../../src/services/Mcp.js"
import type { Mcp as McpTag } from "../../src/services/Mcp.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { testRuntime } from "../support/runtime.js"
import type { TestRuntime } from "../support/runtime.js"
import { call, connected, waitFor } from "./helpers.js"
import type { ServerEntry } from "./helpers.js"

export interface McpSuiteOptions {
  readonly transport: "stdio" | "http"
  /** A config entry for a fresh demo server, alive for the enclosing scope. */
  readonly entry: (extra?: Partial<ServerEntry>) => Effect.Effect<ServerEntry, never, Scope.Scope>
}

/**
 * Run `body` against a runtime whose `mcp_servers` are `servers`; the runtime closes afterwards.
 * Warnings are asserted through `Mcp.status`, so the log stays quiet.
 */
export const withServers = <A, E>(
  servers: Record<string, ServerEntry>,
  body: Effect.Effect<A, E, TestRuntime | McpTag>,
  mcp: McpOptions = {}
) => Effect.provide(body, testRuntime({ mcp_servers: servers }, { mcp })).pipe(Logger.withMinimumLogLevel(LogLevel.Error))

/** The demo server's count of cancelled `stall` calls once it reaches `n` (a cancellation may trail the call's end). */
const stallsCancelled = (n: number) =>
  call("mcp__demo__stall_cancels").pipe(
    Effect.filterOrFail((r) => JSON.stringify(r) === JSON.stringify({ result: String(n) })),
    Effect.retry(Schedule.spaced("20 millis")),
    Effect.timeout("5 seconds")
  )

export const mcpSuite = (options: McpSuiteOptions) => {
  const { transport } = options

  describe(`MCP over ${transport}`, () => {
    it.scopedLive("discovers the tools as mcp__<server>__<tool> in toolset mcp-<server>, with alias <server>", () =>
      Effect.gen(function*() {
        const entry = yield* options.entry()
        yield* withServers({ "demo-1": entry }, Effect.gen(function*() {
          const status = yield* connected("demo-1")
          const registry = yield* ToolRegistry
          expect(status.transport).toBe(transport)
          expect(status.serverInfo?.version).toBe("1.2.3")
          expect(status.tools).toEqual([
            "mcp__demo_1__add",
            "mcp__demo_1__add_tool",
            "mcp__demo_1__crash",
            "mcp__demo_1__echo",
            "mcp__demo_1__env",
            "mcp__demo_1__fail",
            "mcp__demo_1__get_prompt",
            "mcp__demo_1__list_prompts",
            "mcp__demo_1__list_resources",
            "mcp__demo_1__picture",
            "mcp__demo_1__read_resource",
            "mcp__demo_1__remove_tool",
            "mcp__demo_1__stall",
            "mcp__demo_1__stall_cancels",
            "mcp__demo_1__two_blocks",
            "mcp__demo_1__weird_name_x"
          ])
          const echo = registry.get("mcp__demo_1__echo")
          expect(echo?.toolset).toBe("mcp-demo-1")
          expect(echo?.source).toEqual({ kind: "mcp", server: "demo-1" })
          expect(echo?.parallel).toBe("sequential")
          // The bare server name is a toolset too; definitions carry the server's own schema.
          const defs = yield* registry.definitions({ enabled: ["demo-1"] })
          expect(defs.map((d) => d.function.name)).toEqual(status.tools)
          const echoDef = defs.find((d) => d.function.name === "mcp__demo_1__echo")
          expect(echoDef?.function.description).toBe("Echoes the text back.")
          expect(echoDef?.function.parameters).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] })
          // A description that tries to steer the model is registered, and reported.
          expect(status.warnings.some((w) => w.includes("weird.name-x") && w.includes("ignore earlier instructions"))).toBe(true)
          expect(yield* registry.isAvailable("mcp__demo_1__echo")).toBe(true)
        }))
      }))

    it.scopedLive("tools.include wins over tools.exclude; exclude drops tools; resources/prompts can be turned off", () =>
      Effect.gen(function*() {
        const only = yield* options.entry({ tools: { include: ["echo", "add*"], exclude: ["echo"] } })
        const most = yield* options.entry({ tools: { exclude: ["crash", "stall*", "*_tool", "weird*"], prompts: false } })
        yield* withServers({ only, most }, Effect.gen(function*() {
          expect((yield* connected("only")).tools).toEqual(["mcp__only__add", "mcp__only__add_tool", "mcp__only__echo"])
          const status = yield* connected("most")
          expect(status.tools).toEqual([
            "mcp__most__add",
            "mcp__most__echo",
            "mcp__most__env",
            "mcp__most__fail",
            "mcp__most__list_resources",
            "mcp__most__picture",
            "mcp__most__read_resource",
            "mcp__most__two_blocks"
          ])
          expect(status.skipped.map((s) => s.tool)).toContain("crash")
          // Filtered tools are the operator's choice, not a warning.
          expect(status.warnings).toEqual([])
          expect(yield* call("mcp__most__crash")).toMatchObject({ error: expect.stringContaining("does not exist") })
        }))
      }))

    it.scopedLive("a call through dispatch returns the server's text blocks joined, with Hermes' coercion on the way in", () =>
      Effect.gen(function*() {
        const entry = yield* options.entry()
        yield* withServers({ demo: entry }, Effect.gen(function*() {
          yield* connected("demo")
          expect(yield* call("mcp__demo__echo", "{\"text\": \"hi\"}")).toEqual({ result: "echo: hi" })
          expect(yield* call("mcp__demo__two_blocks")).toEqual({ result: "first\nsecond" })
          expect(yield* call("mcp__demo__add", { a: "2", b: 3 })).toEqual({ result: "5" })
          expect(yield* call("mcp__demo__picture")).toEqual({ result: "[image image/png, 16 bytes]" })
          // Missing required arguments never reach the server.
          expect(yield* call("mcp__demo__echo", {})).toMatchObject({ error: expect.stringContaining("'text'") })
        }))
      }))

    it.scopedLive("an isError result is an error for the model, with credentials stripped", () =>
      Effect.gen(function*() {
        const entry = yield* options.entry()
        yield* withServers({ demo: entry }, Effect.gen(function*() {
          yield* connected("demo")
          const executor = yield* ToolExecutor
          const outcome = yield* executor.execute({ tool: "mcp__demo__fail", args: {} })
          expect(outcome.status).toBe("error")
          expect(outcome.error?._tag).toBe("ToolFailed")
          expect(outcome.error && "reason" in outcome.error ? outcome.error.reason : undefined).toBe("McpToolError")
          const error = String(JSON.parse(outcome.result).error)
          expect(error).toContain("database refused")
          expect(error).not.toContain("hunter2")
          expect(error).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123")
          expect(error).toContain("[REDACTED]")
        }))
      }))

    it.scopedLive("notifications/tools/list_changed replaces the server's tools", () =>
      Effect.gen(function*() {
        const entry = yield* options.entry()
        yield* withServers({ demo: entry }, Effect.gen(function*() {
          yield* connected("demo")
          const registry = yield* ToolRegistry
          const before = registry.generation()
          expect(yield* call("mcp__demo__add_tool", { name: "fresh.one" })).toEqual({ result: "added fresh.one" })
          yield* waitFor("demo", (s) => s.tools.includes("mcp__demo__fresh_one"))
          expect(registry.generation()).toBeGreaterThan(before)
          expect(yield* call("mcp__demo__fresh_one")).toEqual({ result: "dynamic: fresh.one" })
          const defs = yield* registry.definitions({ enabled: ["mcp-demo"] })
          expect(defs.map((d) => d.function.name)).toContain("mcp__demo__fresh_one")

          yield* call("mcp__demo__remove_tool", { name: "fresh.one" })
          yield* waitFor("demo", (s) => !s.tools.includes("mcp__demo__fresh_one"))
          expect(registry.get("mcp__demo__fresh_one")).toBeUndefined()
          expect(yield* call("mcp__demo__fresh_one")).toMatchObject({ error: expect.stringContaining("does not exist") })
          // The rest of the server's tools are still there.
          expect(yield* call("mcp__demo__echo", { text: "still" })).toEqual({ result: "echo: still" })
        }))
      }))

    it.scopedLive("resources and prompts get utility tools when the server offers them", () =>
      Effect.gen(function*() {
        const entry = yield* options.entry()
        yield* withServers({ demo: entry }, Effect.gen(function*() {
          yield* connected("demo")
          expect(yield* call("mcp__demo__list_resources")).toEqual({
            resources: [{ uri: "memo://greeting", name: "greeting", description: "A greeting", mimeType: "text/plain" }]
          })
          expect(yield* call("mcp__demo__read_resource", { uri: "memo://greeting" })).toEqual({ result: "contents of memo://greeting" })
          expect(yield* call("mcp__demo__list_prompts")).toEqual({
            prompts: [{ name: "review", description: "Review a topic", arguments: [{ name: "topic", description: "What to review", required: true }] }]
          })
          expect(yield* call("mcp__demo__get_prompt", { name: "review", arguments: { topic: "effects" } })).toEqual({
            description: "Review a topic",
            messages: [{ role: "user", content: "Please review effects" }]
          })
        }))
      }))

    it.scopedLive("`timeout` bounds one call; supports_parallel_tool_calls makes the tools parallel-safe", () =>
      Effect.gen(function*() {
        const entry = yield* options.entry({ timeout: 0.3, supports_parallel_tool_calls: true })
        yield* withServers({ demo: entry }, Effect.gen(function*() {
          yield* connected("demo")
          const registry = yield* ToolRegistry
          const executor = yield* ToolExecutor
          expect(registry.get("mcp__demo__stall")?.parallel).toBe("safe")
          // The server never answers `stall`: the call ends with a timeout, the server stays usable.
          const outcome = yield* executor.execute({ tool: "mcp__demo__stall", args: {} })
          expect(outcome.error?._tag).toBe("ToolTimeout")
          expect(JSON.parse(outcome.result).error).toContain("timed out after 0.3s")
          expect(yield* call("mcp__demo__echo", { text: "after" })).toEqual({ result: "echo: after" })
          expect((yield* Effect.flatMap(Mcp, (m) => m.status))[0]?.state).toBe("connected")
          // The timed-out request was cancelled on the server, not left pending there.
          const cancels = yield* stallsCancelled(1)
          expect(cancels).toEqual({ result: "1" })
        }))
      }))

    it.scopedLive("a caller interrupted during a call cancels the request on the server, and the call ends interrupted", () =>
      Effect.gen(function*() {
        const entry = yield* options.entry()
        yield* withServers({ demo: entry }, Effect.gen(function*() {
          yield* connected("demo")
          const executor = yield* ToolExecutor
          const fiber = yield* Effect.fork(executor.execute({ tool: "mcp__demo__stall", args: {} }))
          yield* Effect.sleep("100 millis")
          yield* Fiber.interrupt(fiber)
          const cancels = yield* stallsCancelled(1)
          expect(cancels).toEqual({ result: "1" })
          expect(yield* call("mcp__demo__echo", { text: "after" })).toEqual({ result: "echo: after" })
        }))
      }))
  })
}
