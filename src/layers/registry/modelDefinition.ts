/**
 * The definition sent to the model for one tool, after dynamic overrides:
 * its parameters go through the one sanitising pass every source shares
 * (built-ins, plugins, MCP servers), as Hermes does before each request.
 */
import { sanitizeParameters } from "../../lib/tool/sanitizeSchema.js"
import type { FunctionSchema, ToolDefinitionJson } from "../../services/Tool.js"

export const modelDefinition = (fn: FunctionSchema): ToolDefinitionJson => ({
  type: "function",
  function: { ...fn, parameters: sanitizeParameters(fn.parameters) }
})
