/**
 * The live Mcp service: reads `mcp_servers`, forks one scoped supervisor fiber
 * per enabled server and returns at once, so the runtime never waits for a
 * slow server (its tools appear when it is ready). Closing the layer
 * interrupts the fibers, which closes every connection and server process.
 */
import { join } from "node:path"
import { Effect, Either, Layer, Stream, SubscriptionRef } from "effect"
import type { Schedule } from "effect"
import { Config } from "../services/Config.js"
import { Mcp, McpUnknownServer } from "../services/Mcp.js"
import type { McpServerStatus, McpService, McpTestReport } from "../services/Mcp.js"
import { ToolRegistry } from "../services/ToolRegistry.js"
import { decodeServers, targetOf } from "./mcp/config.js"
import type { McpServerSpec } from "./mcp/config.js"
import { listAllTools, openConnection } from "./mcp/connection.js"
import { sanitizeName } from "./mcp/names.js"
import { planTools } from "./mcp/registration.js"
import { makeScopedConnector } from "./mcp/scoped.js"
import { DEFAULT_RETRY, handleFor, supervise } from "./mcp/supervisor.js"

export interface McpOptions {
  /** Connect at start-up (default true). With false the servers are listed as `idle` and `test` still works. */
  readonly connect?: boolean
  /**
   * Let the layer build only after every server's first attempt (bounded by
   * `connect_timeout`): for one-shot programs that need the tools at once.
   */
  readonly awaitStartup?: boolean
  /** When to try again after a failure or a lost connection (default: 1 s doubling, at most 60 s apart, forever). */
  readonly retry?: Schedule.Schedule<unknown>
}

const settled = (s: McpServerStatus) => s.state !== "connecting"

const sorted = (all: ReadonlyMap<string, McpServerStatus>) => [...all.values()].sort((a, b) => (a.name < b.name ? -1 : 1))

const now = () => performance.now()
const since = (start: number) => Math.round((now() - start) * 10) / 10

export const makeMcpLive = (options: McpOptions = {}): Layer.Layer<Mcp, never, Config | ToolRegistry> =>
  Layer.scoped(
    Mcp,
    Effect.gen(function*() {
      const config = yield* Config
      const registry = yield* ToolRegistry
      const decoded = decodeServers(yield* config.current)
      const connect = options.connect !== false
      const logFile = (name: string) => join(config.home.logsDir, `mcp-${sanitizeName(name)}.log`)

      const initial = new Map<string, McpServerStatus>()
      for (const entry of decoded) {
        const base = { tools: [], skipped: [], warnings: [], attempts: 0, failures: 0, serverInfo: undefined }
        if (Either.isLeft(entry)) {
          const bad = entry.left
          initial.set(bad.name, { ...base, name: bad.name, transport: bad.transport, target: bad.target, state: bad.enabled ? "invalid" : "disabled", error: bad.error })
        } else {
          const spec = entry.right
          const state = !spec.enabled ? "disabled" : connect ? "connecting" : "idle"
          initial.set(spec.name, { ...base, name: spec.name, transport: spec.transport.kind, target: targetOf(spec.transport), state, error: undefined })
        }
      }
      const statuses = yield* SubscriptionRef.make<ReadonlyMap<string, McpServerStatus>>(initial)

      const specs = new Map<string, McpServerSpec>()
      for (const entry of decoded) if (Either.isRight(entry)) specs.set(entry.right.name, entry.right)

      if (connect) {
        for (const spec of specs.values()) {
          if (!spec.enabled) continue
          yield* Effect.forkScoped(supervise(spec, { registry, statuses, retry: options.retry ?? DEFAULT_RETRY, logFile: logFile(spec.name) }))
        }
      }

      const awaitSettled = statuses.changes.pipe(
        Stream.map(sorted),
        Stream.filter((all) => all.every(settled)),
        Stream.runHead,
        Effect.map((found) => (found._tag === "Some" ? found.value : []))
      )

      const noCapabilities = { tools: false, resources: false, prompts: false }

      /** One fresh connection to a known, usable server: timed handshake and listing, the registration it would get. */
      const probe = (spec: McpServerSpec): Effect.Effect<McpTestReport> =>
        Effect.scoped(Effect.gen(function*() {
          const base = { server: spec.name, transport: spec.transport.kind, target: targetOf(spec.transport) }
          const start = now()
          const opened = yield* Effect.either(openConnection(spec, { logFile: logFile(spec.name) }))
          const connectMs = since(start)
          if (Either.isLeft(opened)) {
            return { ...base, ok: false, connectMs, listMs: undefined, serverInfo: undefined, capabilities: noCapabilities, tools: [], error: opened.left.message }
          }
          const connection = opened.right
          const listStart = now()
          const listed = connection.capabilities.tools ? yield* Effect.either(listAllTools(connection, spec.connectTimeoutMs)) : Either.right([])
          const common = { ...base, connectMs, listMs: since(listStart), serverInfo: connection.serverInfo, capabilities: connection.capabilities }
          if (Either.isLeft(listed)) return { ...common, ok: false, tools: [], error: listed.left.message }
          const plan = planTools(handleFor(spec, { current: connection }), listed.right, connection.capabilities, registry.get)
          return { ...common, ok: true, tools: plan.reports, error: undefined }
        }))

      const test = Effect.fn("Mcp.test")(function*(server: string) {
        const status = (yield* SubscriptionRef.get(statuses)).get(server)
        if (status === undefined) return yield* Effect.fail(new McpUnknownServer({ server, known: [...initial.keys()] }))
        const spec = specs.get(server)
        if (spec === undefined) {
          // An entry that cannot be used: its status already says why.
          return {
            server,
            transport: status.transport,
            target: status.target,
            ok: false,
            connectMs: undefined,
            listMs: undefined,
            serverInfo: undefined,
            capabilities: noCapabilities,
            tools: [],
            error: status.error
          } satisfies McpTestReport
        }
        return yield* probe(spec)
      })

      const service: McpService = {
        status: Effect.map(SubscriptionRef.get(statuses), sorted),
        changes: Stream.map(statuses.changes, sorted),
        awaitSettled,
        test,
        connectScoped: makeScopedConnector({
          registry,
          retry: options.retry ?? DEFAULT_RETRY,
          logFile,
          configured: new Set(initial.keys()),
          home: yield* Effect.scope
        })
      }
      if (options.awaitStartup === true) yield* awaitSettled
      return Mcp.of(service)
    })
  )

export const McpLive = makeMcpLive()

/** No MCP at all: no servers, nothing connects (`HermesRuntime.layer({ mcp: false })`). */
export const McpNone = Layer.succeed(
  Mcp,
  Mcp.of({
    status: Effect.succeed([]),
    changes: Stream.make([]),
    awaitSettled: Effect.succeed([]),
    test: (server) => Effect.fail(new McpUnknownServer({ server, known: [] })),
    connectScoped: (servers) =>
      Effect.succeed(servers.map((s) => ({
        name: s.name,
        transport: s.transport.kind,
        target: s.transport.kind === "stdio" ? s.transport.command : s.transport.url,
        state: "disabled" as const,
        tools: [],
        skipped: [],
        warnings: [],
        error: "MCP is off in this runtime",
        attempts: 0,
        failures: 0,
        serverInfo: undefined
      })))
  })
)
