/**
 * ToolRegistry: the tools, their toolsets and availability, the definitions
 * sent to the model, and dispatch of the model's calls.
 */
import { Context, Schema } from "effect"
import type { Duration, Effect, Either, ParseResult } from "effect"
import type { CallStatus } from "./Hooks.js"
import type { FunctionSchema, JsonSchema, ParallelPolicy, ToolDefinitionJson, ToolOutput, ToolSource } from "./Tool.js"
import type { ToolCallContext } from "./ToolContext.js"
import type { ToolError, ToolFailure } from "./ToolError.js"

/** Registering a name that another toolset owns, without the right to override it. */
export class ToolShadowed extends Schema.TaggedError<ToolShadowed>()("ToolShadowed", {
  tool: Schema.String,
  toolset: Schema.String,
  existingToolset: Schema.String
}) {
  override get message(): string {
    return `Tool registration rejected: '${this.tool}' (toolset '${this.toolset}') would shadow the tool from toolset '${this.existingToolset}'; register it with override: true to replace it.`
  }
}

/** A plugin tried to override or remove a built-in without the operator's `allow_tool_override`. */
export class ToolOverrideDenied extends Schema.TaggedError<ToolOverrideDenied>()("ToolOverrideDenied", {
  tool: Schema.String,
  plugin: Schema.String
}) {
  override get message(): string {
    return `Plugin '${this.plugin}' cannot override or remove tool '${this.tool}' without operator opt-in (plugins.entries.${this.plugin}.allow_tool_override: true).`
  }
}

export type RegistrationError = ToolShadowed | ToolOverrideDenied

export interface PreparedCall {
  readonly effect: Effect.Effect<ToolOutput, ToolFailure, unknown>
  readonly services: Context.Context<unknown>
}

/** A tool as stored: services provided, arguments erased behind its decoder. */
export interface RegisteredTool {
  readonly name: string
  readonly toolset: string
  readonly description: string
  readonly jsonSchema: JsonSchema
  readonly requiresEnv: ReadonlyArray<string>
  readonly emoji: string
  readonly maxResultChars: number | undefined
  readonly parallel: ParallelPolicy
  readonly pathArgument: string
  readonly override: boolean
  readonly source: ToolSource
  readonly decode: (input: unknown) => Either.Either<unknown, ParseResult.ParseError>
  /**
   * The handler for decoded arguments and the services it runs with (the
   * registering layer's plus the call's ToolContext). Dispatch starts it in a
   * fiber whose runtime carries those services, so no per-call `provide`.
   */
  readonly prepare: (args: unknown, context: ToolCallContext) => PreparedCall
  readonly timeoutFor: (args: unknown) => Duration.DurationInput | undefined
  readonly check: Effect.Effect<boolean, unknown> | undefined
  readonly dynamicSchema: Effect.Effect<Partial<FunctionSchema>, unknown> | undefined
}

export interface ToolCall {
  readonly tool: string
  /** A JSON string or an already-parsed object, as the model sent it. */
  readonly args: unknown
  readonly toolCallId?: string | undefined
}

export interface DispatchOptions {
  readonly context?: Partial<ToolCallContext> | undefined
  /** When given, only these tools may be called (the session's enabled tools). */
  readonly allowed?: ReadonlySet<string> | undefined
}

/** What one call ended in: the string for the model plus the facts around it. */
export interface CallOutcome {
  readonly tool: string
  readonly toolCallId: string | undefined
  readonly result: string
  readonly status: CallStatus
  readonly error: ToolError | undefined
  readonly durationMs: number
}

export interface ToolsetSelection {
  /** Toolsets to enable; undefined = every toolset. */
  readonly enabled?: ReadonlyArray<string> | undefined
  readonly disabled?: ReadonlyArray<string> | undefined
}

export interface ToolsetSummary {
  readonly name: string
  readonly description: string
  readonly tools: ReadonlyArray<string>
  readonly includes: ReadonlyArray<string>
  /** True iff at least one registered tool of it is available. */
  readonly available: boolean
  /** Resolved tool names that are registered in this runtime. */
  readonly registered: ReadonlyArray<string>
}

export interface ToolRegistryService {
  /** Register a tool whose services are already provided (see `registerTool` for the usual path). */
  readonly register: (tool: RegisteredTool) => Effect.Effect<void, RegistrationError>
  readonly deregister: (name: string, caller?: ToolSource) => Effect.Effect<boolean, ToolOverrideDenied>
  readonly registerAlias: (alias: string, toolset: string) => Effect.Effect<void>
  readonly get: (name: string) => RegisteredTool | undefined
  readonly names: () => ReadonlyArray<string>
  readonly generation: () => number

  /** Resolve a toolset selection to tool names (registered or not, as Hermes does). */
  readonly resolve: (selection?: ToolsetSelection) => Effect.Effect<{ readonly tools: ReadonlyArray<string>; readonly unknown: ReadonlyArray<string> }>
  readonly isAvailable: (name: string) => Effect.Effect<boolean>
  /** OpenAI-format definitions, sorted by name, filtered by availability, memoized. */
  readonly definitions: (selection?: ToolsetSelection) => Effect.Effect<ReadonlyArray<ToolDefinitionJson>>
  readonly toolsets: () => Effect.Effect<ReadonlyArray<ToolsetSummary>>

  /** One call, everything folded: the model's string plus the outcome facts. */
  readonly execute: (call: ToolCall, options?: DispatchOptions) => Effect.Effect<CallOutcome>
  /** One call: exactly the string the model sees. Never fails. */
  readonly dispatch: (call: ToolCall, options?: DispatchOptions) => Effect.Effect<string>
  /** The calls of one model turn, planned for parallelism; outcomes in the model's order. */
  readonly executeBatch: (calls: ReadonlyArray<ToolCall>, options?: DispatchOptions) => Effect.Effect<ReadonlyArray<CallOutcome>>
}

export class ToolRegistry extends Context.Tag("hermes-effect/ToolRegistry")<ToolRegistry, ToolRegistryService>() {}
