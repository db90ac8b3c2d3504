/**
 * Hooks registered by plugins (or embedding programs), run in registration order.
 */
import { Cause, Effect, Layer } from "effect"
import { Hooks } from "../services/Hooks.js"
import type { HookName, HookSet, HooksService, PreToolVerdict } from "../services/Hooks.js"

interface Entry {
  readonly source: string
  readonly hooks: HookSet
}

const describe = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.squash(cause)
  return failure instanceof Error ? failure.message : String(failure)
}

/** What a `pre_llm_call` hook may return: a string or `{context: string}`; blank text and anything else add nothing. */
const llmContext = (value: unknown): string | undefined => {
  const text = typeof value === "string"
    ? value
    : value !== null && typeof value === "object" && "context" in value && typeof value.context === "string"
    ? value.context
    : undefined
  return text === undefined || text.trim().length === 0 ? undefined : text
}

export const makeHooks = (): HooksService => {
  const entries: Array<Entry> = []
  const counts: Record<HookName, number> = {
    pre_tool_call: 0,
    post_tool_call: 0,
    transform_tool_result: 0,
    pre_llm_call: 0,
    post_llm_call: 0
  }

  /** The entries with a post_tool_call hook, kept with the counts: it runs on every call of an agent run. */
  let postListeners: ReadonlyArray<Entry> = []

  const recount = () => {
    for (const name of Object.keys(counts) as Array<HookName>) {
      counts[name] = entries.filter((e) => e.hooks[name] !== undefined).length
    }
    postListeners = entries.filter((e) => e.hooks.post_tool_call !== undefined)
  }

  return {
    register: (source, hooks) =>
      Effect.sync(() => {
        const entry = { source, hooks }
        entries.push(entry)
        recount()
        return Effect.sync(() => {
          const i = entries.indexOf(entry)
          if (i >= 0) entries.splice(i, 1)
          recount()
        })
      }),
    has: (name) => counts[name] > 0,
    preToolCall: (event) =>
      Effect.gen(function*() {
        for (const { hooks, source } of [...entries]) {
          const hook = hooks.pre_tool_call
          if (hook === undefined) continue
          const exit = yield* Effect.exit(Effect.suspend(() => hook(event)))
          // A policy hook that breaks must not silently allow the call.
          if (exit._tag === "Failure") {
            return {
              _tag: "Block",
              by: source,
              message: `pre_tool_call hook of '${source}' failed, so the call was blocked: ${describe(exit.cause)}`
            } satisfies PreToolVerdict
          }
          const directive = exit.value
          if (directive === undefined) continue
          if (directive.action === "block") return { _tag: "Block", by: source, message: directive.message } satisfies PreToolVerdict
          return {
            _tag: "Approve",
            by: source,
            message: directive.message,
            ruleKey: directive.ruleKey ?? event.tool
          } satisfies PreToolVerdict
        }
        return { _tag: "Proceed" } satisfies PreToolVerdict
      }),
    postToolCall: (event) => {
      const run = ({ hooks, source }: Entry) =>
        Effect.catchAllCause(Effect.suspend(() => hooks.post_tool_call!(event)), (cause) =>
          Effect.logWarning(`post_tool_call hook of '${source}' failed: ${describe(cause)}`))
      const listening = postListeners
      // One listener (the agent loop's, on every call of a run): no loop to set up around it.
      return listening.length === 1 ? run(listening[0]!) : Effect.forEach(listening, run, { discard: true })
    },
    transformToolResult: (event) =>
      Effect.gen(function*() {
        for (const { hooks, source } of [...entries]) {
          const hook = hooks.transform_tool_result
          if (hook === undefined) continue
          const exit = yield* Effect.exit(Effect.suspend(() => hook(event)))
          if (exit._tag === "Failure") {
            yield* Effect.logWarning(`transform_tool_result hook of '${source}' failed: ${describe(exit.cause)}`)
            continue
          }
          if (typeof exit.value === "string") return exit.value
        }
        return event.result
      }),
    preLlmCall: (event) =>
      Effect.gen(function*() {
        const added: Array<string> = []
        for (const { hooks, source } of [...entries]) {
          const hook = hooks.pre_llm_call
          if (hook === undefined) continue
          const exit = yield* Effect.exit(Effect.suspend(() => hook(event)))
          // Context is optional information: a broken hook costs its context, not the turn.
          if (exit._tag === "Failure") {
            yield* Effect.logWarning(`pre_llm_call hook of '${source}' failed; its context was skipped: ${describe(exit.cause)}`)
            continue
          }
          const text = llmContext(exit.value)
          if (text !== undefined) added.push(text)
        }
        return added.length === 0 ? undefined : added.join("\n\n")
      }),
    postLlmCall: (event) =>
      Effect.forEach(
        [...entries],
        ({ hooks, source }) =>
          hooks.post_llm_call === undefined
            ? Effect.void
            : Effect.catchAllCause(Effect.suspend(() => hooks.post_llm_call!(event)), (cause) =>
              Effect.logWarning(`post_llm_call hook of '${source}' failed: ${describe(cause)}`)),
        { discard: true }
      )
  }
}

export const HooksLive = Layer.sync(Hooks, makeHooks)
