/**
 * The state database's own client (src/layers/sql/sqliteClient.ts): the same
 * connection behind SqlClient, SqliteClient and SqliteStatements, with the
 * locking and errors @effect/sql-sqlite-node's client had. One suite for the
 * database opened when the layer is built and for the one opened when first
 * used (openOnFirstUse.ts).
 */
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { SqliteStatements } from "../../src/layers/sql/sqliteClient.js"
import { StateDatabaseMemory, StateDatabaseMemoryOnDemand } from "../../src/layers/sql/StateDatabase.js"
import { sqliteCode } from "../../src/layers/sql/sessions/storeErrors.js"

for (const [name, database] of [["opened when built", StateDatabaseMemory], ["opened on first use", StateDatabaseMemoryOnDemand]] as const) {
describe(`state database client, ${name}`, () => {
  it.effect("a prepared statement sees the client's writes, runs in the caller's transaction and rolls back with it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const statements = yield* SqliteStatements
      yield* sql`CREATE TABLE t (x INTEGER PRIMARY KEY)`
      const insert = statements.prepare<{ x: number }>("INSERT INTO t (x) VALUES (?) RETURNING x")
      const count = statements.prepare<{ n: number }>("SELECT count(*) AS n FROM t")
      expect(yield* insert([1])).toEqual([{ x: 1 }])
      const failed = yield* Effect.exit(sql.withTransaction(Effect.zipRight(insert([2]), Effect.fail("undo"))))
      expect(Exit.isFailure(failed)).toBe(true)
      expect(yield* count([])).toEqual([{ n: 1 }])
      expect(yield* sql<{ x: number }>`SELECT x FROM t`).toEqual([{ x: 1 }])
    }).pipe(Effect.provide(database)))

  it.effect("outside a transaction a statement waits for another fiber's transaction to end", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const statements = yield* SqliteStatements
      yield* sql`CREATE TABLE t (x INTEGER PRIMARY KEY)`
      const insert = statements.prepare("INSERT INTO t (x) VALUES (?)")
      const inside = yield* Deferred.make<void>()
      const finish = yield* Deferred.make<void>()
      const transaction = yield* Effect.fork(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO t (x) VALUES (1)`
        yield* Deferred.succeed(inside, undefined)
        yield* Deferred.await(finish)
        yield* Effect.fail("rolled back")
      })))
      yield* Deferred.await(inside)
      const outside = yield* Effect.fork(insert([2]))
      yield* Effect.yieldNow()
      // Had it run now, it would have joined the open transaction and been rolled back with it.
      expect(outside.unsafePoll()).toBeNull()
      yield* Deferred.succeed(finish, undefined)
      yield* Effect.exit(Fiber.join(transaction))
      yield* Fiber.join(outside)
      expect(yield* sql<{ x: number }>`SELECT x FROM t`).toEqual([{ x: 2 }])
    }).pipe(Effect.provide(database)))

  it.effect("failures are SqlErrors that keep SQLite's code; the SqliteClient tag is the same client", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sqlite = yield* SqliteClient.SqliteClient
      const statements = yield* SqliteStatements
      expect(sqlite).toBe(sql)
      yield* sql`CREATE TABLE t (x INTEGER PRIMARY KEY)`
      const insert = statements.prepare("INSERT INTO t (x) VALUES (?)")
      yield* insert([1])
      const duplicate = yield* Effect.flip(insert([1]))
      expect(duplicate._tag).toBe("SqlError")
      expect(sqliteCode(duplicate)).toBe("SQLITE_CONSTRAINT_PRIMARYKEY")
      const unprepared = yield* Effect.flip(statements.prepare("SELECT nope FROM nowhere")([]))
      expect(sqliteCode(unprepared)).toBe("SQLITE_ERROR")
      expect((yield* sqlite.export).byteLength).toBeGreaterThan(0)
    }).pipe(Effect.provide(database)))
})
}
