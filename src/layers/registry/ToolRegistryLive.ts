/**
 * The live ToolRegistry, the catalogue only: tools in plain maps (all
 * mutations are synchronous, so there is nothing to race), a generation
 * counter every memo keys on, and cached availability probes. Calls are run
 * by ToolExecutorLive (`../executor/`), which reads this through the Tag.
 */
import { Effect, Layer } from "effect"
import { getToolsetInfo, isMcpToolset, resolveEnabledTools, toolsetNames } from "../../lib/toolsets/index.js"
import type { RegistryView } from "../../lib/toolsets/index.js"
import { Config } from "../../services/Config.js"
import type { ToolDefinitionJson, ToolSource } from "../../services/Tool.js"
import { ToolOverrideDenied, ToolRegistry, ToolShadowed } from "../../services/ToolRegistry.js"
import type { RegisteredTool, ToolRegistryService, ToolsetSelection, ToolsetSummary } from "../../services/ToolRegistry.js"
import { makeAvailabilityCache } from "./availability.js"
import { modelDefinition } from "./modelDefinition.js"

const DEFINITIONS_CACHE_MAX = 8

/**
 * The registry layer; `defaults` selects toolsets when a caller names none
 * (before config `toolsets` / `disabled_toolsets`).
 */
export const makeToolRegistryLive = (defaults?: ToolsetSelection) => Layer.effect(
  ToolRegistry,
  Effect.gen(function*() {
    const config = yield* Config

    const tools = new Map<string, RegisteredTool>()
    const toolsetOf = new Map<string, string>()
    const aliases = new Map<string, string>()
    let generation = 0
    let sortedNames: ReadonlyArray<string> | undefined
    // The resolver memoizes per view object, so each generation gets a fresh snapshot.
    let snapshot: RegistryView | undefined
    const view = (): RegistryView => (snapshot ??= { toolsetOf: new Map(toolsetOf), aliases: new Map(aliases) })
    const bump = () => {
      generation++
      sortedNames = undefined
      snapshot = undefined
    }

    let checkTimeoutMs = 0
    const availabilityCache = makeAvailabilityCache(() => checkTimeoutMs)

    const pluginMayOverride = (source: ToolSource) =>
      Effect.map(config.current, (c) =>
        source.kind !== "plugin" || c.plugins.entries[source.plugin]?.allow_tool_override === true
      )

    const register: ToolRegistryService["register"] = (tool) =>
      Effect.gen(function*() {
        const existing = tools.get(tool.name)
        if (existing !== undefined) {
          const bothMcp = isMcpToolset(existing.toolset) && isMcpToolset(tool.toolset)
          const replacingOther = existing.source.kind !== tool.source.kind ||
            (existing.source.kind === "plugin" && tool.source.kind === "plugin" && existing.source.plugin !== tool.source.plugin)
          // A plugin replacing someone else's tool needs the operator's opt-in, whatever the toolset.
          if (tool.source.kind === "plugin" && replacingOther && !(yield* pluginMayOverride(tool.source))) {
            return yield* Effect.fail(new ToolOverrideDenied({ tool: tool.name, plugin: tool.source.plugin }))
          }
          if (existing.toolset !== tool.toolset && !bothMcp && !tool.override) {
            return yield* Effect.fail(
              new ToolShadowed({ tool: tool.name, toolset: tool.toolset, existingToolset: existing.toolset })
            )
          }
        }
        tools.set(tool.name, tool)
        toolsetOf.set(tool.name, tool.toolset)
        bump()
      })

    const deregister: ToolRegistryService["deregister"] = (name, caller) =>
      Effect.gen(function*() {
        const existing = tools.get(name)
        if (existing === undefined) return false
        const ownTool = caller?.kind === "plugin" && existing.source.kind === "plugin" && existing.source.plugin === caller.plugin
        if (caller?.kind === "plugin" && !isMcpToolset(existing.toolset) && !ownTool && !(yield* pluginMayOverride(caller))) {
          return yield* Effect.fail(new ToolOverrideDenied({ tool: name, plugin: caller.plugin }))
        }
        tools.delete(name)
        toolsetOf.delete(name)
        const toolset = existing.toolset
        if (![...toolsetOf.values()].includes(toolset)) {
          for (const [alias, target] of aliases) if (target === toolset) aliases.delete(alias)
        }
        bump()
        return true
      })

    const names = () => (sortedNames ??= [...tools.keys()].sort())

    /** Why a tool cannot be used now, or undefined when it can. */
    const unavailability = (tool: RegisteredTool): Effect.Effect<string | undefined> => {
      const missing = tool.requiresEnv.filter((v) => !process.env[v])
      if (missing.length > 0) return Effect.succeed(`missing environment variable ${missing.join(", ")}`)
      if (tool.check === undefined) return Effect.succeed(undefined)
      return Effect.map(availabilityCache.probe(tool.check), (ok) => (ok ? undefined : tool.unavailableReason ?? "its availability check failed"))
    }

    const availableSubset = (candidates: ReadonlyArray<RegisteredTool>) =>
      Effect.gen(function*() {
        const probed = yield* availabilityCache.probeAll(
          candidates.flatMap((t) => (t.check === undefined ? [] : [t.check]))
        )
        return candidates.filter(
          (t) => t.requiresEnv.every((v) => !!process.env[v]) && (t.check === undefined || probed.get(t.check) === true)
        )
      })

    const selectionFrom = (selection: ToolsetSelection | undefined) =>
      Effect.map(config.current, (c) => ({
        enabled: selection?.enabled ?? defaults?.enabled ?? c.toolsets,
        disabled: selection?.disabled ?? defaults?.disabled ?? c.disabled_toolsets
      }))

    const resolve: ToolRegistryService["resolve"] = (selection) =>
      Effect.map(selectionFrom(selection), (sel) => {
        const { tools: resolved, unknown } = resolveEnabledTools(view(), {
          ...(sel.enabled === undefined ? {} : { enabled: sel.enabled }),
          ...(sel.disabled === undefined ? {} : { disabled: sel.disabled })
        })
        return { tools: [...resolved].sort(), unknown }
      })

    const definitionsCache = new Map<string, ReadonlyArray<ToolDefinitionJson>>()

    const definitions: ToolRegistryService["definitions"] = (selection) =>
      Effect.gen(function*() {
        const { tools: resolved } = yield* resolve(selection)
        const candidates = resolved.flatMap((n) => {
          const t = tools.get(n)
          return t === undefined ? [] : [t]
        })
        const available = yield* availableSubset(candidates)
        const revision = yield* config.revision
        const key = `${generation}|${revision}|${available.map((t) => t.name).join(",")}`
        const hit = definitionsCache.get(key)
        if (hit !== undefined) return hit
        const defs = yield* Effect.forEach(available, (t) =>
          Effect.map(
            t.dynamicSchema === undefined
              ? Effect.succeed({})
              : Effect.catchAllCause(t.dynamicSchema, (cause) =>
                Effect.as(Effect.logWarning(`dynamic schema of ${t.name} failed; using the static one`, cause), {})
              ),
            (overrides): ToolDefinitionJson => modelDefinition({ name: t.name, description: t.description, parameters: t.jsonSchema, ...overrides })
          ))
        if (definitionsCache.size >= DEFINITIONS_CACHE_MAX) {
          const oldest = definitionsCache.keys().next()
          if (!oldest.done) definitionsCache.delete(oldest.value)
        }
        definitionsCache.set(key, defs)
        return defs
      })

    const toolsets: ToolRegistryService["toolsets"] = () =>
      Effect.gen(function*() {
        const current = view()
        const all = toolsetNames(current)
        const registeredTools = [...tools.values()]
        const available = new Set((yield* availableSubset(registeredTools)).map((t) => t.name))
        const out: Array<ToolsetSummary> = []
        for (const name of all) {
          const info = getToolsetInfo(current, name)
          if (info === undefined) continue
          const registered = info.resolved_tools.filter((t) => tools.has(t))
          out.push({
            name,
            description: info.description,
            tools: info.resolved_tools,
            includes: info.includes,
            available: registered.some((t) => available.has(t)),
            registered
          })
        }
        return out
      })

    // Read once at startup (probes are cached across config changes).
    checkTimeoutMs = (yield* config.current).tools.check_timeout_seconds * 1000

    return ToolRegistry.of({
      register,
      deregister,
      registerAlias: (alias, toolset) =>
        Effect.sync(() => {
          aliases.set(alias, toolset)
          bump()
        }),
      get: (name) => tools.get(name),
      names,
      generation: () => generation,
      resolve,
      isAvailable: (name) => {
        const tool = tools.get(name)
        return tool === undefined ? Effect.succeed(false) : Effect.map(unavailability(tool), (why) => why === undefined)
      },
      whyUnavailable: unavailability,
      definitions,
      toolsets
    })
  })
)

export const ToolRegistryLive = makeToolRegistryLive()
