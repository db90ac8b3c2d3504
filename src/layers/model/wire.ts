/**
 * The OpenAI chat-completions wire format: the request body we send, and the
 * Schemas that decode what comes back (whole responses and stream chunks).
 * Decoding is lenient where real servers differ (missing ids or indexes,
 * arguments sent as an object, `reasoning_content`) and strict where a body
 * cannot be used; a failure names the path that was wrong.
 */
import { Either, ParseResult, Schema } from "effect"
import type { ChatMessage, FinishReason, ModelDelta, ModelRequest, ModelResponse, ToolCallRequest, Usage } from "../../services/Model.js"
import { ModelDelta as Delta } from "../../services/Model.js"

// ---------------------------------------------------------------------------
// Request

export interface BodyDefaults {
  readonly model: string
  readonly temperature?: number | undefined
  readonly maxTokens?: number | undefined
}

/** Only the fields the API defines: providers such as OpenAI reject unknown message keys. */
const wireMessage = (message: ChatMessage): Record<string, unknown> => {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content }
    case "user":
    {
      // Images go as content parts (the OpenAI-compatible array form).
      const content = message.content_parts ?? message.content
      return message.name === undefined ? { role: "user", content } : { role: "user", content, name: message.name }
    }
    case "assistant":
      return message.tool_calls === undefined || message.tool_calls.length === 0
        ? { role: "assistant", content: message.content ?? "" }
        : { role: "assistant", content: message.content, tool_calls: message.tool_calls }
    case "tool":
      // A multimodal result goes as its content parts (the OpenAI-compatible array form).
      return { role: "tool", tool_call_id: message.tool_call_id, content: message.content_parts ?? message.content }
  }
}

export const requestBody = (request: ModelRequest, defaults: BodyDefaults, stream: boolean): Record<string, unknown> => {
  const body: Record<string, unknown> = {
    model: request.model ?? defaults.model,
    messages: request.messages.map(wireMessage)
  }
  if (request.tools !== undefined && request.tools.length > 0) body["tools"] = request.tools
  if (request.toolChoice !== undefined) body["tool_choice"] = request.toolChoice
  const temperature = request.temperature ?? defaults.temperature
  if (temperature !== undefined) body["temperature"] = temperature
  const maxTokens = request.maxTokens ?? defaults.maxTokens
  if (maxTokens !== undefined) body["max_tokens"] = maxTokens
  if (stream) {
    body["stream"] = true
    body["stream_options"] = { include_usage: true }
  }
  return body
}

// ---------------------------------------------------------------------------
// Responses

const Text = Schema.optional(Schema.NullOr(Schema.String))
/** Some servers send arguments as an object rather than a JSON string. */
const Arguments = Schema.Union(Schema.String, Schema.Record({ key: Schema.String, value: Schema.Unknown }))

const WireUsage = Schema.Struct({
  prompt_tokens: Schema.optional(Schema.Number),
  completion_tokens: Schema.optional(Schema.Number),
  total_tokens: Schema.optional(Schema.Number)
}).annotations({ identifier: "usage object" })

const WireToolCall = Schema.Struct({
  id: Text,
  type: Text,
  function: Schema.Struct({ name: Schema.String, arguments: Schema.optional(Schema.NullOr(Arguments)) }).annotations({ identifier: "function object" })
}).annotations({ identifier: "tool call object" })

const WireMessage = Schema.Struct({
  role: Text,
  content: Text,
  tool_calls: Schema.optional(Schema.NullOr(Schema.Array(WireToolCall))),
  reasoning_content: Text,
  reasoning: Text
}).annotations({ identifier: "message object" })

const WireCompletion = Schema.Struct({
  id: Text,
  model: Text,
  choices: Schema.NonEmptyArray(Schema.Struct({
    message: WireMessage,
    finish_reason: Text
  }).annotations({ identifier: "choice object" })).annotations({ identifier: "non-empty array of choices" }),
  usage: Schema.optional(Schema.NullOr(WireUsage))
}).annotations({ identifier: "chat completion object" })

const WireDeltaToolCall = Schema.Struct({
  index: Schema.optional(Schema.Number),
  id: Text,
  type: Text,
  function: Schema.optional(Schema.NullOr(Schema.Struct({ name: Text, arguments: Schema.optional(Schema.NullOr(Arguments)) })))
})

const WireChunk = Schema.Struct({
  id: Text,
  model: Text,
  choices: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({
    index: Schema.optional(Schema.Number),
    delta: Schema.optional(Schema.NullOr(Schema.Struct({
      role: Text,
      content: Text,
      reasoning_content: Text,
      reasoning: Text,
      tool_calls: Schema.optional(Schema.NullOr(Schema.Array(WireDeltaToolCall)))
    }))),
    finish_reason: Text
  }).annotations({ identifier: "chunk choice object" })).annotations({ identifier: "array of choices" }))),
  usage: Schema.optional(Schema.NullOr(WireUsage))
}).annotations({ identifier: "chat completion chunk" })

/** `{"error": {"message", "type", "code"}}` as OpenAI-compatible servers send it (in bodies and in streams). */
const WireError = Schema.Struct({
  error: Schema.Union(
    Schema.String,
    Schema.Struct({ message: Text, type: Text, code: Schema.optional(Schema.Unknown) })
  )
})

const decodeCompletionBody = Schema.decodeUnknownEither(WireCompletion, { errors: "first" })
const decodeChunkBody = Schema.decodeUnknownEither(WireChunk, { errors: "first" })
const decodeErrorBody = Schema.decodeUnknownEither(WireError)

