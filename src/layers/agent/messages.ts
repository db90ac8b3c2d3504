/** Chat messages (what the model sees) ↔ stored messages (what the SessionStore keeps). */
import type { AssistantMessage, ChatMessage, ToolCallRequest } from "../../services/Model.js"
import type { NewMessage, StoredMessage } from "../../services/SessionStore.js"

export const toNewMessage = (message: ChatMessage): NewMessage => {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content }
    case "assistant":
      return { role: "assistant", content: message.content, toolCalls: message.tool_calls === undefined || message.tool_calls.length === 0 ? null : message.tool_calls }
    case "tool":
      return { role: "tool", content: message.content, toolCallId: message.tool_call_id, toolName: message.name ?? null }
  }
}

export const fromStored = (message: StoredMessage): ChatMessage => {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content ?? "" }
    case "user":
      return { role: "user", content: message.content ?? "" }
    case "assistant": {
      const calls: Array<ToolCallRequest> = (message.toolCalls ?? []).map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.function.name, arguments: c.function.arguments }
      }))
      const out: AssistantMessage = calls.length > 0
        ? { role: "assistant", content: message.content, tool_calls: calls }
        : { role: "assistant", content: message.content ?? "" }
      return out
    }
    case "tool":
      return {
        role: "tool",
        tool_call_id: message.toolCallId ?? "",
        content: message.content ?? "",
        ...(message.toolName === null ? {} : { name: message.toolName })
      }
  }
}

/**
 * History a model accepts: an assistant turn whose calls lack results (a run
 * killed mid-turn) would be rejected by OpenAI-compatible APIs, so such calls
 * get a result saying they never finished.
 */
export const repairHistory = (messages: ReadonlyArray<ChatMessage>): Array<ChatMessage> => {
  const out: Array<ChatMessage> = []
  let pending: Array<ToolCallRequest> = []
  const answered = new Set<string>()
  const closeTurn = () => {
    for (const call of pending) {
      if (!answered.has(call.id)) {
        out.push({ role: "tool", tool_call_id: call.id, name: call.function.name, content: UNFINISHED_RESULT })
      }
    }
    pending = []
    answered.clear()
  }
  for (const m of messages) {
    if (m.role === "tool") {
      answered.add(m.tool_call_id)
      out.push(m)
      continue
    }
    closeTurn()
    if (m.role === "assistant" && m.tool_calls !== undefined) pending = [...m.tool_calls]
    out.push(m)
  }
  closeTurn()
  return out
}

export const UNFINISHED_RESULT = JSON.stringify({ error: "This tool call never finished: the run stopped before its result was recorded." })
