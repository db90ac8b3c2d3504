/**
 * The executor's side of the tool-search bridge. `tool_search` and
 * `tool_describe` are answered here from the session's deferrable tools (the
 * allowed set, or every registered tool when none is given); `tool_call` is
 * unwrapped and the real call goes through the same `execute` path as any
 * call, so decoding, hooks, approval and result caps all apply (hooks see the
 * real tool's name).
 */
import { Effect, Either } from "effect"
import type { ToolDefinitionJson } from "../../services/Tool.js"
import type { CallOutcome, ToolCall } from "../../services/ToolExecutor.js"
import type { ToolRegistryService } from "../../services/ToolRegistry.js"
import {
  BRIDGE_TOOL_NAMES,
  isDeferrable,
  notInSessionError,
  TOOL_CALL,
  TOOL_DESCRIBE,
  toolDescribeAnswer,
  toolSearchAnswer,
  unwrapToolCall
} from "../../lib/toolSearch/index.js"
import type { ToolSearchConfig } from "../../lib/toolSearch/index.js"
import { parseArguments } from "./decodeArguments.js"
import { errorJson } from "./sanitizeErrorMessage.js"

const inScope = (allowed: ReadonlySet<string> | undefined, name: string) => allowed === undefined || allowed.has(name)

/** Definitions of the deferrable tools this session may reach. */
const deferrableDefinitions = (registry: ToolRegistryService, allowed: ReadonlySet<string> | undefined): ReadonlyArray<ToolDefinitionJson> =>
  registry.names().flatMap((name) => {
    if (!isDeferrable(name) || !inScope(allowed, name)) return []
    const tool = registry.get(name)
    return tool === undefined ? [] : [{ type: "function", function: { name, description: tool.description, parameters: tool.jsonSchema } }]
  })

/** The bridge's answer to this call, or undefined when it is not a bridge call this session may make. */
export const bridgeCall = (
  registry: ToolRegistryService,
  config: ToolSearchConfig,
  call: ToolCall,
  allowed: ReadonlySet<string> | undefined,
  execute: (inner: ToolCall) => Effect.Effect<CallOutcome>
): Effect.Effect<CallOutcome> | undefined => {
  if (!BRIDGE_TOOL_NAMES.has(call.tool) || registry.get(call.tool) !== undefined || !inScope(allowed, call.tool)) return undefined
  return Effect.suspend(() => {
    const startedAt = performance.now()
    const answer = (result: string, failed: boolean): CallOutcome => ({
      tool: call.tool,
      toolCallId: call.toolCallId,
      result,
      status: failed ? "error" : "ok",
      error: undefined,
      durationMs: performance.now() - startedAt
    })
    const parsed = parseArguments(call.tool, call.args)
    if (Either.isLeft(parsed)) return Effect.succeed(answer(errorJson(parsed.left.message), true))
    const args = parsed.right
    if (call.tool === TOOL_CALL) {
      const inner = unwrapToolCall(args)
      if ("error" in inner) return Effect.succeed(answer(errorJson(inner.error), true))
      if (!isDeferrable(inner.name) || !inScope(allowed, inner.name) || registry.get(inner.name) === undefined) {
        return Effect.succeed(answer(errorJson(notInSessionError(inner.name)), true))
      }
      return execute({ tool: inner.name, args: inner.args, toolCallId: call.toolCallId })
    }
    const defs = deferrableDefinitions(registry, allowed)
    const result = call.tool === TOOL_DESCRIBE
      ? toolDescribeAnswer(args, defs, (name) => !isDeferrable(name) && registry.get(name) !== undefined && inScope(allowed, name))
      : toolSearchAnswer(args, defs, config)
    return Effect.succeed(answer(JSON.stringify(result), "error" in result))
  })
}
