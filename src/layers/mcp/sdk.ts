/**
 * The MCP SDK, loaded on first use. Its client pulls in zod and ajv, which
 * cost 0.3–0.5 s to load: every CLI start would pay that whether or not a
 * server is configured, so only a connection attempt loads it.
 */
import { Effect } from "effect"

const load = async () => {
  const [client, stdio, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js")
  ])
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema
  }
}

export type Sdk = Awaited<ReturnType<typeof load>>

let loading: Promise<Sdk> | undefined

export const loadSdk: Effect.Effect<Sdk> = Effect.promise(() => (loading ??= load()))
