/**
 * Defaults are declared once, in the Config schema: an empty config reads as the
 * documented defaults, out-of-range numbers read as the default (as Hermes does),
 * and no default ever reaches the user's file.
 */
import { FileSystem } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as NodePath from "node:path"
import { ConfigLive, resolveHome } from "../src/layers/ConfigLive.js"
import { ConfigTest } from "../src/layers/ConfigTest.js"
import { Config, CONFIG_DEFAULTS } from "../src/services/Config.js"
import { resolveConfig } from "./support/config.js"

describe("config defaults", () => {
  it("an empty config yields the documented default of every section", () => {
    const empty = resolveConfig({})
    expect(empty).toEqual(CONFIG_DEFAULTS)
    expect(empty.tools).toEqual({
      call_timeout_seconds: 300,
      batch_timeout_seconds: 420,
      result_size_chars: 100_000,
      turn_budget_chars: 200_000,
      max_parallel: 8,
      check_timeout_seconds: 5,
      result_json: "python"
    })
    expect(empty.plugins).toEqual({ enabled: [], disabled: [], entries: {} })
    expect(empty.approvals).toEqual({
      mode: "manual",
      non_interactive: "deny",
      timeout_seconds: 60,
      deny: [],
      rules: [],
      isolated_skip: true
    })
    expect(empty.command_allowlist).toEqual([])
    expect(empty.disabled_toolsets).toEqual([])
    // Absent on purpose: no toolsets means every toolset, no model means "not configured".
    expect(empty.toolsets).toBeUndefined()
    expect(empty.model).toBeUndefined()
    expect(empty.terminal).toEqual({
      backend: "local",
      timeout: 180,
      lifetime_seconds: 300,
      env_passthrough: [],
      sandbox_network: false,
      ssh_port: 22,
      ssh_options: [],
      ssh_forward_env: [],
      ssh_max_sessions: 10,
      container_image: "nikolaik/python-nodejs:python3.11-nodejs20",
      container_cwd: "/workspace",
      container_network: false,
      container_volumes: [],
      container_env: {},
      container_forward_env: [],
      container_extra_args: [],
      protect_home: true,
      persistent_shell: true,
      local_persistent: false,
      max_background_per_task: 16,
      max_background: 64,
      sandbox_home_binds: []
    })
    expect(empty.sessions).toEqual({ busy_timeout_ms: 5000, synchronous: "normal" })
    expect(empty.memory).toEqual({ memory_char_limit: 2200, user_char_limit: 1375 })
    expect(empty.mcp_servers).toEqual({})
    expect(empty.files).toEqual({ write_roots: [], read_max_chars: 100_000, search_engine: "auto" })
    expect(empty.skills).toEqual({ external_dirs: [], disabled: [], guard_agent_created: false, trusted_sources: [], seed_bundled: true })
    expect(empty.agent).toEqual({ max_turns: 90 })
    expect(empty.delegation).toEqual({
      max_spawn_depth: 1,
      max_concurrent_children: 3,
      max_iterations: 50,
      child_timeout_seconds: 0,
      summary_max_chars: 24_000,
      orchestrator_enabled: true
    })
  })

  it("nested entries get their defaults too; a bare model name is the section {name}", () => {
    const config = resolveConfig({ model: "gpt-4o-mini", mcp_servers: { s: { command: "x" } } })
    expect(config.model).toEqual({ name: "gpt-4o-mini", timeout_seconds: 300, max_retries: 3, retry_base_seconds: 1, retry_max_seconds: 60 })
    expect(config.mcp_servers["s"]).toEqual({
      command: "x",
      args: [],
      env: {},
      headers: {},
      enabled: true,
      timeout: 300,
      connect_timeout: 60,
      tools: { exclude: [], resources: true, prompts: true },
      supports_parallel_tool_calls: false
    })
  })

  it("out-of-range numbers read as the default or the bound, as before", () => {
    const config = resolveConfig({
      terminal: { timeout: 9999, lifetime_seconds: 0, ssh_port: 70_000, ssh_max_sessions: 2.5, max_background: 3.7, cwd: "auto" },
      delegation: { max_spawn_depth: 0, child_timeout_seconds: 5, summary_max_chars: 10 },
      model: { max_retries: -1, timeout_seconds: -3 },
      files: { read_max_chars: 0 },
      agent: { max_turns: 0.5 }
    })
    expect(config.terminal).toMatchObject({ timeout: 600, lifetime_seconds: 300, ssh_port: 22, ssh_max_sessions: 10, max_background: 3 })
    expect(config.terminal.cwd).toBeUndefined()
    expect(config.delegation).toMatchObject({ max_spawn_depth: 1, child_timeout_seconds: 30, summary_max_chars: 100 })
    expect(config.model).toMatchObject({ max_retries: 3, timeout_seconds: 300 })
    expect(config.files.read_max_chars).toBe(100_000)
    expect(config.agent.max_turns).toBe(90)
  })

  it("Hermes' docker_* keys stand in for absent container_* keys, before the defaults", () => {
    const terminal = resolveConfig({
      terminal: { docker_image: "hermes/img", docker_env: { N: 1 }, docker_network: true, container_volumes: ["a:/a"], docker_volumes: ["b:/b"] }
    }).terminal
    expect(terminal).toMatchObject({ container_image: "hermes/img", container_env: { N: "1" }, container_network: true, container_volumes: ["a:/a"] })
  })

  it.effect("ConfigTest applies the same defaults and edits only what it is given", () =>
    Effect.gen(function*() {
      const config = yield* Config
      expect((yield* config.current).terminal.timeout).toBe(30)
      expect((yield* config.current).approvals.timeout_seconds).toBe(60)
      yield* config.set(["approvals", "mode"], "off")
      expect((yield* config.current).terminal.timeout).toBe(30)
      expect((yield* config.current).approvals.mode).toBe("off")
    }).pipe(Effect.provide(ConfigTest({ terminal: { timeout: 30 } }))))
})

