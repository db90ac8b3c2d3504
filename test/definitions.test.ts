/**
 * What the model is given: one sanitising pass over every definition (built-in,
 * plugin, MCP), and the shared tools' parameters compared with Hermes' own
 * definitions (test/fixtures/hermes-definitions.json).
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Schema } from "effect"
import { defineTool } from "../src/lib/tool/defineTool.js"
import { eraseTool } from "../src/lib/tool/registerTool.js"
import { sanitizeParameters } from "../src/lib/tool/sanitizeSchema.js"
import type { Json, JsonSchema } from "../src/services/Tool.js"
import { ToolRegistry } from "../src/services/ToolRegistry.js"
import { runCli } from "./support/cli.js"
import { tempHome, testRuntime } from "./support/runtime.js"

type Node = { readonly [key: string]: Json }

const fixture = JSON.parse(readFileSync(new URL("./fixtures/hermes-definitions.json", import.meta.url), "utf8")) as {
  readonly tools: Readonly<Record<string, Node>>
}

/** Keywords a clean definition may carry. */
const ALLOWED = new Set([
  "type", "description", "enum", "default", "minimum", "maximum", "properties", "required", "items", "maxItems", "additionalProperties"
])

/** Every schema node of a definition, with where it sits. */
const schemaNodes = (node: Json, at = ""): Array<readonly [string, Node]> => {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return []
  const self = node as Node
  const out: Array<readonly [string, Node]> = [[at, self]]
  const props = self["properties"]
  if (props !== null && typeof props === "object" && !Array.isArray(props)) {
    for (const [name, prop] of Object.entries(props)) out.push(...schemaNodes(prop, `${at}.${name}`))
  }
  if (self["items"] !== undefined) out.push(...schemaNodes(self["items"], `${at}[]`))
  return out
}

const withoutDescriptions = (node: Json): Json => {
  if (Array.isArray(node)) return node.map(withoutDescriptions)
  if (node === null || typeof node !== "object") return node
  const out: Record<string, Json> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === "description") continue
    out[key] = key === "required" && Array.isArray(value) ? [...(value as ReadonlyArray<string>)].sort() : withoutDescriptions(value)
  }
  return out
}

/** Remove a parameter by dotted path (`tasks.items.acp_args`). */
const dropPath = (schema: Json, path: string): Json => {
  const [head, ...rest] = path.split(".")
  if (schema === null || typeof schema !== "object" || Array.isArray(schema) || head === undefined) return schema
  const node = schema as Node
  if (rest.length === 0) {
    const props = { ...(node["properties"] as Node) }
    delete props[head]
    const required = Array.isArray(node["required"]) ? (node["required"] as ReadonlyArray<string>).filter((r) => r !== head) : undefined
    const { required: _r, ...others } = node
    return { ...others, properties: props, ...(required === undefined || required.length === 0 ? {} : { required }) }
  }
  if (head === "items") return { ...node, items: dropPath(node["items"]!, rest.join(".")) }
  const props = node["properties"] as Node
  return { ...node, properties: { ...props, [head]: dropPath(props[head]!, rest.join(".")) } }
}

/**
 * Deliberate differences from Hermes' definitions (also listed in docs/compatibility.md):
 * the parameter is left out on both sides before comparing.
 */
const DELIBERATE: Readonly<Record<string, ReadonlyArray<{ readonly path: string; readonly reason: string }>>> = {
  delegate_task: [
    { path: "acp_command", reason: "no ACP subprocess transport: children are always hermes-effect agents" },
    { path: "acp_args", reason: "no ACP subprocess transport" },
    { path: "tasks.items.acp_command", reason: "no ACP subprocess transport" },
    { path: "tasks.items.acp_args", reason: "no ACP subprocess transport" }
  ]
}

describe("sanitizeParameters", () => {
  it("drops effect's annotations, inlines $defs and flattens nullable unions", () => {
    const raw = {
      $schema: "http://json-schema.org/draft-07/schema#",
      $defs: { Int: { type: "integer", title: "int", description: "an integer" } },
      type: "object",
      required: ["count"],
      properties: {
        count: { $ref: "#/$defs/Int", title: "greaterThanOrEqualTo(1)", minimum: 1, description: "How many" },
        target: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }], description: "Which" },
        either: { type: ["string", "null"] },
        many: { type: ["string", "number"] },
        free: { type: "object" },
        tags: { type: "array", items: { anyOf: [{ type: "string" }, { type: "null" }] } }
      },
      additionalProperties: true
    } satisfies JsonSchema
    expect(sanitizeParameters(raw)).toEqual({
      type: "object",
      required: ["count"],
      properties: {
        count: { type: "integer", description: "How many", minimum: 1 },
        target: { type: "string", enum: ["a", "b"], description: "Which" },
        either: { type: "string" },
        many: { anyOf: [{ type: "string" }, { type: "number" }] },
        free: { type: "object", properties: {} },
        tags: { type: "array", items: { type: "string" } }
      }
    })
  })

  it("omits an empty or stale required list and strips top-level combinators", () => {
    expect(sanitizeParameters({ type: "object", properties: { a: { type: "string" } }, required: [] })).toEqual({
      type: "object",
      properties: { a: { type: "string" } }
    })
    expect(sanitizeParameters({ properties: { a: "string" }, required: ["a", "gone"], anyOf: [{ required: ["a"] }] })).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"]
    })
    expect(sanitizeParameters(undefined)).toEqual({ type: "object", properties: {} })
  })

  it("stops a recursive definition instead of looping", () => {
    const raw = {
      type: "object",
      properties: { tree: { $ref: "#/definitions/Node" } },
      definitions: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/definitions/Node" } } } } }
    } satisfies JsonSchema
    expect(sanitizeParameters(raw)).toEqual({
      type: "object",
      properties: { tree: { type: "object", properties: { children: { type: "array", items: { type: "object", properties: {} } } } } }
    })
  })
})

