/**
 * Hooks: the plugin points around every tool call.
 *
 * - `pre_tool_call` may block a call or ask for approval. A pre hook that fails
 *   blocks the call (a broken policy plugin must not silently allow).
 * - `post_tool_call` observes the outcome; its failures are logged and ignored.
 * - `transform_tool_result` may replace the result string; the first string wins.
 *
 * And around each turn of the agent loop (as Hermes: once per user turn, not
 * per API request):
 * - `pre_llm_call` may add context for the model: every string (or
 *   `{context: string}`) returned is kept, joined with blank lines, and the
 *   loop appends it to the user message of this turn. A hook that fails is
 *   logged and skipped: it only adds information, it cannot allow or block.
 * - `post_llm_call` observes a turn that finished (not failed or interrupted);
 *   its failures are logged and ignored.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ChatMessage } from "./Model.js"
import type { ToolCallContext } from "./ToolContext.js"

export type PreToolDirective =
  | { readonly action: "block"; readonly message: string }
  | { readonly action: "approve"; readonly message: string; readonly ruleKey?: string | undefined }

export interface PreToolCallEvent {
  readonly tool: string
  readonly args: unknown
  readonly context: ToolCallContext
}

export type CallStatus = "ok" | "error" | "blocked"

export interface PostToolCallEvent {
  readonly tool: string
  readonly args: unknown
  readonly result: string
  readonly status: CallStatus
  /** Tag of the folded error, when the call failed. */
  readonly errorType?: string | undefined
  readonly errorMessage?: string | undefined
  readonly durationMs: number
  readonly context: ToolCallContext
}

export interface TransformToolResultEvent {
  readonly tool: string
  readonly args: unknown
  readonly result: string
  readonly context: ToolCallContext
}

export interface PreLlmCallEvent {
  /** The user's message that starts this turn. */
  readonly userMessage: string
  /** The conversation before this turn (system prompt included). */
  readonly messages: ReadonlyArray<ChatMessage>
  readonly isFirstTurn: boolean
  readonly model: string
  readonly turnId?: string | undefined
  readonly context: ToolCallContext
}

/** Context to add to the turn's user message: a string or `{context: string}`; anything else is ignored. */
export type PreLlmDirective = string | { readonly context: string }

export interface PostLlmCallEvent {
  readonly userMessage: string
  /** The model's final answer of the turn. */
  readonly assistantResponse: string
  /** The whole conversation after the turn. */
  readonly messages: ReadonlyArray<ChatMessage>
  readonly model: string
  readonly turnId?: string | undefined
  readonly context: ToolCallContext
}

export interface HookSet {
  readonly pre_tool_call?: (event: PreToolCallEvent) => Effect.Effect<PreToolDirective | undefined, unknown>
  readonly post_tool_call?: (event: PostToolCallEvent) => Effect.Effect<void, unknown>
  readonly transform_tool_result?: (event: TransformToolResultEvent) => Effect.Effect<string | undefined, unknown>
  /** Checked at run time too (plugins are untyped): only strings and `{context: string}` count. */
  readonly pre_llm_call?: (event: PreLlmCallEvent) => Effect.Effect<PreLlmDirective | undefined, unknown>
  readonly post_llm_call?: (event: PostLlmCallEvent) => Effect.Effect<void, unknown>
}

export type HookName = keyof HookSet
export const HOOK_NAMES: ReadonlyArray<HookName> = [
  "pre_tool_call",
  "post_tool_call",
  "transform_tool_result",
  "pre_llm_call",
  "post_llm_call"
]

/** The outcome of all pre hooks for one call. */
export type PreToolVerdict =
  | { readonly _tag: "Proceed" }
  | { readonly _tag: "Block"; readonly by: string; readonly message: string }
  | { readonly _tag: "Approve"; readonly by: string; readonly message: string; readonly ruleKey: string }

export interface HooksService {
  /** Add hooks under a source name (a plugin's name); returns a remover. */
  readonly register: (source: string, hooks: HookSet) => Effect.Effect<Effect.Effect<void>>
  /** Whether any hook of this kind is registered (dispatch skips the work when not). */
  readonly has: (name: HookName) => boolean
  readonly preToolCall: (event: PreToolCallEvent) => Effect.Effect<PreToolVerdict>
  readonly postToolCall: (event: PostToolCallEvent) => Effect.Effect<void>
  readonly transformToolResult: (event: TransformToolResultEvent) => Effect.Effect<string>
  /** The context every `pre_llm_call` hook added, joined with blank lines; undefined when none did. */
  readonly preLlmCall: (event: PreLlmCallEvent) => Effect.Effect<string | undefined>
  readonly postLlmCall: (event: PostLlmCallEvent) => Effect.Effect<void>
}

export class Hooks extends Context.Tag("hermes-effect/Hooks")<Hooks, HooksService>() {}
