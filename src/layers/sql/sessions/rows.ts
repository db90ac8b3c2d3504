/**
 * The state database's rows as effect/Schema.
 *
 * Rows read on hot paths (sessions, messages, search hits) are declared as
 * the columns SQLite returns, snake_case and untransformed, and read through
 * a compiled row check (../rowReader.ts) plus the mapper beside each schema
 * into the service's camelCase type: Schema's general decoder, with `fromKey`
 * renames and a JSON transform, cost more per row than SQLite's read.
 * Rows written, and the few read rarely, decode with `fromKey` below.
 */
import { Schema } from "effect"
import type { SearchHit, Session, SessionSummary, StoredMessage, ToolCallRecord } from "../../../services/SessionStore.js"
import { rowReader } from "../rowReader.js"

const column = <S extends Schema.Schema.Any>(schema: S, key: string) => Schema.propertySignature(schema).pipe(Schema.fromKey(key))

const Role = Schema.Literal("system", "user", "assistant", "tool")

const NullableString = Schema.NullOr(Schema.String)

/** The column list of a columns schema, in its order, for a SELECT. */
const columnList = (fields: Schema.Struct.Fields) => Object.keys(fields).join(", ")

/** `tool_calls` as written by an append: JSON text, or NULL when the message has none. */
export const toolCallsText = (calls: ReadonlyArray<ToolCallRecord> | null): string | null => (calls === null ? null : JSON.stringify(calls))

/** `tool_calls` as read: damaged JSON or a non-array reads as no tool calls, never as a failed query. */
export const toolCallsOf = (text: string | null): ReadonlyArray<ToolCallRecord> | null => {
  if (text === null) return null
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? (value as ReadonlyArray<ToolCallRecord>) : null
  } catch {
    return null
  }
}

/** A `sessions` row as selected (the columns in `SESSION_COLUMNS`). */
export const SessionColumns = Schema.Struct({
  id: Schema.String,
  source: Schema.String,
  parent_session_id: NullableString,
  cwd: NullableString,
  model: NullableString,
  title: NullableString,
  created_at: Schema.Number,
  updated_at: Schema.Number,
  message_count: Schema.Number,
  tool_call_count: Schema.Number,
  input_tokens: Schema.Number,
  output_tokens: Schema.Number
})

export const SESSION_COLUMNS = columnList(SessionColumns.fields)

export const sessionRows = rowReader(SessionColumns)

export const toSession = (r: typeof SessionColumns.Type): Session => ({
  id: r.id,
  source: r.source,
  parentSessionId: r.parent_session_id,
  cwd: r.cwd,
  model: r.model,
  title: r.title,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  messageCount: r.message_count,
  toolCallCount: r.tool_call_count,
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens
})

/** A session in a listing: its row plus the start of its first user message. */
export const SessionSummaryColumns = Schema.Struct({ ...SessionColumns.fields, preview: NullableString })

export const sessionSummaryRows = rowReader(SessionSummaryColumns)

export const toSessionSummary = (r: typeof SessionSummaryColumns.Type): SessionSummary => ({ ...toSession(r), preview: r.preview })

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

/** A `messages` row as selected (the columns in `MESSAGE_COLUMNS`). */
export const MessageColumns = Schema.Struct({
  id: Schema.Number,
  session_id: Schema.String,
  ordinal: Schema.Number,
  role: Role,
  content: NullableString,
  tool_calls: NullableString,
  tool_call_id: NullableString,
  tool_name: NullableString,
  created_at: Schema.Number
})

export const MESSAGE_COLUMNS = columnList(MessageColumns.fields)

export const messageRows = rowReader(MessageColumns)

export const toStoredMessage = (r: typeof MessageColumns.Type): StoredMessage => ({
  id: r.id,
  sessionId: r.session_id,
  ordinal: r.ordinal,
  role: r.role,
  content: r.content,
  toolCalls: toolCallsOf(r.tool_calls),
  toolCallId: r.tool_call_id,
  toolName: r.tool_name,
  createdAt: r.created_at
})

/** A search match with its session (the columns in `HIT_COLUMNS`, then `text`: FTS5's snippet or the whole content). */
export const HitColumns = Schema.Struct({
  id: Schema.Number,
  session_id: Schema.String,
  ordinal: Schema.Number,
  role: Role,
  created_at: Schema.Number,
  source: Schema.String,
  model: NullableString,
  title: NullableString,
  session_created_at: Schema.Number,
  text: NullableString
})

export const HIT_COLUMNS = "m.id, m.session_id, m.ordinal, m.role, m.created_at, s.source, s.model, s.title, s.created_at AS session_created_at"

export const hitRows = rowReader(HitColumns)

/** A hit with its snippet: FTS5's for word matches, cut from the whole content (`text`) for substring ones. Keys in the order results print. */
export const toSearchHit = (r: typeof HitColumns.Type, match: SearchHit["match"], snippet: string): SearchHit => ({
  messageId: r.id,
  sessionId: r.session_id,
  ordinal: r.ordinal,
  role: r.role,
  createdAt: r.created_at,
  source: r.source,
  model: r.model,
  title: r.title,
  sessionCreatedAt: r.session_created_at,
  snippet,
  match
})

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
