/**
 * The in-memory FileReadTracker. Every per-task container is bounded (Hermes'
 * caps), and so is the number of tasks, so a long-running process does not
 * accumulate state for reads nobody will repeat.
 */
import { Effect, Layer } from "effect"
import { FileReadTracker } from "../services/FileReadTracker.js"
import type { DedupVerdict, FileReadTrackerService } from "../services/FileReadTracker.js"

const DEDUP_CAP = 1000
const SEEN_CAP = 1000
const PATCH_FAILURE_CAP = 64
const TASK_CAP = 512

interface TaskState {
  lastKey: string | undefined
  consecutive: number
  /** dedup key → mtime at read time */
  readonly dedup: Map<string, number>
  /** dedup key → stubs returned since the last real read */
  readonly dedupHits: Map<string, number>
  /** resolved path → mtime last read or written */
  readonly seen: Map<string, number>
  readonly patchFailures: Map<string, number>
}

const dedupKey = (path: string, offset: number, limit: number) => `${path}\u0000${offset}\u0000${limit}`

/** Insert at the end (newest) and evict the oldest beyond `cap`. */
const setCapped = <V>(map: Map<string, V>, key: string, value: V, cap: number) => {
  map.delete(key)
  map.set(key, value)
  while (map.size > cap) {
    const oldest = map.keys().next()
    if (oldest.done === true) break
    map.delete(oldest.value)
  }
}

export const makeFileReadTracker = (): FileReadTrackerService => {
  const tasks = new Map<string, TaskState>()
  const task = (taskId: string): TaskState => {
    let state = tasks.get(taskId)
    if (state === undefined) {
      state = { lastKey: undefined, consecutive: 0, dedup: new Map(), dedupHits: new Map(), seen: new Map(), patchFailures: new Map() }
      setCapped(tasks, taskId, state, TASK_CAP)
    }
    return state
  }
  const bump = (state: TaskState, key: string): number => {
    if (state.lastKey === key) state.consecutive += 1
    else {
      state.lastKey = key
      state.consecutive = 1
    }
    return state.consecutive
  }

  return {
    checkDedup: (taskId, path, offset, limit, mtimeMs) =>
      Effect.sync((): DedupVerdict => {
        const state = task(taskId)
        const key = dedupKey(path, offset, limit)
        const cached = state.dedup.get(key)
        if (cached === undefined || cached !== mtimeMs) return { _tag: "Fresh" }
        const hits = (state.dedupHits.get(key) ?? 0) + 1
        setCapped(state.dedupHits, key, hits, DEDUP_CAP)
        return { _tag: "Unchanged", hits }
      }),
    recordRead: (taskId, record) =>
      Effect.sync(() => {
        const state = task(taskId)
        const key = dedupKey(record.path, record.offset, record.limit)
        state.dedupHits.delete(key)
        if (record.mtimeMs !== undefined) {
          setCapped(state.dedup, key, record.mtimeMs, DEDUP_CAP)
          setCapped(state.seen, record.path, record.mtimeMs, SEEN_CAP)
        }
        return bump(state, `read\u0000${key}`)
      }),
    recordSearch: (taskId, key) => Effect.sync(() => bump(task(taskId), `search\u0000${key}`)),
    noteWrite: (taskId, path, mtimeMs) =>
      Effect.sync(() => {
        const state = task(taskId)
        const prefix = `${path}\u0000`
        for (const key of [...state.dedup.keys()]) {
          if (key.startsWith(prefix)) {
            state.dedup.delete(key)
            state.dedupHits.delete(key)
          }
        }
        if (mtimeMs !== undefined) setCapped(state.seen, path, mtimeMs, SEEN_CAP)
        else state.seen.delete(path)
      }),
    lastSeenMtime: (taskId, path) => Effect.sync(() => tasks.get(taskId)?.seen.get(path)),
    recordPatchFailure: (taskId, path) =>
      Effect.sync(() => {
        const state = task(taskId)
        const count = (state.patchFailures.get(path) ?? 0) + 1
        setCapped(state.patchFailures, path, count, PATCH_FAILURE_CAP)
        return count
      }),
    resetPatchFailures: (taskId, paths) =>
      Effect.sync(() => {
        const state = tasks.get(taskId)
        if (state !== undefined) for (const path of paths) state.patchFailures.delete(path)
      }),
    noteOtherToolCall: (taskId) =>
      Effect.sync(() => {
        const state = tasks.get(taskId)
        if (state === undefined) return
        state.lastKey = undefined
        state.consecutive = 0
        state.dedupHits.clear()
      }),
    resetDedup: (taskId) =>
      Effect.sync(() => {
        const states = taskId === undefined ? [...tasks.values()] : [tasks.get(taskId)]
        for (const state of states) {
          state?.dedup.clear()
          state?.dedupHits.clear()
        }
      })
  }
}

export const FileReadTrackerMemory: Layer.Layer<FileReadTracker> = Layer.sync(FileReadTracker, makeFileReadTracker)
