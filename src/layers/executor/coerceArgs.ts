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

/** Coerce one string against a schema node; returns the input when nothing applies. */
export const coerceString = (text: string, node: SchemaNode): unknown => {
  if (isNullable(node) && text.trim().toLowerCase() === "null") return null
  for (const type of declaredTypes(node)) {
    const result = coerceAs(text, type, node)
    if (result !== NO_CHANGE) return result
  }
  return text
}

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

/** Coerce the top-level arguments of a call against the tool's parameters schema. */
export const coerceArgs = (schema: JsonSchema, args: Record<string, unknown>): Record<string, unknown> => {
  const props = schema["properties"]
  if (!isRecord(props)) return args
  let out: Record<string, unknown> | undefined
  for (const [key, value] of Object.entries(args)) {
    const prop = props[key]
    if (!isRecord(prop)) continue
    let next: unknown = value
    if (accepts(prop, "array") && !Array.isArray(value) && value !== null && value !== undefined) {
      const coerced = typeof value === "string" ? coerceString(value, prop) : value
      next = Array.isArray(coerced) || coerced === null ? coerced : [value]
    } else if (typeof value === "string") {
      next = declaredTypes(prop).length > 0 || isNullable(prop) ? coerceString(value, prop) : value
    } else if (value !== null && typeof value === "object") {
      next = normalizeJsonStrings(value, prop)
    }
    if (next !== value) (out ??= { ...args })[key] = next
  }
  return out ?? args
}