describe("writes never add defaults", () => {
  // Formatted the way the YAML library writes (it normalises spacing it re-emits); comments included.
  const original = [
    "# my settings",
    "terminal:",
    "  timeout: 30 # seconds",
    "",
    "tools: { max_parallel: 2 }",
    "future_key: 1",
    "model: gpt-4o-mini",
    ""
  ].join("\n")

  it.effect("a write of one key leaves the rest of the file byte-identical", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const dir = yield* fs.makeTempDirectoryScoped({ prefix: "hermes-config-defaults-" })
      const home = resolveHome(NodePath.join(dir, "home"))
      yield* fs.makeDirectory(home.root, { recursive: true })
      yield* fs.writeFileString(home.configFile, original)
      yield* Effect.gen(function*() {
        const config = yield* Config
        expect((yield* config.current).terminal.backend).toBe("local")
        yield* config.set(["future_key"], 2)
        expect(yield* fs.readFileString(home.configFile)).toBe(original.replace("future_key: 1", "future_key: 2"))
        yield* config.set(["terminal", "timeout"], 45)
        expect(yield* fs.readFileString(home.configFile)).toBe(original.replace("future_key: 1", "future_key: 2").replace("timeout: 30", "timeout: 45"))
        yield* config.set(["terminal", "timeout"], 30)
        yield* config.set(["future_key"], 1)
        expect(yield* fs.readFileString(home.configFile)).toBe(original)
        yield* config.set(["approvals", "mode"], "smart")
        expect(yield* fs.readFileString(home.configFile)).toBe(`${original}approvals:\n  mode: smart\n`)
        yield* config.remove(["approvals"])
        expect(yield* fs.readFileString(home.configFile)).toBe(original)
      }).pipe(Effect.provide(ConfigLive({ home: home.root })))
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))
})
