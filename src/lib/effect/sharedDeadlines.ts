/**
 * Many deadlines on one Node timer. Dispatch puts every handler that
 * suspends under a timeout (300 s unless the tool says otherwise) that
 * almost never fires: a Node timer per call made each MCP or Promise tool
 * call allocate a `Timeout`, and V8 promoted about a fifth of everything
 * such a call allocated to the old generation (measured with
 * `--trace-gc-nvp`: 2.9 MB per scavenge against 0.16 MB without the
 * timers), so garbage collection cost more than the rest of the call.
 *
 * Here a deadline is a node in a list. One timer is armed for the earliest
 * deadline; cancelling removes the entry and leaves the timer armed, but
 * unreferenced while nothing waits, so it never holds the process open. When
 * it fires it runs the deadlines that are due and re-arms for the next one.
 * Deadlines are on `performance.now()`, the clock Node's timers use.
 */

/** A waiting deadline: a node of the list of them (no Set, whose table is reallocated as it empties and fills). */
interface Deadline {
  readonly at: number
  readonly fire: () => void
  linked: boolean
  prev: Deadline | undefined
  next: Deadline | undefined
}

let head: Deadline | undefined
let count = 0
let armed: { readonly at: number; readonly handle: ReturnType<typeof setTimeout> } | undefined

const unlink = (deadline: Deadline): void => {
  if (deadline.prev !== undefined) deadline.prev.next = deadline.next
  else head = deadline.next
  if (deadline.next !== undefined) deadline.next.prev = deadline.prev
  deadline.prev = deadline.next = undefined
  deadline.linked = false
  count--
}

const arm = (at: number): void => {
  if (armed !== undefined) {
    if (armed.at <= at) {
      armed.handle.ref()
      return
    }
    clearTimeout(armed.handle)
  }
  // A Node timer may fire up to a millisecond before `at` on this clock: the handler re-arms for what is not yet due.
  armed = { at, handle: setTimeout(onTimer, Math.max(1, Math.ceil(at - performance.now()))) }
}

const onTimer = (): void => {
  armed = undefined
  const now = performance.now()
  const due: Array<Deadline> = []
  let next = Infinity
  for (let d = head; d !== undefined; d = d.next) {
    if (d.at <= now) due.push(d)
    else if (d.at < next) next = d.at
  }
  for (const d of due) unlink(d)
  if (next !== Infinity) arm(next)
  // One deadline that throws must not keep the others from firing; its error is then thrown as a timer's would be.
  let failure: { readonly error: unknown } | undefined
  for (const d of due) {
    try {
      d.fire()
    } catch (error) {
      failure ??= { error }
    }
  }
  if (failure !== undefined) throw failure.error
}

/** Calls `fire` once `ms` milliseconds have passed, unless the returned function is called first. */
export const startDeadline = (ms: number, fire: () => void): () => void => {
  const deadline: Deadline = { at: performance.now() + ms, fire, linked: true, prev: undefined, next: head }
  if (head !== undefined) head.prev = deadline
  head = deadline
  count++
  arm(deadline.at)
  return () => {
    // Cancelled before, or fired: already unlinked.
    if (!deadline.linked) return
    unlink(deadline)
    if (count === 0) armed?.handle.unref()
  }
}

/** How many deadlines are waiting (tests). */
export const pendingDeadlines = (): number => count
