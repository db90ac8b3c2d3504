/**
 * One fiber per server: connect, register its tools, follow `list_changed`,
 * and when the connection fails or closes, report why and try again on the
 * retry schedule (reset after every successful connection). The connection is
 * scoped to one attempt, so interrupting the fiber (the runtime closing) ends
 * the session and the server process.
 */
import { Effect, Option, Queue, Schedule, SubscriptionRef } from "effect"
import type { McpServerStatus } from "../../services/Mcp.js"
import type { ToolRegistryService } from "../../services/ToolRegistry.js"
import { redactAuditText } from "../../lib/text.js"
import type { McpServerSpec } from "./config.js"
import { listAllTools, McpConnectError, openConnection } from "./connection.js"
import type { McpConnection } from "./connection.js"
import { applyPlan, planTools, removeAll } from "./registration.js"
import type { ServerHandle } from "./tools.js"

export type Statuses = SubscriptionRef.SubscriptionRef<ReadonlyMap<string, McpServerStatus>>

export const updateStatus = (statuses: Statuses, name: string, f: (s: McpServerStatus) => McpServerStatus) =>
  SubscriptionRef.update(statuses, (all) => {
    const current = all.get(name)
    if (current === undefined) return all
    const next = new Map(all)
    next.set(name, f(current))
    return next
  })

/** 1 s, 2 s, 4 s … at most 60 s apart, for as long as the runtime runs. */
export const DEFAULT_RETRY: Schedule.Schedule<unknown> = Schedule.exponential("1 second", 2).pipe(
  Schedule.union(Schedule.spaced("60 seconds"))
)

export interface SupervisorDeps {
  readonly registry: ToolRegistryService
  readonly statuses: Statuses
  readonly retry: Schedule.Schedule<unknown>
  readonly logFile: string | undefined
}

/** The mutable cell the server's tool handlers read their connection from. */
export interface ConnectionCell {
  current: McpConnection | undefined
}

export const handleFor = (spec: McpServerSpec, cell: ConnectionCell): ServerHandle => ({
  spec,
  connection: () => cell.current,
  check: Effect.sync(() => cell.current !== undefined)
})

export const supervise = (spec: McpServerSpec, deps: SupervisorDeps): Effect.Effect<void> =>
  Effect.gen(function*() {
    const { registry, statuses } = deps
    const cell: ConnectionCell = { current: undefined }
    const handle = handleFor(spec, cell)
    const warned = new Set<string>()
    let owned: ReadonlyArray<string> = []

    const refresh = (connection: McpConnection) =>
      Effect.gen(function*() {
        const tools = connection.capabilities.tools ? yield* listAllTools(connection, spec.connectTimeoutMs) : []
        const plan = planTools(handle, tools, connection.capabilities, registry.get)
        const applied = yield* applyPlan(registry, spec.name, plan, owned)
        owned = applied.registered
        for (const warning of plan.warnings) {
          if (warned.has(warning)) continue
          warned.add(warning)
          yield* Effect.logWarning(`MCP server '${spec.name}': ${warning}`)
        }
        yield* updateStatus(statuses, spec.name, (s) => ({
          ...s,
          tools: applied.registered,
          skipped: applied.skipped,
          warnings: plan.warnings
        }))
      })

    /** One connection, from spawn to close; succeeds with why it closed, fails when it never got going. */
    const session = Effect.gen(function*() {
      const connection = yield* openConnection(spec, { logFile: deps.logFile })
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          cell.current = connection
        }),
        () =>
          Effect.sync(() => {
            cell.current = undefined
          })
      )
      yield* refresh(connection)
      yield* updateStatus(statuses, spec.name, (s) => ({ ...s, state: "connected", error: undefined, failures: 0, serverInfo: connection.serverInfo }))
      yield* Effect.logInfo(`MCP server '${spec.name}' connected with ${owned.length} tools`)
      const followChanges = Effect.forever(
        Effect.zipRight(
          Queue.take(connection.toolsChanged),
          Effect.catchAll(refresh(connection), (e) =>
            Effect.logWarning(`MCP server '${spec.name}': refreshing tools after list_changed failed; keeping the old ones`, e.message))
        )
      )
      yield* Effect.raceFirst(connection.closed, followChanges)
      const tail = connection.stderrTail().trim().split("\n").slice(-1)[0]
      return redactAuditText(tail === undefined || tail.length === 0 ? "the connection closed" : `the connection closed (stderr: ${tail})`)
    })

    const driver = yield* Schedule.driver(deps.retry)
    while (true) {
      // Retries keep showing how the last attempt ended (failed / disconnected) until one succeeds.
      yield* updateStatus(statuses, spec.name, (s) => ({ ...s, attempts: s.attempts + 1 }))
      const outcome = yield* Effect.either(Effect.scoped(session).pipe(
        // A bug (ours or the SDK's) must show up as a failed server, not a fiber that silently died.
        Effect.catchAllDefect((defect) => Effect.fail(new McpConnectError({ message: `internal error: ${String(defect)}` })))
      ))
      if (outcome._tag === "Right") {
        yield* driver.reset
        yield* updateStatus(statuses, spec.name, (s) => ({ ...s, state: "disconnected", error: outcome.right }))
        yield* Effect.logWarning(`MCP server '${spec.name}' disconnected (${outcome.right}); reconnecting`)
      } else {
        yield* updateStatus(statuses, spec.name, (s) => ({ ...s, state: "failed", error: outcome.left.message, failures: s.failures + 1 }))
        yield* Effect.logWarning(`MCP server '${spec.name}' failed to connect: ${outcome.left.message}`)
      }
      const next = yield* Effect.option(driver.next(undefined))
      if (Option.isNone(next)) {
        // The schedule gave up: the server is gone for good, so are its tools.
        yield* removeAll(registry, spec.name, owned)
        yield* updateStatus(statuses, spec.name, (s) => ({
          ...s,
          state: "failed",
          tools: [],
          error: `${s.error ?? "failed"}; gave up after ${s.attempts} attempts`
        }))
        return
      }
    }
  }).pipe(Effect.annotateLogs({ mcp_server: spec.name }))
