/**
 * SessionStore: conversations as sessions of ordered messages, searchable, in
 * the state database.
 *
 * The current session of a tool call is `ToolCallContext.sessionId`, or the
 * task id when the caller gave none (see `sessionKey`): a headless call for
 * task `t1` keeps its todo list in session `t1`. Stores create that session on
 * first use with source `task`.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { ToolCallContext } from "./ToolContext.js"

export type MessageRole = "system" | "user" | "assistant" | "tool"

/** An assistant's tool call in OpenAI's shape, as the model sent it. */
export interface ToolCallRecord {
  readonly id: string
  readonly type: "function"
  readonly function: { readonly name: string; readonly arguments: string }
}

export interface Session {
  readonly id: string
  /** Who started it: cli, batch, acp, subagent, task, … */
  readonly source: string
  /** The session this one was forked or delegated from. */
  readonly parentSessionId: string | null
  readonly cwd: string | null
  readonly model: string | null
  readonly title: string | null
  /** Milliseconds since the epoch (the Effect Clock's). */
  readonly createdAt: number
  readonly updatedAt: number
  readonly messageCount: number
  readonly toolCallCount: number
  readonly inputTokens: number
  readonly outputTokens: number
}

/** A session in a listing, with the start of its first user message. */
export interface SessionSummary extends Session {
  readonly preview: string | null
}

export interface NewSession {
  /** Default: a fresh `YYYYMMDD_HHMMSS_xxxxxx` id. */
  readonly id?: string | undefined
  readonly source: string
  readonly parentSessionId?: string | null | undefined
  readonly cwd?: string | null | undefined
  readonly model?: string | null | undefined
  readonly title?: string | null | undefined
}

export interface SessionPatch {
  readonly title?: string | null | undefined
  readonly model?: string | null | undefined
  readonly cwd?: string | null | undefined
}

export interface NewMessage {
  readonly role: MessageRole
  readonly content: string | null
  readonly toolCalls?: ReadonlyArray<ToolCallRecord> | null | undefined
  readonly toolCallId?: string | null | undefined
  readonly toolName?: string | null | undefined
}

export interface StoredMessage {
  /** Unique across the database and never reused (session_search's message ids). */
  readonly id: number
  readonly sessionId: string
  /** 0-based position in its session. */
  readonly ordinal: number
  readonly role: MessageRole
  readonly content: string | null
  readonly toolCalls: ReadonlyArray<ToolCallRecord> | null
  readonly toolCallId: string | null
  readonly toolName: string | null
  readonly createdAt: number
}

/** Tokens spent on the turn being appended (added to the session's counters). */
export interface Usage {
  readonly inputTokens?: number | undefined
  readonly outputTokens?: number | undefined
}

export interface ListSessionsOptions {
  /** Page size (default 20, at most 1000). */
  readonly limit?: number | undefined
  readonly offset?: number | undefined
  readonly source?: string | undefined
  readonly excludeSources?: ReadonlyArray<string> | undefined
  readonly cwd?: string | undefined
  /** Newest first by creation (default) or by last activity. */
  readonly orderBy?: "created" | "updated" | undefined
}

export interface SessionPage {
  readonly sessions: ReadonlyArray<SessionSummary>
  /** Sessions matching the filter, over all pages. */
  readonly total: number
  /** Offset of the next page, or null on the last one. */
  readonly nextOffset: number | null
}

export interface HistoryOptions {
  /** First ordinal to return (default 0). */
  readonly fromOrdinal?: number | undefined
  readonly limit?: number | undefined
}

/** Messages around an anchor, with how many lie outside the window on each side. */
export interface MessageWindow {
  readonly anchor: StoredMessage
  readonly messages: ReadonlyArray<StoredMessage>
  readonly before: number
  readonly after: number
}

export interface SearchOptions {
  /** Hits to return (default 20, at most 500). */
  readonly limit?: number | undefined
  readonly offset?: number | undefined
  readonly roles?: ReadonlyArray<string> | undefined
  readonly sources?: ReadonlyArray<string> | undefined
  readonly excludeSources?: ReadonlyArray<string> | undefined
  readonly sessionId?: string | undefined
  /** BM25 relevance (default) or message age. Substring matches have no relevance and come newest first. */
  readonly sort?: "relevance" | "newest" | "oldest" | undefined
}

export interface SearchHit {
  readonly messageId: number
  readonly sessionId: string
  readonly ordinal: number
  readonly role: MessageRole
  /** The matching text with the match between `>>>` and `<<<`. */
  readonly snippet: string
  readonly createdAt: number
  readonly source: string
  readonly model: string | null
  readonly title: string | null
  readonly sessionCreatedAt: number
  /** `fts`: word match (FTS5 syntax); `substring`: trigram index (substrings, CJK). */
  readonly match: "fts" | "substring"
}

