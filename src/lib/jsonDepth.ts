/**
 * A nesting limit for JSON a model sends. V8's JSON.parse is iterative and
 * survives any depth, but almost everything after it recurses (Schema decode
 * errors print the value, JSON.stringify, hooks, loggers), so a 3 000-level
 * array would overflow the stack far from where it came in. Values deeper
 * than the limit are refused where they enter: tool arguments and batch lines.
 */
import { Data } from "effect"

/** Levels of arrays/objects allowed in model-supplied JSON (the outer object is level 1). */
export const MAX_JSON_DEPTH = 128

/** Thrown (and caught) inside synchronous argument handling: a nested JSON string went over the limit. */
export class JsonTooDeep extends Data.TaggedError("JsonTooDeep")<{ readonly limit: number }> {
  override get message(): string {
    return tooDeepDetail(this.limit)
  }
}

export const tooDeepDetail = (limit: number = MAX_JSON_DEPTH): string =>
  `nested deeper than ${limit} levels of arrays/objects (the limit)`

const isContainer = (value: unknown): value is object => value !== null && typeof value === "object"

/** No member is an array or object (most tool arguments): answered without allocating. */
const flat = (value: Record<string, unknown>): boolean => {
  for (const key in value) if (isContainer(value[key])) return false
  return true
}

/**
 * Whether `value` nests arrays/objects deeper than `limit`. Iterative (an
 * explicit stack), so it cannot overflow itself, and it stops at the first
 * path over the limit, so a cyclic value answers true instead of looping.
 */
export const nestsDeeperThan = (value: unknown, limit: number = MAX_JSON_DEPTH): boolean => {
  if (!isContainer(value)) return false
  if (limit < 1) return true
  if (limit > 1 && !Array.isArray(value) && flat(value as Record<string, unknown>)) return false
  const values: Array<object> = [value]
  const depths: Array<number> = [1]
  while (values.length > 0) {
    const node = values.pop()!
    const depth = depths.pop()!
    const children: ReadonlyArray<unknown> = Array.isArray(node) ? node : Object.values(node)
    for (const child of children) {
      if (!isContainer(child)) continue
      if (depth + 1 > limit) return true
      values.push(child)
      depths.push(depth + 1)
    }
  }
  return false
}

/** JSON.parse, refusing values deeper than `limit` with `JsonTooDeep` (other syntax errors throw as usual). */
export const parseJsonBounded = (text: string, limit: number = MAX_JSON_DEPTH): unknown => {
  const value: unknown = JSON.parse(text)
  if (nestsDeeperThan(value, limit)) throw new JsonTooDeep({ limit })
  return value
}
