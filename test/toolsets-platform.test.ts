import { describe, expect, it } from "@effect/vitest"
import {
  bundleNonCoreTools,
  getToolsetInfo,
  HERMES_CORE_TOOLS,
  type RegistryView,
  resolveEnabledTools,
  resolveToolset,
  validateToolset
} from "../src/lib/toolsets/index.js"

const sorted = (xs: ReadonlyArray<string>) => [...xs].sort()

const view: RegistryView = {
  toolsetOf: new Map([["irc_send", "irc"], ["irc_join", "irc"], ["gh_issue", "mcp-github"]]),
  aliases: new Map([["github", "mcp-github"]]),
  platforms: new Set(["line"])
}

describe("implicit hermes-<platform> toolsets", () => {
  it("a plugin platform's bundle is the core tools plus the platform's tools", () => {
    expect(validateToolset(view, "hermes-irc")).toBe(true)
    expect(resolveToolset(view, "hermes-irc")).toEqual(sorted([...HERMES_CORE_TOOLS, "irc_send", "irc_join"]))
    expect(getToolsetInfo(view, "hermes-irc")?.includes).toEqual([])
  })

  it("a platform registered without tools means the core tools", () => {
    expect(resolveToolset(view, "hermes-line")).toEqual(sorted(HERMES_CORE_TOOLS))
  })

  it("unknown platforms, MCP toolsets and the bare prefix stay unknown", () => {
    for (const name of ["hermes-nope", "hermes-mcp-github", "hermes-"]) {
      expect(validateToolset(view, name)).toBe(false)
      expect(resolveToolset(view, name)).toEqual([])
    }
    expect(resolveEnabledTools(view, { enabled: ["hermes-nope"] }).unknown).toEqual(["hermes-nope"])
  })

  it("enabling selects it; disabling it removes only the platform's own tools", () => {
    const on = resolveEnabledTools(view, { enabled: ["hermes-irc"] })
    expect(on.unknown).toEqual([])
    expect(on.tools.has("irc_send") && on.tools.has("terminal")).toBe(true)
    expect(bundleNonCoreTools(view, "hermes-irc")).toEqual(["irc_join", "irc_send"])
    const off = resolveEnabledTools(view, { enabled: ["hermes-irc"], disabled: ["hermes-irc"] })
    expect([...off.tools].sort()).toEqual(sorted(HERMES_CORE_TOOLS))
  })

  it("static hermes-* bundles keep their table definition", () => {
    expect(getToolsetInfo(view, "hermes-cli")?.tool_count).toBe(HERMES_CORE_TOOLS.length)
  })
})
