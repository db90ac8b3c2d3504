/**
 * The state database's client: @effect/sql's `SqlClient.make` over one
 * better-sqlite3 connection, as @effect/sql-sqlite-node builds it (one
 * connection behind a one-permit semaphore, a transaction holding the permit
 * for its scope, a cache of prepared statements), plus `SqliteStatements`: a
 * statement prepared once and run in place, for the session store's hot
 * paths. @effect/sql's Statement machinery (compile, spans, acquirer scope)
 * costs ~25 µs a call, as much as SQLite's own work for a small write; the
 * handle skips it and keeps the same connection, lock and errors.
 */
import { SqlClient } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import type * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import type Sqlite from "better-sqlite3"
import { Context, Effect, Exit, Option, Scope } from "effect"
import { createRequire } from "node:module"
import { SqliteClientTypeId } from "./sqliteClientTag.js"

/** What a SqliteClient is made of beyond its acquirers: its options and its whole-database operations. */
export interface SqliteClientParts {
  readonly acquirer: Connection.Acquirer
  readonly transactionAcquirer: Connection.Acquirer
  readonly options: SqliteClientOptions
  readonly export: SqliteClient.SqliteClient["export"]
  readonly backup: SqliteClient.SqliteClient["backup"]
  readonly loadExtension: SqliteClient.SqliteClient["loadExtension"]
}

/** @effect/sql's client on SQLite's dialect over `parts`, with sqlite-node's extras: the SqliteClient (here and in openOnFirstUse.ts). */
export const sqliteClientOver = (parts: SqliteClientParts) =>
  Effect.map(
    SqlClient.make({
      acquirer: parts.acquirer,
      compiler: Statement.makeCompilerSqlite(),
      transactionAcquirer: parts.transactionAcquirer,
      spanAttributes: [["db.system.name", "sqlite"]]
    }),
    (base) =>
      Object.assign(base, {
        [SqliteClientTypeId]: SqliteClientTypeId,
        config: { filename: parts.options.filename, disableWAL: parts.options.disableWAL },
        export: parts.export,
        backup: parts.backup,
        loadExtension: parts.loadExtension
        // sqlite-node's client type declares `updateValues: never` over the base client's function; the object is the same.
      }) as unknown as SqliteClient.SqliteClient
  )

/** Prepared statements kept per connection (sqlite-node's default). */
const PREPARE_CACHE = 200

