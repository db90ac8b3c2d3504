import { FileSystem } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import type { Scope } from "effect"
import { homedir } from "node:os"
import * as NodePath from "node:path"
import { parse } from "yaml"
import { ConfigLive, loadConfigFile, resolveHome } from "../src/layers/ConfigLive.js"
import { ConfigTest } from "../src/layers/ConfigTest.js"
import { Config, ConfigError } from "../src/services/Config.js"
import { resolveConfig } from "./support/config.js"

/** A fresh, not-yet-existing home under a scoped temp dir (so "created on first write" is observable). */
const tempHome = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const dir = yield* fs.makeTempDirectoryScoped({ prefix: "hermes-config-" })
  return resolveHome(NodePath.join(dir, "home"))
})

const writeHome = (root: string, text: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(root, { recursive: true })
    yield* fs.writeFileString(NodePath.join(root, "config.yaml"), text)
  })

/** Run `self` against ConfigLive over a temp home holding `initial` (no file when undefined). */
const withLive = <A, E>(
  self: Effect.Effect<A, E, Config | FileSystem.FileSystem | Scope.Scope>,
  initial?: string
) =>
  Effect.gen(function*() {
    const home = yield* tempHome
    if (initial !== undefined) yield* writeHome(home.root, initial)
    return yield* Effect.provide(self, ConfigLive({ home: home.root }))
  }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer))

const readConfigText = Effect.gen(function*() {
  const { home } = yield* Config
  const fs = yield* FileSystem.FileSystem
  return yield* fs.readFileString(home.configFile)
})

const failure = <A, R>(self: Effect.Effect<A, ConfigError, R>) =>
  Effect.map(Effect.either(self), (e) => {
    if (Either.isRight(e)) throw new Error("expected a ConfigError")
    return e.left
  })

// ---------------------------------------------------------------------------
// Shared behaviour: ConfigLive (temp dir) and ConfigTest (memory) must agree.
// ---------------------------------------------------------------------------

const harnesses: ReadonlyArray<{
  readonly name: string
  readonly run: <A, E>(self: Effect.Effect<A, E, Config>) => Effect.Effect<A, unknown>
}> = [
  { name: "ConfigLive", run: (self) => withLive(self) },
  { name: "ConfigTest", run: (self) => Effect.provide(self, ConfigTest()) }
]

for (const h of harnesses) {
  describe(`${h.name} (shared)`, () => {
    it.effect("starts empty; set/current/revision", () =>
      h.run(Effect.gen(function*() {
        const config = yield* Config
        expect(yield* config.current).toEqual(resolveConfig({}))
        expect(yield* config.revision).toBe(0)
        yield* config.set(["tools", "max_parallel"], 8)
        yield* config.set(["approvals", "mode"], "smart")
        yield* config.set(["toolsets"], ["hermes-cli", "web"])
        expect(yield* config.current).toEqual(resolveConfig({
          tools: { max_parallel: 8 },
          approvals: { mode: "smart" },
          toolsets: ["hermes-cli", "web"]
        }))
        expect(yield* config.revision).toBe(3)
      })))

    it.effect("remove, and remove of an absent key is a no-op", () =>
      h.run(Effect.gen(function*() {
        const config = yield* Config
        yield* config.set(["tools", "max_parallel"], 2)
        yield* config.set(["tools", "call_timeout_seconds"], 5)
        yield* config.remove(["tools", "max_parallel"])
        yield* config.remove(["nope", "deeper"])
        yield* config.remove(["tools", "absent"])
        expect(yield* config.current).toEqual(resolveConfig({ tools: { call_timeout_seconds: 5 } }))
        expect(yield* config.revision).toBe(5)
      })))

    it.effect("a value that makes the config invalid is refused", () =>
      h.run(Effect.gen(function*() {
        const config = yield* Config
        yield* config.set(["tools", "max_parallel"], 4)
        const error = yield* failure(config.set(["tools", "max_parallel"], "lots"))
        expect(error).toBeInstanceOf(ConfigError)
        expect(error.key).toBe("tools.max_parallel")
        expect(error.message).toBe(`Expected number, actual "lots"`)
        expect(error.file).toBe(config.home.configFile)
        const nested = yield* failure(config.set(["plugins", "entries", "x", "allow_tool_override"], "yes"))
        expect(nested.key).toBe("plugins.entries.x.allow_tool_override")
        // A scalar parent cannot hold a key; an empty path would replace the whole document.
        const underScalar = yield* failure(config.set(["tools", "max_parallel", "deeper"], 1))
        expect(underScalar.key).toBe("tools.max_parallel.deeper")
        yield* failure(config.set([], {}))
        expect(yield* config.current).toEqual(resolveConfig({ tools: { max_parallel: 4 } }))
        expect(yield* config.revision).toBe(1)
      })))

    it.effect("20 concurrent sets to different keys all land", () =>
      h.run(Effect.gen(function*() {
        const config = yield* Config
        yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i),
          (i) => config.set(["bulk", `k${i}`], i),
          { concurrency: "unbounded", discard: true }
        )
        const expected = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]))
        expect((yield* config.current)["bulk"]).toEqual(expected)
        expect(yield* config.revision).toBe(20)
      })))
  })
}

