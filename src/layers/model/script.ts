/**
 * The script format of the scripted provider: JSONL, one assistant turn per
 * line. Blank lines and lines starting with `#` or `//` are skipped; a line
 * that is a bare JSON string is a turn with that text as its content.
 *
 *   {"content": "Let me look.", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.txt"}}]}
 *   {"expect": {"last_role": "tool", "last_contains": "hello"}, "content": "The file says hello."}
 *
 * Fields of a turn (all optional; unknown fields are an error, so typos show):
 * - `content`: the text; `chunks`: the same text split the way `stream` emits it
 * - `tool_calls`: `[{"name", "arguments"?, "id"?}]`; an object `arguments` is sent as
 *   its JSON, a string is sent verbatim (so a malformed call is `"arguments": "{oops"`)
 * - `reasoning`, `finish_reason` (default `tool_calls` when there are calls, else `stop`),
 *   `usage` (`{"prompt_tokens", "completion_tokens"}`), `model`
 * - `expect`: conditions on the request this turn answers; a request that breaks one
 *   fails with `ModelScriptError` naming the line and the condition
 * - `when`: the same conditions; a turn whose `when` does not hold is skipped
 *   (for scripts shared by several sessions, e.g. a parent and its subagents)
 * - `repeat`: answer this many requests with this turn (`true`: every request from here on)
 * - `delay_ms`: wait this long (on the Effect Clock) before answering
 * - `error`: fail instead of answering: `{"type": "rate_limit" | "server_error" | "auth" |
 *   "bad_response" | "network" | "timeout", "message"?}`
 * - `comment`: ignored
 *
 * Conditions (`expect` / `when`): `last_role`, `last_contains` (the last message's content),
 * `contains` (any message), `first_user_contains`, `system_contains`, `tools_include` /
 * `tools_exclude` (names of the offered tools), `message_count`.
 */
import { Either, Schema } from "effect"
import type { ChatMessage, ModelRequest } from "../../services/Model.js"
import { describeParseError } from "./wire.js"

export const ScriptCondition = Schema.Struct({
  last_role: Schema.optional(Schema.Literal("system", "user", "assistant", "tool")),
  last_contains: Schema.optional(Schema.String),
  contains: Schema.optional(Schema.String),
  first_user_contains: Schema.optional(Schema.String),
  system_contains: Schema.optional(Schema.String),
  tools_include: Schema.optional(Schema.Array(Schema.String)),
  tools_exclude: Schema.optional(Schema.Array(Schema.String)),
  message_count: Schema.optional(Schema.Number)
})
export type ScriptCondition = typeof ScriptCondition.Type

export const ScriptFailure = Schema.Struct({
  type: Schema.Literal("rate_limit", "server_error", "auth", "bad_response", "network", "timeout"),
  message: Schema.optional(Schema.String)
})

export const ScriptToolCall = Schema.Struct({
  name: Schema.String,
  /** An object (sent as JSON) or a string (sent verbatim); default `{}`. */
  arguments: Schema.optional(Schema.Unknown),
  id: Schema.optional(Schema.String)
})

export const ScriptTurn = Schema.Struct({
  content: Schema.optional(Schema.NullOr(Schema.String)),
  chunks: Schema.optional(Schema.Array(Schema.String)),
  reasoning: Schema.optional(Schema.String),
  tool_calls: Schema.optional(Schema.Array(ScriptToolCall)),
  finish_reason: Schema.optional(Schema.String),
  usage: Schema.optional(Schema.Struct({
    prompt_tokens: Schema.Number,
    completion_tokens: Schema.Number,
    total_tokens: Schema.optional(Schema.Number)
  })),
  model: Schema.optional(Schema.String),
  expect: Schema.optional(ScriptCondition),
  when: Schema.optional(ScriptCondition),
  repeat: Schema.optional(Schema.Union(Schema.Int.pipe(Schema.positive()), Schema.Literal(true))),
  delay_ms: Schema.optional(Schema.NonNegative),
  error: Schema.optional(ScriptFailure),
  comment: Schema.optional(Schema.String)
})
export type ScriptTurn = typeof ScriptTurn.Type
/** A turn as written in the script (or passed inline). */
export type ScriptTurnInput = typeof ScriptTurn.Encoded

