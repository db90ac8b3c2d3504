/**
 * Hermes-compatible argument coercion. Models often send "42" for an integer,
 * "true" for a boolean, or a JSON string for an array; we repair those against
 * the tool's JSON schema before decoding, and leave anything we cannot repair
 * for the decoder to report precisely.
 */
import type { JsonSchema } from "../../services/Tool.js"
import { JsonTooDeep, parseJsonBounded } from "../../lib/jsonDepth.js"

type SchemaNode = { readonly [key: string]: unknown }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value)

const branches = (node: SchemaNode): ReadonlyArray<SchemaNode> => {
  const out: Array<SchemaNode> = []
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const list = node[key]
    if (Array.isArray(list)) for (const b of list) if (isRecord(b)) out.push(b)
  }
  return out
}

/** Declared types in order: `type` (string or list), then those of anyOf/oneOf/allOf branches. */
const declaredTypes = (node: SchemaNode): ReadonlyArray<string> => {
  const t = node["type"]
  const own = typeof t === "string" ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : []
  const nested = branches(node).flatMap(declaredTypes)
  return nested.length === 0 ? own : [...own, ...nested]
}

const accepts = (node: SchemaNode, type: string): boolean => declaredTypes(node).includes(type)

const isNullable = (node: SchemaNode): boolean => node["nullable"] === true || accepts(node, "null")

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

/** Not JSON: `ok: false`. JSON nested over the limit throws `JsonTooDeep` for dispatch to report. */
const parseJson = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: parseJsonBounded(text) }
  } catch (e) {
    if (e instanceof JsonTooDeep) throw e
    return { ok: false }
  }
}

const NO_CHANGE = Symbol("no-change")

const coerceAs = (text: string, type: string, node: SchemaNode): unknown => {
  const trimmed = text.trim()
  switch (type) {
    case "integer":
    case "number": {
      if (!NUMBER.test(trimmed)) return NO_CHANGE
      const n = Number(trimmed)
      if (!Number.isFinite(n)) return NO_CHANGE
      if (type === "integer" && !Number.isInteger(n)) return NO_CHANGE
      return n
    }
    case "boolean": {
      const lower = trimmed.toLowerCase()
      return lower === "true" ? true : lower === "false" ? false : NO_CHANGE
    }
    case "array":
    case "object": {
      const parsed = parseJson(trimmed)
      if (!parsed.ok) return NO_CHANGE
      const ok = type === "array" ? Array.isArray(parsed.value) : isRecord(parsed.value)
      return ok ? normalizeJsonStrings(parsed.value, node) : NO_CHANGE
    }
    default:
      return NO_CHANGE
  }
}

/** The declared types a string can be coerced to (coerceAs changes nothing for the others). */
const COERCIBLE = new Set(["integer", "number", "boolean", "array", "object"])

/** Coerce one string to the first of `types` it fits, or null for a nullable "null"; the input when nothing applies. */
const coerceStringAs = (text: string, types: ReadonlyArray<string>, nullable: boolean, node: SchemaNode): unknown => {
  if (nullable && text.trim().toLowerCase() === "null") return null
  for (const type of types) {
    const result = coerceAs(text, type, node)
    if (result !== NO_CHANGE) return result
  }
  return text
}

/** Coerce one string against a schema node; returns the input when nothing applies. */
export const coerceString = (text: string, node: SchemaNode): unknown =>
  coerceStringAs(text, declaredTypes(node).filter((t) => COERCIBLE.has(t)), isNullable(node), node)

const itemsOf = (node: SchemaNode): SchemaNode | undefined => {
  const items = node["items"]
  if (isRecord(items)) return items
  for (const b of branches(node)) {
    const inner = itemsOf(b)
    if (inner) return inner
  }
  return undefined
}

const propertyOf = (node: SchemaNode, key: string): SchemaNode | undefined => {
  const props = node["properties"]
  if (isRecord(props) && isRecord(props[key])) return props[key] as SchemaNode
  for (const b of branches(node)) {
    const inner = propertyOf(b, key)
    if (inner) return inner
  }
  return undefined
}

