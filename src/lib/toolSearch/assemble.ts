/**
 * Progressive tool disclosure (Hermes' "tool search"): when the definitions
 * of deferrable tools (plugin and MCP tools; core tools never) weigh enough,
 * they leave the list sent to the model and three bridge tools take their
 * place: `tool_search` finds them by name and description, `tool_describe`
 * gives their full parameters, `tool_call` runs one through the executor's
 * usual path (decode, hooks, approval, caps).
 */
import type { ToolDefinitionJson } from "../../services/Tool.js"
import { HERMES_CORE_TOOLS } from "../toolsets/table.js"
import { bridgeDefinitions, BRIDGE_TOOL_NAMES } from "./bridgeSchemas.js"
import { UNKNOWN_CONTEXT_THRESHOLD_TOKENS } from "./config.js"
import type { ToolSearchConfig } from "./config.js"

const CORE: ReadonlySet<string> = new Set(HERMES_CORE_TOOLS)

/** Chars per token of the estimate (Hermes' rule of thumb). */
export const CHARS_PER_TOKEN = 4

/** A tool that may be hidden behind the bridge: anything but the core tools and the bridge itself. */
export const isDeferrable = (name: string): boolean => !CORE.has(name) && !BRIDGE_TOOL_NAMES.has(name)

export const estimateTokens = (defs: ReadonlyArray<ToolDefinitionJson>): number =>
  Math.ceil(defs.reduce((n, d) => n + JSON.stringify(d).length, 0) / CHARS_PER_TOKEN)

/** Tokens of deferrable definitions at which `auto` activates. */
export const thresholdTokens = (config: ToolSearchConfig, contextLength: number | undefined): number =>
  contextLength !== undefined && contextLength > 0
    ? Math.floor(contextLength * (config.thresholdPct / 100))
    : UNKNOWN_CONTEXT_THRESHOLD_TOKENS

export interface Assembly {
  /** What the model is sent. */
  readonly definitions: ReadonlyArray<ToolDefinitionJson>
  readonly activated: boolean
  /** Names now reachable only through the bridge. */
  readonly deferred: ReadonlyArray<string>
  readonly deferredTokens: number
}

export const assembleDefinitions = (
  defs: ReadonlyArray<ToolDefinitionJson>,
  config: ToolSearchConfig,
  contextLength?: number
): Assembly => {
  const incoming = defs.filter((d) => !BRIDGE_TOOL_NAMES.has(d.function.name))
  const visible = incoming.filter((d) => !isDeferrable(d.function.name))
  const deferrable = incoming.filter((d) => isDeferrable(d.function.name))
  const deferredTokens = estimateTokens(deferrable)
  const activated = deferrable.length > 0 && config.enabled !== "off" &&
    (config.enabled === "on" || deferredTokens >= thresholdTokens(config, contextLength))
  if (!activated) return { definitions: incoming, activated: false, deferred: [], deferredTokens }
  return {
    definitions: [...visible, ...bridgeDefinitions(deferrable.length, config)],
    activated: true,
    deferred: deferrable.map((d) => d.function.name),
    deferredTokens
  }
}

/** `model.context_length` when the config gives one (Hermes reads it from model metadata). */
export const contextLengthOf = (model: unknown): number | undefined => {
  if (typeof model !== "object" || model === null) return undefined
  const value = (model as Record<string, unknown>)["context_length"]
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined
}
