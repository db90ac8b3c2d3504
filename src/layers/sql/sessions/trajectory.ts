/**
 * A session as training data: the ShareGPT-style trajectory Hermes writes
 * (`{"conversations": [{"from", "value"}], …}`), in Hermes' function-calling
 * conventions — assistant turns open with a `<think>` block, tool calls are
 * `<tool_call>` JSON objects, and the results that follow one assistant turn
 * are one `tool` turn of `<tool_response>` objects.
 */
import type { Session, StoredMessage } from "../../../services/SessionStore.js"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../../lib/jsonDepth.js"

export interface ShareGptTurn {
  readonly from: "system" | "human" | "gpt" | "tool"
  readonly value: string
}

export interface ShareGptTrajectory {
  readonly conversations: ReadonlyArray<ShareGptTurn>
  readonly timestamp: string
  readonly model: string | null
  readonly session_id: string
  readonly source: string
  readonly title: string | null
}

const parseJsonish = (text: string): unknown => {
  const trimmed = text.trim()
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return text
  try {
    // Too deep to serialise again: keep the text.
    const value: unknown = JSON.parse(trimmed)
    return nestsDeeperThan(value, MAX_JSON_DEPTH) ? text : value
  } catch {
    return text
  }
}

const argumentsObject = (raw: string): unknown => {
  try {
    const value: unknown = JSON.parse(raw)
    return nestsDeeperThan(value, MAX_JSON_DEPTH) ? raw : value
  } catch {
    return {}
  }
}

const withThink = (text: string) => (text.includes("<think>") ? text : `<think>\n</think>\n${text}`)

const assistantValue = (m: StoredMessage): string => {
  const calls = m.toolCalls ?? []
  const content = m.content ?? ""
  if (calls.length === 0) return withThink(content).trim()
  const parts = content.trim().length > 0 ? [content] : []
  for (const call of calls) {
    parts.push(`<tool_call>\n${JSON.stringify({ name: call.function.name, arguments: argumentsObject(call.function.arguments) })}\n</tool_call>`)
  }
  return withThink(parts.join("\n")).trimEnd()
}

export const toShareGpt = (session: Session, messages: ReadonlyArray<StoredMessage>): ShareGptTrajectory => {
  const conversations: Array<ShareGptTurn> = []
  const callNames = new Map<string, string>()
  let toolGroup: Array<string> = []
  const flushTools = () => {
    if (toolGroup.length > 0) conversations.push({ from: "tool", value: toolGroup.join("\n") })
    toolGroup = []
  }
  for (const m of messages) {
    if (m.role === "tool") {
      const name = m.toolName ?? (m.toolCallId === null ? undefined : callNames.get(m.toolCallId)) ?? "unknown"
      const body = { tool_call_id: m.toolCallId ?? "", name, content: parseJsonish(m.content ?? "") }
      toolGroup.push(`<tool_response>\n${JSON.stringify(body)}\n</tool_response>`)
      continue
    }
    flushTools()
    if (m.role === "system") conversations.push({ from: "system", value: m.content ?? "" })
    else if (m.role === "user") conversations.push({ from: "human", value: m.content ?? "" })
    else {
      for (const call of m.toolCalls ?? []) callNames.set(call.id, call.function.name)
      conversations.push({ from: "gpt", value: assistantValue(m) })
    }
  }
  flushTools()
  return {
    conversations,
    timestamp: new Date(session.createdAt).toISOString(),
    model: session.model,
    session_id: session.id,
    source: session.source,
    title: session.title
  }
}

/** One OpenAI-format chat message per line. */
export const toMessageLines = (messages: ReadonlyArray<StoredMessage>): string =>
  messages.map((m) =>
    JSON.stringify({
      role: m.role,
      content: m.content,
      ...(m.toolCalls === null ? {} : { tool_calls: m.toolCalls }),
      ...(m.toolCallId === null ? {} : { tool_call_id: m.toolCallId }),
      ...(m.toolName === null ? {} : { name: m.toolName })
    })
  ).join("\n")