export interface CompiledTurn {
  readonly turn: ScriptTurn
  /** 1-based line in the source (the index + 1 for inline turns). */
  readonly line: number
}

export interface ScriptProblem {
  readonly line: number | undefined
  readonly detail: string
}

const decodeTurn = Schema.decodeUnknownEither(ScriptTurn, { errors: "first", onExcessProperty: "error" })

const checkTurn = (turn: ScriptTurn): string | undefined => {
  if (turn.chunks !== undefined && turn.content !== undefined && turn.content !== null && turn.chunks.join("") !== turn.content) {
    return "chunks do not join to content"
  }
  return undefined
}

/** Decode inline turns (objects or bare strings). */
export const compileTurns = (turns: ReadonlyArray<unknown>): Either.Either<ReadonlyArray<CompiledTurn>, ScriptProblem> => {
  const out: Array<CompiledTurn> = []
  for (const [i, raw] of turns.entries()) {
    const input = typeof raw === "string" ? { content: raw } : raw
    const decoded = decodeTurn(input)
    if (Either.isLeft(decoded)) return Either.left({ line: i + 1, detail: describeParseError(decoded.left).replace(/^body: /, "") })
    const problem = checkTurn(decoded.right)
    if (problem !== undefined) return Either.left({ line: i + 1, detail: problem })
    out.push({ turn: decoded.right, line: i + 1 })
  }
  return Either.right(out)
}

/** Parse JSONL text; line numbers are those of the text. */
export const parseScript = (text: string): Either.Either<ReadonlyArray<CompiledTurn>, ScriptProblem> => {
  const out: Array<CompiledTurn> = []
  const lines = text.split(/\r?\n/)
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim()
    if (line.length === 0 || line.startsWith("#") || line.startsWith("//")) continue
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch (e) {
      return Either.left({ line: i + 1, detail: `not valid JSON (${e instanceof Error ? e.message : String(e)})` })
    }
    const compiled = compileTurns([json])
    if (Either.isLeft(compiled)) return Either.left({ line: i + 1, detail: compiled.left.detail })
    out.push({ turn: compiled.right[0]!.turn, line: i + 1 })
  }
  return Either.right(out)
}

const textOf = (message: ChatMessage): string => message.content ?? ""

const quote = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)

/** The first condition the request breaks, in words; undefined when all hold. */
export const unmetCondition = (condition: ScriptCondition, request: ModelRequest): string | undefined => {
  const messages = request.messages
  const last = messages[messages.length - 1]
  if (condition.last_role !== undefined && last?.role !== condition.last_role) {
    return `expected the last message to be from '${condition.last_role}', got '${last?.role ?? "nothing"}'`
  }
  if (condition.last_contains !== undefined && !(last !== undefined && textOf(last).includes(condition.last_contains))) {
    return `expected the last message to contain ${quote(condition.last_contains)}, got ${quote(last === undefined ? "" : textOf(last))}`
  }
  if (condition.contains !== undefined && !messages.some((m) => textOf(m).includes(condition.contains!))) {
    return `expected a message containing ${quote(condition.contains)}`
  }
  if (condition.first_user_contains !== undefined) {
    const first = messages.find((m) => m.role === "user")
    if (first === undefined || !first.content.includes(condition.first_user_contains)) {
      return `expected the first user message to contain ${quote(condition.first_user_contains)}`
    }
  }
  if (condition.system_contains !== undefined && !messages.some((m) => m.role === "system" && m.content.includes(condition.system_contains!))) {
    return `expected a system message containing ${quote(condition.system_contains)}`
  }
  const offered = new Set((request.tools ?? []).map((t) => t.function.name))
  const missing = (condition.tools_include ?? []).filter((name) => !offered.has(name))
  if (missing.length > 0) return `expected the tools offered to include ${missing.join(", ")}`
  const present = (condition.tools_exclude ?? []).filter((name) => offered.has(name))
  if (present.length > 0) return `expected the tools offered not to include ${present.join(", ")}`
  if (condition.message_count !== undefined && messages.length !== condition.message_count) {
    return `expected ${condition.message_count} messages, got ${messages.length}`
  }
  return undefined
}
