/**
 * Each tool call's outcome as soon as it is known, per session. Batch
 * dispatch returns a turn's outcomes together; the loop also wants them one
 * by one, to show progress and, when the run is interrupted, to keep the
 * results of the calls that did finish. One `post_tool_call` hook, registered
 * on first use (so runtimes that never run an agent pay nothing), routes each
 * outcome to the run of its session.
 */
import { Effect, Scope } from "effect"
import type { HooksService, PostToolCallEvent } from "../../services/Hooks.js"

export type CallListener = (event: PostToolCallEvent) => Effect.Effect<void>

export interface CallWatch {
  /** Send this session's call outcomes to `listener` until `runScope` closes. */
  readonly watch: (sessionId: string, listener: CallListener, runScope: Scope.Scope) => Effect.Effect<void>
}

export const makeCallWatch = (hooks: HooksService, scope: Scope.Scope): Effect.Effect<CallWatch> =>
  Effect.gen(function*() {
    const listeners = new Map<string, CallListener>()
    const route = (event: PostToolCallEvent) => {
      const sessionId = event.context.sessionId
      const listener = sessionId === undefined ? undefined : listeners.get(sessionId)
      return listener === undefined ? Effect.void : listener(event)
    }
    // Checked by a flag, not `Effect.cached`: after the first run this costs a run nothing.
    let done = false
    const lock = yield* Effect.makeSemaphore(1)
    const installed = Effect.suspend(() =>
      done ? Effect.void : lock.withPermits(1)(Effect.suspend(() =>
        done ? Effect.void : Effect.uninterruptible(Effect.flatMap(hooks.register("agent-loop", { post_tool_call: route }), (remove) =>
          Effect.zipRight(Scope.addFinalizer(scope, remove), Effect.sync(() => void (done = true)))))
      ))
    )
    return {
      watch: (sessionId, listener, runScope) =>
        Effect.zipRight(
          installed,
          // Straight on the scope, not `acquireRelease`: that one diffs every fiber ref (the whole runtime context) twice on release.
          Effect.uninterruptible(Effect.zipRight(
            Effect.sync(() => void listeners.set(sessionId, listener)),
            Scope.addFinalizer(runScope, Effect.sync(() => void listeners.delete(sessionId)))
          ))
        )
    }
  })
