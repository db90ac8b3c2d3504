/**
 * `defineTool`: declare a tool once. Its JSON schema is derived from the
 * effect/Schema parameters here, at definition time, so it is never written
 * twice (the registry sanitises it for the model, see `sanitizeSchema.ts`).
 */
import { Schema } from "effect"
import type { Duration, Effect } from "effect"
import type { FunctionSchema, ParallelPolicy, Tool, ToolOutput, ToolSource } from "../../services/Tool.js"
import type { ToolContext } from "../../services/ToolContext.js"
import type { ToolFailure } from "../../services/ToolError.js"
import { deriveJsonSchema } from "./jsonSchema.js"

export interface ToolOptions<A, I, R> {
  readonly name: string
  readonly toolset: string
  readonly description: string
  readonly parameters: Schema.Schema<A, I, never>
  readonly handler: (args: A) => Effect.Effect<ToolOutput, ToolFailure, R | ToolContext>
  readonly check?: Effect.Effect<boolean, unknown, R>
  readonly unavailableReason?: string
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

export const defineTool = <A, I, R = never>(options: ToolOptions<A, I, R>): Tool<A, I, R> => ({
  name: options.name,
  toolset: options.toolset,
  description: options.description,
  parameters: options.parameters,
  jsonSchema: deriveJsonSchema(options.parameters),
  handler: options.handler,
  check: options.check,
  unavailableReason: options.unavailableReason,
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
export { deriveJsonSchema, Schema }
