/**
 * `defineTool`: declare a tool once. The JSON schema the model sees is derived
 * from the effect/Schema parameters here, at definition time, so it is never
 * written twice and costs nothing per request.
 */
import { JSONSchema, Schema } from "effect"
import type { Duration, Effect } from "effect"
import type { FunctionSchema, Json, JsonSchema, ParallelPolicy, Tool, ToolOutput, ToolSource } from "../services/Tool.js"
import type { ToolContext } from "../services/ToolContext.js"
import type { ToolFailure } from "../services/ToolError.js"

export interface ToolOptions<A, I, R> {
  readonly name: string
  readonly toolset: string
  readonly description: string
  readonly parameters: Schema.Schema<A, I, never>
  readonly handler: (args: A) => Effect.Effect<ToolOutput, ToolFailure, R | ToolContext>
  readonly check?: Effect.Effect<boolean, unknown, R>
  readonly requiresEnv?: ReadonlyArray<string>
  readonly emoji?: string
  readonly maxResultChars?: number
  readonly dynamicSchema?: Effect.Effect<Partial<FunctionSchema>, unknown, R>
  readonly parallel?: ParallelPolicy
  readonly pathArgument?: string
  readonly timeout?: Duration.DurationInput | ((args: A) => Duration.DurationInput)
  readonly override?: boolean
  readonly source?: ToolSource
}

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

export const defineTool = <A, I, R = never>(options: ToolOptions<A, I, R>): Tool<A, I, R> => ({
  name: options.name,
  toolset: options.toolset,
  description: options.description,
  parameters: options.parameters,
  jsonSchema: deriveJsonSchema(options.parameters),
  handler: options.handler,
  check: options.check,
  requiresEnv: options.requiresEnv ?? [],
  emoji: options.emoji ?? "",
  maxResultChars: options.maxResultChars,
  dynamicSchema: options.dynamicSchema,
  parallel: options.parallel ?? "sequential",
  pathArgument: options.pathArgument ?? "path",
  timeout: options.timeout,
  override: options.override ?? false,
  source: options.source ?? { kind: "builtin" }
})

/** Re-exported so tool modules need one import for parameters. */
export { Schema }
