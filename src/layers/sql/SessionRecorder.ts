/**
 * Record tool calls as sessions: a `post_tool_call` hook that appends each
 * call (an assistant message with the tool call) and its result (a tool
 * message) to the call's session (its session id, else its task id), created
 * on first use with the given source. For headless programs (`call`, `batch`)
 * that have no agent loop writing the conversation, so `sessions list` shows
 * what they did. Off by default: `HermesRuntime.layer({ recordSessions: { source: "batch" } })`.
 * A failed write is logged by Hooks and never changes the call's result.
 */
import { randomBytes } from "node:crypto"
import { Effect, Layer } from "effect"
import { Hooks } from "../../services/Hooks.js"
import type { PostToolCallEvent, PreToolCallEvent } from "../../services/Hooks.js"
import { SessionStore, sessionKey } from "../../services/SessionStore.js"

export interface RecordSessionsOptions {
  /** Source of the sessions it creates: cli, batch, … */
  readonly source: string
}

const argumentsText = (args: unknown): string => (typeof args === "string" ? args : JSON.stringify(args ?? {}))

export const SessionRecorder = (options: RecordSessionsOptions): Layer.Layer<never, never, Hooks | SessionStore> =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const hooks = yield* Hooks
      const store = yield* SessionStore
      // Before the call, so a tool that keeps per-session state (todo) finds the session with our source.
      const open = (event: PreToolCallEvent) =>
        store.ensure(sessionKey(event.context), { source: options.source, cwd: event.context.cwd ?? null }).pipe(
          Effect.as(undefined),
          Effect.catchAll((e) => Effect.as(Effect.logWarning(`session recorder: ${e.message}`), undefined))
        )
      const record = (event: PostToolCallEvent) =>
        Effect.gen(function*() {
          const id = sessionKey(event.context)
          yield* store.ensure(id, { source: options.source, cwd: event.context.cwd ?? null })
          const callId = event.context.toolCallId ?? `call_${randomBytes(6).toString("hex")}`
          yield* store.append(id, [
            { role: "assistant", content: null, toolCalls: [{ id: callId, type: "function", function: { name: event.tool, arguments: argumentsText(event.args) } }] },
            { role: "tool", content: event.result, toolCallId: callId, toolName: event.tool }
          ])
        })
      const remove = yield* hooks.register("session-recorder", { pre_tool_call: open, post_tool_call: record })
      yield* Effect.addFinalizer(() => remove)
    })
  )
