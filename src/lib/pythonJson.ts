/**
 * JSON text as Python's `json.dumps(value, ensure_ascii=False)` writes it
 * with its default separators (`", "` between items, `": "` after keys), so
 * tool results read, and count as tokens, the way Hermes' do. `compact` is
 * `JSON.stringify` (no spaces).
 *
 * Same as JSON.stringify in everything but the separators: `toJSON`, values
 * dropped from objects (undefined, functions, symbols), `null` for them in
 * arrays, a TypeError for BigInt and cycles. Known differences from Python,
 * where JavaScript has no way to tell: a whole float prints as `1` (Python
 * `1.0`), exponents as `1e-7` (Python `1e-07`), NaN/Infinity as `null`
 * (Python `NaN`, which is not JSON), and integer-like object keys come first
 * in ascending order (Python keeps insertion order).
 */
export type JsonStyle = "python" | "compact"

const SEPARATOR = ", "
const KEY_SEPARATOR = ": "

/** A value's own `toJSON` (Date, Effect data types) decides what it prints as. */
const prepare = (key: string, value: unknown): unknown =>
  value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function"
    ? (value as { toJSON: (key: string) => unknown }).toJSON(key)
    : value

const write = (value: unknown, seen: Set<object>): string | undefined => {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value)
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null"
    case "boolean":
      return value ? "true" : "false"
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt")
    case "undefined":
    case "function":
    case "symbol":
      return undefined
  }
  if (value === null) return "null"
  const object = value as object
  // Boxed primitives print as their values, as JSON.stringify does.
  if (object instanceof Number || object instanceof String || object instanceof Boolean) return write(object.valueOf(), seen)
  if (seen.has(object)) throw new TypeError("Converting circular structure to JSON")
  seen.add(object)
  try {
    if (Array.isArray(object)) {
      const items = object.map((item: unknown, i) => write(prepare(String(i), item), seen) ?? "null")
      return `[${items.join(SEPARATOR)}]`
    }
    const record = object as Record<string, unknown>
    const members: Array<string> = []
    for (const key of Object.keys(record)) {
      const text = write(prepare(key, record[key]), seen)
      if (text !== undefined) members.push(`${JSON.stringify(key)}${KEY_SEPARATOR}${text}`)
    }
    return `{${members.join(SEPARATOR)}}`
  } finally {
    seen.delete(object)
  }
}

/** `value` as JSON text in `style`; undefined where JSON.stringify gives undefined (a bare undefined or function). */
export const toJsonText = (value: unknown, style: JsonStyle = "python"): string | undefined => {
  if (style === "compact") return JSON.stringify(value) as string | undefined
  return write(prepare("", value), new Set())
}

/** Python `json.dumps` style text of a value known to serialise (plain data). */
export const pythonJson = (value: unknown): string => toJsonText(value, "python") ?? "null"
