/**
 * `todo` (toolset `todo`): the agent's task list for the current session.
 * Without `todos` it reads; with `merge: false` it replaces the list; with
 * `merge: true` it updates items by id and appends new ones.
 */
import { Schema } from "effect"
import { ToolContext } from "../services/ToolContext.js"
import { TodoStatus, TodoStore } from "../services/TodoStore.js"
import type { TodoItem } from "../services/TodoStore.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { lenient } from "../lib/tool/lenient.js"
import { observedFn } from "../lib/effect/observedFn.js"

export const TODO_MAX_ITEMS = 256
export const TODO_MAX_CONTENT = 4000

export class TodoLimitExceeded extends Schema.TaggedError<TodoLimitExceeded>()("TodoLimitExceeded", {
  message: Schema.String
}) {}

/** Hermes' `str(value)`: numbers and booleans keep their text, anything missing is empty. */
const asText = (value: unknown): string =>
  typeof value === "number" || typeof value === "boolean" ? String(value) : typeof value === "string" ? value : ""

const STATUSES: ReadonlyArray<string> = TodoStatus.literals

// As in Hermes, a malformed item is normalised (id "?", "(no description)", status pending) rather than refused.
const TodoInput = lenient(
  Schema.Struct({
    id: lenient(Schema.String, asText, { description: "Unique item identifier" }),
    content: lenient(Schema.String, asText, { description: "Task description" }),
    status: lenient(TodoStatus, (value) => {
      const text = asText(value).trim().toLowerCase()
      return (STATUSES.includes(text) ? text : "pending") as typeof TodoStatus.Type
    }, { description: "Current status" })
  }),
  () => ({ id: "", content: "(invalid item)", status: "pending" as const }),
  {}
)

export const TodoParameters = Schema.Struct({
  todos: Schema.optional(
    Schema.Array(TodoInput).annotations({ description: "Task items to write. Omit to read the current list." })
  ),
  merge: Schema.optional(
    Schema.Boolean.annotations({
      description: "true: update existing items by id and add new ones. false (default): replace the whole list.",
      default: false
    })
  )
})

const clean = (item: typeof TodoInput.Type): TodoItem => {
  const id = item.id.trim().length === 0 ? "?" : item.id
  const text = item.content.trim().length === 0 ? "(no description)" : item.content
  const content = text.length > TODO_MAX_CONTENT ? `${text.slice(0, TODO_MAX_CONTENT)}… [truncated]` : text
  return { id, content, status: item.status }
}

/** Replace: one item per id, the last occurrence wins and keeps its place. */
export const replaceTodos = <T extends { readonly id: string }>(items: ReadonlyArray<T>): ReadonlyArray<T> => {
  const lastIndex = new Map<string, number>()
  // Items without an id cannot collide (Hermes keeps each in place).
  const keyOf = (item: T, i: number) => (item.id.trim().length === 0 ? `\u0000${i}` : item.id)
  items.forEach((item, i) => lastIndex.set(keyOf(item, i), i))
  return items.filter((item, i) => lastIndex.get(keyOf(item, i)) === i)
}

export const mergeTodos = (current: ReadonlyArray<TodoItem>, updates: ReadonlyArray<typeof TodoInput.Type>): ReadonlyArray<TodoItem> => {
  const out = current.map((item) => ({ ...item }))
  const byId = new Map(out.map((item, i) => [item.id, i]))
  for (const update of updates) {
    const at = byId.get(update.id)
    if (at === undefined) {
      byId.set(update.id, out.length)
      out.push(clean(update))
      continue
    }
    const existing = out[at]!
    out[at] = {
      id: existing.id,
      content: update.content.trim().length > 0 ? clean(update).content : existing.content,
      status: update.status
    }
  }
  return out
}

export const summarize = (items: ReadonlyArray<TodoItem>) => ({
  todos: items,
  summary: {
    total: items.length,
    pending: items.filter((i) => i.status === "pending").length,
    in_progress: items.filter((i) => i.status === "in_progress").length,
    completed: items.filter((i) => i.status === "completed").length,
    cancelled: items.filter((i) => i.status === "cancelled").length
  }
})

export const todoTool = defineTool({
  name: "todo",
  toolset: "todo",
  emoji: "📋",
  description:
    "Keep a task list for work with several steps (3 or more) or when the user hands you several tasks; for 'all N items' work, give every item its own entry so none is dropped. " +
    "Call with no parameters to read the list; pass `todos` to write it (merge=false replaces the list, merge=true updates items by id and appends new ones). " +
    "The order is the priority. Keep exactly one item in_progress. Mark an item completed only once the work is verified, not when you intend to do it; " +
    "if something fails, cancel it and add a revised item. Every call returns the whole list.",
  parameters: TodoParameters,
  handler: observedFn("todo")(function*(args) {
    const store = yield* TodoStore
    const ctx = yield* ToolContext
    const key = ctx.sessionId ?? ctx.taskId
    const current = yield* store.get(key)
    if (args.todos === undefined) return summarize(current)
    const next = args.merge === true ? mergeTodos(current, args.todos) : replaceTodos(args.todos).map(clean)
    if (next.length > TODO_MAX_ITEMS) {
      return yield* new TodoLimitExceeded({
        message: `Too many todo items (${next.length}); the list holds at most ${TODO_MAX_ITEMS}. Complete or remove items first.`
      })
    }
    yield* store.set(key, next)
    return summarize(next)
  })
})
