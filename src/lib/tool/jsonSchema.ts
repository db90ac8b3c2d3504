/**
 * A tool's JSON schema derived from its effect/Schema parameters (built-ins,
 * plugins and MCP all declare parameters this way). Argument coercion reads it
 * as is; the model gets it after the sanitising pass (`sanitizeSchema.ts`,
 * applied by the registry to every definition).
 */
import { JSONSchema } from "effect"
import type { Schema } from "effect"
import type { Json, JsonSchema } from "../../services/Tool.js"

/** Drop what the derivation adds that a model does not need (`$schema`, permissive `additionalProperties`). */
const tidy = (value: unknown): Json => {
  if (Array.isArray(value)) return value.map(tidy)
  if (value !== null && typeof value === "object") {
    const out: Record<string, Json> = {}
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$schema") continue
      if (key === "additionalProperties" && inner === true) continue
      out[key] = tidy(inner)
    }
    return out
  }
  return value as Json
}

/** JSON schema of a parameters Schema, with shared definitions inlined under `$defs` when present. */
export const deriveJsonSchema = <A, I>(parameters: Schema.Schema<A, I, never>): JsonSchema => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const root = JSONSchema.fromAST(parameters.ast, {
    definitions,
    target: "jsonSchema7",
    topLevelReferenceStrategy: "skip",
    additionalPropertiesStrategy: "allow"
  })
  const withDefs = Object.keys(definitions).length === 0 ? root : { ...root, $defs: definitions }
  const tidied = tidy(withDefs)
  if (tidied === null || typeof tidied !== "object" || Array.isArray(tidied)) {
    throw new Error("tool parameters must be a Schema.Struct")
  }
  return tidied as JsonSchema
}
