/**
 * Model: one chat-completions call to a language model, in OpenAI's format.
 *
 * Messages are OpenAI chat messages (system / user / assistant with
 * `tool_calls` / tool with `tool_call_id`) and tools are OpenAI function
 * definitions (`ToolDefinitionJson`), so what the agent loop stores is what it
 * sends. `complete` returns one whole response; `stream` emits deltas (text,
 * tool-call argument fragments keyed by index, finish reason, usage) and ends
 * with a `Done` delta carrying the assembled response. Both are interruptible:
 * interrupting the fiber aborts the request.
 *
 * Layers: `ModelOpenAi` (any OpenAI-compatible endpoint), `ModelScripted`
 * (replays a JSONL script: tests, demos, deterministic replays),
 * `ModelFromConfig` (picks one from `model:` in config.yaml) and
 * `ModelUnconfigured` (every call fails with `ModelNotConfigured`).
 */
import { Context, Data, Schema } from "effect"
import type { Effect, Stream } from "effect"
import type { ToolDefinitionJson } from "./Tool.js"
import type { ToolCallContext } from "./ToolContext.js"

// ---------------------------------------------------------------------------
// Messages (OpenAI chat format)

export const ToolCallRequest = Schema.Struct({
  id: Schema.String,
  type: Schema.Literal("function"),
  function: Schema.Struct({
    name: Schema.String,
    /** The model's arguments exactly as sent: a JSON string, possibly malformed. */
    arguments: Schema.String
  })
})
export type ToolCallRequest = typeof ToolCallRequest.Type

export const SystemMessage = Schema.Struct({ role: Schema.Literal("system"), content: Schema.String })
export type SystemMessage = typeof SystemMessage.Type

export const ContentPart = Schema.Union(
  Schema.Struct({ type: Schema.Literal("text"), text: Schema.String }),
  Schema.Struct({ type: Schema.Literal("image_url"), image_url: Schema.Struct({ url: Schema.String, detail: Schema.optional(Schema.String) }) })
)
export type ContentPart = typeof ContentPart.Type

export const UserMessage = Schema.Struct({
  role: Schema.Literal("user"),
  content: Schema.String,
  /** The message as text and image parts, for a model that accepts images (`content` stays its text). */
  content_parts: Schema.optional(Schema.Array(ContentPart)),
  name: Schema.optional(Schema.String)
})
export type UserMessage = typeof UserMessage.Type

export const AssistantMessage = Schema.Struct({
  role: Schema.Literal("assistant"),
  /** Null when the turn is only tool calls. */
  content: Schema.NullOr(Schema.String),
  tool_calls: Schema.optional(Schema.Array(ToolCallRequest)),
  /** Reasoning text some providers return; kept for the transcript, never sent back. */
  reasoning: Schema.optional(Schema.String)
})
export type AssistantMessage = typeof AssistantMessage.Type

/** One part of a multimodal message (OpenAI's shape): text or an image by URL (a data: URL included). */
export const ToolMessage = Schema.Struct({
  role: Schema.Literal("tool"),
  tool_call_id: Schema.String,
  /** The result text; for a multimodal result, its text summary (what is stored). */
  content: Schema.String,
  /** A multimodal result's parts, sent to the model in place of `content`; not stored. */
  content_parts: Schema.optional(Schema.Array(ContentPart)),
  /** The tool's name (some providers want it; OpenAI ignores it). */
  name: Schema.optional(Schema.String)
})
export type ToolMessage = typeof ToolMessage.Type

export const ChatMessage = Schema.Union(SystemMessage, UserMessage, AssistantMessage, ToolMessage)
export type ChatMessage = typeof ChatMessage.Type
export type ChatRole = ChatMessage["role"]

// ---------------------------------------------------------------------------
// Requests and responses

export interface ModelRequest {
  readonly messages: ReadonlyArray<ChatMessage>
  /** Tool definitions offered this turn; omitted or empty sends none. */
  readonly tools?: ReadonlyArray<ToolDefinitionJson> | undefined
  readonly toolChoice?: "auto" | "none" | "required" | undefined
  /** Overrides the configured model name for this call (e.g. `--model`). */
  readonly model?: string | undefined
  readonly temperature?: number | undefined
  readonly maxTokens?: number | undefined
  /**
   * Who is asking. The scripted provider keeps one position in its script
   * per `sessionId`; providers log with it.
   */
  readonly context?: Partial<ToolCallContext> | undefined
}

/** "stop" | "tool_calls" | "length" | "content_filter", or whatever else a provider says. */
export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | (string & {})

export interface Usage {
  readonly promptTokens: number
  readonly completionTokens: number
  readonly totalTokens: number
}

export interface ModelResponse {
  /** The assistant message to append to the conversation as is. */
  readonly message: AssistantMessage
  readonly finishReason: FinishReason
  readonly usage?: Usage | undefined
  /** The model that answered (as the provider reports it). */
  readonly model: string
  readonly id?: string | undefined
}

/**
 * One streaming event. Tool calls arrive as fragments: the first fragment of
 * an index carries its `id` and `name`, later ones only more `arguments` text;
 * concatenating the `arguments` of one index gives the call's JSON. `Done` is
 * always last and carries the assembled response.
 */
