/**
 * Which of a server's tools register, and under what name; then the registry
 * edit that makes the server's toolset match that plan (refreshes replace the
 * server's tools, nuke-and-repave as Hermes, but only tools this server owns).
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Either } from "effect"
import type { McpSkippedTool, McpToolReport } from "../../services/Mcp.js"
import type { RegisteredTool, ToolRegistryService } from "../../services/ToolRegistry.js"
import { isMcpToolset } from "../../lib/toolsets/index.js"
import type { McpCapabilities } from "./connection.js"
import { scanDescription } from "./injection.js"
import { filteredOut, mcpToolName, mcpToolset } from "./names.js"
import { serverTool, utilityNames, utilityTool } from "./tools.js"
import type { ServerHandle } from "./tools.js"

export interface ToolPlan {
  readonly register: ReadonlyArray<RegisteredTool>
  readonly reports: ReadonlyArray<McpToolReport>
  readonly warnings: ReadonlyArray<string>
}

export const planTools = (
  handle: ServerHandle,
  tools: ReadonlyArray<McpTool>,
  caps: McpCapabilities,
  lookup: (name: string) => RegisteredTool | undefined
): ToolPlan => {
  const server = handle.spec.name
  const register: Array<RegisteredTool> = []
  const reports: Array<McpToolReport> = []
  const warnings: Array<string> = []
  const taken = new Map<string, string>()
  const candidates = [
    ...tools.map((tool) => ({ short: tool.name, build: () => serverTool(handle, tool), description: tool.description ?? "" })),
    ...utilityNames(handle.spec, caps).map((short) => ({ short, build: () => utilityTool(handle, short), description: "" }))
  ]
  for (const { short, build, description } of candidates) {
    const registeredAs = mcpToolName(server, short)
    const filtered = filteredOut(handle.spec, short)
    const existing = lookup(registeredAs)
    // Filtered tools are the operator's choice; a clash is something to look at, so it is also a warning.
    const clash = filtered !== undefined
      ? undefined
      : taken.has(registeredAs)
      ? `its name '${registeredAs}' is already taken by tool '${taken.get(registeredAs)}' of this server`
      : existing !== undefined && !isMcpToolset(existing.toolset)
      ? `'${registeredAs}' would shadow the tool of toolset '${existing.toolset}'`
      : undefined
    if (clash !== undefined) warnings.push(`tool '${short}' skipped: ${clash}`)
    const skipped = filtered ?? clash
    // Only descriptions that reach the model matter.
    const toolWarnings = skipped === undefined ? scanDescription(description).map((why) => `tool '${short}': description ${why}`) : []
    warnings.push(...toolWarnings)
    reports.push({ tool: short, registeredAs, description, skipped, warnings: toolWarnings })
    if (skipped !== undefined) continue
    taken.set(registeredAs, short)
    register.push(build())
  }
  return { register, reports, warnings }
}

export interface Applied {
  readonly registered: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<McpSkippedTool>
}

const ownedBy = (tool: RegisteredTool | undefined, server: string) =>
  tool !== undefined && tool.source.kind === "mcp" && tool.source.server === server

/** Make the registry hold exactly the planned tools of `server` (the previous ones it still owns are dropped). */
export const applyPlan = (
  registry: ToolRegistryService,
  server: string,
  plan: ToolPlan,
  previous: ReadonlyArray<string>
): Effect.Effect<Applied> =>
  Effect.gen(function*() {
    const wanted = new Set(plan.register.map((t) => t.name))
    for (const name of previous) {
      if (!wanted.has(name) && ownedBy(registry.get(name), server)) yield* Effect.ignore(registry.deregister(name))
    }
    const registered: Array<string> = []
    const skipped: Array<McpSkippedTool> = plan.reports.flatMap((r) => (r.skipped === undefined ? [] : [{ tool: r.tool, reason: r.skipped }]))
    for (const tool of plan.register) {
      const result = yield* Effect.either(registry.register(tool))
      if (Either.isRight(result)) registered.push(tool.name)
      else skipped.push({ tool: tool.name, reason: result.left.message })
    }
    // `<server>` names the toolset too; the registry drops the alias with the toolset's last tool.
    if (registered.length > 0) yield* registry.registerAlias(server, mcpToolset(server))
    return { registered: registered.sort(), skipped }
  })

/** Remove every tool the server still owns (used when it stops for good). */
export const removeAll = (registry: ToolRegistryService, server: string, names: ReadonlyArray<string>): Effect.Effect<void> =>
  Effect.forEach(names, (name) => (ownedBy(registry.get(name), server) ? Effect.ignore(registry.deregister(name)) : Effect.void), {
    discard: true
  })
