/**
 * A state database opened when it is first used. The CLI's catalogue commands
 * (tools, toolsets, plugins) build the whole runtime, whose stores each hold
 * the database's client, yet never run a statement; opening one means loading
 * SQLite's native module and creating or checking the schema, milliseconds of
 * such a command's start. This client has the same three faces as an open
 * one (SqlClient, SqliteClient, SqliteStatements) and opens the real one,
 * once, in the layer's scope, when any of them first runs something. A
 * failure to open is then that statement's SqlError, carrying the database's
 * own error and message.
 */
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Scope } from "effect"
import { sqliteClientOver } from "./sqliteClient.js"
import type { OpenedSqliteClient, SqliteClientOptions, SqliteStatementsService } from "./sqliteClient.js"

export const openOnFirstUse = <E extends { readonly message: string }, R>(
  options: SqliteClientOptions,
  open: Effect.Effect<OpenedSqliteClient, E, R>
) =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    // What opening needs comes from the layer, not from whichever caller happens to use the database first.
    const context = yield* Effect.context<Exclude<R, Scope.Scope>>()
    // Uninterruptible: a first caller interrupted half-way must not leave a half-opened database behind it.
    const opened = yield* Effect.cached(
      Scope.extend(open, scope).pipe(
        Effect.provide(context),
        Effect.uninterruptible,
        Effect.mapError((cause) => new SqlError({ cause, message: cause.message }))
      )
    )
    const client = yield* sqliteClientOver({
      acquirer: Effect.flatMap(opened, (db) => db.acquirer),
      transactionAcquirer: Effect.flatMap(opened, (db) => db.transactionAcquirer),
      options,
      export: Effect.flatMap(opened, (db) => db.client.export),
      backup: (destination) => Effect.flatMap(opened, (db) => db.client.backup(destination)),
      loadExtension: (path) => Effect.flatMap(opened, (db) => db.client.loadExtension(path))
    })
    const statements: SqliteStatementsService = {
      prepare: <A extends object>(text: string) => {
        let run: ((params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, SqlError>) | undefined
        return (params) => run !== undefined ? run(params) : Effect.flatMap(opened, (db) => (run ??= db.statements.prepare<A>(text))(params))
      }
    }
    return { client, statements }
  })