export interface SqliteStatementsService {
  /**
   * `text` prepared once (on first use); each call runs it with `params` and returns its rows (none for a
   * statement without RETURNING). Inside the caller's transaction it runs on that transaction's connection;
   * otherwise it takes the connection's permit for the one synchronous call.
   */
  readonly prepare: <A extends object>(text: string) => (params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, SqlError>
}

/** Prepared statements on the state database's connection (provided by its layers next to `SqlClient`). */
export class SqliteStatements extends Context.Tag("hermes-effect/SqliteStatements")<SqliteStatements, SqliteStatementsService>() {}

/** `text` prepared once on the state database's connection when `statements` are there, else run through `sql` (another client). */
export const preparedOr = <A extends object>(
  sql: SqlClient.SqlClient,
  statements: Option.Option<SqliteStatementsService>,
  text: string
): (params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, SqlError> =>
  Option.isSome(statements) ? statements.value.prepare<A>(text) : (params) => sql.unsafe<A>(text, params)

const executeError = (cause: unknown) => new SqlError({ cause, message: "Failed to execute statement" })
const prepareError = (cause: unknown) => new SqlError({ cause, message: "Failed to prepare statement " })

/** Rows of one synchronous call, or its failure as @effect/sql-sqlite-node reports it. */
const runNow = (statement: Sqlite.Statement, params: ReadonlyArray<unknown>): Exit.Exit<ReadonlyArray<object>, SqlError> => {
  try {
    if (statement.reader) return Exit.succeed(statement.all(...params) as Array<object>)
    statement.run(...params)
    return Exit.succeed([])
  } catch (cause) {
    return Exit.fail(executeError(cause))
  }
}

export interface SqliteClientOptions {
  readonly filename: string
  /** Switch the file to WAL on open (sqlite-node's default); the state database switches later itself. */
  readonly disableWAL?: boolean | undefined
}

/** BEGIN, COMMIT, ROLLBACK and @effect/sql's savepoints. */
const TRANSACTION_CONTROL = /^(?:BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/

/** better-sqlite3, loaded when the first database opens (see sqliteClientTag.ts for why not at start). */
let sqliteModule: typeof Sqlite | undefined
const sqlite = (): typeof Sqlite => (sqliteModule ??= createRequire(import.meta.url)("better-sqlite3") as typeof Sqlite)

/** The client under both tags, and the prepared-statement handle on the same connection. Closed with the scope. */
export const makeSqliteClient = (options: SqliteClientOptions) =>
  Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.try({ try: () => new (sqlite())(options.filename, { readonly: false }), catch: (cause) => cause }),
      (db) => Effect.sync(() => db.close())
    )
    if (options.disableWAL !== true) db.pragma("journal_mode = WAL")

    // Least recently used out first: a Map iterates in insertion order, and a hit is moved to the end.
    const cache = new Map<string, Sqlite.Statement>()
    const prepared = (text: string): Sqlite.Statement => {
      let statement = cache.get(text)
      if (statement !== undefined) {
        cache.delete(text)
      } else {
        statement = db.prepare(text)
        if (cache.size >= PREPARE_CACHE) cache.delete(cache.keys().next().value!)
      }
      cache.set(text, statement)
      return statement
    }

    const run = (text: string, params: ReadonlyArray<unknown>, raw: boolean) =>
      Effect.withFiberRuntime<ReadonlyArray<object> | unknown, SqlError>((fiber) => {
        let statement: Sqlite.Statement
        try {
          statement = prepared(text)
        } catch (cause) {
          return Exit.fail(prepareError(cause))
        }
        if (Context.get(fiber.currentContext, SqlClient.SafeIntegers)) statement.safeIntegers(true)
        if (!raw || statement.reader) return runNow(statement, params)
        try {
          return Exit.succeed(statement.run(...params))
        } catch (cause) {
          return Exit.fail(executeError(cause))
        }
      })
    const rows = (text: string, params: ReadonlyArray<unknown>) => run(text, params, false) as Effect.Effect<ReadonlyArray<object>, SqlError>

    const connection: Connection = {
      execute: (text, params, transformRows) => (transformRows ? Effect.map(rows(text, params), transformRows) : rows(text, params)),
      executeRaw: (text, params) => run(text, params, true),
      executeValues: (text, params) =>
        Effect.suspend(() => {
          let statement: Sqlite.Statement
          try {
            statement = prepared(text)
          } catch (cause) {
            return Exit.fail(prepareError(cause))
          }
          if (!statement.reader) return Effect.as(runNow(statement, params), [])
          statement.raw(true)
          try {
            return runNow(statement, params) as Exit.Exit<ReadonlyArray<ReadonlyArray<unknown>>, SqlError>
          } finally {
            statement.raw(false)
          }
        }),
      executeUnprepared: (text, params, transformRows) => {
        // As in sqlite-node, a statement that does not prepare here is a defect (BEGIN, COMMIT and migrations come this way).
        // Transaction control is the same few texts on every transaction: those are kept prepared.
        const effect = Effect.suspend(() => runNow(TRANSACTION_CONTROL.test(text) ? prepared(text) : db.prepare(text), params ?? []))
        return transformRows ? Effect.map(effect, transformRows) : effect
      },
      executeStream: () => Effect.dieMessage("executeStream not implemented")
    }

    const semaphore = yield* Effect.makeSemaphore(1)
    /** Permits taken through this module (all of them): a statement finding none taken runs without queueing. */
    let held = 0
    const release = Effect.suspend(() => {
      held--
      return semaphore.release(1)
    })
    const withPermit = <A, E, R>(self: Effect.Effect<A, E, R>) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(
          restore(semaphore.take(1)),
          Effect.suspend(() => {
            held++
            return Effect.ensuring(restore(self), release)
          })
        )
      )
    const acquirer = withPermit(Effect.succeed(connection))
    // A transaction keeps the permit until its scope closes.
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.as(
        Effect.zipRight(
          restore(semaphore.take(1)),
          Effect.tap(Effect.scope, (scope) => {
            held++
            return Scope.addFinalizer(scope, release)
          })
        ),
        connection
      )
    )
    const withConnection = <A>(f: () => A, message: string) => withPermit(Effect.try({ try: f, catch: (cause) => new SqlError({ cause, message }) }))

    const client = yield* sqliteClientOver({
      acquirer,
      transactionAcquirer,
      options,
      export: withConnection(() => new Uint8Array(db.serialize()), "Failed to export database"),
      backup: (destination) =>
        withPermit(
          Effect.tryPromise({ try: () => db.backup(destination), catch: (cause) => new SqlError({ cause, message: "Failed to backup database" }) })
        ),
      loadExtension: (path) =>
        Effect.asVoid(withConnection(() => {
          db.loadExtension(path)
          cache.clear()
        }, "Failed to load extension"))
    })

    const statements: SqliteStatementsService = {
      prepare: <A extends object>(text: string) => {
        let statement: Sqlite.Statement | undefined
        const now = (params: ReadonlyArray<unknown>): Exit.Exit<ReadonlyArray<A>, SqlError> => {
          if (statement === undefined) {
            try {
              statement = db.prepare(text)
            } catch (cause) {
              return Exit.fail(prepareError(cause))
            }
          }
          return runNow(statement, params) as Exit.Exit<ReadonlyArray<A>, SqlError>
        }
        return (params: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>, SqlError> =>
          Effect.withFiberRuntime<ReadonlyArray<A>, SqlError>((fiber) => {
            const transaction = Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)
            // SQLite calls are synchronous: with no permit taken (no transaction open) the call needs none held.
            if (transaction._tag === "None") return held === 0 ? now(params) : withPermit(Effect.suspend(() => now(params)))
            // The transaction holds the permit; one on another client's connection goes through that connection.
            const owner = transaction.value[0]
            return owner === connection ? now(params) : (owner.execute(text, params, undefined) as Effect.Effect<ReadonlyArray<A>, SqlError>)
          })
      }
    }

    return { client, statements, acquirer, transactionAcquirer }
  })

/** An open client as `makeSqliteClient` returns it: its two faces and the acquirers behind them. */
export type OpenedSqliteClient = Effect.Effect.Success<ReturnType<typeof makeSqliteClient>>
