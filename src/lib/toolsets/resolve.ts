/**
 * Toolset resolution with Hermes semantics, as pure functions over a snapshot
 * of the live registry.
 *
 * A toolset is a static table entry (see `table.ts`), a toolset that exists
 * only because registered tools name it (a plugin or `mcp-<server>` toolset),
 * or a registry alias (an MCP server's bare name pointing at `mcp-<server>`).
 * `all` / `*` mean every toolset.
 *
 * `hermes-<platform>` names not in the table are Hermes' implicit platform
 * bundles: when `<platform>` is a known platform (a registry-only toolset a
 * plugin filed its tools under, or a name in `view.platforms`), the name
 * resolves to the core tools plus that toolset's tools (see `platform.ts`).
 */
import { implicitPlatformName, platformDescription } from "./platform.js"
import { HERMES_CORE_TOOLS, LEGACY_TOOLSETS, STATIC_TOOLSETS, type ToolsetDef } from "./table.js"

/**
 * What the resolver needs from the tool registry.
 *
 * Treat a view as an immutable snapshot: derived indexes and resolutions are
 * memoised per view object, so build a new view whenever the registry changes
 * (e.g. once per registry generation) instead of mutating the maps.
 */
export interface RegistryView {
  /** tool name → toolset it is registered under */
  readonly toolsetOf: ReadonlyMap<string, string>
  /** alias → target toolset (e.g. MCP server "github" → "mcp-github") */
  readonly aliases: ReadonlyMap<string, string>
  /**
   * Toolsets created at runtime (Hermes' `create_custom_toolset`). They act as
   * static entries, replacing a static toolset of the same name.
   */
  readonly customToolsets?: ReadonlyMap<string, ToolsetDef>
  /**
   * Platforms registered without tools of their own (Hermes' gateway platform
   * registry); `hermes-<platform>` then means the core tools.
   */
  readonly platforms?: ReadonlySet<string>
}

export const EMPTY_VIEW: RegistryView = Object.freeze({
  toolsetOf: new Map<string, string>(),
  aliases: new Map<string, string>()
})

export interface ToolsetInfo {
  readonly name: string
  readonly description: string
  /** Direct tools, sorted (with the registry: static list ∪ registered tools). */
  readonly tools: ReadonlyArray<string>
  readonly includes: ReadonlyArray<string>
}

/** Hermes `get_toolset_info` shape (snake_case kept for wire compatibility). */
export interface ToolsetDetails {
  readonly name: string
  readonly description: string
  readonly direct_tools: ReadonlyArray<string>
  readonly includes: ReadonlyArray<string>
  readonly resolved_tools: ReadonlyArray<string>
  readonly tool_count: number
  readonly is_composite: boolean
}

export interface ToolSelection {
  /** Toolset (or legacy) names to enable; undefined enables every toolset. */
  readonly enabled?: ReadonlyArray<string>
  /** Names whose tools are removed after everything else is added. */
  readonly disabled?: ReadonlyArray<string>
}

export interface EnabledTools {
  readonly tools: ReadonlySet<string>
  /** Names in `enabled`/`disabled` that are neither toolsets nor legacy names, first-seen order. */
  readonly unknown: ReadonlyArray<string>
}

const isAll = (name: string): boolean => name === "all" || name === "*"

export const isMcpToolset = (name: string): boolean => name.startsWith("mcp-")

// Maps rather than the records so names like "constructor" never hit Object.prototype.
const STATIC_TABLE: ReadonlyMap<string, ToolsetDef> = new Map(Object.entries(STATIC_TOOLSETS))
const LEGACY_TABLE: ReadonlyMap<string, ReadonlyArray<string>> = new Map(Object.entries(LEGACY_TOOLSETS))
const CORE: ReadonlySet<string> = new Set(HERMES_CORE_TOOLS)
const NO_NAMES: ReadonlyArray<string> = Object.freeze([])

interface Memo {
  readonly defs: Map<string, ToolsetInfo>
  readonly resolved: Map<string, ReadonlyArray<string>>
}

const newMemo = (): Memo => ({ defs: new Map(), resolved: new Map() })

/** The static view depends only on the table, so views without custom toolsets share it. */
const SHARED_STATIC_MEMO = newMemo()

interface Index {
  readonly view: RegistryView
  readonly table: ReadonlyMap<string, ToolsetDef>
  /** registry toolset → its tools (inverse of `toolsetOf`) */
  readonly byToolset: ReadonlyMap<string, ReadonlyArray<string>>
  /** registry toolsets absent from the table */
  readonly pluginNames: ReadonlySet<string>
  /** plugin toolset → first alias naming it that is not itself a table name */
  readonly displayAlias: ReadonlyMap<string, string>
  readonly staticMemo: Memo
  readonly liveMemo: Memo
  names: ReadonlyArray<string> | undefined
}

