/**
 * A server's tools as registry entries. Each handler looks up the server's
 * live connection when it runs, so the entries survive reconnects; with no
 * connection the call fails with "MCP server '<s>' is not connected".
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js"
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js"
import { Context, Duration, Effect, Either, ParseResult, Schema, SchemaAST } from "effect"
import { McpCallFailed, McpNotConnected, McpToolError } from "../../services/Mcp.js"
import type { JsonSchema, ToolOutput } from "../../services/Tool.js"
import type { ToolFailure } from "../../services/ToolError.js"
import type { CallCancellation, RegisteredTool } from "../../services/ToolRegistry.js"
import { cancellationOf, signalFor } from "../../lib/effect/callCancellation.js"
import { deriveJsonSchema } from "../../lib/tool/jsonSchema.js"
import { redactAuditText } from "../../lib/text.js"
import type { McpServerSpec } from "./config.js"
import type { McpCapabilities, McpConnection } from "./connection.js"
import type { Sdk } from "./sdk.js"
import { mcpToolName, mcpToolset } from "./names.js"
import { callOutput, callResultText, isErrorResult, promptOutput, promptsOutput, readResourceOutput, resourcesOutput } from "./render.js"

/** What the handlers of one server share. */
export interface ServerHandle {
  readonly spec: McpServerSpec
  readonly connection: () => McpConnection | undefined
  /** The availability probe of every tool of the server (one probe answers for all). */
  readonly check: Effect.Effect<boolean>
}

type Block = Readonly<Record<string, unknown>>

const SDK_TIMEOUT_MARGIN_MS = 5000

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** The transport (not the server) failed: drop the connection so the supervisor reconnects. */
const transportBroken = (sdk: Sdk, e: unknown) =>
  e instanceof sdk.StreamableHTTPError || (e instanceof TypeError && /fetch/i.test(e.message)) || (e instanceof Error && /^Not connected$/.test(e.message))

/** How a request that threw or rejected ends: the failure the model sees, after dropping a broken transport. */
const requestFailure = (handle: ServerHandle, connection: McpConnection, tool: string, e: unknown): Effect.Effect<never, McpCallFailed> => {
  const server = handle.spec.name
  const failed = (message: string) => new McpCallFailed({ server, tool, message: redactAuditText(message) })
  const { McpError, ErrorCode } = connection.sdk
  if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) {
    return Effect.fail(failed(`MCP server '${server}' disconnected during the call to '${tool}'`))
  }
  if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
    return Effect.fail(failed(`MCP call to '${tool}' timed out after ${handle.spec.callTimeoutMs / 1000}s`))
  }
  if (transportBroken(connection.sdk, e)) return Effect.zipRight(connection.abandon, Effect.fail(failed(`MCP call failed: ${errorText(e)}`)))
  return Effect.fail(failed(`MCP call failed: ${errorText(e)}`))
}

/**
 * One request on the server's live connection, as a promise of how it ends
 * (never rejected): its answer mapped by `answer`, or a failure. Dispatch
 * enforces the call's timeout (on the Effect clock) and fires
 * `cancellation`, which cancels the request; the SDK's own timer only backs that up, so it
 * must not win the race.
 */
const request = <A>(
  handle: ServerHandle,
  tool: string,
  cancellation: CallCancellation,
  run: (client: Client, options: RequestOptions) => Promise<Block>,
  answer: (block: Block) => Effect.Effect<A, McpToolError>
): Promise<Effect.Effect<A, McpNotConnected | McpCallFailed | McpToolError>> => {
  const connection = handle.connection()
  if (connection === undefined) return Promise.resolve(Effect.fail(new McpNotConnected({ server: handle.spec.name })))
  const failure = (e: unknown) => requestFailure(handle, connection, tool, e)
  try {
    const options = { signal: signalFor(cancellation), timeout: handle.spec.callTimeoutMs + SDK_TIMEOUT_MARGIN_MS }
    return run(connection.client, options).then(answer, failure)
  } catch (e) {
    return Promise.resolve(failure(e))
  }
}

