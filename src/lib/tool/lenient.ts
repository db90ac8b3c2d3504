/**
 * Parameters Hermes normalises instead of refusing (a model has learnt to rely
 * on it): the value is decoded with `schema` when it fits and replaced by
 * `fallback(value)` when it does not, while the model still sees `schema`'s
 * JSON schema (a required key stays required in the definition).
 */
import { Either, JSONSchema, ParseResult, Schema } from "effect"
import type { Json } from "../../services/Tool.js"
import { sanitizeFragment } from "./sanitizeSchema.js"

/** `schema`'s JSON schema, clean (refs inlined, annotations dropped). */
export const fragmentOf = (ast: Schema.Schema.AnyNoContext["ast"]): { [key: string]: Json } => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const root = JSONSchema.fromAST(ast, { definitions, target: "jsonSchema7", additionalPropertiesStrategy: "allow" })
  const cleaned = sanitizeFragment(root as unknown as Json, definitions as unknown as { [key: string]: Json })
  return cleaned !== null && typeof cleaned === "object" && !Array.isArray(cleaned) ? { ...(cleaned as { [key: string]: Json }) } : {}
}

export interface LenientAnnotations {
  readonly description?: string
  /** Shown as the JSON schema's `default`. */
  readonly default?: Json
  /** Extra JSON schema keywords the model should see (bounds the decoder does not enforce). */
  readonly jsonSchema?: { readonly [key: string]: Json }
}

export const lenient = <A, I>(
  schema: Schema.Schema<A, I, never>,
  fallback: (input: unknown) => A,
  annotations: LenientAnnotations
): Schema.Schema<A, unknown, never> => {
  const decode = Schema.decodeUnknownEither(schema)
  const jsonSchema = {
    ...fragmentOf(schema.ast),
    ...annotations.jsonSchema,
    ...(annotations.description === undefined ? {} : { description: annotations.description }),
    ...(annotations.default === undefined ? {} : { default: annotations.default })
  }
  return Schema.transform(Schema.Unknown, Schema.typeSchema(schema), {
    strict: true,
    decode: (input) => {
      const decoded = decode(input)
      return Either.isRight(decoded) ? decoded.right : fallback(input)
    },
    encode: (value) => value
  }).annotations({ ...(annotations.description === undefined ? {} : { description: annotations.description }), jsonSchema })
}

/** Python's name for a JSON value's type, as Hermes' messages print it (`got NoneType`). */
export const pythonTypeName = (value: unknown): string => {
  if (value === undefined || value === null) return "NoneType"
  if (typeof value === "boolean") return "bool"
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float"
  if (typeof value === "string") return "str"
  if (Array.isArray(value)) return "list"
  return "dict"
}

/**
 * A parameter the definition lists as required that Hermes still defaults
 * when it is missing or null (`args.get("mode", "replace")`); any other value
 * must fit `schema`.
 */
export const defaulted = <A, I>(
  schema: Schema.Schema<A, I, never>,
  value: A,
  annotations: LenientAnnotations
): Schema.Schema<A, unknown, never> => {
  const jsonSchema = {
    ...fragmentOf(schema.ast),
    ...annotations.jsonSchema,
    ...(annotations.description === undefined ? {} : { description: annotations.description }),
    ...(annotations.default === undefined ? {} : { default: annotations.default })
  }
  return Schema.transformOrFail(Schema.Unknown, Schema.typeSchema(schema), {
    strict: true,
    decode: (input) => (input === undefined || input === null ? ParseResult.succeed(value) : ParseResult.decodeUnknown(schema)(input)),
    encode: (decoded) => ParseResult.succeed(decoded)
  }).annotations({ ...(annotations.description === undefined ? {} : { description: annotations.description }), jsonSchema })
}
