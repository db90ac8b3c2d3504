/**
 * Tool calls the loop answers itself because they cannot run: a name the run
 * does not offer, or arguments that are not a JSON object. The answer tells
 * the model how to fix the call (Hermes' wording), and the turn counts toward
 * the self-correction retries. Everything else goes to batch dispatch, which
 * reports schema problems in its own words.
 */
import type { ToolCallRequest } from "../../services/Model.js"
import { UnknownTool } from "../../services/ToolError.js"
import { errorJson } from "../executor/sanitizeErrorMessage.js"

/** Hermes' answer to arguments that are not a JSON object. */
export const INVALID_ARGUMENTS_RESULT = JSON.stringify({
  error: "Invalid tool arguments",
  message: "Tool arguments must be a valid JSON object; tool was not executed."
})

/** The registry's own unknown-tool answer, listing what this run offers. */
export const unknownToolResult = (name: string, offered: ReadonlyArray<string>): string =>
  errorJson(new UnknownTool({ tool: name, available: offered }).message)

/** Empty arguments mean `{}` (many models send "" for a call without parameters). */
const argumentsAreObject = (raw: string): boolean => {
  const text = raw.trim()
  if (text.length === 0) return true
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === "object" && !Array.isArray(value)
  } catch {
    return false
  }
}

/** The answer for a call that cannot run, or undefined when it may go to dispatch. */
export const rejectCall = (call: ToolCallRequest, offered: ReadonlySet<string>, offeredSorted: ReadonlyArray<string>): string | undefined => {
  if (!offered.has(call.function.name)) return unknownToolResult(call.function.name, offeredSorted)
  if (!argumentsAreObject(call.function.arguments)) return INVALID_ARGUMENTS_RESULT
  return undefined
}

/** Ids the rest of the turn can rely on: a call without one, or repeating one, gets `call_<iteration>_<n>`. */
export const withCallIds = (calls: ReadonlyArray<ToolCallRequest>, iteration: number): ReadonlyArray<ToolCallRequest> => {
  const seen = new Set<string>()
  let changed = false
  const out = calls.map((c, i) => {
    const usable = c.id.length > 0 && !seen.has(c.id)
    const id = usable ? c.id : `call_${iteration}_${i + 1}`
    seen.add(id)
    if (usable) return c
    changed = true
    return { ...c, id }
  })
  return changed ? out : calls
}
