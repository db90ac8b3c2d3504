/**
 * ResultStore: where an oversized tool result goes so the model can page
 * through it with read_file instead of losing it.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

export class ResultPersistError extends Schema.TaggedError<ResultPersistError>()("ResultPersistError", {
  path: Schema.String,
  detail: Schema.String
}) {}

export interface PersistRequest {
  readonly content: string
  readonly tool: string
  readonly taskId: string
  /** Names the file; a fresh id is used when the call has none. */
  readonly toolCallId?: string | undefined
}

export interface ResultStoreService {
  /** Save the full content; returns the path the model can read it back from. */
  readonly persist: (request: PersistRequest) => Effect.Effect<string, ResultPersistError>
}

export class ResultStore extends Context.Tag("hermes-effect/ResultStore")<ResultStore, ResultStoreService>() {}
