/**
 * FileReadTracker: what the file tools remember per task between calls, as
 * Hermes does, to break read loops and catch stale edits:
 *
 * - dedup: an identical read (same resolved path, offset, limit) of a file
 *   whose mtime has not changed gets a short "unchanged" stub, and the next
 *   one a block;
 * - consecutive identical read/search calls: a warning at 3, a block at 4;
 * - the mtime each file had when last read or written, so a write can warn
 *   that the file changed on disk since;
 * - consecutive patch failures per path, for an escalating hint.
 *
 * `noteOtherToolCall` resets the consecutive counters (Hermes does this for
 * every tool call that is not read_file/search_files); `resetDedup` is for
 * after a context compression, when earlier read results are gone.
 */
import { Context } from "effect"
import type { Effect } from "effect"

export type DedupVerdict =
  | { readonly _tag: "Fresh" }
  /** The same region was read before and the file has not changed; `hits` counts the stubs so far, this one included. */
  | { readonly _tag: "Unchanged"; readonly hits: number }

export interface ReadRecord {
  /** Resolved path. */
  readonly path: string
  readonly offset: number
  readonly limit: number
  /** The file's mtime when read; undefined when unknown (no dedup then). */
  readonly mtimeMs: number | undefined
}

export interface FileReadTrackerService {
  /** Before a read: has this exact region been read with the file unchanged since? Counts a stub when so. */
  readonly checkDedup: (taskId: string, path: string, offset: number, limit: number, mtimeMs: number) => Effect.Effect<DedupVerdict>
  /** After a real read: remember it; returns how many times in a row this same call was made. */
  readonly recordRead: (taskId: string, record: ReadRecord) => Effect.Effect<number>
  /** A search call (its arguments as a key); returns how many times in a row it was made. */
  readonly recordSearch: (taskId: string, key: string) => Effect.Effect<number>
  /** After a write by this task: drop dedup entries for the path and remember its new mtime. */
  readonly noteWrite: (taskId: string, path: string, mtimeMs: number | undefined) => Effect.Effect<void>
  /** The mtime the task last saw for a path (read or written), if any. */
  readonly lastSeenMtime: (taskId: string, path: string) => Effect.Effect<number | undefined>
  /** One more failed patch of this path in a row; returns the count. */
  readonly recordPatchFailure: (taskId: string, path: string) => Effect.Effect<number>
  readonly resetPatchFailures: (taskId: string, paths: ReadonlyArray<string>) => Effect.Effect<void>
  /** Another tool ran for this task: consecutive counters start over. */
  readonly noteOtherToolCall: (taskId: string) => Effect.Effect<void>
  /** Forget dedup state (one task, or all): the model no longer has the earlier results. */
  readonly resetDedup: (taskId?: string) => Effect.Effect<void>
}

export class FileReadTracker extends Context.Tag("hermes-effect/FileReadTracker")<FileReadTracker, FileReadTrackerService>() {}