const indexes = new WeakMap<RegistryView, Index>()

const buildIndex = (view: RegistryView): Index => {
  const custom = view.customToolsets
  const hasCustom = custom !== undefined && custom.size > 0
  const table: ReadonlyMap<string, ToolsetDef> = hasCustom ? new Map([...STATIC_TABLE, ...custom]) : STATIC_TABLE

  const byToolset = new Map<string, Array<string>>()
  for (const [tool, toolset] of view.toolsetOf) {
    const tools = byToolset.get(toolset)
    if (tools === undefined) byToolset.set(toolset, [tool])
    else tools.push(tool)
  }
  const pluginNames = new Set<string>()
  for (const toolset of byToolset.keys()) if (!table.has(toolset)) pluginNames.add(toolset)

  const displayAlias = new Map<string, string>()
  for (const [alias, target] of view.aliases) {
    if (!table.has(alias) && !displayAlias.has(target)) displayAlias.set(target, alias)
  }

  return {
    view,
    table,
    byToolset,
    pluginNames,
    displayAlias,
    staticMemo: hasCustom ? newMemo() : SHARED_STATIC_MEMO,
    liveMemo: newMemo(),
    names: undefined
  }
}

const indexOf = (view: RegistryView): Index => {
  let index = indexes.get(view)
  if (index === undefined) {
    index = buildIndex(view)
    indexes.set(view, index)
  }
  return index
}

const sortedUnion = (...lists: ReadonlyArray<ReadonlyArray<string> | undefined>): ReadonlyArray<string> => {
  const all = new Set<string>()
  for (const list of lists) if (list !== undefined) for (const t of list) all.add(t)
  return Object.freeze([...all].sort())
}

const makeInfo = (
  name: string,
  description: string,
  tools: ReadonlyArray<string>,
  includes: ReadonlyArray<string>
): ToolsetInfo => Object.freeze({ name, description, tools, includes: Object.freeze([...includes]) })

const computeDef = (index: Index, name: string, live: boolean): ToolsetInfo | undefined => {
  const def = index.table.get(name)
  if (!live) return def && makeInfo(name, def.description, sortedUnion(def.tools), def.includes)

  const { aliases } = index.view
  if (def !== undefined) {
    // An MCP server named like a table toolset ("homeassistant") aliases that
    // name to `mcp-homeassistant`; merge its tools or the table entry would hide them.
    const target = aliases.get(name)
    const aliased = target !== undefined && target !== name ? index.byToolset.get(target) : undefined
    return makeInfo(name, def.description, sortedUnion(def.tools, index.byToolset.get(name), aliased), def.includes)
  }
  if (index.pluginNames.has(name)) {
    const alias = index.displayAlias.get(name)
    const description = alias !== undefined ? `MCP server '${alias}' tools` : `Plugin toolset: ${name}`
    return makeInfo(name, description, sortedUnion(index.byToolset.get(name)), NO_NAMES)
  }
  const target = aliases.get(name)
  if (target === undefined) {
    const platform = implicitPlatformOf(index, name)
    if (platform === undefined) return undefined
    return makeInfo(name, platformDescription(platform), sortedUnion(HERMES_CORE_TOOLS, index.byToolset.get(platform)), NO_NAMES)
  }
  return makeInfo(name, `MCP server '${name}' tools`, sortedUnion(index.byToolset.get(target)), NO_NAMES)
}

const defOf = (index: Index, name: string, live: boolean): ToolsetInfo | undefined => {
  const memo = live ? index.liveMemo : index.staticMemo
  const cached = memo.defs.get(name)
  if (cached !== undefined) return cached
  const def = computeDef(index, name, live)
  // Unknown names are not memoised: callers may pass arbitrary strings.
  if (def !== undefined) memo.defs.set(name, def)
  return def
}

const namesOf = (index: Index): ReadonlyArray<string> => {
  if (index.names === undefined) {
    const names = new Set(index.table.keys())
    for (const plugin of index.pluginNames) names.add(index.displayAlias.get(plugin) ?? plugin)
    index.names = Object.freeze([...names].sort())
  }
  return index.names
}

/**
 * Union of the direct tools of every toolset reachable from `name` through
 * `includes`. Visiting each toolset once handles cycles and diamonds and gives
 * the same set as Hermes' recursive walk with a shared `visited` set.
 */
const resolveIn = (index: Index, name: string, live: boolean): ReadonlyArray<string> => {
  const memo = live ? index.liveMemo : index.staticMemo
  const cached = memo.resolved.get(name)
  if (cached !== undefined) return cached

  const tools = new Set<string>()
  const visited = new Set<string>()
  const stack = [name]
  let known = false
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (visited.has(next)) continue
    visited.add(next)
    if (isAll(next)) {
      known = true
      for (const n of namesOf(index)) stack.push(n)
      continue
    }
    const def = defOf(index, next, live)
    if (def === undefined) continue
    known = true
    for (const t of def.tools) tools.add(t)
    for (const inc of def.includes) stack.push(inc)
  }
  const result: ReadonlyArray<string> = tools.size === 0 ? NO_NAMES : Object.freeze([...tools].sort())
  if (known) memo.resolved.set(name, result)
  return result
}

