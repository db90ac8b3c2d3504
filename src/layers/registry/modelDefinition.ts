/**
 * The definition sent to the model for one tool, after dynamic overrides:
 * its parameters go through the one sanitising pass every source shares
 * (built-ins, plugins, MCP servers), as Hermes does before each request.
 */
import { sanitizeParameters } from "../../lib/tool/sanitizeSchema.js"
import type { FunctionSchema, JsonSchema, ToolDefinitionJson } from "../../services/Tool.js"

/**
 * A tool's schema object is fixed at registration, so its sanitised form is
 * computed once per object (an override with new parameters is a new object);
 * the uncached definitions call stays off the schema walk.
 */
const sanitized = new WeakMap<JsonSchema, JsonSchema>()

const sanitizedParameters = (parameters: JsonSchema): JsonSchema => {
  const hit = sanitized.get(parameters)
  if (hit !== undefined) return hit
  const clean = sanitizeParameters(parameters)
  sanitized.set(parameters, clean)
  return clean
}

export const modelDefinition = (fn: FunctionSchema): ToolDefinitionJson => ({
  type: "function",
  function: { ...fn, parameters: sanitizedParameters(fn.parameters) }
})
