/**
 * Rows on the read hot paths (a 3 000-message history, every search hit):
 * each row is checked against an effect/Schema struct of its columns as
 * SQLite returns them, then turned into the service's type by a plain mapper
 * written next to that schema.
 *
 * The check is a predicate compiled once from the schema's AST, for the
 * shapes a column can have (strings, numbers, booleans, literals, unions of
 * them). Schema's general parser costs 2 µs a row to check and 10 µs to decode
 * with renames and a JSON transform, as much as SQLite's own read; the compiled
 * predicate about 0.5 µs. When it refuses a row, the rows are decoded by the
 * schema itself, so the error is Schema's ParseError.
 */
import { Effect, Option, Schema } from "effect"
import type { ParseResult, SchemaAST } from "effect"

type Guard = (u: unknown) => boolean

/** A predicate with Schema.is's verdict for `ast`, or undefined for a shape it does not cover. */
const compile = (ast: SchemaAST.AST): Guard | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string"
    case "NumberKeyword":
      return (u) => typeof u === "number"
    case "BooleanKeyword":
      return (u) => typeof u === "boolean"
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
    case "Union": {
      const members = ast.types.map(compile)
      if (!members.every((m): m is Guard => m !== undefined)) return undefined
      return (u) => {
        for (const is of members) if (is(u)) return true
        return false
      }
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0 || ast.propertySignatures.some((p) => p.isOptional)) return undefined
      const fields = ast.propertySignatures.map((p) => [p.name, compile(p.type)] as const)
      if (!fields.every((f): f is readonly [PropertyKey, Guard] => f[1] !== undefined)) return undefined
      return (u) => {
        if (typeof u !== "object" || u === null) return false
        const row = u as Record<PropertyKey, unknown>
        for (const [name, is] of fields) if (!is(row[name])) return false
        return true
      }
    }
    default:
      return undefined
  }
}

export interface RowReader<Row> {
  /** Whether `u` is a row of the schema (Schema.is's verdict, compiled). */
  readonly is: (u: unknown) => u is Row
  /** Every row checked and mapped in one pass; rows that do not fit fail with Schema's ParseError. */
  readonly all: <A>(rows: ReadonlyArray<unknown>, map: (row: Row) => A) => Effect.Effect<Array<A>, ParseResult.ParseError>
  /** The first row, if any, checked and mapped. */
  readonly first: <A>(rows: ReadonlyArray<unknown>, map: (row: Row) => A) => Effect.Effect<Option.Option<A>, ParseResult.ParseError>
}

/**
 * A reader for rows of `schema`: a struct of plain columns (no transformations, no optional
 * keys, no refinements), so that a row read is a row of the schema's type. Throws at
 * construction for any other schema, so a schema the predicate does not cover fails on load.
 */
export const rowReader = <Row>(schema: Schema.Schema<Row, Row, never>): RowReader<Row> => {
  const guard = schema.ast._tag === "TypeLiteral" ? compile(schema.ast) : undefined
  if (guard === undefined) throw new Error(`rowReader: not a struct of plain columns: ${String(schema.ast)}`)
  const is = guard as (u: unknown) => u is Row
  const decodeAll = Schema.decodeUnknown(Schema.Array(schema))
  const all = <A>(rows: ReadonlyArray<unknown>, map: (row: Row) => A): Effect.Effect<Array<A>, ParseResult.ParseError> => {
    const out = new Array<A>(rows.length)
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]
      if (!is(row)) return Effect.map(decodeAll(rows), (decoded) => decoded.map(map))
      out[i] = map(row)
    }
    return Effect.succeed(out)
  }
  return {
    is,
    all,
    first: (rows, map) => (rows.length === 0 ? Effect.succeedNone : Effect.map(all(rows.slice(0, 1), map), (mapped) => Option.some(mapped[0]!)))
  }
}
