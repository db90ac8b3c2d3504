/**
 * A precompiled shortcut in front of a tool's Schema decoder. Most tool
 * parameters are a flat struct of primitives, literals and refined
 * primitives, whose decoder returns a fresh object holding the input's
 * values unchanged. For such a schema the checks are compiled once at
 * registration and a passing input is copied directly; anything else (a
 * failing value, a transformation, a nested struct) goes to the full decoder,
 * so results and error messages are exactly the decoder's.
 */
import { Either, Option } from "effect"
import type { ParseResult } from "effect"
import * as AST from "effect/SchemaAST"

type Decode = (input: unknown) => Either.Either<unknown, ParseResult.ParseError>
type Check = (u: unknown) => boolean

interface Field {
  readonly name: PropertyKey
  readonly optional: boolean
  readonly check: Check
}

const isString: Check = (u) => typeof u === "string"
const isNumber: Check = (u) => typeof u === "number"
const isBoolean: Check = (u) => typeof u === "boolean"
const isUndefined: Check = (u) => u === undefined

/** Annotations that change how the decoder itself runs: such nodes are left to it. */
const changesParsing = (ast: AST.AST): boolean =>
  Option.isSome(AST.getParseOptionsAnnotation(ast)) || Option.isSome(AST.getDecodingFallbackAnnotation(ast))

/** A check that accepts exactly the inputs this node's decoder returns unchanged, or undefined when there is none. */
const checkOf = (ast: AST.AST, options: AST.ParseOptions): Check | undefined => {
  if (changesParsing(ast)) return undefined
  switch (ast._tag) {
    case "StringKeyword":
      return isString
    case "NumberKeyword":
      return isNumber
    case "BooleanKeyword":
      return isBoolean
    case "UndefinedKeyword":
      return isUndefined
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
    case "Refinement": {
      const from = checkOf(ast.from, options)
      if (from === undefined) return undefined
      return (u) => from(u) && Option.isNone(ast.filter(u, options, ast))
    }
    case "Union": {
      const members: Array<Check> = []
      for (const member of ast.types) {
        const check = checkOf(member, options)
        if (check === undefined) return undefined
        members.push(check)
      }
      return (u) => members.some((m) => m(u))
    }
    default:
      return undefined
  }
}

/**
 * `full` with a shortcut for inputs a flat struct schema accepts as they are;
 * `full` itself when the schema is not such a struct. `options` are the ones
 * `full` was made with (refinements see them).
 */
export const withFastPath = (ast: AST.AST, options: AST.ParseOptions, full: Decode): Decode => {
  // The copy below is what the decoder returns with excess keys ignored, missing keys read as undefined and declared order.
  const plain = (options.onExcessProperty ?? "ignore") === "ignore" && options.exact !== true && options.propertyOrder !== "original"
  if (!plain || ast._tag !== "TypeLiteral" || ast.indexSignatures.length > 0 || changesParsing(ast)) return full
  const fields: Array<Field> = []
  for (const ps of ast.propertySignatures) {
    const check = checkOf(ps.type, options)
    if (check === undefined) return full
    fields.push({ name: ps.name, optional: ps.isOptional, check })
  }
  return (input) => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return full(input)
    const record = input as Record<PropertyKey, unknown>
    // Same shape as the decoder's output: declared keys in declaration order, optional ones only when present.
    const out: Record<PropertyKey, unknown> = {}
    for (const field of fields) {
      if (!Object.prototype.hasOwnProperty.call(record, field.name) && field.optional) continue
      const value = record[field.name]
      if (!field.check(value)) return full(input)
      out[field.name] = value
    }
    return Either.right(out)
  }
}
