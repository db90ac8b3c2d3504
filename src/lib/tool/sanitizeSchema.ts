/**
 * One sanitising pass for every tool definition the model sees (built-ins,
 * plugins', MCP servers'). Backends differ in what JSON Schema they accept:
 * llama.cpp grammars and Anthropic reject or mishandle `anyOf` with a null
 * branch, type lists, `$ref`, free-form objects; and effect/Schema adds
 * annotations (`title: "int"`, `$defs`) that only cost tokens. Hermes
 * normalises the same shapes before each request.
 */
import type { Json, JsonSchema } from "../../services/Tool.js"

type Node = { readonly [key: string]: Json }

const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value)

const TYPE_NAMES = new Set(["object", "string", "number", "integer", "boolean", "array", "null"])

/** Keywords whose value is a literal (kept as is). */
const LITERAL_KEYS = new Set([
  "type", "description", "enum", "const", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems", "required"
])

/** Everything else (`title`, `$schema`, `$id`, `$comment`, `examples`, `nullable`, `$defs` …) is dropped. */
const SCHEMA_KEYS = new Set(["properties", "items", "additionalProperties", "anyOf", "oneOf", "allOf"])

interface Context {
  readonly defs: Node
  readonly expanding: ReadonlySet<string>
}

const refTarget = (ref: string, ctx: Context): { readonly name: string; readonly node: Json } | undefined => {
  const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)
  if (m === null) return undefined
  const name = decodeURIComponent(m[1]!.replace(/~1/g, "/").replace(/~0/g, "~"))
  const node = ctx.defs[name]
  return node === undefined ? undefined : { name, node }
}

const isNullBranch = (value: Json): boolean => isNode(value) && value["type"] === "null"

/** Merge a collapsed branch into its parent: the parent's own words (description, default) win. */
const mergeInto = (branch: Node, outer: Record<string, Json>): Record<string, Json> => {
  const out: Record<string, Json> = { ...branch }
  for (const [key, value] of Object.entries(outer)) out[key] = value
  return out
}

const clean = (node: Json, ctx: Context): Json => {
  // A bare type name where a schema belongs (seen from MCP servers).
  if (typeof node === "string") return TYPE_NAMES.has(node) ? (node === "object" ? { type: "object", properties: {} } : { type: node }) : {}
  if (typeof node === "boolean") return node
  if (!isNode(node)) return {}

  const ref = node["$ref"]
  if (typeof ref === "string") {
    const target = refTarget(ref, ctx)
    const { $ref: _ref, ...siblings } = node
    if (target === undefined) return clean(siblings, ctx)
    if (ctx.expanding.has(target.name)) {
      // A recursive definition: stop with the bare type rather than loop.
      const type = isNode(target.node) ? target.node["type"] : undefined
      return clean({ ...(typeof type === "string" ? { type } : {}), ...siblings }, ctx)
    }
    const inner = clean(target.node, { defs: ctx.defs, expanding: new Set([...ctx.expanding, target.name]) })
    return isNode(inner) ? mergeInto(inner, clean(siblings, ctx) as Record<string, Json>) : inner
  }

  let out: Record<string, Json> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t): t is string => typeof t === "string" && t !== "null")
      if (types.length === 1) out["type"] = types[0]!
      else if (types.length > 1) out["anyOf"] = types.map((t) => ({ type: t }))
      else out["type"] = value.includes("null") ? "null" : "object"
    } else if (key === "properties" && isNode(value)) {
      const props: Record<string, Json> = {}
      for (const [name, prop] of Object.entries(value)) props[name] = clean(prop, ctx)
      out[key] = props
    } else if (key === "items") {
      out[key] = clean(value, ctx)
    } else if (key === "additionalProperties") {
      // `true` is the default and says nothing; `false` or a schema is kept.
      if (value !== true) out[key] = clean(value, ctx)
    } else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(value)) {
      out[key] = value.map((branch) => clean(branch, ctx))
    } else if (LITERAL_KEYS.has(key)) {
      out[key] = value
    } else if (SCHEMA_KEYS.has(key)) {
      out[key] = clean(value, ctx)
    }
  }

  // Optional values as `anyOf: [X, {type: null}]` become X (optionality is already in `required`).
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = out[key]
    if (!Array.isArray(branches)) continue
    const nonNull = branches.filter((b) => !isNullBranch(b))
    if (nonNull.length === branches.length) continue
    const { [key]: _dropped, ...rest } = out
    if (nonNull.length === 1 && isNode(nonNull[0])) out = mergeInto(nonNull[0], rest)
    else if (nonNull.length === 0) out = { ...rest, type: "null" }
    else out = { ...rest, [key]: nonNull }
  }
  const allOf = out["allOf"]
  if (Array.isArray(allOf) && allOf.length === 1 && isNode(allOf[0])) {
    const { allOf: _single, ...rest } = out
    out = mergeInto(allOf[0], rest)
  }

  if (out["type"] === "object") {
    // llama.cpp cannot constrain an object without properties.
    if (!isNode(out["properties"])) out["properties"] = {}
    const props = out["properties"] as Node
    const required = out["required"]
    if (Array.isArray(required)) {
      const known = required.filter((r): r is string => typeof r === "string" && r in props)
      if (known.length === 0) delete out["required"]
      else out["required"] = known
    }
  } else if ("required" in out && !isNode(out["properties"])) {
    delete out["required"]
  }
  return out
}

const TOP_LEVEL_FORBIDDEN = ["anyOf", "oneOf", "allOf", "enum", "not"] as const

/**
 * The parameters schema as the model should see it: `$ref`s inlined, null
 * branches and type lists flattened, annotations dropped, an object with
 * `properties` at the top, no empty `required`.
 */
export const sanitizeParameters = (schema: Json | undefined): JsonSchema => {
  if (!isNode(schema)) return { type: "object", properties: {} }
  const defs: Record<string, Json> = {}
  for (const key of ["definitions", "$defs"] as const) {
    const group = schema[key]
    if (isNode(group)) Object.assign(defs, group)
  }
  // Function parameters are always an object (Hermes forces it too), so `required` is checked against `properties`.
  const cleaned = clean({ ...schema, type: "object" }, { defs, expanding: new Set() })
  const top: Record<string, Json> = isNode(cleaned) ? { ...cleaned } : {}
  // Strict backends (OpenAI's Codex endpoint) reject combinators at the top level.
  for (const key of TOP_LEVEL_FORBIDDEN) delete top[key]
  top["type"] = "object"
  if (!isNode(top["properties"])) top["properties"] = {}
  return top as JsonSchema
}

/** The same pass for a schema fragment (one parameter), used to describe what was expected. */
export const sanitizeFragment = (schema: Json, defs: Node = {}): Json => clean(schema, { defs, expanding: new Set() })
