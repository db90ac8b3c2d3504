/**
 * MCP servers handed over for one scope (an ACP session's `mcpServers`)
 * instead of config.yaml. They run under the same supervisor as configured
 * servers, but in fibers of the Mcp layer shared by reference count: two
 * sessions of one editor usually pass the same servers, and the tools register
 * under one global name (`mcp__<server>__<tool>`). The last scope to close
 * stops the server and removes its tools.
 */
import { Effect, Either, Fiber, Option, Schema, Stream, SubscriptionRef } from "effect"
import type { Schedule, Scope } from "effect"
import { McpServerEntry } from "../../services/Config.js"
import type { McpScopedServer, McpServerStatus } from "../../services/Mcp.js"
import type { ToolRegistryService } from "../../services/ToolRegistry.js"
import { decodeServer, targetOf } from "./config.js"
import { removeAll } from "./registration.js"
import { supervise, updateStatus } from "./supervisor.js"
import type { Statuses } from "./supervisor.js"

export interface ScopedDeps {
  readonly registry: ToolRegistryService
  readonly retry: Schedule.Schedule<unknown>
  readonly logFile: (name: string) => string
  /** Names under `mcp_servers` in config.yaml: those stay the configured server's. */
  readonly configured: ReadonlySet<string>
  /** Where the shared supervisor fibers live (the Mcp layer's scope). */
  readonly home: Scope.Scope
}

interface Shared {
  readonly key: string
  readonly statuses: Statuses
  refs: number
  fiber: Fiber.RuntimeFiber<void> | undefined
}

const base = { tools: [], skipped: [], warnings: [], attempts: 0, failures: 0, serverInfo: undefined, error: undefined }

const refused = (server: McpScopedServer, error: string): McpServerStatus => ({
  ...base,
  name: server.name,
  transport: server.transport.kind,
  target: server.transport.kind === "stdio" ? server.transport.command : server.transport.url,
  state: "invalid",
  error
})

const decodeEntry = Schema.decodeUnknownEither(McpServerEntry)

export const makeScopedConnector = (deps: ScopedDeps) => {
  const live = new Map<string, Shared>()

  const statusOf = (shared: Shared, name: string) =>
    shared.statuses.changes.pipe(
      Stream.map((all) => all.get(name)),
      Stream.filter((s): s is McpServerStatus => s !== undefined && s.state !== "connecting"),
      Stream.runHead,
      Effect.map(Option.getOrThrow)
    )

  const release = (name: string, shared: Shared) =>
    Effect.gen(function*() {
      shared.refs -= 1
      if (shared.refs > 0) return
      live.delete(name)
      if (shared.fiber !== undefined) yield* Fiber.interrupt(shared.fiber)
      const last = (yield* SubscriptionRef.get(shared.statuses)).get(name)
      yield* removeAll(deps.registry, name, last?.tools ?? [])
      // Anyone still waiting for the first attempt gets an answer.
      yield* updateStatus(shared.statuses, name, (s) => ({ ...s, state: "disconnected", tools: [], error: "closed with its session" }))
    })

  const acquire = (server: McpScopedServer): Effect.Effect<McpServerStatus, never, Scope.Scope> =>
    Effect.gen(function*() {
      if (deps.configured.has(server.name)) return refused(server, `'${server.name}' is configured in config.yaml; that server is used`)
      const t = server.transport
      const entry = decodeEntry(t.kind === "stdio" ? { command: t.command, args: t.args, env: t.env } : { url: t.url, headers: t.headers })
      const decoded = Either.isLeft(entry) ? Either.left(String(entry.left)) : Either.mapLeft(decodeServer(server.name, entry.right), (bad) => bad.error)
      if (Either.isLeft(decoded)) return refused(server, decoded.left)
      const spec = decoded.right
      const key = JSON.stringify(t)
      const initial: McpServerStatus = { ...base, name: spec.name, transport: spec.transport.kind, target: targetOf(spec.transport), state: "connecting" }
      const statuses = yield* SubscriptionRef.make<ReadonlyMap<string, McpServerStatus>>(new Map([[spec.name, initial]]))
      // Check and claim in one step (no yield between), so concurrent scopes never start the same server twice.
      const existing = live.get(spec.name)
      if (existing !== undefined && existing.key !== key) {
        return refused(server, `'${server.name}' is in use by another session with a different command or URL`)
      }
      const shared: Shared = existing ?? { key, statuses, refs: 0, fiber: undefined }
      shared.refs += 1
      if (existing === undefined) {
        live.set(spec.name, shared)
        shared.fiber = yield* Effect.forkIn(
          supervise(spec, { registry: deps.registry, statuses, retry: deps.retry, logFile: deps.logFile(spec.name) }),
          deps.home
        )
      }
      yield* Effect.addFinalizer(() => release(spec.name, shared))
      return yield* statusOf(shared, spec.name)
    })

  return (servers: ReadonlyArray<McpScopedServer>) => Effect.forEach(servers, acquire, { concurrency: "unbounded" })
}
