import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import {
  bundleNonCoreTools,
  EMPTY_VIEW,
  getToolset,
  getToolsetInfo,
  HERMES_CORE_TOOLS,
  isMcpToolset,
  LEGACY_TOOLSETS,
  type RegistryView,
  resolveEnabledTools,
  resolveMultipleToolsets,
  resolveToolset,
  STATIC_TOOLSETS,
  type ToolsetDef,
  toolsetNames,
  validateToolset
} from "../src/lib/toolsets/index.js"

// ---------------------------------------------------------------------------
// Simulated Hermes builtin registry (reference §3.2): every tool registered
// under the first single-purpose static toolset that lists it, with the
// registrations that differ from the static lists applied on top.
// ---------------------------------------------------------------------------

const builtinView = (): RegistryView => {
  const toolsetOf = new Map<string, string>()
  for (const [name, def] of Object.entries(STATIC_TOOLSETS)) {
    if (name.startsWith("hermes-") || def.posture === true || def.includes.length > 0) continue
    for (const tool of def.tools) if (!toolsetOf.has(tool)) toolsetOf.set(tool, name)
  }
  for (const tool of ["terminal", "process", "read_terminal", "close_terminal"]) toolsetOf.set(tool, "terminal")
  for (const tool of ["browser_cdp", "browser_dialog"]) toolsetOf.set(tool, "browser-cdp")
  for (const tool of STATIC_TOOLSETS["yuanbao"]?.tools ?? []) toolsetOf.set(tool, "hermes-yuanbao")
  for (const tool of ["project_list", "project_create", "project_switch"]) toolsetOf.set(tool, "project")
  return { toolsetOf, aliases: new Map() }
}

const BUILTIN = builtinView()

// ---------------------------------------------------------------------------
// Vectors
// ---------------------------------------------------------------------------