// ---------------------------------------------------------------------------
// ConfigLive: files on disk.
// ---------------------------------------------------------------------------

describe("resolveHome", () => {
  it("lays out the home", () => {
    expect(resolveHome("/srv/h")).toEqual({
      root: "/srv/h",
      configFile: "/srv/h/config.yaml",
      database: "/srv/h/state.db",
      skillsDir: "/srv/h/skills",
      pluginsDir: "/srv/h/plugins",
      logsDir: "/srv/h/logs",
      workspaceDir: "/srv/h/workspace"
    })
    expect(resolveHome("~/x").root).toBe(NodePath.join(homedir(), "x"))
  })

  it("uses HERMES_EFFECT_HOME, else ~/.hermes-effect", () => {
    const saved = process.env["HERMES_EFFECT_HOME"]
    try {
      process.env["HERMES_EFFECT_HOME"] = "/from/env"
      expect(resolveHome().root).toBe("/from/env")
      delete process.env["HERMES_EFFECT_HOME"]
      expect(resolveHome().root).toBe(NodePath.join(homedir(), ".hermes-effect"))
    } finally {
      if (saved === undefined) delete process.env["HERMES_EFFECT_HOME"]
      else process.env["HERMES_EFFECT_HOME"] = saved
    }
  })
})

describe("ConfigLive reading", () => {
  it.effect("a missing file means defaults and is not created", () =>
    withLive(Effect.gen(function*() {
      const config = yield* Config
      const fs = yield* FileSystem.FileSystem
      expect(yield* config.current).toEqual(resolveConfig({}))
      expect(yield* config.reload).toEqual(resolveConfig({}))
      expect(yield* fs.exists(config.home.configFile)).toBe(false)
      expect(yield* fs.exists(config.home.root)).toBe(false)
    })))

  it.scoped("empty and comment-only files are the empty config", () =>
    Effect.gen(function*() {
      const home = yield* tempHome
      yield* writeHome(home.root, "")
      expect(yield* loadConfigFile(home.configFile)).toEqual(resolveConfig({}))
      yield* writeHome(home.root, "# nothing here yet\n")
      expect(yield* loadConfigFile(home.configFile)).toEqual(resolveConfig({}))
      expect(yield* loadConfigFile(NodePath.join(home.root, "missing.yaml"))).toEqual(resolveConfig({}))
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("known keys are decoded and unknown keys are kept, nested too", () =>
    withLive(
      Effect.gen(function*() {
        const config = yield* Config
        expect(yield* config.current).toEqual(resolveConfig({
          toolsets: ["a"],
          future_feature: { nested: { deep: [1, 2] } },
          tools: { max_parallel: 2, experimental_knob: true },
          plugins: { entries: { foo: { allow_tool_override: true, custom: { x: 1 } } } },
          terminal: { backend: "local" }
        }))
      }),
      [
        "toolsets: [a]",
        "future_feature:",
        "  nested: { deep: [1, 2] }",
        "tools:",
        "  max_parallel: 2",
        "  experimental_knob: true",
        "plugins:",
        "  entries:",
        "    foo:",
        "      allow_tool_override: true",
        "      custom: { x: 1 }",
        "terminal:",
        "  backend: local",
        ""
      ].join("\n")
    ))

  const loadError = (text: string) =>
    Effect.gen(function*() {
      const home = yield* tempHome
      yield* writeHome(home.root, text)
      const viaLoad = yield* failure(loadConfigFile(home.configFile))
      // Building the layer over a bad file fails with the same error.
      const viaLayer = yield* failure(Effect.provide(Config, ConfigLive({ home: home.root })))
      expect(viaLayer).toEqual(viaLoad)
      expect(viaLoad.file).toBe(home.configFile)
      return viaLoad
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer))

  it.effect("YAML syntax error names file and line", () =>
    Effect.gen(function*() {
      const indent = yield* loadError("tools:\n  max_parallel: 3\n bad: x\n")
      expect(indent.line).toBe(3)
      expect(indent.key).toBe("bad")
      expect(indent.message).toBe("All mapping items must start at the same column")
      expect(indent.oneLine).toBe(`${indent.file}:3: bad: All mapping items must start at the same column`)

      const duplicate = yield* loadError("# c\ntools:\n  max_parallel: 1\n  max_parallel: 2\n")
      expect(duplicate.line).toBe(4)
      expect(duplicate.key).toBe("tools.max_parallel")
      expect(duplicate.message).toBe("Map keys must be unique")

      const quote = yield* loadError("a: 1\nb: \"open\n")
      expect(quote.line).toBe(3)
      expect(quote.key).toBe("b")
    }))

  it.effect("schema error names file, line and key", () =>
    Effect.gen(function*() {
      const scalar = yield* loadError("# comment\ntools:\n  call_timeout_seconds: 10\n  max_parallel: x\n")
      expect(scalar.line).toBe(4)
      expect(scalar.key).toBe("tools.max_parallel")
      expect(scalar.message).toBe(`Expected number, actual "x"`)
      expect(scalar.oneLine).toBe(`${scalar.file}:4: tools.max_parallel: Expected number, actual "x"`)

      const nested = yield* loadError("plugins:\n  entries:\n    foo:\n      allow_tool_override: \"yes\"\n")
      expect(nested.line).toBe(4)
      expect(nested.key).toBe("plugins.entries.foo.allow_tool_override")
      expect(nested.message).toBe(`Expected boolean, actual "yes"`)

      const item = yield* loadError("toolsets:\n  - a\n  - 3\n")
      expect(item.line).toBe(3)
      expect(item.key).toBe("toolsets[1]")

      const section = yield* loadError("a: 1\ntools: 5\n")
      expect(section.line).toBe(2)
      expect(section.key).toBe("tools")
      expect(section.message).toBe("Expected a mapping, actual 5")

      const root = yield* loadError("- a\n- b\n")
      expect(root.line).toBe(1)
      expect(root.key).toBeUndefined()
      expect(root.message).toBe(`Expected a mapping, actual ["a","b"]`)
    }))

  it.effect("an unknown terminal.backend is refused at load, naming the allowed backends", () =>
    Effect.gen(function*() {
      const typo = yield* loadError("# c\nterminal:\n  backend: dokcer\n")
      expect(typo.line).toBe(3)
      expect(typo.key).toBe("terminal.backend")
      expect(typo.message).toBe(`unknown terminal backend "dokcer"; allowed: local, sandbox, ssh, container, docker, podman`)
      const empty = yield* loadError("terminal:\n  backend: \"\"\n")
      expect(empty.message).toMatch(/^unknown terminal backend ""; allowed: local, sandbox, ssh, container/)
    }))

  it.effect("every known terminal.backend decodes (case and blanks ignored), and set refuses an unknown one", () =>
    withLive(Effect.gen(function*() {
      const config = yield* Config
      for (const name of ["local", "sandbox", "ssh", "container", "docker", "podman", " Local ", "SSH"]) {
        yield* config.set(["terminal", "backend"], name)
        // Readers get the name as the backend switch uses it; the file keeps what was written.
        expect((yield* config.current).terminal.backend).toBe(name.trim().toLowerCase())
      }
      const refused = yield* failure(config.set(["terminal", "backend"], "kubernetes"))
      expect(refused.message).toMatch(/^unknown terminal backend "kubernetes"; allowed: local, sandbox, ssh, container/)
      expect((yield* config.current).terminal.backend).toBe("ssh")
      expect(parse(yield* readConfigText)).toEqual({ terminal: { backend: "SSH" } })
    })))

  it.effect("reload picks up an outside edit; a bad file fails and keeps the previous config", () =>
    withLive(
      Effect.gen(function*() {
        const config = yield* Config
        const fs = yield* FileSystem.FileSystem
        yield* fs.writeFileString(config.home.configFile, "tools:\n  max_parallel: 2\n")
        expect(yield* config.reload).toEqual(resolveConfig({ tools: { max_parallel: 2 } }))
        expect(yield* config.revision).toBe(1)
        yield* fs.writeFileString(config.home.configFile, "tools: [\n")
        const error = yield* failure(config.reload)
        expect(error.line).toBeDefined()
        expect(yield* config.current).toEqual(resolveConfig({ tools: { max_parallel: 2 } }))
        expect(yield* config.revision).toBe(1)
      }),
      "tools:\n  max_parallel: 1\n"
    ))
})

describe("ConfigLive writing", () => {
  const original = [
    "# Hermes config",
    "toolsets: [hermes-cli, web]   # flow style kept",
    "",
    "tools:",
    "  # per call, seconds",
    "  call_timeout_seconds: 30",
    "  max_parallel: 4 # trailing comment",
    "",
    "unknown_section:",
    "  keep: 'me'",
    ""
  ].join("\n")

  it.effect("set keeps comments and formatting", () =>
    withLive(
      Effect.gen(function*() {
        const config = yield* Config
        yield* config.set(["tools", "max_parallel"], 8)
        yield* config.set(["approvals", "mode"], "smart")
        expect(yield* readConfigText).toBe([
          "# Hermes config",
          "toolsets: [ hermes-cli, web ] # flow style kept",
          "",
          "tools:",
          "  # per call, seconds",
          "  call_timeout_seconds: 30",
          "  max_parallel: 8 # trailing comment",
          "",
          "unknown_section:",
          "  keep: 'me'",
          "approvals:",
          "  mode: smart",
          ""
        ].join("\n"))
        expect((yield* config.current)["unknown_section"]).toEqual({ keep: "me" })
      }),
      original
    ))

  it.effect("remove keeps the rest of the file", () =>
    withLive(
      Effect.gen(function*() {
        const config = yield* Config
        yield* config.remove(["tools", "call_timeout_seconds"])
        yield* config.remove(["unknown_section"])
        expect(yield* readConfigText).toBe([
          "# Hermes config",
          "toolsets: [ hermes-cli, web ] # flow style kept",
          "",
          "tools:",
          // The yaml library attaches a comment above a map's first entry to the map, so it stays.
          "  # per call, seconds",
          "  max_parallel: 4 # trailing comment",
          ""
        ].join("\n"))
      }),
      original
    ))

  it.effect("the home dir is created on first write; no temp files are left", () =>
    withLive(Effect.gen(function*() {
      const config = yield* Config
      const fs = yield* FileSystem.FileSystem
      for (let i = 0; i < 5; i++) yield* config.set(["tools", "max_parallel"], i)
      yield* config.remove(["tools", "max_parallel"])
      expect(yield* fs.readDirectory(config.home.root)).toEqual(["config.yaml"])
      expect(yield* readConfigText).toBe("tools: {}\n")
    })))

  it.effect("an absent-key remove on a missing file does not create it", () =>
    withLive(Effect.gen(function*() {
      const config = yield* Config
      const fs = yield* FileSystem.FileSystem
      yield* config.remove(["tools", "max_parallel"])
      expect(yield* fs.exists(config.home.root)).toBe(false)
    })))

  it.effect("set and remove on a malformed file fail and leave it byte-identical", () =>
    withLive(
      Effect.gen(function*() {
        const config = yield* Config
        const fs = yield* FileSystem.FileSystem
        const bad = "# keep me\ntools:\n  max_parallel: x   # oops\n"
        yield* fs.writeFileString(config.home.configFile, bad)
        const setError = yield* failure(config.set(["tools", "max_parallel"], 3))
        expect(setError.line).toBe(3)
        expect(setError.key).toBe("tools.max_parallel")
        yield* failure(config.remove(["tools", "max_parallel"]))
        expect(yield* readConfigText).toBe(bad)

        const broken = "tools:\n  max_parallel: [1,\n"
        yield* fs.writeFileString(config.home.configFile, broken)
        yield* failure(config.set(["approvals", "mode"], "off"))
        expect(yield* readConfigText).toBe(broken)
        expect(yield* fs.readDirectory(config.home.root)).toEqual(["config.yaml"])
        expect(yield* config.current).toEqual(resolveConfig({ tools: { max_parallel: 1 } }))
        expect(yield* config.revision).toBe(0)
      }),
      "tools:\n  max_parallel: 1\n"
    ))

  it.effect("a refused value writes nothing", () =>
    withLive(
      Effect.gen(function*() {
        const config = yield* Config
        const error = yield* failure(config.set(["tools", "max_parallel"], "x"))
        expect(error.key).toBe("tools.max_parallel")
        expect(yield* readConfigText).toBe(original)
      }),
      original
    ))

  it.effect("set re-reads the file, so an outside edit is not lost", () =>
    withLive(
      Effect.gen(function*() {
        const config = yield* Config
        const fs = yield* FileSystem.FileSystem
        yield* fs.writeFileString(config.home.configFile, "# edited by hand\ntools:\n  max_parallel: 9\n")
        yield* config.set(["approvals", "timeout_seconds"], 60)
        expect(yield* readConfigText).toBe(
          "# edited by hand\ntools:\n  max_parallel: 9\napprovals:\n  timeout_seconds: 60\n"
        )
        expect(yield* config.current).toEqual(resolveConfig({ tools: { max_parallel: 9 }, approvals: { timeout_seconds: 60 } }))
      }),
      "tools:\n  max_parallel: 1\n"
    ))

  it.effect("writes keep the file's permissions", () =>
    withLive(
      Effect.gen(function*() {
        const config = yield* Config
        const fs = yield* FileSystem.FileSystem
        yield* fs.chmod(config.home.configFile, 0o600)
        yield* config.set(["tools", "max_parallel"], 2)
        expect((yield* fs.stat(config.home.configFile)).mode & 0o777).toBe(0o600)
      }),
      "tools:\n  max_parallel: 1\n"
    ))

  it.effect("concurrent sets all land in the file", () =>
    withLive(Effect.gen(function*() {
      const config = yield* Config
      const fs = yield* FileSystem.FileSystem
      yield* Effect.forEach(
        Array.from({ length: 20 }, (_, i) => i),
        (i) => config.set(["bulk", `k${i}`], i),
        { concurrency: "unbounded", discard: true }
      )
      const onDisk: unknown = parse(yield* readConfigText)
      expect(onDisk).toEqual({ bulk: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])) })
      expect(yield* fs.readDirectory(config.home.root)).toEqual(["config.yaml"])
    })))
})

describe("ConfigTest", () => {
  it.effect("takes an initial config and home overrides", () =>
    Effect.gen(function*() {
      const config = yield* Config
      expect(yield* config.current).toEqual(resolveConfig({ tools: { max_parallel: 3 } }))
      expect(config.home.root).toBe("/nowhere")
      expect(config.home.workspaceDir).toBe("/nowhere/ws")
      expect(config.home.configFile).toBe("/nowhere/config.yaml")
      yield* config.set(["tools", "call_timeout_seconds"], 1)
      expect(yield* config.current).toEqual(resolveConfig({ tools: { max_parallel: 3, call_timeout_seconds: 1 } }))
      expect(yield* config.reload).toEqual(resolveConfig({ tools: { max_parallel: 3, call_timeout_seconds: 1 } }))
      expect(yield* config.revision).toBe(2)
    }).pipe(Effect.provide(ConfigTest({ tools: { max_parallel: 3 } }, { root: "/nowhere", workspaceDir: "/nowhere/ws" }))))
})
