/**
 * A tool's `promiseHandler` run in the dispatching fiber: one `Effect.async`
 * waits for the promise, one deadline on the caller's Clock bounds it, and
 * the handler's cancellation fires when the deadline passes or the caller is
 * interrupted. A handler fiber per call (runHandler's path) was most of the
 * client-side cost of an MCP call: its refs, its scheduler runner and the
 * garbage they made.
 */
import { Effect, Exit } from "effect"
import type { ToolOutput } from "../../services/Tool.js"
import type { ToolError, ToolFailure } from "../../services/ToolError.js"
import type { CallCancellation } from "../../services/ToolRegistry.js"
import { runtimeOf, startClockTimer } from "../../lib/effect/clockTimer.js"

class Cancellation implements CallCancellation {
  cancelled = false
  private listeners: Array<() => void> | undefined = undefined
  readonly onCancel = (f: () => void): void => {
    if (this.cancelled) f()
    else (this.listeners ??= []).push(f)
  }
  cancel(): void {
    if (this.cancelled) return
    this.cancelled = true
    const listeners = this.listeners
    this.listeners = undefined
    for (const f of listeners ?? []) {
      // The call has already ended (timed out, or its caller is gone): a listener that fails cannot change that,
      // and must not keep the others from running or the caller from getting its answer.
      try {
        f()
      } catch {
        // ignored on purpose, see above
      }
    }
  }
}

/**
 * `call`'s outcome handed to `settle` as runWithinThen hands a handler's: its exit, or undefined once `timeoutMs`
 * passed on the caller's Clock (the call is then cancelled). A promise that rejects, or a call that throws, ends
 * as `defect(error)`.
 */
export const runPromiseHandler = (
  call: (cancellation: CallCancellation) => Promise<Effect.Effect<ToolOutput, ToolFailure>>,
  timeoutMs: number,
  settle: (exit: Exit.Exit<ToolOutput, ToolFailure> | undefined) => Effect.Effect<ToolOutput, ToolError>,
  defect: (error: unknown) => ToolError
): Effect.Effect<ToolOutput, ToolError> =>
  Effect.withFiberRuntime((parent, status) =>
    Effect.async<ToolOutput, ToolError>((resume) => {
      const cancellation = new Cancellation()
      let settled = false
      const end = (result: Effect.Effect<ToolOutput, ToolError>) => {
        if (settled) return
        settled = true
        cancelTimer()
        resume(result)
      }
      const cancelTimer = startClockTimer(parent, () => runtimeOf(parent, status.runtimeFlags), timeoutMs, () => {
        if (settled) return
        cancellation.cancel()
        end(settle(undefined))
      })
      const failed = (e: unknown) => end(Effect.fail(defect(e)))
      try {
        call(cancellation).then(
          // An Exit the handler promised ToolOutput and ToolFailure for carries those.
          (next) => end(Exit.isExit(next) ? settle(next as Exit.Exit<ToolOutput, ToolFailure>) : Effect.flatMap(Effect.exit(next), settle)),
          failed
        )
      } catch (e) {
        failed(e)
      }
      return Effect.sync(() => {
        if (settled) return
        settled = true
        cancelTimer()
        cancellation.cancel()
      })
    })
  )
