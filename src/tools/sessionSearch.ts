/**
 * `session_search` (toolset `session_search`): recall past sessions from the
 * state database. The shape of the call picks the mode (Hermes' four shapes):
 *
 * - scroll: `session_id` + `around_message_id` → ±`window` messages (1–20, default 5)
 * - read: `session_id` → the session (first 20 + last 10 messages when longer)
 * - browse: nothing → the most recently active sessions
 * - discover: `query` → FTS5 search, one result per session lineage (forks and
 *   delegations count once) with the match, ±5 messages and 3 bookends each side
 *
 * The current session (ToolContext session id, else task id) and its lineage
 * are skipped: they are already in the model's context. Sessions from
 * `subagent` and `tool` sources are hidden; `cron` ones rank last.
 */
import { Effect, Schema } from "effect"
import { stripAnsiOutput } from "../lib/text.js"
import { SessionStore, sessionKey } from "../services/SessionStore.js"
import type { SearchHit, Session, SessionStoreError, SessionStoreService, StoredMessage } from "../services/SessionStore.js"
import { ToolContext } from "../services/ToolContext.js"
import { defineTool } from "../lib/tool/defineTool.js"

export const HIDDEN_SOURCES: ReadonlyArray<string> = ["subagent", "tool"]
const DEMOTED_SOURCES = new Set(["cron"])
const DISCOVER_SCAN = 300
const READ_HEAD = 20
const READ_TAIL = 10
const DISCOVER_WINDOW = 5
const BOOKENDS = 3
const WINDOW_CHARS = 4000
const BOOKEND_CHARS = 1200

export const SessionSearchParameters = Schema.Struct({
  query: Schema.optional(Schema.String.annotations({
    description: "Discover: words, \"phrases\", OR / NOT, prefix* to find in past sessions. Leave out to browse recent sessions."
  })),
  limit: Schema.optional(Schema.Int.annotations({ description: "Discover and browse: sessions to return (default 3, at most 10).", default: 3 })),
  sort: Schema.optional(Schema.Literal("newest", "oldest").annotations({
    description: "Discover: order by age instead of relevance ('newest' for where something was left, 'oldest' for how it started)."
  })),
  session_id: Schema.optional(Schema.String.annotations({
    description: "Read this session, or scroll in it together with around_message_id (an `@session:<id>` link works too)."
  })),
  around_message_id: Schema.optional(Schema.Int.annotations({
    description: "Scroll: the message id to centre on (a match_message_id or any id from an earlier window)."
  })),
  window: Schema.optional(Schema.Int.annotations({ description: "Scroll: messages on each side of the anchor (1–20, default 5).", default: 5 })),
  role_filter: Schema.optional(Schema.String.annotations({
    description: "Discover: comma-separated roles to search (default 'user,assistant'; add 'tool' to search tool output)."
  })),
  profile: Schema.optional(Schema.String.annotations({
    description: "Accepted for Hermes links (`@session:<profile>/<id>`); this runtime has one session store."
  }))
})

type Args = typeof SessionSearchParameters.Type
type Json = Record<string, unknown>

const clampInt = (value: number | undefined, fallback: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Math.floor(value !== undefined && Number.isFinite(value) ? value : fallback)))

