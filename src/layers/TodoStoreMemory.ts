/** In-memory todo lists, one per session key: lost when the process ends. */
import { Effect, Layer } from "effect"
import { TodoStore } from "../services/TodoStore.js"
import type { TodoItem } from "../services/TodoStore.js"

export const TodoStoreMemory = Layer.sync(TodoStore, () => {
  const lists = new Map<string, ReadonlyArray<TodoItem>>()
  return TodoStore.of({
    get: (key) => Effect.sync(() => lists.get(key) ?? []),
    set: (key, items) => Effect.sync(() => void lists.set(key, items))
  })
})
