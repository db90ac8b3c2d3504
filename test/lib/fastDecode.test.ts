import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { withFastPath } from "../../src/lib/tool/fastDecode.js"

const OPTIONS = { errors: "first", onExcessProperty: "ignore" } as const

/** The shortcut and the full decoder side by side on one schema. */
const both = <A, I>(schema: Schema.Schema<A, I>) => {
  const full = Schema.decodeUnknownEither(schema, OPTIONS)
  return { full, fast: withFastPath(schema.ast, OPTIONS, full) }
}

const sameAsFull = <A, I>(schema: Schema.Schema<A, I>, inputs: ReadonlyArray<unknown>) => {
  const { fast, full } = both(schema)
  for (const input of inputs) {
    const a = fast(input)
    const b = full(input)
    expect(Either.isRight(a)).toBe(Either.isRight(b))
    if (Either.isRight(a) && Either.isRight(b)) {
      expect(a.right).toStrictEqual(b.right)
      // Same key order too (the result is rendered and hashed downstream).
      expect(Object.keys(a.right as object)).toStrictEqual(Object.keys(b.right as object))
      expect(a.right).not.toBe(input)
    }
    if (Either.isLeft(a) && Either.isLeft(b)) expect(a.left.message).toBe(b.left.message)
  }
}

describe("withFastPath", () => {
  it("answers exactly as the decoder for flat structs of primitives, literals and refinements", () => {
    const schema = Schema.Struct({
      path: Schema.String,
      limit: Schema.optional(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))),
      mode: Schema.optional(Schema.Literal("a", "b", "c")),
      flag: Schema.Boolean,
      exact: Schema.optionalWith(Schema.Number, { exact: true }),
      maybe: Schema.UndefinedOr(Schema.String),
      nullable: Schema.NullOr(Schema.String)
    })
    sameAsFull(schema, [
      { path: "a", flag: true, maybe: undefined, nullable: null },
      { flag: false, path: "b", limit: 3, mode: "c", exact: 1.5, nullable: "x", extra: { deep: [1] } },
      { path: "a", flag: true, nullable: null },
      { path: "a", flag: true, limit: undefined, mode: undefined, nullable: null },
      { path: "a", flag: true, limit: 0, nullable: null },
      { path: "a", flag: true, limit: 1.5, nullable: null },
      { path: "a", flag: true, mode: "d", nullable: null },
      { path: "a", flag: true, exact: undefined, nullable: null },
      { path: 1, flag: true, nullable: null },
      { flag: true, nullable: null },
      { path: "a", nullable: null },
      [],
      null,
      "text"
    ])
  })

  it("leaves other schemas to the decoder", () => {
    const nested = Schema.Struct({ items: Schema.Array(Schema.Struct({ id: Schema.String })), n: Schema.NumberFromString })
    const { fast, full } = both(nested)
    expect(fast).toBe(full)
    sameAsFull(nested, [{ items: [{ id: "x" }], n: "1" }, { items: "no", n: "1" }])
    const records = Schema.Record({ key: Schema.String, value: Schema.Number })
    const r = both(records)
    expect(r.fast).toBe(r.full)
    const defaults = Schema.Struct({ n: Schema.optionalWith(Schema.Number, { default: () => 3 }) })
    const d = both(defaults)
    expect(d.fast).toBe(d.full)
  })
})
