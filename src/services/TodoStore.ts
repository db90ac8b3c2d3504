/**
 * TodoStore: the per-session task list behind the `todo` tool.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

export const TodoStatus = Schema.Literal("pending", "in_progress", "completed", "cancelled")
export type TodoStatus = typeof TodoStatus.Type

export interface TodoItem {
  readonly id: string
  readonly content: string
  readonly status: TodoStatus
}

export interface TodoStoreService {
  /** The list for a session (or task) key; empty when none was written. */
  readonly get: (key: string) => Effect.Effect<ReadonlyArray<TodoItem>>
  readonly set: (key: string, items: ReadonlyArray<TodoItem>) => Effect.Effect<void>
}

export class TodoStore extends Context.Tag("hermes-effect/TodoStore")<TodoStore, TodoStoreService>() {}