/** Plain JSON-schema parameters get a light check (an object with its required keys); the server validates the rest. */
export const jsonArgsDecoder = (schema: JsonSchema) => {
  const required = Array.isArray(schema["required"]) ? schema["required"].filter((k): k is string => typeof k === "string") : []
  const decodeObject = Schema.decodeUnknownEither(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
  return (input: unknown): Either.Either<unknown, ParseResult.ParseError> => {
    const result = decodeObject(input)
    if (Either.isLeft(result)) return result
    const missing = required.find((k) => !(k in result.right))
    if (missing === undefined) return result
    return Either.left(new ParseResult.ParseError({
      issue: new ParseResult.Pointer([missing], input, new ParseResult.Missing(new SchemaAST.Type(SchemaAST.unknownKeyword)))
    }))
  }
}

/** The server's input schema as a function-parameters object: always `type: object` with `properties`. */
export const parametersOf = (tool: McpTool): JsonSchema => {
  const { $schema: _ignored, ...rest } = (tool.inputSchema ?? {}) as Record<string, unknown>
  return { ...rest, type: "object", properties: rest["properties"] ?? {} } as unknown as JsonSchema
}

interface Entry {
  readonly name: string
  readonly description: string
  readonly jsonSchema: JsonSchema
  readonly decode: RegisteredTool["decode"]
  readonly call: (args: unknown, cancellation: CallCancellation) => Promise<Effect.Effect<ToolOutput, ToolFailure>>
}

const entry = (handle: ServerHandle, e: Entry): RegisteredTool => {
  const timeout = Duration.millis(handle.spec.callTimeoutMs)
  return {
    name: e.name,
    toolset: mcpToolset(handle.spec.name),
    description: e.description,
    jsonSchema: e.jsonSchema,
    requiresEnv: [],
    emoji: "",
    maxResultChars: undefined,
    parallel: handle.spec.parallelSafe ? "safe" : "sequential",
    pathArgument: "path",
    override: false,
    source: { kind: "mcp", server: handle.spec.name },
    decode: e.decode,
    // The executor calls `promiseHandler`; `handler` is the same call for anything that runs tools as effects.
    handler: (args) => Effect.flatten(Effect.promise((signal) => e.call(args, cancellationOf(signal)))),
    promiseHandler: e.call,
    services: Context.empty() as Context.Context<unknown>,
    timeout,
    check: handle.check,
    dynamicSchema: undefined
  }
}

export const serverTool = (handle: ServerHandle, tool: McpTool): RegisteredTool => {
  const server = handle.spec.name
  const jsonSchema = parametersOf(tool)
  return entry(handle, {
    name: mcpToolName(server, tool.name),
    description: tool.description ?? `MCP tool ${tool.name} from server '${server}'`,
    jsonSchema,
    decode: jsonArgsDecoder(jsonSchema),
    call: (args, cancellation) =>
      request(
        handle,
        tool.name,
        cancellation,
        (client, options) => client.callTool({ name: tool.name, arguments: args as Record<string, unknown> }, undefined, options) as Promise<Block>,
        (result): Effect.Effect<ToolOutput, McpToolError> =>
          isErrorResult(result)
            ? Effect.fail(new McpToolError({ server, tool: tool.name, message: redactAuditText(callResultText(result) || "MCP tool returned an error") }))
            : Effect.succeed(callOutput(result))
      )
  })
}

const NoArgs = Schema.Struct({})
const ReadResourceArgs = Schema.Struct({
  uri: Schema.String.annotations({ description: "URI of the resource to read (from list_resources)" })
})
const GetPromptArgs = Schema.Struct({
  name: Schema.String.annotations({ description: "Name of the prompt (from list_prompts)" }),
  arguments: Schema.optional(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({ description: "Values for the prompt's arguments" })
  )
})

const schemaEntry = <A, I>(
  handle: ServerHandle,
  short: string,
  description: string,
  parameters: Schema.Schema<A, I, never>,
  call: (args: A, cancellation: CallCancellation) => Promise<Effect.Effect<ToolOutput, ToolFailure>>
): RegisteredTool =>
  entry(handle, {
    name: mcpToolName(handle.spec.name, short),
    description,
    jsonSchema: deriveJsonSchema(parameters),
    decode: Schema.decodeUnknownEither(parameters, { errors: "first", onExcessProperty: "ignore" }),
    call: (args, cancellation) => call(args as A, cancellation)
  })

/** The short names of the utility tools a server gets for what it advertises. */
export const utilityNames = (spec: McpServerSpec, caps: McpCapabilities): ReadonlyArray<string> => [
  ...(caps.resources && spec.resources ? ["list_resources", "read_resource"] : []),
  ...(caps.prompts && spec.prompts ? ["list_prompts", "get_prompt"] : [])
]

const rendered = (render: (block: Block) => ToolOutput) => (block: Block): Effect.Effect<ToolOutput> => Effect.succeed(render(block))

export const utilityTool = (handle: ServerHandle, short: string): RegisteredTool => {
  const server = handle.spec.name
  switch (short) {
    case "list_resources":
      return schemaEntry(handle, short, `List the resources MCP server '${server}' offers (URI, name, type).`, NoArgs, (_, cancellation) =>
        request(handle, short, cancellation, (c, o) => c.listResources({}, o) as Promise<Block>, rendered(resourcesOutput)))
    case "read_resource":
      return schemaEntry(handle, short, `Read one resource of MCP server '${server}' by its URI.`, ReadResourceArgs, ({ uri }, cancellation) =>
        request(handle, short, cancellation, (c, o) => c.readResource({ uri }, o) as Promise<Block>, rendered(readResourceOutput)))
    case "list_prompts":
      return schemaEntry(handle, short, `List the prompt templates MCP server '${server}' offers, with their arguments.`, NoArgs, (_, cancellation) =>
        request(handle, short, cancellation, (c, o) => c.listPrompts({}, o) as Promise<Block>, rendered(promptsOutput)))
    default:
      return schemaEntry(handle, "get_prompt", `Get one prompt of MCP server '${server}' by name, filled in with its arguments.`, GetPromptArgs, (args, cancellation) => {
        const values: Record<string, string> = {}
        for (const [k, v] of Object.entries(args.arguments ?? {})) values[k] = typeof v === "string" ? v : JSON.stringify(v)
        return request(handle, "get_prompt", cancellation, (c, o) => c.getPrompt({ name: args.name, arguments: values }, o) as Promise<Block>, rendered(promptOutput))
      })
  }
}
