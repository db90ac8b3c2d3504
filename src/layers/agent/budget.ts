/**
 * Iteration budget pressure, as Hermes applies it: once 70% of the model
 * calls are spent the model is told to start consolidating, at 90% to answer
 * now. The note rides on the last tool result of the turn (a `_budget_warning`
 * field when the result is a JSON object, an appended line otherwise), so no
 * extra message disturbs the conversation. Notes are stripped from history a
 * later run loads, so an old warning never looks current.
 */
import type { ChatMessage, ToolMessage } from "../../services/Model.js"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../lib/jsonDepth.js"

export const BUDGET_CAUTION = 0.7
export const BUDGET_WARNING = 0.9

/** Hermes' two texts; undefined below 70%. */
export const budgetWarning = (used: number, max: number): string | undefined => {
  if (max <= 0) return undefined
  const progress = used / max
  const left = Math.max(0, max - used)
  if (progress >= BUDGET_WARNING) return `[BUDGET WARNING: Iteration ${used}/${max}. Only ${left} iteration(s) left. Provide your final response NOW.]`
  if (progress >= BUDGET_CAUTION) return `[BUDGET: Iteration ${used}/${max}. ${left} iterations left. Start consolidating your work.]`
  return undefined
}

const jsonObject = (text: string): Record<string, unknown> | undefined => {
  const trimmed = text.trim()
  if (!trimmed.startsWith("{")) return undefined
  try {
    const value: unknown = JSON.parse(trimmed)
    // Re-serialising a deeply nested result would overflow the stack: such a result stays text.
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return undefined
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** The tool result with the warning attached. */
export const withBudgetWarning = (content: string, warning: string): string => {
  const object = jsonObject(content)
  return object === undefined ? `${content}\n\n${warning}` : JSON.stringify({ ...object, _budget_warning: warning })
}

const TEXT_WARNING = /\n\n\[BUDGET(?: WARNING)?: Iteration \d+\/\d+\.[^\]]*\]$/

/** The tool result without a warning attached by `withBudgetWarning`. */
export const withoutBudgetWarning = (content: string): string => {
  if (content.includes("_budget_warning")) {
    const object = jsonObject(content)
    if (object !== undefined && "_budget_warning" in object) {
      const { _budget_warning: _, ...rest } = object
      return JSON.stringify(rest)
    }
  }
  return content.replace(TEXT_WARNING, "")
}

/** History as a new run should see it: tool results without old budget notes. */
export const stripBudgetWarnings = (messages: ReadonlyArray<ChatMessage>): Array<ChatMessage> =>
  messages.map((m): ChatMessage => (m.role === "tool" ? { ...m, content: withoutBudgetWarning(m.content) } satisfies ToolMessage : m))