/** The first problem of a decode, as `path.to.field: what was wrong`. */
export const describeParseError = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  if (first === undefined) return error.message
  const path = first.path.length === 0 ? "body" : first.path.map(String).join(".")
  return `${path}: ${first.message}`
}

const parseJson = (text: string): Either.Either<unknown, string> => {
  try {
    return Either.right(JSON.parse(text) as unknown)
  } catch (e) {
    const preview = text.length > 120 ? `${text.slice(0, 120)}…` : text
    return Either.left(`the body is not JSON (${e instanceof Error ? e.message : String(e)}): ${JSON.stringify(preview)}`)
  }
}

const argumentsText = (value: string | { readonly [key: string]: unknown } | null | undefined): string =>
  value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value)

const usageOf = (usage: typeof WireUsage.Type | null | undefined): Usage | undefined => {
  if (usage === null || usage === undefined) return undefined
  const prompt = usage.prompt_tokens ?? 0
  const completion = usage.completion_tokens ?? 0
  return { promptTokens: prompt, completionTokens: completion, totalTokens: usage.total_tokens ?? prompt + completion }
}

const nonEmpty = (text: string | null | undefined): string | undefined => (text === null || text === undefined || text.length === 0 ? undefined : text)

/** A whole chat completion (non-streaming) → our response, or what was wrong with it. */
export const decodeCompletion = (text: string, requestedModel: string): Either.Either<ModelResponse, string> =>
  Either.flatMap(parseJson(text), (json) =>
    Either.map(Either.mapLeft(decodeCompletionBody(json), describeParseError), (body) => {
      const choice = body.choices[0]
      const calls: Array<ToolCallRequest> = (choice.message.tool_calls ?? []).map((call, i) => ({
        id: nonEmpty(call.id) ?? `call_${i}`,
        type: "function",
        function: { name: call.function.name, arguments: argumentsText(call.function.arguments) }
      }))
      const content = choice.message.content ?? (calls.length > 0 ? null : "")
      const reasoning = nonEmpty(choice.message.reasoning_content) ?? nonEmpty(choice.message.reasoning)
      const finishReason: FinishReason = nonEmpty(choice.finish_reason) ?? (calls.length > 0 ? "tool_calls" : "stop")
      return {
        message: {
          role: "assistant",
          content,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          ...(reasoning !== undefined ? { reasoning } : {})
        },
        finishReason,
        usage: usageOf(body.usage),
        model: nonEmpty(body.model) ?? requestedModel,
        id: nonEmpty(body.id)
      } satisfies ModelResponse
    }))

export type ChunkResult =
  | { readonly _tag: "Deltas"; readonly deltas: ReadonlyArray<ModelDelta>; readonly model: string | undefined }
  | { readonly _tag: "Done" }
  | { readonly _tag: "Error"; readonly detail: string; readonly code: number | undefined }

/** One `data:` payload of a stream → its deltas, the end marker, an in-stream error, or what was malformed. */
export const decodeChunk = (payload: string): Either.Either<ChunkResult, string> => {
  if (payload.trim() === "[DONE]") return Either.right({ _tag: "Done" })
  return Either.flatMap(parseJson(payload), (json): Either.Either<ChunkResult, string> => {
    const error = decodeErrorBody(json)
    if (Either.isRight(error)) {
      const e = error.right.error
      const code = typeof e === "string" ? undefined : e.code
      return Either.right({
        _tag: "Error",
        detail: typeof e === "string" ? e : e.message ?? "unknown error",
        code: typeof code === "number" ? code : undefined
      })
    }
    return Either.map(Either.mapLeft(decodeChunkBody(json), describeParseError), (chunk) => {
      const deltas: Array<ModelDelta> = []
      for (const choice of chunk.choices ?? []) {
        if ((choice.index ?? 0) !== 0) continue
        const delta = choice.delta
        if (delta !== null && delta !== undefined) {
          const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning)
          if (reasoning !== undefined) deltas.push(Delta.ReasoningDelta({ text: reasoning }))
          const content = nonEmpty(delta.content)
          if (content !== undefined) deltas.push(Delta.TextDelta({ text: content }))
          ;(delta.tool_calls ?? []).forEach((call, position) => {
            deltas.push(Delta.ToolCallDelta({
              index: call.index ?? position,
              id: nonEmpty(call.id),
              name: nonEmpty(call.function?.name),
              arguments: argumentsText(call.function?.arguments)
            }))
          })
        }
        const finish = nonEmpty(choice.finish_reason)
        if (finish !== undefined) deltas.push(Delta.FinishDelta({ reason: finish }))
      }
      const usage = usageOf(chunk.usage)
      if (usage !== undefined) deltas.push(Delta.UsageDelta({ usage }))
      return { _tag: "Deltas", deltas, model: nonEmpty(chunk.model) }
    })
  })
}

/** The provider's own error message from an error body, else the start of the body. */
export const errorDetail = (text: string): string => {
  const json = parseJson(text)
  if (Either.isRight(json)) {
    const error = decodeErrorBody(json.right)
    if (Either.isRight(error)) {
      const e = error.right.error
      const message = typeof e === "string" ? e : e.message
      if (message !== null && message !== undefined && message.length > 0) return message
    }
  }
  const trimmed = text.trim()
  if (trimmed.length === 0) return "(empty body)"
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed
}