interface VectorCase {
  readonly kind: string
  readonly fn: string
  readonly input: unknown
  readonly kwargs?: { readonly include_registry?: boolean }
  readonly assert?: string
  readonly expect: unknown
  readonly why?: string
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const loadVectors = (): ReadonlyArray<VectorCase> => {
  const raw: unknown = JSON.parse(
    readFileSync(new URL("./fixtures/hermes-behaviour.json", import.meta.url), "utf8")
  )
  if (!isRecord(raw) || !Array.isArray(raw["toolsets"])) throw new Error("vectors: no toolsets key")
  return raw["toolsets"].map((c: unknown): VectorCase => {
    if (!isRecord(c) || typeof c["kind"] !== "string" || typeof c["fn"] !== "string") {
      throw new Error(`vectors: malformed case ${JSON.stringify(c)}`)
    }
    return c as unknown as VectorCase
  })
}

const str = (u: unknown): string => {
  if (typeof u !== "string") throw new Error(`expected string, got ${JSON.stringify(u)}`)
  return u
}

const strs = (u: unknown): ReadonlyArray<string> => {
  if (!Array.isArray(u) || !u.every((x) => typeof x === "string")) {
    throw new Error(`expected string[], got ${JSON.stringify(u)}`)
  }
  return u
}

const selection = (u: unknown): { enabled?: ReadonlyArray<string>; disabled?: ReadonlyArray<string> } => {
  if (!isRecord(u)) throw new Error(`expected selection, got ${JSON.stringify(u)}`)
  const enabled = u["enabled_toolsets"]
  const disabled = u["disabled_toolsets"]
  return {
    ...(enabled === undefined || enabled === null ? {} : { enabled: strs(enabled) }),
    ...(disabled === undefined || disabled === null ? {} : { disabled: strs(disabled) })
  }
}

const sorted = (xs: ReadonlyArray<string>): Array<string> => [...xs].sort()

/** Checks a list-valued result against the case's assertion kind. */
const checkList = (c: VectorCase, actual: ReadonlyArray<string>): void => {
  switch (c.assert) {
    case undefined:
    case "equals":
      // Legacy lists keep Hermes' order; everything else is a sorted set.
      if (c.kind === "legacy") expect(actual).toEqual(c.expect)
      else expect(sorted(actual)).toEqual(sorted(strs(c.expect)))
      return
    case "contains":
    case "contains_if_available": // every tool counts as available here
      expect(actual).toEqual(expect.arrayContaining([...strs(c.expect)]))
      return
    case "contains_dedup":
      expect(actual).toEqual(expect.arrayContaining([...strs(c.expect)]))
      expect(new Set(actual).size).toBe(actual.length)
      return
    case "contains_excludes_core":
      expect(actual).toEqual(expect.arrayContaining([...strs(c.expect)]))
      expect(actual.filter((t) => HERMES_CORE_TOOLS.includes(t))).toEqual([])
      return
    case "excludes":
      expect(actual.filter((t) => strs(c.expect).includes(t))).toEqual([])
      return
    case "min_count":
      expect(actual.length).toBeGreaterThanOrEqual(Number(c.expect))
      return
    default:
      throw new Error(`unhandled assert kind ${c.assert} for ${c.fn}`)
  }
}

const runCase = (c: VectorCase): void => {
  const includeRegistry = c.kwargs?.include_registry !== false
  const view = includeRegistry ? BUILTIN : EMPTY_VIEW
  switch (c.fn) {
    case "resolve_toolset": {
      checkList(c, resolveToolset(view, str(c.input), includeRegistry))
      // The static view must ignore registry additions entirely.
      if (!includeRegistry) checkList(c, resolveToolset(BUILTIN, str(c.input), false))
      return
    }
    case "resolve_multiple_toolsets":
      checkList(c, resolveMultipleToolsets(view, strs(c.input)))
      return
    case "validate_toolset":
      expect(validateToolset(view, str(c.input))).toBe(c.expect)
      return
    case "get_toolset": {
      const ts = getToolset(view, str(c.input), includeRegistry)
      if (c.assert === "tools_equals") expect(sorted(ts?.tools ?? [])).toEqual(sorted(strs(c.expect)))
      else expect(ts ?? null).toEqual(c.expect)
      return
    }
    case "get_toolset_info": {
      const info = getToolsetInfo(view, str(c.input))
      if (c.assert === "info") expect(info).toMatchObject(isRecord(c.expect) ? c.expect : {})
      else expect(info ?? null).toEqual(c.expect)
      return
    }
    case "bundle_non_core_tools":
      checkList(c, bundleNonCoreTools(view, str(c.input)))
      return
    case "get_tool_definitions": {
      const tools = [...resolveEnabledTools(view, selection(c.input)).tools]
      if (c.assert === "same_as") {
        expect(sorted(tools)).toEqual(sorted([...resolveEnabledTools(view, selection(c.expect)).tools]))
      } else {
        checkList(c, tools)
      }
      return
    }
    case "_LEGACY_TOOLSET_MAP":
      checkList(c, LEGACY_TOOLSETS[str(c.input)] ?? [])
      // Legacy names are not toolsets.
      expect(validateToolset(BUILTIN, str(c.input))).toBe(false)
      return
    default:
      throw new Error(`unhandled fn ${c.fn}`)
  }
}

const VECTORS = loadVectors()

describe("toolsets vectors", () => {
  it("has all 131 cases", () => {
    expect(VECTORS.length).toBe(131)
  })
  VECTORS.forEach((c, i) => {
    const kw = c.kwargs?.include_registry === false ? " (static)" : ""
    it(`#${i} ${c.kind} ${c.fn}(${JSON.stringify(c.input)})${kw} ${c.assert ?? ""}`, () => runCase(c))
  })
})

// ---------------------------------------------------------------------------
// Own cases
// ---------------------------------------------------------------------------

describe("static table", () => {
  it("has 57 toolsets and 52 core tools", () => {
    expect(Object.keys(STATIC_TOOLSETS).length).toBe(57)
    expect(HERMES_CORE_TOOLS.length).toBe(52)
    expect(new Set(HERMES_CORE_TOOLS).size).toBe(52)
    for (const def of Object.values(STATIC_TOOLSETS)) expect(def.description.length).toBeGreaterThan(0)
  })

  it("registers every static tool in the simulated builtin view", () => {
    const listed = new Set(Object.values(STATIC_TOOLSETS).flatMap((d) => d.tools))
    expect([...listed].filter((t) => !BUILTIN.toolsetOf.has(t))).toEqual([])
  })

  it("toolset names add registry-only toolsets", () => {
    expect(toolsetNames(EMPTY_VIEW).length).toBe(57)
    expect(toolsetNames(BUILTIN)).toContain("browser-cdp")
    expect(toolsetNames(BUILTIN).length).toBe(58)
  })

  it("prototype keys are not toolsets", () => {
    expect(validateToolset(EMPTY_VIEW, "constructor")).toBe(false)
    expect(resolveToolset(EMPTY_VIEW, "toString")).toEqual([])
    expect(getToolset(EMPTY_VIEW, "__proto__")).toBeUndefined()
  })

  it("getToolset returns sorted tools and all/* are not toolset definitions", () => {
    expect(getToolset(BUILTIN, "terminal")?.tools).toEqual(["close_terminal", "process", "read_terminal", "terminal"])
    expect(getToolset(BUILTIN, "all")).toBeUndefined()
    expect(getToolsetInfo(BUILTIN, "debugging")).toMatchObject({ is_composite: true, tool_count: 8 })
  })
})

describe("registry-only toolsets", () => {
  const view: RegistryView = {
    toolsetOf: new Map([
      ...BUILTIN.toolsetOf,
      ["weather_now", "weather"],
      ["weather_forecast", "weather"],
      ["web_archive", "web"], // a plugin adding a tool to a static toolset
      ["mcp_github_search", "mcp-github"],
      ["mcp_github_issue", "mcp-github"],
      ["mcp_homeassistant_lights", "mcp-homeassistant"]
    ]),
    aliases: new Map([["github", "mcp-github"], ["homeassistant", "mcp-homeassistant"], ["ghost", "mcp-ghost"]])
  }

  it("a plugin toolset is valid and resolves to its registered tools", () => {
    expect(validateToolset(view, "weather")).toBe(true)
    expect(resolveToolset(view, "weather")).toEqual(["weather_forecast", "weather_now"])
    expect(getToolset(view, "weather")).toEqual({
      name: "weather",
      description: "Plugin toolset: weather",
      tools: ["weather_forecast", "weather_now"],
      includes: []
    })
    expect(resolveToolset(view, "weather", false)).toEqual([])
    expect(getToolset(view, "weather", false)).toBeUndefined()
    expect(resolveToolset(view, "all")).toEqual(expect.arrayContaining(["weather_now", "mcp_github_issue"]))
  })

  it("registry tools merge into static toolsets only in the live view", () => {
    expect(resolveToolset(view, "web")).toEqual(["web_archive", "web_extract", "web_search"])
    expect(resolveToolset(view, "web", false)).toEqual(["web_extract", "web_search"])
    expect(resolveToolset(view, "debugging")).toContain("web_archive")
  })

  it("an alias resolves to its MCP toolset and names it", () => {
    expect(validateToolset(view, "github")).toBe(true)
    expect(validateToolset(view, "mcp-github")).toBe(true)
    expect(resolveToolset(view, "github")).toEqual(["mcp_github_issue", "mcp_github_search"])
    expect(getToolset(view, "github")?.description).toBe("MCP server 'github' tools")
    expect(getToolset(view, "mcp-github")?.description).toBe("MCP server 'github' tools")
    expect(isMcpToolset("mcp-github")).toBe(true)
    expect(isMcpToolset("github")).toBe(false)
    // Listed under the alias, not the mcp- name.
    expect(toolsetNames(view)).toContain("github")
    expect(toolsetNames(view)).not.toContain("mcp-github")
  })

  it("an alias to a server with no tools is valid but empty", () => {
    expect(validateToolset(view, "ghost")).toBe(true)
    expect(resolveToolset(view, "ghost")).toEqual([])
    expect(validateToolset(view, "mcp-ghost")).toBe(false)
  })

  it("an MCP server named like a static toolset adds its tools to it", () => {
    expect(resolveToolset(view, "homeassistant")).toEqual([
      "ha_call_service", "ha_get_state", "ha_list_entities", "ha_list_services", "mcp_homeassistant_lights"
    ])
    // The alias is a static name, so the server's toolset keeps its mcp- name.
    expect(toolsetNames(view)).toContain("mcp-homeassistant")
    expect(getToolset(view, "mcp-homeassistant")?.description).toBe("Plugin toolset: mcp-homeassistant")
  })

  it("enabling and disabling registry toolsets", () => {
    const r = resolveEnabledTools(view, { enabled: ["github", "weather", "nope"], disabled: ["mcp-github"] })
    expect([...r.tools].sort()).toEqual(["weather_forecast", "weather_now"])
    expect(r.unknown).toEqual(["nope"])
  })
})

describe("custom toolsets", () => {
  const custom = (entries: Record<string, Partial<ToolsetDef>>): RegistryView => ({
    ...BUILTIN,
    customToolsets: new Map(
      Object.entries(entries).map(([name, d]) => [
        name,
        { description: d.description ?? name, tools: d.tools ?? [], includes: d.includes ?? [] }
      ])
    )
  })

  it("survives cycles, self-includes and diamonds", () => {
    const view = custom({
      a: { tools: ["ta"], includes: ["b", "a"] },
      b: { tools: ["tb"], includes: ["c", "a"] },
      c: { tools: ["tc"], includes: ["a", "web"] },
      top: { includes: ["left", "right"] },
      left: { tools: ["tl"], includes: ["base"] },
      right: { tools: ["tr"], includes: ["base"] },
      base: { tools: ["tbase"] }
    })
    const abc = ["ta", "tb", "tc", "web_extract", "web_search"]
    expect(resolveToolset(view, "a")).toEqual(abc)
    expect(resolveToolset(view, "b")).toEqual(abc)
    expect(resolveToolset(view, "c")).toEqual(abc)
    expect(resolveToolset(view, "top")).toEqual(["tbase", "tl", "tr"])
    expect(resolveToolset(view, "a", false)).toEqual(abc)
    expect(getToolsetInfo(view, "a")).toMatchObject({ is_composite: true, tool_count: 5, direct_tools: ["ta"] })
  })

  it("a toolset including all/* gets everything without looping", () => {
    const view = custom({ everything: { tools: ["extra"], includes: ["*", "everything"] } })
    const all = resolveToolset(view, "all")
    expect(all).toContain("extra")
    expect(resolveToolset(view, "everything")).toEqual(all)
  })

  it("a custom entry replaces the static one of the same name", () => {
    const view = custom({ web: { tools: ["my_search"] } })
    expect(resolveToolset(view, "web", false)).toEqual(["my_search"])
    expect(resolveToolset(view, "debugging", false)).toContain("my_search")
    // Other views are unaffected (the shared static memo is not used for custom views).
    expect(resolveToolset(EMPTY_VIEW, "web", false)).toEqual(["web_extract", "web_search"])
  })
})

describe("resolveEnabledTools", () => {
  const tools = (sel: { enabled?: ReadonlyArray<string>; disabled?: ReadonlyArray<string> }): Array<string> =>
    [...resolveEnabledTools(BUILTIN, sel).tools].sort()

  it("undefined enabled means every toolset", () => {
    expect(tools({})).toEqual([...resolveToolset(BUILTIN, "all")])
  })

  it("disabled is subtracted last, after composites add tools back", () => {
    // debugging lists terminal/process itself rather than including `terminal`,
    // so the registry's extra terminal tools do not come with it.
    expect(tools({ enabled: ["debugging"], disabled: ["web"] })).toEqual([
      "patch", "process", "read_file", "search_files", "terminal", "write_file"
    ])
    expect(tools({ enabled: ["web", "browser", "search"], disabled: ["search"] })).not.toContain("web_search")
    expect(tools({ disabled: ["debugging"] })).not.toContain("read_file")
  })

  it("disabling a hermes-* or posture toolset keeps core tools", () => {
    expect(tools({ enabled: ["hermes-cli"], disabled: ["hermes-cli"] })).toEqual(sorted(HERMES_CORE_TOOLS))
    expect(tools({ enabled: ["coding"], disabled: ["coding"] })).toEqual([...resolveToolset(BUILTIN, "coding")])
    const gw = tools({ enabled: ["hermes-gateway"], disabled: ["hermes-gateway"] })
    expect(gw).toEqual(sorted(HERMES_CORE_TOOLS))
    expect(tools({ enabled: ["hermes-feishu", "spotify"], disabled: ["hermes-feishu"] })).not.toContain("feishu_doc_read")
  })

  it("legacy names work after validation fails, and unknown names are reported", () => {
    const r = resolveEnabledTools(BUILTIN, {
      enabled: ["file_tools", "web", "bogus", "bogus"],
      disabled: ["tts_tools", "web_tools", "also-bogus", "hermes-nope"]
    })
    expect([...r.tools].sort()).toEqual(["patch", "read_file", "search_files", "write_file"])
    expect(r.unknown).toEqual(["bogus", "also-bogus", "hermes-nope"])
  })

  it("empty enabled list gives no tools", () => {
    expect(tools({ enabled: [] })).toEqual([])
  })
})

// Speed is measured by `npm run bench`; these bounds only catch a blow-up (no memo, exponential resolution),
// loose enough that a loaded CI machine never trips them.
describe("performance", () => {
  it("resolving hermes-cli is memoised per view", () => {
    const first = resolveToolset(BUILTIN, "hermes-cli")
    expect(first.length).toBe(52)
    expect(Object.isFrozen(first)).toBe(true)
    expect(resolveToolset(BUILTIN, "hermes-cli")).toBe(first)
    const n = 100_000
    const start = performance.now()
    for (let i = 0; i < n; i++) resolveToolset(BUILTIN, "hermes-cli")
    const perCallUs = ((performance.now() - start) * 1000) / n
    expect(perCallUs).toBeLessThan(50)
  })

  it("a fresh view still resolves everything quickly", () => {
    const start = performance.now()
    const view = builtinView()
    for (const name of toolsetNames(view)) resolveToolset(view, name)
    resolveToolset(view, "all")
    expect(performance.now() - start).toBeLessThan(1000)
  })
})
