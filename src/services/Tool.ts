/**
 * A tool is declared once: its parameters are an effect/Schema, and the JSON
 * schema sent to the model is derived from it (see `src/lib/tool/defineTool.ts`).
 */
import type { Duration, Effect, Schema } from "effect"
import type { ToolContext } from "./ToolContext.js"
import type { ToolFailure } from "./ToolError.js"

/** JSON as the model and the wire see it. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** A JSON Schema object (draft-07 subset as derived by effect's JSONSchema.make). */
export type JsonSchema = { readonly [key: string]: Json }

/** The OpenAI function definition body. */
export interface FunctionSchema {
  readonly name: string
  readonly description: string
  readonly parameters: JsonSchema
}

/** `{"type": "function", "function": {...}}` as sent to the model. */
export interface ToolDefinitionJson {
  readonly type: "function"
  readonly function: FunctionSchema
}

/**
 * How a tool may share a model turn with others (Hermes' planner):
 * - `safe`: read-only, runs in parallel with other safe calls
 * - `path-scoped`: parallel only when the target paths do not overlap
 * - `never`: always alone (e.g. clarify asks a human)
 * - `sequential`: the default; a barrier in the batch
 */
export type ParallelPolicy = "safe" | "path-scoped" | "never" | "sequential"

/** One part of a multimodal message, as the OpenAI chat API takes it. */
export type ContentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image_url"; readonly image_url: { readonly url: string; readonly detail?: string | undefined } }

/** What a handler returns: a string as is, or a value rendered as JSON. */
export type ToolOutput = string | { readonly [key: string]: unknown } | ReadonlyArray<unknown>

export type ToolSource =
  | { readonly kind: "builtin" }
  | { readonly kind: "plugin"; readonly plugin: string }
  | { readonly kind: "mcp"; readonly server: string }

export interface Tool<A, I, R> {
  readonly name: string
  readonly toolset: string
  readonly description: string
  readonly parameters: Schema.Schema<A, I, never>
  /** Derived once from `parameters` at definition time. */
  readonly jsonSchema: JsonSchema
  readonly handler: (args: A) => Effect.Effect<ToolOutput, ToolFailure, R | ToolContext>
  /** Availability probe; failure or death counts as unavailable. */
  readonly check?: Effect.Effect<boolean, unknown, R> | undefined
  /** Said when `check` fails (e.g. which config keys make the tool available). */
  readonly unavailableReason?: string | undefined
  readonly requiresEnv: ReadonlyArray<string>
  readonly emoji: string
  /** Results longer than this are persisted and previewed; `Infinity` disables (read_file). */
  readonly maxResultChars?: number | undefined
  /** Fields merged (shallowly) over the static function schema at definitions time. */
  readonly dynamicSchema?: Effect.Effect<Partial<FunctionSchema>, unknown, R> | undefined
  readonly parallel: ParallelPolicy
  /** Argument naming the target path, for `path-scoped` tools (default "path"). */
  readonly pathArgument: string
  /** Per-call timeout; a function of the decoded arguments when the tool has its own timeout parameter. */
  readonly timeout?: Duration.DurationInput | ((args: A) => Duration.DurationInput) | undefined
  /** Allow replacing a tool of the same name in another toolset. */
  readonly override: boolean
  readonly source: ToolSource
}

/** A tool with its services already provided: what the registry stores. */
export type AnyTool = Tool<unknown, unknown, never>
