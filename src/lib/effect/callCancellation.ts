/**
 * A call's cancellation (services/ToolRegistry.ts `CallCancellation`) to and
 * from an AbortSignal.
 */
import type { CallCancellation } from "../../services/ToolRegistry.js"

/** The cancellation an AbortSignal stands for: cancelled once it aborts. */
export const cancellationOf = (signal: AbortSignal): CallCancellation => ({
  get cancelled() {
    return signal.aborted
  },
  onCancel: (f) => {
    if (signal.aborted) f()
    else signal.addEventListener("abort", f, { once: true })
  }
})

/**
 * The part of an AbortSignal a library's request reads: `aborted`, `reason`,
 * `throwIfAborted()` and `addEventListener("abort", …)`, backed by the call's
 * cancellation. Node makes a real AbortSignal in ~4 µs and 1–2 KB, which for
 * an MCP call was a third of its client side. Only for a library known to
 * read no more than this (the pinned MCP SDK; its suite checks that a timed-out
 * or interrupted call is cancelled on the server over both transports).
 */
class CancellationSignal {
  constructor(private readonly cancellation: CallCancellation) {}
  get aborted(): boolean {
    return this.cancellation.cancelled
  }
  get reason(): unknown {
    return this.cancellation.cancelled ? new DOMException("The operation was aborted", "AbortError") : undefined
  }
  throwIfAborted(): void {
    if (this.cancellation.cancelled) throw this.reason
  }
  addEventListener(type: string, listener: () => void): void {
    if (type === "abort") this.cancellation.onCancel(listener)
  }
  removeEventListener(): void {}
}

export const signalFor = (cancellation: CallCancellation): AbortSignal => new CancellationSignal(cancellation) as unknown as AbortSignal