/** `@session:work/20260101_…`, `work/20260101_…` and the bare id all name the same session. */
export const parseSessionRef = (ref: string): string => {
  const bare = ref.trim().replace(/^@session:/, "")
  const slash = bare.lastIndexOf("/")
  return slash >= 0 ? bare.slice(slash + 1) : bare
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

/** "July 22, 2026 at 08:43 PM", local time, as Hermes shows session dates. */
export const when = (ms: number): string => {
  const d = new Date(ms)
  const hours = d.getHours() % 12 === 0 ? 12 : d.getHours() % 12
  return `${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2, "0")}, ${d.getFullYear()} at ${String(hours).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")} ${d.getHours() < 12 ? "AM" : "PM"}`
}

const shapeMessage = (m: StoredMessage, options: { readonly anchor?: number; readonly maxChars?: number } = {}): Json => {
  const raw = m.content === null ? null : stripAnsiOutput(m.content)
  const cut = options.maxChars !== undefined && raw !== null && raw.length > options.maxChars
  return {
    id: m.id,
    role: m.role,
    content: cut ? `${raw!.slice(0, options.maxChars)}…` : raw,
    timestamp: new Date(m.createdAt).toISOString(),
    ...(m.toolName === null ? {} : { tool_name: m.toolName }),
    ...(m.toolCalls === null ? {} : { tool_calls: m.toolCalls }),
    ...(m.toolCallId === null ? {} : { tool_call_id: m.toolCallId }),
    ...(options.anchor === m.id ? { anchor: true } : {}),
    ...(cut ? { content_truncated: true, original_content_chars: raw!.length } : {})
  }
}

const sessionMeta = (s: Session): Json => ({ when: when(s.createdAt), source: s.source, model: s.model, title: s.title })

type Root = (id: string) => Effect.Effect<string, SessionStoreError>

const rootOf = (store: SessionStoreService, cache: Map<string, string>): Root => (id: string) =>
  Effect.suspend(() => {
    const known = cache.get(id)
    if (known !== undefined) return Effect.succeed(known)
    return Effect.map(store.lineage(id), (chain) => {
      const root = chain[chain.length - 1] ?? id
      cache.set(id, root)
      return root
    })
  })

const scroll = (store: SessionStoreService, currentRoot: string | undefined, root: Root, sessionId: string, messageId: number, window: number) =>
  Effect.gen(function*() {
    if (currentRoot !== undefined && (yield* root(sessionId)) === currentRoot) {
      return { success: false, error: "scroll rejected: that session is the current one (or its lineage), which is already in your context" }
    }
    const session = yield* store.get(sessionId)
    const view = yield* store.around(sessionId, messageId, window)
    return {
      success: true,
      mode: "scroll",
      session_id: sessionId,
      around_message_id: messageId,
      session_meta: sessionMeta(session),
      window,
      messages: view.messages.map((m) => shapeMessage(m, { anchor: messageId })),
      messages_before: view.before,
      messages_after: view.after
    }
  })

const read = (store: SessionStoreService, sessionId: string) =>
  Effect.gen(function*() {
    const session = yield* store.get(sessionId)
    const messages = yield* store.history(sessionId)
    const truncated = messages.length > READ_HEAD + READ_TAIL
    const shown = truncated ? [...messages.slice(0, READ_HEAD), ...messages.slice(-READ_TAIL)] : messages
    return {
      success: true,
      mode: "read",
      session_id: sessionId,
      session_meta: sessionMeta(session),
      message_count: messages.length,
      truncated,
      messages: shown.map((m) => shapeMessage(m)),
      ...(truncated
        ? { message: `The session has ${messages.length} messages; these are the first ${READ_HEAD} and the last ${READ_TAIL}. Pass around_message_id (any id above) to scroll the middle.` }
        : {})
    }
  })

const browse = (store: SessionStoreService, current: string, limit: number) =>
  Effect.gen(function*() {
    const page = yield* store.list({ limit: limit + 1, orderBy: "updated", excludeSources: HIDDEN_SOURCES })
    const results = page.sessions.filter((s) => s.id !== current).slice(0, limit).map((s) => ({
      session_id: s.id,
      title: s.title,
      source: s.source,
      started_at: new Date(s.createdAt).toISOString(),
      last_active: new Date(s.updatedAt).toISOString(),
      message_count: s.messageCount,
      preview: s.preview ?? ""
    }))
    return {
      success: true,
      mode: "browse",
      results,
      count: results.length,
      message: `The ${results.length} most recently active sessions. Pass query to search, or session_id (+ around_message_id) to read one.`
    }
  })

const isDialogue = (m: StoredMessage) => m.role === "user" || m.role === "assistant"

const discover = (
  store: SessionStoreService,
  currentRoot: string | undefined,
  root: Root,
  args: { readonly query: string; readonly limit: number; readonly roles: ReadonlyArray<string>; readonly sort: "newest" | "oldest" | undefined }
) =>
  Effect.gen(function*() {
    const raw = yield* store.search(args.query, {
      limit: DISCOVER_SCAN,
      roles: args.roles,
      excludeSources: HIDDEN_SOURCES,
      sort: args.sort ?? "relevance"
    })
    // Automation ranks below conversations, keeping relevance order within each.
    const ranked = [...raw.filter((h) => !DEMOTED_SOURCES.has(h.source)), ...raw.filter((h) => DEMOTED_SOURCES.has(h.source))]
    const picked = new Map<string, SearchHit>()
    for (const hit of ranked) {
      if (picked.size >= args.limit) break
      const lineage = yield* root(hit.sessionId)
      if (lineage === currentRoot || picked.has(lineage)) continue
      picked.set(lineage, hit)
    }
    if (picked.size === 0) {
      return { success: true, mode: "discover", query: args.query, results: [], count: 0, message: "No matching sessions found." }
    }
    const results = yield* Effect.forEach([...picked], ([lineage, hit]) =>
      Effect.gen(function*() {
        const session = yield* store.get(hit.sessionId)
        const view = yield* store.around(hit.sessionId, hit.messageId, DISCOVER_WINDOW)
        const first = view.messages[0]?.ordinal ?? hit.ordinal
        const last = view.messages[view.messages.length - 1]?.ordinal ?? hit.ordinal
        const head = first === 0 ? [] : yield* store.history(hit.sessionId, { fromOrdinal: 0, limit: Math.min(first, 20) })
        const tailFrom = Math.max(last + 1, session.messageCount - 20)
        const tail = last + 1 >= session.messageCount ? [] : yield* store.history(hit.sessionId, { fromOrdinal: tailFrom })
        return {
          session_id: hit.sessionId,
          when: when(session.createdAt),
          source: session.source,
          model: session.model ?? "unknown",
          title: session.title,
          matched_role: hit.role,
          match_message_id: hit.messageId,
          snippet: hit.snippet,
          bookend_start: head.filter(isDialogue).slice(0, BOOKENDS).map((m) => shapeMessage(m, { maxChars: BOOKEND_CHARS })),
          messages: view.messages.map((m) => shapeMessage(m, { anchor: hit.messageId, maxChars: WINDOW_CHARS })),
          bookend_end: tail.filter(isDialogue).slice(-BOOKENDS).map((m) => shapeMessage(m, { maxChars: BOOKEND_CHARS })),
          messages_before: view.before,
          messages_after: view.after,
          ...(lineage === hit.sessionId ? {} : { parent_session_id: lineage })
        }
      }))
    return { success: true, mode: "discover", query: args.query, results, count: results.length, sessions_searched: picked.size }
  })

const run = (args: Args) =>
  Effect.gen(function*() {
    const store = yield* SessionStore
    const current = sessionKey(yield* ToolContext)
    const cache = new Map<string, string>()
    const root = rootOf(store, cache)
    const currentChain = yield* store.lineage(current)
    const currentRoot = currentChain[currentChain.length - 1]
    const sessionId = args.session_id === undefined ? "" : parseSessionRef(args.session_id)

    if (sessionId.length > 0 && args.around_message_id !== undefined) {
      return yield* scroll(store, currentRoot, root, sessionId, Math.floor(args.around_message_id), clampInt(args.window, 5, 1, 20))
    }
    if (sessionId.length > 0) return yield* read(store, sessionId)
    const limit = clampInt(args.limit, 3, 1, 10)
    const query = (args.query ?? "").trim()
    if (query.length === 0) return yield* browse(store, current, limit)
    const roles = (args.role_filter ?? "").split(",").map((r) => r.trim()).filter((r) => r.length > 0)
    return yield* discover(store, currentRoot, root, { query, limit, roles: roles.length > 0 ? roles : ["user", "assistant"], sort: args.sort })
  })

export const sessionSearchTool = defineTool({
  name: "session_search",
  toolset: "session_search",
  emoji: "🔍",
  description:
    "Search past sessions in the local session store, or read and scroll inside one. Returns stored messages, never summaries.\n\n" +
    "It knows what was said in earlier conversations, not the current state of files, sites or systems: when the user names a source, " +
    "look at the source first.\n\n" +
    "SHAPES (chosen by the arguments):\n" +
    "1) discover — `query`: full-text search; one result per session with the matching message (match_message_id, snippet), " +
    "±5 messages around it and the first/last 3 user/assistant messages (bookend_start, bookend_end).\n" +
    "2) scroll — `session_id` + `around_message_id` (+ `window`, 1–20): the messages around one message. Scroll forward with the last id " +
    "of a window, backward with the first; fewer than `window` messages on a side means the session starts or ends there.\n" +
    "3) read — `session_id` alone: the session (first 20 + last 10 messages when longer).\n" +
    "4) browse — no arguments: the most recently active sessions.\n\n" +
    "QUERY SYNTAX: words are ANDed; use OR for alternatives, \"quoted phrases\", NOT to exclude, prefix* for prefixes. Parts of words and " +
    "Chinese, Japanese or Korean text match as substrings.",
  parameters: SessionSearchParameters,
  parallel: "safe",
  handler: (args) =>
    run(args).pipe(
      Effect.catchTags({
        SessionNotFound: (e) => Effect.succeed({ success: false, error: `session_id not found: ${e.sessionId}` }),
        MessageNotFound: (e) => Effect.succeed({ success: false, error: `around_message_id ${e.messageId} is not in session_id ${e.sessionId}` })
      })
    )
})
