/**
 * One connection to one MCP server as a scoped resource: opening it spawns the
 * stdio process (or opens the HTTP session) and runs `initialize` under the
 * server's `connect_timeout`; closing the scope ends the session and the
 * process (the SDK escalates stdin EOF → SIGTERM → SIGKILL), whether the
 * connection was in use, half-open or never answered.
 */
import { createWriteStream, mkdirSync } from "node:fs"
import type { WriteStream } from "node:fs"
import { dirname } from "node:path"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js"
import { Data, Deferred, Effect, Exit, Queue } from "effect"
import type { Scope } from "effect"
import { redactAuditText } from "../../lib/text.js"
import type { McpServerSpec } from "./config.js"
import { serverEnvironment } from "./env.js"
import { isolatedFetch } from "./isolatedFetch.js"
import { loadSdk } from "./sdk.js"
import type { Sdk } from "./sdk.js"

export class McpConnectError extends Data.TaggedError("McpConnectError")<{ readonly message: string }> {}

export const CLIENT_INFO = { name: "hermes-effect", version: "0.1.0" } as const

/** A cursor that never ends must not spin discovery forever. */
const MAX_LIST_PAGES = 50
const STDERR_TAIL_CHARS = 2000
/** How long a polite HTTP session DELETE may take on close. */
const TERMINATE_SESSION_MS = 1000

export interface McpCapabilities {
  readonly tools: boolean
  readonly resources: boolean
  readonly prompts: boolean
}

export interface McpConnection {
  /** The SDK the connection was made with (loaded lazily; its error classes classify failures). */
  readonly sdk: Sdk
  readonly client: Client
  readonly capabilities: McpCapabilities
  readonly serverInfo: { readonly name: string; readonly version: string } | undefined
  /** Completes when the transport closes (process exit, HTTP session gone, our own close). */
  readonly closed: Effect.Effect<void>
  /** One item per `notifications/tools/list_changed` (coalesced while a refresh runs). */
  readonly toolsChanged: Queue.Dequeue<void>
  /** Close the transport now (after a transport error, so the supervisor reconnects). */
  readonly abandon: Effect.Effect<void>
  /** The last lines the stdio server wrote to stderr, for error messages. */
  readonly stderrTail: () => string
}

const errorText = (e: unknown): string => {
  if (e instanceof Error) {
    const cause = e.cause instanceof Error ? `: ${e.cause.message}` : ""
    return `${e.message}${cause}`
  }
  return String(e)
}

/** Promise.race against a real timer: finalizers must end even when the Effect clock is a TestClock. */
const withDeadline = (promise: Promise<unknown>, ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    timer.unref()
    promise.then(() => resolve(), () => resolve()).finally(() => clearTimeout(timer))
  })

const lastLines = (text: string) => {
  const lines = text.trim().split("\n").filter((l) => l.trim().length > 0)
  return lines.slice(-3).join(" | ")
}

const describeConnectFailure = (sdk: Sdk, e: unknown, tail: string): string => {
  const stderr = tail.length > 0 ? ` (stderr: ${lastLines(tail)})` : ""
  if (e instanceof sdk.McpError && e.code === sdk.ErrorCode.ConnectionClosed) {
    return `the server closed the connection during initialize${stderr}`
  }
  return `${errorText(e)}${stderr}`
}

const makeTransport = (sdk: Sdk, spec: McpServerSpec) => {
  const t = spec.transport
  if (t.kind === "http") {
    return new sdk.StreamableHTTPClientTransport(t.url, { requestInit: { headers: { ...t.headers } }, fetch: isolatedFetch })
  }
  return new sdk.StdioClientTransport({
    command: t.command,
    args: [...t.args],
    env: serverEnvironment(t.env),
    stderr: "pipe",
    ...(t.cwd === undefined ? {} : { cwd: t.cwd })
  })
}

