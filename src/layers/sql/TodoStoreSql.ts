/**
 * Todo lists in the state database, one per session (the todo tool's key is
 * the session id, else the task id). Writing a list creates its session on
 * first use (source `task`) in the same transaction, so a list always belongs
 * to a session and goes when the session is deleted.
 *
 * TodoStore's interface has no error channel: a database failure is a defect,
 * which dispatch reports to the model as a tool error.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Clock, Effect, Layer, Option, Schema } from "effect"
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
    const listOf = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ items: Schema.String }),
      execute: (key) => sql`SELECT items FROM todos WHERE session_id = ${key}`
    })
    return TodoStore.of({
      get: (key) =>
        listOf(key).pipe(
          Effect.map(Option.match({ onNone: () => [], onSome: (row) => parseItems(row.items) })),
          orDie("read")
        ),
      set: (key, items) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          sql.withTransaction(
            Effect.zipRight(
              sql`INSERT INTO sessions ${sql.insert({ id: key, source: TASK_SESSION_SOURCE, created_at: now, updated_at: now })}
                ON CONFLICT (id) DO NOTHING`,
              sql`INSERT INTO todos ${sql.insert({ session_id: key, items: JSON.stringify(items), updated_at: now })}
                ON CONFLICT (session_id) DO UPDATE SET items = excluded.items, updated_at = excluded.updated_at`
            )
          )).pipe(Effect.asVoid, orDie("write"))
    })
  })
)
