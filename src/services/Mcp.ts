/**
 * Mcp: tools discovered from Model Context Protocol servers (`mcp_servers` in
 * config). Each server connects in its own fiber; its tools register as
 * `mcp__<server>__<tool>` in toolset `mcp-<server>` (alias `<server>`) once it
 * is ready, are unavailable while it is disconnected, and are replaced when the
 * server says its tool list changed. A server that fails is reported here and
 * retried with backoff, never silently dropped.
 */
import { Context, Schema } from "effect"
import type { Effect, Scope, Stream } from "effect"

export type McpTransportKind = "stdio" | "http"

/**
 * - `disabled`: `enabled: false` in config
 * - `invalid`: the config entry cannot be used (see `error`); not retried
 * - `idle`: not started (the runtime was built with `connect: false`)
 * - `connecting`: the first attempt is under way
 * - `connected`: tools registered and available
 * - `failed`: the last attempt failed (see `error`); retried with backoff (`attempts` counts them)
 * - `disconnected`: was connected, the connection closed (see `error`); reconnecting with backoff
 */
export type McpServerState = "disabled" | "invalid" | "idle" | "connecting" | "connected" | "failed" | "disconnected"

export interface McpSkippedTool {
  /** The server's own tool name. */
  readonly tool: string
  readonly reason: string
}

export interface McpServerStatus {
  readonly name: string
  readonly transport: McpTransportKind | undefined
  /** The command line or URL (credentials redacted). */
  readonly target: string
  readonly state: McpServerState
  /** Registered tool names (`mcp__<server>__<tool>`), sorted. */
  readonly tools: ReadonlyArray<string>
  /** Tools the server offers that were not registered, and why (filtered, would shadow, duplicate name). */
  readonly skipped: ReadonlyArray<McpSkippedTool>
  /** Things an operator should look at: injection-like descriptions, shadowing. */
  readonly warnings: ReadonlyArray<string>
  /** Why the last attempt failed or the connection closed (redacted). */
  readonly error: string | undefined
  /** Connection attempts started so far. */
  readonly attempts: number
  /** Attempts that failed since the last successful connection. */
  readonly failures: number
  readonly serverInfo: { readonly name: string; readonly version: string } | undefined
}

export interface McpToolReport {
  readonly tool: string
  /** The name it registers (or would register) under. */
  readonly registeredAs: string
  readonly description: string
  /** Undefined when it registers; otherwise why not. */
  readonly skipped: string | undefined
  readonly warnings: ReadonlyArray<string>
}

/** What `Mcp.test` found: one fresh connection, timed. */
export interface McpTestReport {
  readonly server: string
  readonly transport: McpTransportKind | undefined
  readonly target: string
  readonly ok: boolean
  /** Spawn/HTTP handshake plus `initialize`, milliseconds. */
  readonly connectMs: number | undefined
  /** `tools/list`, milliseconds. */
  readonly listMs: number | undefined
  readonly serverInfo: { readonly name: string; readonly version: string } | undefined
  readonly capabilities: { readonly tools: boolean; readonly resources: boolean; readonly prompts: boolean }
  readonly tools: ReadonlyArray<McpToolReport>
  readonly error: string | undefined
}

/** `mcp test <name>` for a name that is not under `mcp_servers`. */
export class McpUnknownServer extends Schema.TaggedError<McpUnknownServer>()("McpUnknownServer", {
  server: Schema.String,
  known: Schema.Array(Schema.String)
}) {
  override get message(): string {
    const known = this.known.length === 0 ? "none are configured" : `configured: ${this.known.join(", ")}`
    return `no MCP server named '${this.server}' under mcp_servers (${known})`
  }
}

/** A call reached a server that is not connected (yet, or any more). */
export class McpNotConnected extends Schema.TaggedError<McpNotConnected>()("McpNotConnected", {
  server: Schema.String
}) {
  override get message(): string {
    return `MCP server '${this.server}' is not connected`
  }
}

/** The server answered with `isError: true`; the message is its text, credentials stripped. */
export class McpToolError extends Schema.TaggedError<McpToolError>()("McpToolError", {
  server: Schema.String,
  tool: Schema.String,
  message: Schema.String
}) {}

/** The request itself failed: protocol error, transport error, or the server went away mid-call. */
export class McpCallFailed extends Schema.TaggedError<McpCallFailed>()("McpCallFailed", {
  server: Schema.String,
  tool: Schema.String,
  message: Schema.String
}) {}

/** A server a client hands us for one scope (an ACP session), not from config.yaml. */
export interface McpScopedServer {
  readonly name: string
  readonly transport:
    | { readonly kind: "stdio"; readonly command: string; readonly args: ReadonlyArray<string>; readonly env: Readonly<Record<string, string>> }
    | { readonly kind: "http"; readonly url: string; readonly headers: Readonly<Record<string, string>> }
}

export interface McpService {
  /** Every configured server, in name order. */
  readonly status: Effect.Effect<ReadonlyArray<McpServerStatus>>
  /** The statuses now and after every change. */
  readonly changes: Stream.Stream<ReadonlyArray<McpServerStatus>>
  /**
   * Wait until every server that will connect has finished its first attempt
   * (connected or failed); bounded by each server's `connect_timeout`.
   */
  readonly awaitSettled: Effect.Effect<ReadonlyArray<McpServerStatus>>
  /** Connect to one server afresh (even a disabled one), list its tools, close; timings and errors in the report. */
  readonly test: (server: string) => Effect.Effect<McpTestReport, McpUnknownServer>
  /**
   * Connect servers for the caller's scope: their tools register like configured ones (toolset `mcp-<name>`, so only
   * turns that enable it see them) and leave when the scope closes. Scopes passing the same name and target share one
   * connection (reference counted); a name that is configured in config.yaml, or in use with another target, is not
   * connected (its status says why). Waits for each server's first attempt; one status per server, in input order.
   */
  readonly connectScoped: (servers: ReadonlyArray<McpScopedServer>) => Effect.Effect<ReadonlyArray<McpServerStatus>, never, Scope.Scope>
}

export class Mcp extends Context.Tag("hermes-effect/Mcp")<Mcp, McpService>() {}