describe("one pass for every source", () => {
  const probe = defineTool({
    name: "mcp__demo__probe",
    toolset: "mcp-demo",
    description: "probe",
    parameters: Schema.Struct({ q: Schema.String }),
    handler: () => Effect.succeed("ok")
  })

  it.effect("an MCP server's or plugin's raw schema reaches the model sanitised; the registered schema is left as it was", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const raw: JsonSchema = {
        type: "object",
        title: "ProbeArgs",
        properties: {
          q: { type: "string", title: "Q" },
          limit: { anyOf: [{ type: "integer" }, { type: "null" }], default: null, title: "Limit" },
          opts: { $ref: "#/$defs/Opts" }
        },
        required: ["q"],
        $defs: { Opts: { type: "object", title: "Opts", properties: { deep: { type: "boolean" } } } }
      }
      yield* registry.register({ ...eraseTool(probe, Context.empty()), jsonSchema: raw, source: { kind: "mcp", server: "demo" } })
      const defs = yield* registry.definitions({ enabled: ["mcp-demo"] })
      expect(defs[0]?.function.parameters).toEqual({
        type: "object",
        properties: {
          q: { type: "string" },
          limit: { type: "integer", default: null },
          opts: { type: "object", properties: { deep: { type: "boolean" } } }
        },
        required: ["q"]
      })
      // Argument coercion still reads the server's own schema.
      expect(registry.get("mcp__demo__probe")?.jsonSchema).toBe(raw)
    }).pipe(Effect.provide(testRuntime({}, { mcp: false }))))

  it.effect("dynamic schema overrides go through the same pass", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const dynamic = defineTool({
        name: "shifty",
        toolset: "testing",
        description: "d",
        parameters: Schema.Struct({}),
        dynamicSchema: Effect.succeed({ parameters: { type: "object", properties: { x: { anyOf: [{ type: "string" }, { type: "null" }] } }, required: [] } }),
        handler: () => Effect.succeed("ok")
      })
      yield* registry.register(eraseTool(dynamic, Context.empty()))
      const defs = yield* registry.definitions({ enabled: ["testing"] })
      expect(defs.find((d) => d.function.name === "shifty")?.function.parameters).toEqual({ type: "object", properties: { x: { type: "string" } } })
    }).pipe(Effect.provide(testRuntime({}, { mcp: false }))))
})

describe("tools list --json (the built CLI)", () => {
  const listed = () => {
    const r = runCli(["tools", "list", "--json"], { home: tempHome("hermes-defs-cli-") })
    expect(r.code).toBe(0)
    return JSON.parse(r.stdout) as ReadonlyArray<{ readonly function: { readonly name: string; readonly parameters: Node } }>
  }
  const defs = listed()
  const byName = new Map(defs.map((d) => [d.function.name, d.function.parameters]))

  it("every definition is clean JSON Schema: no titles, $schema, $defs/$ref, anyOf with null, empty required", () => {
    expect(defs.length).toBeGreaterThanOrEqual(14)
    for (const def of defs) {
      for (const [at, node] of schemaNodes(def.function.parameters)) {
        const where = `${def.function.name}${at}`
        expect(Object.keys(node).filter((k) => !ALLOWED.has(k)), where).toEqual([])
        if ("required" in node) expect((node["required"] as ReadonlyArray<string>).length, where).toBeGreaterThan(0)
        expect(typeof node["type"], where).toBe("string")
      }
    }
  })

  for (const [name, hermes] of Object.entries(fixture.tools)) {
    it(`${name}: parameters match Hermes' (names, types, required, enums, defaults, bounds)`, () => {
      const ours = byName.get(name)
      expect(ours, `${name} is listed`).toBeDefined()
      let mine: Json = withoutDescriptions(ours!)
      let theirs: Json = withoutDescriptions(hermes)
      for (const { path } of DELIBERATE[name] ?? []) {
        mine = dropPath(mine, path)
        theirs = dropPath(theirs, path)
      }
      expect(mine).toEqual(theirs)
    })
  }

  it("the descriptions carry Hermes' usage rules", () => {
    const description = (n: string) => defs.find((d) => d.function.name === n) as unknown as { function: { description: string } }
    const terminal = description("terminal").function.description
    for (const word of ["read_file", "search_files", "patch", "write_file", "cat", "grep", "sed", "awk", "echo", "background=true", "'&'", "nohup", "pty=true", "Pagers"]) {
      expect(terminal).toContain(word)
    }
    expect(description("write_file").function.description).toMatch(/\.json, \.yaml\/\.yml and \.toml/)
    expect(description("write_file").function.description).toMatch(/\.py/)
  })
})
