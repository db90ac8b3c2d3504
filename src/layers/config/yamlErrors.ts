/**
 * Turning YAML syntax errors and Schema decode errors into a `ConfigError`
 * that names the file, the line and the key path.
 */
import { ParseResult } from "effect"
import { isMap, isNode, isScalar, isSeq } from "yaml"
import type { Document, LineCounter, YAMLError } from "yaml"
import { ConfigError } from "../../services/Config.js"

/** A parsed document together with the line counter used while parsing it. */
export interface Located {
  readonly doc: Document
  readonly lineCounter: LineCounter
}

type Key = string | number

/** `tools.max_parallel`, `toolsets[2]`; undefined for the root. */
export const formatKeyPath = (path: ReadonlyArray<PropertyKey>): string | undefined => {
  if (path.length === 0) return undefined
  let out = ""
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`
    else out += out === "" ? String(key) : `.${String(key)}`
  }
  return out
}

const scalarKey = (node: unknown): Key | undefined => {
  if (!isScalar(node)) return undefined
  const value = node.value
  return typeof value === "string" || typeof value === "number" ? value : undefined
}

const lineAt = (lineCounter: LineCounter, offset: number): number =>
  // linePos reports line 0 before the first recorded newline; the first line is line 1.
  Math.max(1, lineCounter.linePos(offset).line)

const errorProps = (
  file: string,
  message: string,
  line: number | undefined,
  key: string | undefined
): ConstructorParameters<typeof ConfigError>[0] => ({
  file,
  message,
  ...(line === undefined ? {} : { line }),
  ...(key === undefined ? {} : { key })
})

/**
 * Best effort: the key path of the last key that starts at or before `offset`
 * (the entry the parser was in when it failed).
 */
const keyPathAt = (node: unknown, offset: number, path: ReadonlyArray<Key>): ReadonlyArray<Key> => {
  let best = path
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = scalarKey(pair.key)
      const start = isNode(pair.key) ? pair.key.range?.[0] : undefined
      if (key === undefined || start === undefined || start > offset) continue
      best = keyPathAt(pair.value, offset, [...path, key])
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const start = isNode(item) ? item.range?.[0] : undefined
      if (start !== undefined && start <= offset) best = keyPathAt(item, offset, [...path, index])
    })
  }
  return best
}

/** A YAML syntax error: line from the parser's error position, key from the partial document. */
export const syntaxError = (file: string, located: Located, error: YAMLError): ConfigError => {
  const [start, end] = error.pos
  return new ConfigError(
    errorProps(
      file,
      error.message,
      lineAt(located.lineCounter, start),
      formatKeyPath(keyPathAt(located.doc.contents, end, []))
    )
  )
}

/**
 * The child of a collection node under `key`. Not `doc.getIn`: a ParseError path
 * holds the JS key ("1"), while the YAML key may be the number 1, so keys are compared as text.
 */
const childOf = (node: unknown, key: PropertyKey): { readonly keyStart?: number; readonly node: unknown } | undefined => {
  if (isMap(node)) {
    const pair = node.items.find((p) => {
      const k = scalarKey(p.key)
      return k !== undefined && String(k) === String(key)
    })
    if (pair === undefined) return undefined
    const keyStart = isNode(pair.key) ? pair.key.range?.[0] : undefined
    return keyStart === undefined ? { node: pair.value } : { keyStart, node: pair.value }
  }
  if (isSeq(node)) {
    const index = Number(key)
    return Number.isInteger(index) && index >= 0 && index < node.items.length ? { node: node.items[index] } : undefined
  }
  return undefined
}

/** Start offset of the entry at `path` (its key for map entries), or of the nearest ancestor that exists. */
const offsetOf = (doc: Document, path: ReadonlyArray<PropertyKey>): number | undefined => {
  const root = doc.contents
  let best = isNode(root) ? root.range?.[0] : undefined
  let node: unknown = root
  for (const key of path) {
    const child = childOf(node, key)
    if (child === undefined) break
    const start = child.keyStart ?? (isNode(child.node) ? child.node.range?.[0] : undefined)
    if (start !== undefined) best = start
    node = child.node
  }
  return best
}

/**
 * `Expected { readonly a?: ...; ... }, actual 5` says too much, and a section with defaults
 * says `Expected Struct (Encoded side), actual 5`; say "a mapping" instead.
 */
const shorten = (message: string): string => {
  const struct = "Expected Struct (Encoded side), actual "
  if (message.startsWith(struct)) return `Expected a mapping, actual ${message.slice(struct.length)}`
  const marker = "}, actual "
  const at = message.indexOf(marker)
  return message.startsWith("Expected {") && at >= 0
    ? `Expected a mapping, actual ${message.slice(at + marker.length)}`
    : message
}

/**
 * A Schema decode error. Optional fields decode as `X | undefined`, so each failure
 * also reports "Expected undefined"; keep the deepest issue that is not that noise.
 */
export const schemaError = (file: string, error: ParseResult.ParseError, located?: Located): ConfigError => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const useful = issues.filter((i) => !i.message.startsWith("Expected undefined,"))
  const pool = useful.length > 0 ? useful : issues
  const issue = pool.reduce<(typeof pool)[number] | undefined>(
    (best, i) => (best === undefined || i.path.length > best.path.length ? i : best),
    undefined
  )
  if (issue === undefined) return new ConfigError({ file, message: ParseResult.TreeFormatter.formatErrorSync(error) })
  const offset = located === undefined ? undefined : offsetOf(located.doc, issue.path)
  const line = located === undefined || offset === undefined ? undefined : lineAt(located.lineCounter, offset)
  return new ConfigError(errorProps(file, shorten(issue.message), line, formatKeyPath(issue.path)))
}
