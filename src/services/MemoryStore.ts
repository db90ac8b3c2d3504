/**
 * MemoryStore: the memory tool's two bounded stores, `memory` (the agent's
 * notes, `memories/MEMORY.md`) and `user` (the user profile, `memories/USER.md`),
 * each a list of entries joined by a line holding `§`.
 *
 * Changes are read-modify-write under a lock shared by every process using the
 * home, so two agents adding at once both land.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

export type MemoryTarget = "memory" | "user"

export const ENTRY_SEPARATOR = "\n§\n"

/** What a change decides: the entries to write (none: leave the file alone) and its answer. */
export interface MemoryChange<A> {
  readonly entries?: ReadonlyArray<string> | undefined
  readonly result: A
}

/** The file holds text the tool did not write (a manual edit, a shell append): rewriting it would lose that text. */
export interface MemoryDrift {
  readonly _tag: "MemoryDrift"
  readonly file: string
  /** A copy of the file as found. */
  readonly backup: string
}

export class MemoryStoreError extends Schema.TaggedError<MemoryStoreError>()("MemoryStoreError", {
  message: Schema.String
}) {}

export interface MemoryStoreService {
  /** Characters each store may hold (entries and separators counted). */
  readonly limit: (target: MemoryTarget) => number
  readonly file: (target: MemoryTarget) => string
  /** Current entries (deduplicated, in order). */
  readonly entries: (target: MemoryTarget) => Effect.Effect<ReadonlyArray<string>, MemoryStoreError>
  /**
   * Apply `change` to the latest entries under the store's lock and write the
   * result atomically. With `guardDrift`, a file that would not survive the
   * rewrite is backed up and left alone, and the answer is `MemoryDrift`.
   */
  readonly modify: <A>(
    target: MemoryTarget,
    change: (entries: ReadonlyArray<string>) => MemoryChange<A>,
    options?: { readonly guardDrift?: boolean }
  ) => Effect.Effect<A | MemoryDrift, MemoryStoreError>
}

export class MemoryStore extends Context.Tag("hermes-effect/MemoryStore")<MemoryStore, MemoryStoreService>() {}
