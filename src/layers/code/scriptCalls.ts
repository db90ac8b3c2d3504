/**
 * What the parent does with one request from a script's `hermes_tools`:
 * check the token, the allowed list and the per-script cap (refusals are
 * free, in Hermes' words), drop the terminal parameters a script may not use,
 * then dispatch through the ToolExecutor with the caller's task and session,
 * so hooks, approval and result caps apply as to a model call.
 */
import { timingSafeEqual } from "node:crypto"
import { Effect } from "effect"
import type { ToolCallContext } from "../../services/ToolContext.js"
import type { ToolExecutorService } from "../../services/ToolExecutor.js"

/** A script's commands run in the foreground, without a TTY, and end with it. */
const TERMINAL_BLOCKED = ["background", "pty", "notify_on_complete", "watch_patterns"]

export interface ScriptCallsOptions {
  readonly executor: ToolExecutorService
  readonly context: ToolCallContext
  readonly allowed: ReadonlyArray<string>
  readonly maxToolCalls: number
  readonly token: string
}

export interface ScriptCalls {
  readonly answer: (request: string) => Effect.Effect<string>
  /** The secret a request must carry (given to the script in its environment). */
  readonly token: string
  /** Calls dispatched so far (refused ones do not count). */
  readonly made: () => number
}

const refuse = (error: string) => Effect.succeed(JSON.stringify({ error }))

const sameToken = (given: unknown, token: string): boolean => {
  if (typeof given !== "string") return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

export const makeScriptCalls = (options: ScriptCallsOptions): ScriptCalls => {
  const allowed = new Set(options.allowed)
  const available = [...allowed].sort().join(", ")
  const { toolCallId: _outer, ...context } = options.context
  let made = 0
  const answer = (request: string): Effect.Effect<string> => {
    let message: { readonly tool?: unknown; readonly args?: unknown; readonly token?: unknown }
    try {
      message = JSON.parse(request) as typeof message
    } catch (error) {
      return refuse(`Invalid RPC request: ${String(error)}`)
    }
    if (!sameToken(message.token, options.token)) return refuse("Unauthorized RPC request")
    const tool = typeof message.tool === "string" ? message.tool : ""
    if (!allowed.has(tool)) return refuse(`Tool '${tool}' is not available in execute_code. Available: ${available}`)
    if (made >= options.maxToolCalls) {
      return refuse(`Tool call limit reached (${options.maxToolCalls}). No more tool calls allowed in this execution.`)
    }
    made++
    const args: Record<string, unknown> = typeof message.args === "object" && message.args !== null && !Array.isArray(message.args)
      ? { ...(message.args as Record<string, unknown>) }
      : {}
    if (tool === "terminal") for (const name of TERMINAL_BLOCKED) delete args[name]
    return options.executor.dispatch({ tool, args }, { context })
  }
  return { answer, token: options.token, made: () => made }
}
