/**
 * One `mcp_servers.<name>` entry as a server spec the connection code can use,
 * or the reason it cannot be used. The file-level shape is checked by Config;
 * what is checked here is per server, so one bad entry never stops the others.
 */
import { Either } from "effect"
import type { HermesConfig } from "../../services/Config.js"
import type { McpTransportKind } from "../../services/Mcp.js"
import { redactAuditText } from "../../lib/text.js"

export type McpTransportSpec =
  | {
    readonly kind: "stdio"
    readonly command: string
    readonly args: ReadonlyArray<string>
    readonly env: Readonly<Record<string, string>>
    readonly cwd: string | undefined
  }
  | { readonly kind: "http"; readonly url: URL; readonly headers: Readonly<Record<string, string>> }

export interface McpServerSpec {
  readonly name: string
  readonly enabled: boolean
  readonly transport: McpTransportSpec
  readonly callTimeoutMs: number
  readonly connectTimeoutMs: number
  readonly include: ReadonlyArray<string> | undefined
  readonly exclude: ReadonlyArray<string>
  readonly resources: boolean
  readonly prompts: boolean
  readonly parallelSafe: boolean
}

/** An entry that cannot be used: reported as `invalid`, never retried. */
export interface McpInvalidServer {
  readonly name: string
  readonly enabled: boolean
  readonly transport: McpTransportKind | undefined
  readonly target: string
  readonly error: string
}

type Entry = HermesConfig["mcp_servers"][string]

const quoteArg = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)

/** What `mcp list` shows as the server's address: the command line or the URL, credentials redacted. */
export const targetOf = (transport: McpTransportSpec): string =>
  redactAuditText(
    transport.kind === "stdio"
      ? [transport.command, ...transport.args].map(quoteArg).join(" ")
      : transport.url.toString()
  )

const transportOf = (name: string, entry: Entry): Either.Either<McpTransportSpec, string> => {
  const declared = entry.transport?.toLowerCase()
  const wantsHttp = declared === "http" || declared === "streamable-http" || declared === "streamable_http" ||
    (declared === undefined && entry.url !== undefined && entry.command === undefined)
  if (declared !== undefined && declared !== "stdio" && !wantsHttp) {
    return Either.left(`transport '${entry.transport}' is not supported (stdio or http)`)
  }
  if (wantsHttp) {
    if (entry.url === undefined) return Either.left("an http server needs `url`")
    let url: URL
    try {
      url = new URL(entry.url)
    } catch {
      return Either.left(`\`url\` is not a valid URL: ${redactAuditText(entry.url)}`)
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return Either.left(`\`url\` must be http(s): ${redactAuditText(entry.url)}`)
    return Either.right({ kind: "http", url, headers: { ...entry.headers } })
  }
  if (entry.command === undefined || entry.command.trim().length === 0) {
    return Either.left(`server '${name}' needs \`command\` (stdio) or \`url\` (Streamable HTTP)`)
  }
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(entry.env)) env[key] = String(value)
  return Either.right({
    kind: "stdio",
    command: entry.command,
    args: entry.args.map(String),
    env,
    cwd: entry.cwd
  })
}

export const decodeServer = (name: string, entry: Entry): Either.Either<McpServerSpec, McpInvalidServer> => {
  const enabled = entry.enabled
  return Either.match(transportOf(name, entry), {
    onLeft: (error) =>
      Either.left({
        name,
        enabled,
        transport: entry.url !== undefined ? "http" : entry.command !== undefined ? "stdio" : undefined,
        target: redactAuditText(entry.url ?? [entry.command ?? "", ...entry.args.map(String)].join(" ").trim()),
        error
      }),
    onRight: (transport) =>
      Either.right({
        name,
        enabled,
        transport,
        callTimeoutMs: entry.timeout * 1000,
        connectTimeoutMs: entry.connect_timeout * 1000,
        include: entry.tools.include,
        exclude: entry.tools.exclude,
        resources: entry.tools.resources,
        prompts: entry.tools.prompts,
        parallelSafe: entry.supports_parallel_tool_calls
      })
  })
}

/** Every configured server, in name order. */
export const decodeServers = (config: HermesConfig): ReadonlyArray<Either.Either<McpServerSpec, McpInvalidServer>> =>
  Object.entries(config.mcp_servers)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, entry]) => decodeServer(name, entry))
