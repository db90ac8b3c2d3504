/** The three bridge tools' definitions, short on purpose: they are paid for on every turn. */
import type { ToolDefinitionJson } from "../../services/Tool.js"
import type { ToolSearchConfig } from "./config.js"

export const TOOL_SEARCH = "tool_search"
export const TOOL_DESCRIBE = "tool_describe"
export const TOOL_CALL = "tool_call"
export const BRIDGE_TOOL_NAMES: ReadonlySet<string> = new Set([TOOL_SEARCH, TOOL_DESCRIBE, TOOL_CALL])

const fn = (name: string, description: string, properties: Record<string, ToolDefinitionJson["function"]["parameters"]>, required: ReadonlyArray<string>): ToolDefinitionJson => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required: [...required] } }
})

export const bridgeDefinitions = (deferredCount: number, config: ToolSearchConfig): ReadonlyArray<ToolDefinitionJson> => [
  fn(
    TOOL_SEARCH,
    `Search ${deferredCount} more tools that are loaded on demand. Send keyword queries (service or tool name plus an action, ` +
      "e.g. `github create issue`), one per capability you need; every word must appear in a tool's name or description. " +
      `Returns the matching tool names per query and each match's description. Then load parameters with \`${TOOL_DESCRIBE}\` ` +
      `and run the tool with \`${TOOL_CALL}\`. Tools already in your tool list need no search.`,
    {
      queries: {
        type: "array",
        items: { type: "string" },
        description: "Keyword queries, one per capability. A single string counts as one query."
      },
      limit: {
        type: "integer",
        description: `Most matches per query (default ${config.searchDefaultLimit}, at most ${config.maxSearchLimit}).`
      }
    },
    ["queries"]
  ),
  fn(
    TOOL_DESCRIBE,
    `Load the full parameter schemas of tools found with \`${TOOL_SEARCH}\`; needed before \`${TOOL_CALL}\` when you do not know ` +
      "a tool's parameters. Ask for every schema you need in one call.",
    {
      names: {
        type: "array",
        items: { type: "string" },
        description: "Exact tool names as tool_search returned them. A single string counts as one name."
      }
    },
    ["names"]
  ),
  fn(
    TOOL_CALL,
    "Run a tool found with tool_search. `calls` holds exactly one {name, arguments} entry whose arguments match the tool's schema " +
      `(see \`${TOOL_DESCRIBE}\`). Hooks, approvals and result limits apply as for any other tool.`,
    {
      calls: {
        type: "array",
        items: {
          type: "object",
          properties: {
            name: { type: "string", description: "Exact tool name to run." },
            arguments: { type: "object", description: "Arguments matching the tool's schema." }
          },
          required: ["name", "arguments"]
        },
        description: "One invocation: [{name, arguments}]."
      }
    },
    ["calls"]
  )
]
