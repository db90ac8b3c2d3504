/**
 * The compiled row check gives Schema.is's verdict on every row schema the
 * store reads through it, for rows that fit and rows off in any one column.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, FastCheck, Option, Schema } from "effect"
import { rowReader } from "../../src/layers/sql/rowReader.js"
import { HitColumns, MessageColumns, SessionColumns, SessionSummaryColumns } from "../../src/layers/sql/sessions/rows.js"

const schemas = { SessionColumns, SessionSummaryColumns, MessageColumns, HitColumns } as const

/** A value of every kind a column could hold, and a few it could not. */
const strays: ReadonlyArray<unknown> = ["", "tool", "x", 0, 1.5, -1, Number.NaN, null, undefined, true, 10n, Buffer.from("a"), {}, []]

describe("rowReader", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: the compiled check agrees with Schema.is`, () => {
      const reader = rowReader<unknown>(schema as Schema.Schema<unknown>)
      const is = Schema.is(schema as Schema.Schema<unknown>)
      const keys = Object.keys(schema.fields)
      FastCheck.assert(
        FastCheck.property(Arbitrary.make(schema as Schema.Schema<unknown>), FastCheck.constantFrom(...keys), FastCheck.constantFrom(...strays), (row, key, stray) => {
          expect(reader.is(row)).toBe(true)
          const off = { ...(row as object), [key]: stray }
          expect(reader.is(off)).toBe(is(off))
          const { [key]: _, ...missing } = row as Record<string, unknown>
          expect(reader.is(missing)).toBe(is(missing))
        }),
        { numRuns: 300 }
      )
      for (const u of [null, undefined, "row", 1, []]) expect(reader.is(u)).toBe(is(u))
    })
  }

  it.effect("maps rows that fit; rows that do not fail with Schema's ParseError", () =>
    Effect.gen(function*() {
      const reader = rowReader(Schema.Struct({ id: Schema.Number, name: Schema.NullOr(Schema.String) }))
      expect(yield* reader.all([{ id: 1, name: "a" }, { id: 2, name: null }], (r) => r.name ?? `#${r.id}`)).toEqual(["a", "#2"])
      expect(Option.isNone(yield* reader.first([], (r) => r.id))).toBe(true)
      expect(yield* reader.first([{ id: 3, name: null }, { id: 4, name: null }], (r) => r.id)).toEqual(Option.some(3))
      const error = yield* Effect.flip(reader.all([{ id: 1, name: "a" }, { id: "2", name: null }], (r) => r.id))
      expect(error._tag).toBe("ParseError")
      expect(error.message).toContain("[1]")
    }))

  it("refuses a schema that is not a struct of plain columns", () => {
    const refused: ReadonlyArray<Schema.Schema<unknown>> = [
      Schema.String as Schema.Schema<unknown>,
      Schema.Struct({ at: Schema.NumberFromString }) as unknown as Schema.Schema<unknown>,
      Schema.Struct({ id: Schema.Int }) as Schema.Schema<unknown>,
      Schema.Struct({ id: Schema.optional(Schema.Number) }) as Schema.Schema<unknown>,
      Schema.Record({ key: Schema.String, value: Schema.String }) as Schema.Schema<unknown>
    ]
    for (const schema of refused) expect(() => rowReader(schema)).toThrow(/not a struct of plain columns/)
  })
})
