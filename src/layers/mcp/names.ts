/**
 * Names of MCP tools in the registry. Model APIs accept `[A-Za-z0-9_-]` at most,
 * and Hermes folds everything but letters, digits and `_` into `_`, so skills and
 * trajectories written against Hermes name the same tools.
 */
import type { McpServerSpec } from "./config.js"

export const sanitizeName = (s: string): string => s.replace(/[^A-Za-z0-9_]/g, "_")

/** `mcp__<server>__<tool>`, each part sanitized. */
export const mcpToolName = (server: string, tool: string): string => `mcp__${sanitizeName(server)}__${sanitizeName(tool)}`

/** The raw server name: `mcp-<server>` (its alias is `<server>`). */
export const mcpToolset = (server: string): string => `mcp-${server}`

const globToRegExp = (glob: string): RegExp =>
  new RegExp(`^${glob.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`)

/** A filter entry matches the server's tool name or the registered name, literally or as a `*` glob. */
const matchesAny = (patterns: ReadonlyArray<string>, tool: string, registered: string): boolean =>
  patterns.some((p) => {
    if (p === tool || p === registered) return true
    if (!p.includes("*")) return false
    const re = globToRegExp(p)
    return re.test(tool) || re.test(registered)
  })

/** Why `tools.include` / `tools.exclude` drop a tool (include wins), or undefined when it stays. */
export const filteredOut = (spec: McpServerSpec, tool: string): string | undefined => {
  const registered = mcpToolName(spec.name, tool)
  if (spec.include !== undefined) return matchesAny(spec.include, tool, registered) ? undefined : "not in tools.include"
  return matchesAny(spec.exclude, tool, registered) ? "in tools.exclude" : undefined
}
