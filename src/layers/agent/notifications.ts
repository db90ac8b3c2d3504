/**
 * Background-process news for the agent loop. `Processes` has one queue for
 * the whole runtime, while many runs (a batch, a parent and its children) may
 * be going on, so whichever run looks first drains the queue and sorts every
 * notification to its owner: the run of the session that started the process,
 * else the shallowest run of its task (children share their parent's task).
 * News nobody owns yet waits, bounded, for a run of its task to start.
 */
import { Effect } from "effect"
import type { ProcessesService, ProcessNotification } from "../../services/Processes.js"

interface OpenRun {
  readonly taskId: string
  readonly depth: number
  readonly inbox: Array<ProcessNotification>
}

/** Unclaimed notifications kept at most (oldest dropped). */
export const UNCLAIMED_LIMIT = 200

export interface Mailbox {
  readonly open: (sessionId: string, taskId: string, depth: number) => Effect.Effect<void>
  readonly close: (sessionId: string) => Effect.Effect<void>
  /** Everything that arrived for this run since it last looked. */
  readonly take: (sessionId: string) => Effect.Effect<ReadonlyArray<ProcessNotification>>
}

export const makeMailbox = (processes: ProcessesService): Mailbox => {
  const runs = new Map<string, OpenRun>()
  let unclaimed: Array<ProcessNotification> = []

  const ownerOf = (n: ProcessNotification): OpenRun | undefined => {
    if (n.sessionId !== undefined) {
      const own = runs.get(n.sessionId)
      if (own !== undefined) return own
    }
    let best: OpenRun | undefined
    for (const run of runs.values()) {
      if (run.taskId === n.taskId && (best === undefined || run.depth < best.depth)) best = run
    }
    return best
  }

  const sort = (items: ReadonlyArray<ProcessNotification>) => {
    const left: Array<ProcessNotification> = []
    for (const n of items) {
      const owner = ownerOf(n)
      if (owner === undefined) left.push(n)
      else owner.inbox.push(n)
    }
    return left
  }

  return {
    open: (sessionId, taskId, depth) =>
      Effect.sync(() => {
        runs.set(sessionId, { taskId, depth, inbox: [] })
        if (unclaimed.length > 0) unclaimed = sort(unclaimed)
      }),
    close: (sessionId) => Effect.sync(() => void runs.delete(sessionId)),
    take: (sessionId) =>
      Effect.map(processes.drainNotifications, (fresh) => {
        if (fresh.length > 0) {
          unclaimed.push(...sort(fresh))
          if (unclaimed.length > UNCLAIMED_LIMIT) unclaimed = unclaimed.slice(-UNCLAIMED_LIMIT)
        }
        const run = runs.get(sessionId)
        if (run === undefined || run.inbox.length === 0) return []
        return run.inbox.splice(0, run.inbox.length)
      })
  }
}

const describe = (n: ProcessNotification): string => {
  switch (n.type) {
    case "completion": {
      const how = n.completionReason === "killed" ? "was killed" : `exited with code ${n.exitCode}`
      const output = n.output.trim().length === 0 ? "(no output)" : n.output.trimEnd()
      return `Background process ${n.processId} ${how}.\nCommand: ${n.command}\nLast output:\n${output}`
    }
    case "watch_match": {
      const dropped = n.suppressed > 0 ? ` (${n.suppressed} earlier matches were not reported)` : ""
      return `Background process ${n.processId} printed a line matching "${n.pattern}"${dropped}.\nCommand: ${n.command}\nMatched output:\n${n.output.trimEnd()}`
    }
    case "watch_disabled":
      return `Background process ${n.processId}: ${n.message}\nCommand: ${n.command}`
  }
}

/** One user message for the model, between turns. */
export const notificationMessage = (items: ReadonlyArray<ProcessNotification>): string =>
  `[Background process update]\n${items.map(describe).join("\n\n")}`