/** The platform `hermes-<platform>` names implicitly, when that platform is known and the name is not taken. */
const implicitPlatformOf = (index: Index, name: string): string | undefined => {
  const platform = implicitPlatformName(name)
  if (platform === undefined || index.table.has(name) || index.pluginNames.has(name)) return undefined
  const pluginPlatform = index.pluginNames.has(platform) && !isMcpToolset(platform)
  return pluginPlatform || index.view.platforms?.has(platform) === true ? platform : undefined
}

const isValid = (index: Index, name: string): boolean =>
  isAll(name) || index.table.has(name) || index.pluginNames.has(name) || index.view.aliases.has(name) ||
  implicitPlatformOf(index, name) !== undefined

/** A toolset's own definition, or undefined. `includeRegistry: false` reads the static table only. */
export const getToolset = (view: RegistryView, name: string, includeRegistry = true): ToolsetInfo | undefined =>
  defOf(indexOf(view), name, includeRegistry)

/** Every tool in a toolset and what it includes, sorted. Unknown names give []. The result is frozen and shared. */
export const resolveToolset = (view: RegistryView, name: string, includeRegistry = true): ReadonlyArray<string> =>
  resolveIn(indexOf(view), name, includeRegistry)

export const resolveMultipleToolsets = (view: RegistryView, names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const index = indexOf(view)
  return sortedUnion(...names.map((name) => resolveIn(index, name, true)))
}

/** True for `all`, `*`, table toolsets, registry-only toolsets and registry aliases; legacy names are not toolsets. */
export const validateToolset = (view: RegistryView, name: string): boolean => isValid(indexOf(view), name)

/** Sorted toolset names: the table plus registry-only toolsets (shown under their MCP alias when they have one). */
export const toolsetNames = (view: RegistryView): ReadonlyArray<string> => namesOf(indexOf(view))

export const getToolsetInfo = (view: RegistryView, name: string): ToolsetDetails | undefined => {
  const index = indexOf(view)
  const def = defOf(index, name, true)
  if (def === undefined) return undefined
  const resolved = resolveIn(index, name, true)
  return {
    name,
    description: def.description,
    direct_tools: def.tools,
    includes: def.includes,
    resolved_tools: resolved,
    tool_count: resolved.length,
    is_composite: def.includes.length > 0
  }
}

/**
 * A bundle's tools minus the core tools, looking one level into `includes`
 * (only `hermes-gateway` nests bundles). This is what disabling a `hermes-*`
 * or posture toolset removes, so the core tools every bundle shares survive.
 */
export const bundleNonCoreTools = (view: RegistryView, name: string): ReadonlyArray<string> => {
  const index = indexOf(view)
  const def = defOf(index, name, true)
  const lists = def === undefined
    ? [resolveIn(index, name, true)]
    : [def.tools, ...def.includes.map((inc) => defOf(index, inc, true)?.tools)]
  const out = new Set<string>()
  for (const list of lists) if (list !== undefined) for (const t of list) if (!CORE.has(t)) out.add(t)
  return Object.freeze([...out].sort())
}

const isBundleLike = (index: Index, name: string): boolean =>
  name.startsWith("hermes-") || index.table.get(name)?.posture === true

/**
 * Hermes `get_tool_definitions` steps 1–2: enabled names → tool names, then
 * disabled names subtracted last so no composite can re-add them.
 */
export const resolveEnabledTools = (view: RegistryView, selection: ToolSelection): EnabledTools => {
  const index = indexOf(view)
  const unknown = new Set<string>()
  const tools = new Set<string>()

  if (selection.enabled === undefined) {
    for (const t of resolveIn(index, "all", true)) tools.add(t)
  } else {
    for (const name of selection.enabled) {
      // Validation comes first: a real toolset always wins over a legacy name.
      const list = isValid(index, name) ? resolveIn(index, name, true) : LEGACY_TABLE.get(name)
      if (list === undefined) unknown.add(name)
      else for (const t of list) tools.add(t)
    }
  }

  for (const name of selection.disabled ?? NO_NAMES) {
    let list: ReadonlyArray<string> | undefined
    if (isValid(index, name)) {
      list = isBundleLike(index, name) ? bundleNonCoreTools(view, name) : resolveIn(index, name, true)
    } else {
      list = LEGACY_TABLE.get(name)
    }
    if (list === undefined) unknown.add(name)
    else for (const t of list) tools.delete(t)
  }

  return { tools, unknown: [...unknown] }
}