/** Keep the stderr tail in memory and append everything to the server's log file. */
const captureStderr = (transport: StdioClientTransport, logFile: string | undefined) => {
  let tail = ""
  let log: WriteStream | undefined
  if (logFile !== undefined) {
    try {
      mkdirSync(dirname(logFile), { recursive: true })
      log = createWriteStream(logFile, { flags: "a" })
      log.on("error", () => {
        log = undefined
      })
    } catch {
      log = undefined
    }
  }
  transport.stderr?.on("data", (chunk: Buffer | string) => {
    const text = chunk.toString()
    tail = (tail + text).slice(-STDERR_TAIL_CHARS)
    log?.write(text)
  })
  return { tail: () => tail, close: () => log?.end() }
}

export interface ConnectOptions {
  /** Where the stdio server's stderr is appended. */
  readonly logFile?: string | undefined
}

export const openConnection = (
  spec: McpServerSpec,
  options: ConnectOptions = {}
): Effect.Effect<McpConnection, McpConnectError, Scope.Scope> =>
  Effect.gen(function*() {
    const sdk = yield* loadSdk
    const transport = makeTransport(sdk, spec)
    const client = new sdk.Client(CLIENT_INFO, { capabilities: {} })
    const stderr = transport instanceof sdk.StdioClientTransport
      ? captureStderr(transport, options.logFile)
      : { tail: () => "", close: () => undefined }
    const closed = yield* Deferred.make<void>()
    const toolsChanged = yield* Queue.sliding<void>(1)
    client.onclose = () => Deferred.unsafeDone(closed, Exit.void)
    // Transport hiccups are reported per call; an unhandled one must not crash the process.
    client.onerror = () => undefined
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      Queue.unsafeOffer(toolsChanged, undefined)
    })

    const close = Effect.promise(() =>
      (async () => {
        if (transport instanceof sdk.StreamableHTTPClientTransport && transport.sessionId !== undefined) {
          await withDeadline(transport.terminateSession(), TERMINATE_SESSION_MS)
        }
        await transport.close()
      })().catch(() => undefined)
    )
    yield* Effect.addFinalizer(() => Effect.zipRight(close, Effect.sync(stderr.close)))

    const seconds = spec.connectTimeoutMs / 1000
    yield* Effect.tryPromise({
      try: (signal) => client.connect(transport, { signal, timeout: spec.connectTimeoutMs }),
      catch: (e) => new McpConnectError({ message: redactAuditText(describeConnectFailure(sdk, e, stderr.tail())) })
    }).pipe(
      Effect.timeoutFail({
        duration: spec.connectTimeoutMs,
        onTimeout: () => {
          const tail = stderr.tail()
          return new McpConnectError({
            message: redactAuditText(`no answer to initialize within ${seconds}s${tail.length > 0 ? ` (stderr: ${lastLines(tail)})` : ""}`)
          })
        }
      })
    )

    const caps = client.getServerCapabilities() ?? {}
    const version = client.getServerVersion()
    return {
      sdk,
      client,
      capabilities: { tools: caps.tools !== undefined, resources: caps.resources !== undefined, prompts: caps.prompts !== undefined },
      serverInfo: version === undefined ? undefined : { name: version.name, version: version.version },
      closed: Deferred.await(closed),
      toolsChanged,
      abandon: close,
      stderrTail: stderr.tail
    } satisfies McpConnection
  })

/** Every tool the server lists, following `nextCursor`. */
export const listAllTools = (connection: McpConnection, timeoutMs: number): Effect.Effect<ReadonlyArray<McpTool>, McpConnectError> =>
  Effect.tryPromise({
    try: async (signal) => {
      const tools: Array<McpTool> = []
      let cursor: string | undefined
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result = await connection.client.listTools(cursor === undefined ? {} : { cursor }, { signal, timeout: timeoutMs })
        tools.push(...result.tools)
        cursor = result.nextCursor
        if (cursor === undefined) break
      }
      return tools
    },
    catch: (e) => new McpConnectError({ message: redactAuditText(`tools/list failed: ${errorText(e)}`) })
  })
