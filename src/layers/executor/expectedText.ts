/**
 * Words for an argument error: what a parameter accepts, read off the JSON
 * schema the model was given ("an integer ≥ 1", `one of "a", "b"`), and what
 * the model sent. Never the parameter's description (that is what effect's
 * own message prints for an annotated refinement).
 */
import type * as AST from "effect/SchemaAST"
import { fragmentOf } from "../../lib/tool/lenient.js"
import type { Json } from "../../services/Tool.js"

type Node = { readonly [key: string]: Json }

const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value)

const literal = (value: Json): string => JSON.stringify(value)

const TYPE_WORDS: Record<string, readonly [string, string]> = {
  integer: ["an integer", "integers"],
  number: ["a number", "numbers"],
  string: ["a string", "strings"],
  boolean: ["a boolean", "booleans"],
  object: ["an object", "objects"],
  array: ["an array", "arrays"],
  null: ["null", "nulls"]
}

const bounds = (node: Node): string => {
  const min = node["minimum"]
  const max = node["maximum"]
  const parts: Array<string> = []
  if (typeof min === "number") parts.push(`≥ ${min}`)
  if (typeof node["exclusiveMinimum"] === "number") parts.push(`> ${node["exclusiveMinimum"]}`)
  if (typeof max === "number") parts.push(`≤ ${max}`)
  if (typeof node["exclusiveMaximum"] === "number") parts.push(`< ${node["exclusiveMaximum"]}`)
  return parts.length === 0 ? "" : ` ${parts.join(" and ")}`
}

const enumValues = (node: Node): ReadonlyArray<Json> | undefined => {
  if (Array.isArray(node["enum"])) return node["enum"] as ReadonlyArray<Json>
  if ("const" in node) return [node["const"]!]
  return undefined
}

const describeNode = (node: Json, plural = false): string => {
  if (!isNode(node)) return "a value"
  const values = enumValues(node)
  if (values !== undefined) return values.length === 1 ? literal(values[0]!) : `one of ${values.map(literal).join(", ")}`
  const anyOf = node["anyOf"] ?? node["oneOf"]
  if (Array.isArray(anyOf)) return describeAll(anyOf)
  const type = node["type"]
  if (typeof type !== "string") return plural ? "values" : "a value"
  const words = TYPE_WORDS[type]
  let text = words === undefined ? type : words[plural ? 1 : 0]
  if (type === "string" && node["minLength"] === 1) text = plural ? "non-empty strings" : "a non-empty string"
  if (type === "array") {
    const items = node["items"]
    if (isNode(items) && (typeof items["type"] === "string" || enumValues(items) !== undefined)) text += ` of ${describeNode(items, true)}`
    if (typeof node["maxItems"] === "number") text += ` (at most ${node["maxItems"]} items)`
  }
  return text + bounds(node)
}

/** Several accepted shapes in one phrase; literals merge into one `one of` list. */
const describeAll = (nodes: ReadonlyArray<Json>): string => {
  const literals: Array<Json> = []
  const others: Array<string> = []
  for (const node of nodes) {
    const values = isNode(node) ? enumValues(node) : undefined
    if (values !== undefined) literals.push(...values)
    else {
      const text = describeNode(node)
      if (!others.includes(text)) others.push(text)
    }
  }
  const parts = literals.length === 0 ? [] : [literals.length === 1 ? literal(literals[0]!) : `one of ${literals.map(literal).join(", ")}`]
  return [...parts, ...others].join(" or ")
}

const schemaOf = (ast: AST.AST): Json | undefined => {
  try {
    return fragmentOf(ast)
  } catch {
    return undefined
  }
}

/** What the schema at `asts` accepts, in a few words. */
export const expectedText = (...asts: ReadonlyArray<AST.AST>): string => {
  const nodes: Array<Json> = []
  for (const ast of asts) {
    const node = schemaOf(ast)
    // No JSON schema for it: fall back to effect's own rendering of the type.
    nodes.push(node === undefined || (isNode(node) && Object.keys(node).length === 0) ? { type: String(ast) } : node)
  }
  return describeAll(nodes)
}

/** What the model sent, as JSON where it is JSON. */
export const actualText = (value: unknown): string => {
  if (value === undefined) return "nothing"
  try {
    const text = JSON.stringify(value)
    if (text !== undefined) return text.length > 200 ? `${text.slice(0, 200)}…` : text
  } catch {
    // fall through
  }
  return String(value)
}