/**
 * Walk arrays and objects; a string sitting where the schema wants an array
 * or object and that looks like JSON is parsed. Unchanged values keep identity.
 */
export const normalizeJsonStrings = (value: unknown, node: SchemaNode): unknown => {
  if (typeof value === "string") {
    const head = value.trimStart()[0]
    const wantsContainer = (head === "[" && accepts(node, "array")) || (head === "{" && accepts(node, "object"))
    if (!wantsContainer) return value
    const parsed = parseJson(value)
    if (!parsed.ok) return value
    const fits = head === "[" ? Array.isArray(parsed.value) : isRecord(parsed.value)
    return fits ? normalizeJsonStrings(parsed.value, node) : value
  }
  if (Array.isArray(value)) {
    const items = itemsOf(node)
    if (!items) return value
    let changed = false
    const out = value.map((v) => {
      const n = normalizeJsonStrings(v, items)
      if (n !== v) changed = true
      return n
    })
    return changed ? out : value
  }
  if (isRecord(value)) {
    let out: Record<string, unknown> | undefined
    for (const [key, v] of Object.entries(value)) {
      const prop = propertyOf(node, key)
      if (!prop) continue
      const n = normalizeJsonStrings(v, prop)
      if (n !== v) (out ??= { ...value })[key] = n
    }
    return out ?? value
  }
  return value
}

/** What coercion does to one top-level parameter, read off its schema once per tool. */
interface ParameterPlan {
  readonly node: SchemaNode
  readonly acceptsArray: boolean
  /** Declared types a string may be coerced to, in order. */
  readonly stringTypes: ReadonlyArray<string>
  readonly nullable: boolean
  /** Whether a string value is coerced at all (any declared type, or nullable). */
  readonly coercesStrings: boolean
}

type CoercionPlan = ReadonlyMap<string, ParameterPlan>

const planParameter = (node: SchemaNode): ParameterPlan => {
  const types = declaredTypes(node)
  const nullable = isNullable(node)
  return {
    node,
    acceptsArray: types.includes("array"),
    stringTypes: types.filter((t) => COERCIBLE.has(t)),
    nullable,
    coercesStrings: types.length > 0 || nullable
  }
}

/** Plans per parameters schema: a tool's schema object lives as long as the tool, so each is compiled once. */
const plans = new WeakMap<JsonSchema, CoercionPlan>()

const NO_PLAN: CoercionPlan = new Map()

export const coercionPlanOf = (schema: JsonSchema): CoercionPlan => {
  let plan = plans.get(schema)
  if (plan === undefined) {
    const props = schema["properties"]
    if (isRecord(props)) {
      const byName = new Map<string, ParameterPlan>()
      for (const key of Object.keys(props)) {
        const prop = props[key]
        if (isRecord(prop)) byName.set(key, planParameter(prop))
      }
      plan = byName
    } else {
      plan = NO_PLAN
    }
    plans.set(schema, plan)
  }
  return plan
}

const coerceParameter = (plan: ParameterPlan, value: unknown): unknown => {
  if (plan.acceptsArray && !Array.isArray(value) && value !== null && value !== undefined) {
    const coerced = typeof value === "string" ? coerceStringAs(value, plan.stringTypes, plan.nullable, plan.node) : value
    return Array.isArray(coerced) || coerced === null ? coerced : [value]
  }
  if (typeof value === "string") return plan.coercesStrings ? coerceStringAs(value, plan.stringTypes, plan.nullable, plan.node) : value
  if (value !== null && typeof value === "object") return normalizeJsonStrings(value, plan.node)
  return value
}

/** Coerce the top-level arguments of a call against the tool's parameters schema. */
export const coerceArgs = (schema: JsonSchema, args: Record<string, unknown>): Record<string, unknown> => {
  const plan = coercionPlanOf(schema)
  if (plan.size === 0) return args
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(args)) {
    const parameter = plan.get(key)
    if (parameter === undefined) continue
    const value = args[key]
    const next = coerceParameter(parameter, value)
    if (next !== value) (out ??= { ...args })[key] = next
  }
  return out ?? args
}