export type ExportFormat = "sharegpt" | "messages"

/** A background process as last seen, so a restarted runtime knows what was running. */
export interface ProcessCheckpoint {
  readonly id: string
  readonly sessionId: string | null
  readonly taskId: string
  readonly command: string
  readonly cwd: string | null
  readonly pid: number | null
  readonly status: string
  readonly exitCode: number | null
  readonly startedAt: number
  readonly updatedAt: number
  /** The last output, bounded by the caller. */
  readonly outputTail: string
}

export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()("SessionNotFound", {
  sessionId: Schema.String
}) {
  override get message(): string {
    return `session not found: ${this.sessionId}`
  }
}

export class SessionExists extends Schema.TaggedError<SessionExists>()("SessionExists", {
  sessionId: Schema.String
}) {
  override get message(): string {
    return `session already exists: ${this.sessionId}`
  }
}

export class MessageNotFound extends Schema.TaggedError<MessageNotFound>()("MessageNotFound", {
  sessionId: Schema.String,
  messageId: Schema.Number
}) {
  override get message(): string {
    return `message ${this.messageId} is not in session ${this.sessionId}`
  }
}

/** The database refused or failed an operation (busy past the timeout, disk full, damaged file, …). */
export class SessionStoreError extends Schema.TaggedError<SessionStoreError>()("SessionStoreError", {
  operation: Schema.String,
  message: Schema.String
}) {}

export interface SessionStoreService {
  readonly create: (input: NewSession) => Effect.Effect<Session, SessionExists | SessionStoreError>
  /** The session with this id, created with `defaults` when it does not exist yet. */
  readonly ensure: (id: string, defaults: Omit<NewSession, "id">) => Effect.Effect<Session, SessionStoreError>
  readonly get: (id: string) => Effect.Effect<Session, SessionNotFound | SessionStoreError>
  readonly list: (options?: ListSessionsOptions) => Effect.Effect<SessionPage, SessionStoreError>
  readonly update: (id: string, patch: SessionPatch) => Effect.Effect<Session, SessionNotFound | SessionStoreError>
  /** A new session whose parent is `id`, holding a copy of its history (up to `upToOrdinal`, inclusive). */
  readonly fork: (
    id: string,
    options?: { readonly id?: string; readonly source?: string; readonly title?: string; readonly upToOrdinal?: number }
  ) => Effect.Effect<Session, SessionNotFound | SessionExists | SessionStoreError>
  /** Delete a session with its messages and todo list; its children keep their history and lose the parent link. */
  readonly delete: (id: string) => Effect.Effect<{ readonly messages: number }, SessionNotFound | SessionStoreError>
  /** The session id, its parent, …, up to the root (forks and delegations). */
  readonly lineage: (id: string) => Effect.Effect<ReadonlyArray<string>, SessionStoreError>
  /** Append one turn's messages in one transaction; counters and the search index follow. */
  readonly append: (
    sessionId: string,
    messages: ReadonlyArray<NewMessage>,
    usage?: Usage
  ) => Effect.Effect<ReadonlyArray<StoredMessage>, SessionNotFound | SessionStoreError>
  readonly history: (sessionId: string, options?: HistoryOptions) => Effect.Effect<ReadonlyArray<StoredMessage>, SessionNotFound | SessionStoreError>
  readonly around: (
    sessionId: string,
    messageId: number,
    window: number
  ) => Effect.Effect<MessageWindow, SessionNotFound | MessageNotFound | SessionStoreError>
  /** Full-text search: FTS5 syntax (AND by default, OR, NOT, "phrases", prefix*); substrings and CJK through the trigram index. */
  readonly search: (query: string, options?: SearchOptions) => Effect.Effect<ReadonlyArray<SearchHit>, SessionStoreError>
  /** One session as JSONL: a ShareGPT trajectory line, or one OpenAI-format message per line. */
  readonly export: (sessionId: string, format?: ExportFormat) => Effect.Effect<string, SessionNotFound | SessionStoreError>
  readonly checkpointProcess: (checkpoint: ProcessCheckpoint) => Effect.Effect<void, SessionStoreError>
  readonly processCheckpoints: (options?: { readonly status?: string }) => Effect.Effect<ReadonlyArray<ProcessCheckpoint>, SessionStoreError>
  readonly removeProcessCheckpoint: (id: string) => Effect.Effect<void, SessionStoreError>
}

export class SessionStore extends Context.Tag("hermes-effect/SessionStore")<SessionStore, SessionStoreService>() {}

/** Source of sessions created on first use for a task id (no session id given). */
export const TASK_SESSION_SOURCE = "task"

/** The session a tool call belongs to: its session id, else its task id. */
export const sessionKey = (ctx: ToolCallContext): string => ctx.sessionId ?? ctx.taskId
