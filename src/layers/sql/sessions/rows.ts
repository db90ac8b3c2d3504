/**
 * The state database's rows as effect/Schema: each schema decodes a
 * snake_case row straight into the service's camelCase type (`fromKey`), so
 * the queries need no hand-written mappers, and encodes the other way for
 * inserts.
 */
import { Schema } from "effect"
import type { ToolCallRecord } from "../../../services/SessionStore.js"

const column = <S extends Schema.Schema.Any>(schema: S, key: string) => Schema.propertySignature(schema).pipe(Schema.fromKey(key))

const Role = Schema.Literal("system", "user", "assistant", "tool")

const NullableString = Schema.NullOr(Schema.String)

/** Tool calls as stored; damaged JSON or a non-array reads as no tool calls, never as a failed query. */
const ToolCallsJson = Schema.transform(
  NullableString,
  Schema.declare((u: unknown): u is ReadonlyArray<ToolCallRecord> | null => u === null || Array.isArray(u)),
  {
    strict: true,
    decode: (text) => {
      if (text === null) return null
      try {
        const value: unknown = JSON.parse(text)
        return Array.isArray(value) ? (value as ReadonlyArray<ToolCallRecord>) : null
      } catch {
        return null
      }
    },
    encode: (calls) => (calls === null ? null : JSON.stringify(calls))
  }
)

/** `tool_calls` as written by an append: JSON text, or NULL when the message has none. */
export const encodeToolCalls = Schema.encodeSync(ToolCallsJson)

/** A `sessions` row (the columns in `SESSION_COLUMNS`). */
export const SessionRow = Schema.Struct({
  id: Schema.String,
  source: Schema.String,
  parentSessionId: column(NullableString, "parent_session_id"),
  cwd: NullableString,
  model: NullableString,
  title: NullableString,
  createdAt: column(Schema.Number, "created_at"),
  updatedAt: column(Schema.Number, "updated_at"),
  messageCount: column(Schema.Number, "message_count"),
  toolCallCount: column(Schema.Number, "tool_call_count"),
  inputTokens: column(Schema.Number, "input_tokens"),
  outputTokens: column(Schema.Number, "output_tokens")
})

export const SESSION_COLUMNS =
  "id, source, parent_session_id, cwd, model, title, created_at, updated_at, message_count, tool_call_count, input_tokens, output_tokens"

/** A session in a listing: its row plus the start of its first user message. */
export const SessionSummaryRow = Schema.Struct({ ...SessionRow.fields, preview: NullableString })

/** What `create` and `ensure` insert; the counters start at their column defaults. */
export const NewSessionRow = Schema.Struct({
  id: Schema.String,
  source: Schema.String,
  parentSessionId: column(NullableString, "parent_session_id"),
  cwd: NullableString,
  model: NullableString,
  title: NullableString,
  createdAt: column(Schema.Number, "created_at"),
  updatedAt: column(Schema.Number, "updated_at")
})

/** A `messages` row (the columns in `MESSAGE_COLUMNS`). */
export const MessageRow = Schema.Struct({
  id: Schema.Number,
  sessionId: column(Schema.String, "session_id"),
  ordinal: Schema.Number,
  role: Role,
  content: NullableString,
  toolCalls: column(ToolCallsJson, "tool_calls"),
  toolCallId: column(NullableString, "tool_call_id"),
  toolName: column(NullableString, "tool_name"),
  createdAt: column(Schema.Number, "created_at")
})

export const MESSAGE_COLUMNS = "id, session_id, ordinal, role, content, tool_calls, tool_call_id, tool_name, created_at"

/** A search match with its session (the columns in `HIT_COLUMNS`); `text` is FTS5's snippet or the whole content. */
export const HitRow = Schema.Struct({
  messageId: column(Schema.Number, "id"),
  sessionId: column(Schema.String, "session_id"),
  ordinal: Schema.Number,
  role: Role,
  createdAt: column(Schema.Number, "created_at"),
  source: Schema.String,
  model: NullableString,
  title: NullableString,
  sessionCreatedAt: column(Schema.Number, "session_created_at"),
  text: NullableString
})

export const HIT_COLUMNS = "m.id, m.session_id, m.ordinal, m.role, m.created_at, s.source, s.model, s.title, s.created_at AS session_created_at"

/** A `process_checkpoints` row, all columns. */
export const CheckpointRow = Schema.Struct({
  id: Schema.String,
  sessionId: column(NullableString, "session_id"),
  taskId: column(Schema.String, "task_id"),
  command: Schema.String,
  cwd: NullableString,
  pid: Schema.NullOr(Schema.Number),
  status: Schema.String,
  exitCode: column(Schema.NullOr(Schema.Number), "exit_code"),
  startedAt: column(Schema.Number, "started_at"),
  updatedAt: column(Schema.Number, "updated_at"),
  outputTail: column(Schema.String, "output_tail")
})
