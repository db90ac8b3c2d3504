/**
 * Todo lists in the state database, one per session (the todo tool's key is
 * the session id, else the task id). Writing a list creates its session on
 * first use (source `task`) in the same transaction, so a list always belongs
 * to a session and goes when the session is deleted.
 *
 * TodoStore's interface has no error channel: a database failure is a defect,
 * which dispatch reports to the model as a tool error.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer } from "effect"
import { TASK_SESSION_SOURCE } from "../../services/SessionStore.js"
import { TodoStore } from "../../services/TodoStore.js"
import type { TodoItem } from "../../services/TodoStore.js"

const parseItems = (text: string): ReadonlyArray<TodoItem> => {
  const value: unknown = JSON.parse(text)
  return Array.isArray(value) ? (value as ReadonlyArray<TodoItem>) : []
}

const orDie = (operation: string) =>
  Effect.orDieWith((e: { readonly message: string; readonly cause?: unknown }) =>
    new Error(`todo store: ${operation} failed: ${e.cause instanceof Error ? e.cause.message : e.message}`)
  )

export const TodoStoreSql: Layer.Layer<TodoStore, never, SqlClient.SqlClient> = Layer.effect(
  TodoStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return TodoStore.of({
      get: (key) =>
        sql.unsafe<{ items: string }>("SELECT items FROM todos WHERE session_id = ?", [key]).pipe(
          Effect.map(([row]) => (row === undefined ? [] : parseItems(row.items))),
          orDie("read")
        ),
      set: (key, items) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          sql.withTransaction(
            Effect.zipRight(
              sql.unsafe(
                "INSERT INTO sessions (id, source, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                [key, TASK_SESSION_SOURCE, now, now]
              ),
              sql.unsafe(
                `INSERT INTO todos (session_id, items, updated_at) VALUES (?, ?, ?)
                 ON CONFLICT (session_id) DO UPDATE SET items = excluded.items, updated_at = excluded.updated_at`,
                [key, JSON.stringify(items), now]
              )
            )
          )).pipe(Effect.asVoid, orDie("write"))
    })
  })
)
