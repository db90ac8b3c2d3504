/**
 * ToolRegistry: the catalogue. The tools, their toolsets and availability,
 * and the definitions sent to the model. Running calls is ToolExecutor's job.
 */
import { Context, Schema } from "effect"
import type { Duration, Effect, Either, ParseResult } from "effect"
import type { FunctionSchema, JsonSchema, ParallelPolicy, ToolDefinitionJson, ToolOutput, ToolSource } from "./Tool.js"
import type { ToolFailure } from "./ToolError.js"

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

/**
 * How a promise handler learns that its call was given up (timed out or
 * interrupted). Lighter than an AbortSignal, which takes microseconds and a
 * kilobyte or two to make on every call; a handler that needs one makes its
 * own AbortController and aborts it from `onCancel`.
 */
export interface CallCancellation {
  readonly cancelled: boolean
  /** Runs `f` when the call is cancelled (at once if it already is). */
  readonly onCancel: (f: () => void) => void
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
  /** The precompiled decoder of the tool's parameters. */
  readonly decode: (input: unknown) => Either.Either<unknown, ParseResult.ParseError>
  /**
   * The handler for decoded arguments. It runs with `services` (the
   * registering layer's) plus the call's ToolContext, which the executor puts
   * into the runtime it starts the handler on, so no per-call `provide`.
   */
  readonly handler: (args: unknown) => Effect.Effect<ToolOutput, ToolFailure, unknown>
  /**
   * The same handler as a Promise, for tools that are one request to
   * something outside (MCP): the executor calls it directly, in the
   * dispatching fiber, instead of starting a fiber per call, and cancels
   * `cancellation` on timeout or interruption. It resolves to how the call
   * ends (an Exit, or an effect to run after it); it must not reject, and a
   * rejection is reported as a defect. It needs no services and gets no
   * ToolContext.
   */
  readonly promiseHandler?: ((args: unknown, cancellation: CallCancellation) => Promise<Effect.Effect<ToolOutput, ToolFailure>>) | undefined
  readonly services: Context.Context<unknown>
  /** The tool's own timeout (fixed or per arguments); undefined = the configured call timeout. */
  readonly timeout: Duration.DurationInput | ((args: unknown) => Duration.DurationInput) | undefined
  readonly check: Effect.Effect<boolean, unknown> | undefined
  readonly unavailableReason?: string | undefined
  readonly dynamicSchema: Effect.Effect<Partial<FunctionSchema>, unknown> | undefined
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
  /** Why a registered tool cannot be used now (missing env, failed check), or undefined when it can. */
  readonly whyUnavailable: (tool: RegisteredTool) => Effect.Effect<string | undefined>
  /** OpenAI-format definitions, sorted by name, filtered by availability, memoized. */
  readonly definitions: (selection?: ToolsetSelection) => Effect.Effect<ReadonlyArray<ToolDefinitionJson>>
  readonly toolsets: () => Effect.Effect<ReadonlyArray<ToolsetSummary>>
}

export class ToolRegistry extends Context.Tag("hermes-effect/ToolRegistry")<ToolRegistry, ToolRegistryService>() {}
