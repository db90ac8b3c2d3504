/**
 * The end of a one-off task (a batch prompt, a cron run): its background processes are stopped and its terminal
 * environment released at once, as Hermes ends every conversation, rather than left idling until
 * `terminal.lifetime_seconds` (a container, an ssh shell or a sandbox per finished prompt of a long batch).
 * A teardown that fails is logged; it never becomes the run's failure.
 */
import { Effect } from "effect"
import { Environments } from "../../services/Environments.js"
import { Processes } from "../../services/Processes.js"

export const endTask = (taskId: string): Effect.Effect<void, never, Environments | Processes> =>
  Effect.gen(function*() {
    const processes = yield* Processes
    const environments = yield* Environments
    yield* processes.closeTask(taskId)
    yield* environments.release(taskId)
  }).pipe(Effect.catchAllCause((cause) => Effect.logWarning(`could not end task ${taskId}`, cause)))
