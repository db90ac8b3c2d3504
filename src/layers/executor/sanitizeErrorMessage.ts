/**
 * Error text for the model: strip what could be mistaken for protocol
 * (role tags, code fences, CDATA) and cap the length, as Hermes does.
 */
import type { JsonStyle } from "../../lib/pythonJson.js"
import { toJsonText } from "../../lib/pythonJson.js"

const ROLE_TAGS = /<\/?(?:tool_call|function_call|result|response|output|input|system|assistant|user)>/gi
const OPEN_FENCE = /^\s*```(?:json|xml|html|markdown)?\s*/gm
const CLOSE_FENCE = /\s*```\s*$/gm
const CDATA = /<!\[CDATA\[[\s\S]*?\]\]>/g

export const ERROR_MESSAGE_CAP = 2000

export const sanitizeErrorMessage = (message: string): string => {
  const cleaned = message.replace(ROLE_TAGS, "").replace(OPEN_FENCE, "").replace(CLOSE_FENCE, "").replace(CDATA, "")
  return cleaned.length > ERROR_MESSAGE_CAP ? `${cleaned.slice(0, ERROR_MESSAGE_CAP - 3)}...` : cleaned
}

/** The one shape every failure reaches the model in (Python `json.dumps` spacing unless `compact`). */
export const errorJson = (message: string, style: JsonStyle = "python"): string =>
  toJsonText({ error: sanitizeErrorMessage(message) }, style) ?? "{}"