export type ModelDelta = Data.TaggedEnum<{
  TextDelta: { readonly text: string }
  ReasoningDelta: { readonly text: string }
  ToolCallDelta: { readonly index: number; readonly id?: string | undefined; readonly name?: string | undefined; readonly arguments: string }
  FinishDelta: { readonly reason: FinishReason }
  UsageDelta: { readonly usage: Usage }
  Done: { readonly response: ModelResponse }
}>
export const ModelDelta = Data.taggedEnum<ModelDelta>()

// ---------------------------------------------------------------------------
// Errors (all cross the boundary to the agent loop; each carries a message)

/** No provider is configured, or its configuration is incomplete. */
export class ModelNotConfigured extends Schema.TaggedError<ModelNotConfigured>()("ModelNotConfigured", {
  reason: Schema.String
}) {
  override get message(): string {
    return `No model configured: ${this.reason}`
  }
}

/** The provider refused the credentials (401/403), or the key's variable is empty. */
export class ModelAuthFailed extends Schema.TaggedError<ModelAuthFailed>()("ModelAuthFailed", {
  /** The environment variable the key is read from (`model.api_key_env`), if any. */
  envVar: Schema.optional(Schema.String),
  /** HTTP status; absent when the key was missing before any request. */
  status: Schema.optional(Schema.Number),
  url: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    if (this.status === undefined) return `Model API key missing for ${this.url}: ${this.detail}`
    const hint = this.envVar === undefined
      ? "no API key is configured; set model.api_key_env to the name of the variable that holds it"
      : `check the API key in the environment variable ${this.envVar}`
    return `Model provider rejected the credentials (HTTP ${this.status} from ${this.url}); ${hint}: ${this.detail}`
  }
}

/** The provider answered with an error status (after retries, for 429 and 5xx). */
export class ModelHttpError extends Schema.TaggedError<ModelHttpError>()("ModelHttpError", {
  status: Schema.Number,
  url: Schema.String,
  detail: Schema.String,
  attempts: Schema.Number
}) {
  override get message(): string {
    const tries = this.attempts > 1 ? ` after ${this.attempts} attempts` : ""
    const kind = this.status === 429 ? " (rate limited)" : ""
    return `Model provider returned HTTP ${this.status}${kind}${tries}: ${this.detail}`
  }
}

/** The body was not what an OpenAI-compatible endpoint sends; `detail` says what was wrong. */
export class ModelBadResponse extends Schema.TaggedError<ModelBadResponse>()("ModelBadResponse", {
  url: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return `Malformed response from the model provider (${this.url}): ${this.detail}`
  }
}

/** The request never got an answer: connection refused, reset, DNS (after retries). */
export class ModelNetworkError extends Schema.TaggedError<ModelNetworkError>()("ModelNetworkError", {
  url: Schema.String,
  detail: Schema.String,
  attempts: Schema.Number
}) {
  override get message(): string {
    const tries = this.attempts > 1 ? ` after ${this.attempts} attempts` : ""
    return `Could not reach the model provider at ${this.url}${tries}: ${this.detail}`
  }
}

/** No answer (or, while streaming, no next chunk) within `model.timeout_seconds` (after retries). */
export class ModelTimeout extends Schema.TaggedError<ModelTimeout>()("ModelTimeout", {
  url: Schema.String,
  seconds: Schema.Number,
  attempts: Schema.Number
}) {
  override get message(): string {
    const tries = this.attempts > 1 ? ` (${this.attempts} attempts)` : ""
    return `The model provider at ${this.url} did not answer within ${this.seconds}s${tries}`
  }
}

/** The scripted provider could not answer: bad script, no turn left, or the request broke an `expect`. */
export class ModelScriptError extends Schema.TaggedError<ModelScriptError>()("ModelScriptError", {
  reason: Schema.Literal("invalid", "exhausted", "mismatch"),
  /** Script file (or "<inline>") and 1-based line, when known. */
  source: Schema.String,
  line: Schema.optional(Schema.Number),
  detail: Schema.String
}) {
  override get message(): string {
    const where = this.line === undefined ? this.source : `${this.source}:${this.line}`
    return `Model script ${where}: ${this.detail}`
  }
}

export type ModelError =
  | ModelNotConfigured
  | ModelAuthFailed
  | ModelHttpError
  | ModelBadResponse
  | ModelNetworkError
  | ModelTimeout
  | ModelScriptError

export const ModelErrorSchema = Schema.Union(
  ModelNotConfigured,
  ModelAuthFailed,
  ModelHttpError,
  ModelBadResponse,
  ModelNetworkError,
  ModelTimeout,
  ModelScriptError
)

// ---------------------------------------------------------------------------
// Service

export interface ModelService {
  /** "openai" (and other OpenAI-compatible names), "scripted", or "none". */
  readonly provider: string
  /** The default model name sent with each request. */
  readonly model: string
  /** One whole response. */
  readonly complete: (request: ModelRequest) => Effect.Effect<ModelResponse, ModelError>
  /** Deltas as they arrive, ending with `Done`. Retries happen only before the first delta. */
  readonly stream: (request: ModelRequest) => Stream.Stream<ModelDelta, ModelError>
}

export class Model extends Context.Tag("hermes-effect/Model")<Model, ModelService>() {}
