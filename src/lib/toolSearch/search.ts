/**
 * What the bridge tools answer, as pure functions over the deferrable
 * definitions of the session. Matching is lexical: every word of a query must
 * start a word of the tool's name or description; name hits weigh more.
 */
import type { ToolDefinitionJson } from "../../services/Tool.js"
import type { ToolSearchConfig } from "./config.js"

/** Bounds on one bridge call (Hermes': 7 queries, 10 names). */
export const MAX_QUERIES_PER_CALL = 7
export const MAX_DESCRIBE_NAMES_PER_CALL = 10
const DESCRIPTION_CAP = 500

type Result = { readonly [key: string]: unknown }

const words = (text: string): ReadonlyArray<string> => text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0)

const score = (def: ToolDefinitionJson, query: ReadonlyArray<string>): number => {
  const name = words(def.function.name)
  const description = words(def.function.description)
  let total = 0
  for (const q of query) {
    const inName = name.some((w) => w.startsWith(q))
    const inDescription = description.some((w) => w.startsWith(q))
    if (!inName && !inDescription) return 0
    total += (inName ? 3 : 0) + (inDescription ? 1 : 0)
  }
  return total
}

export const searchCatalog = (defs: ReadonlyArray<ToolDefinitionJson>, query: string, limit: number): ReadonlyArray<ToolDefinitionJson> => {
  const q = words(query)
  if (q.length === 0) return []
  return defs
    .map((def) => ({ def, s: score(def, q) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.def.function.name.localeCompare(b.def.function.name))
    .slice(0, limit)
    .map((x) => x.def)
}

/** A list of strings from `args[key]`; a bare string is a list of one. */
const stringList = (args: Record<string, unknown>, key: string, max: number, retry: string): ReadonlyArray<string> | Result => {
  const raw = args[key]
  const list = typeof raw === "string" ? [raw] : raw
  if (!Array.isArray(list)) return { error: `${key} is required and must be an array of strings` }
  const out: Array<string> = []
  for (const item of list) {
    const text = typeof item === "string" ? item.trim() : item === null || item === undefined ? "" : String(item).trim()
    if (text.length > 0 && !out.includes(text)) out.push(text)
  }
  if (out.length === 0) return { error: `${key} is required and must contain at least one non-empty string` }
  if (out.length > max) return { error: `too many ${key}: ${out.length} > max ${max}. ${retry}` }
  return out
}

const requiredOf = (def: ToolDefinitionJson): ReadonlyArray<string> => {
  const required = def.function.parameters["required"]
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : []
}

const clip = (text: string): string => (text.length <= DESCRIPTION_CAP ? text : `${text.slice(0, DESCRIPTION_CAP)}…`)

export const toolSearchAnswer = (args: Record<string, unknown>, defs: ReadonlyArray<ToolDefinitionJson>, config: ToolSearchConfig): Result => {
  const queries = stringList(args, "queries", MAX_QUERIES_PER_CALL, "Retry with fewer, more targeted queries.")
  if (!Array.isArray(queries)) return queries as Result
  const rawLimit = args["limit"]
  const n = typeof rawLimit === "number" ? rawLimit : typeof rawLimit === "string" ? Number(rawLimit) : NaN
  const limit = Number.isFinite(n) ? Math.max(1, Math.min(config.maxSearchLimit, Math.trunc(n))) : config.searchDefaultLimit
  const tools: Record<string, Result> = {}
  const results = queries.map((query: string) => {
    const hits = searchCatalog(defs, query, limit)
    for (const h of hits) {
      tools[h.function.name] ??= { description: clip(h.function.description), required: requiredOf(h) }
    }
    return { query, matches: hits.map((h) => h.function.name) }
  })
  return { queries, total_available: defs.length, results, tools }
}

export const toolDescribeAnswer = (
  args: Record<string, unknown>,
  defs: ReadonlyArray<ToolDefinitionJson>,
  isDirect: (name: string) => boolean
): Result => {
  const names = stringList(args, "names", MAX_DESCRIBE_NAMES_PER_CALL, "Retry with fewer names per call.")
  if (!Array.isArray(names)) return names as Result
  const byName = new Map(defs.map((d) => [d.function.name, d]))
  const tools: Record<string, Result> = {}
  const notFound: Array<string> = []
  const errors: Record<string, string> = {}
  for (const name of names as ReadonlyArray<string>) {
    const def = byName.get(name)
    if (def !== undefined) tools[name] = { description: def.function.description, parameters: def.function.parameters }
    else if (isDirect(name)) errors[name] = directToolError(name)
    else notFound.push(name)
  }
  return {
    tools,
    ...(notFound.length === 0 ? {} : { not_found: notFound, hint: "Names in not_found are not available now. Run tool_search again to refresh." }),
    ...(Object.keys(errors).length === 0 ? {} : { errors })
  }
}

export const directToolError = (name: string): string =>
  `'${name}' is already in your tool list: call it directly, not through tool_describe or tool_call.`

export const notInSessionError = (name: string): string =>
  `'${name}' is not available in this session. Use tool_search to find tools you can call.`

/** The one call inside a `tool_call`: `{calls: [{name, arguments}]}`, or `{name, arguments}` as older Hermes sent. */
export const unwrapToolCall = (args: Record<string, unknown>): { readonly name: string; readonly args: unknown } | { readonly error: string } => {
  const calls = args["calls"]
  let entry: unknown = args
  if (calls !== undefined) {
    const list = Array.isArray(calls) ? calls : [calls]
    if (list.length === 0) return { error: "calls is required and must hold one {name, arguments} entry" }
    if (list.length > 1) return { error: `tool_call runs one tool at a time: got ${list.length} entries; send one tool_call per tool.` }
    entry = list[0]
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return { error: "each call must be an object {name, arguments}" }
  const record = entry as Record<string, unknown>
  const name = typeof record["name"] === "string" ? record["name"].trim() : ""
  if (name.length === 0) return { error: "tool_call needs the name of the tool to run (calls: [{name, arguments}])" }
  return { name, args: record["arguments"] ?? {} }
}
