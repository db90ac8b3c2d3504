/**
 * Opening the state database: pragmas, migrations, and the files it refuses
 * (damaged, foreign, newer schema) without touching them.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { APPLICATION_ID, SCHEMA_VERSION } from "../../src/layers/sql/migrations.js"
import { SessionStoreSql } from "../../src/layers/sql/sessions/SessionStoreSql.js"
import { StateDatabaseLive, stateDatabaseLayer } from "../../src/layers/sql/StateDatabase.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import type { StateDatabaseError } from "../../src/services/StateDatabase.js"
import { tempHome } from "../support/runtime.js"

const dbFile = () => join(tempHome("hermes-statedb-"), "state.db")
const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex")

/** Run `body` against the database at `file`, opened as the runtime opens it. */
const withDb = <A, E>(file: string, body: Effect.Effect<A, E, SqlClient.SqlClient | SessionStore>) =>
  Effect.provide(body, SessionStoreSql.pipe(Layer.provideMerge(stateDatabaseLayer({ filename: file }))))

const openError = (file: string) =>
  Effect.map(Effect.either(withDb(file, Effect.void)), (r): StateDatabaseError | undefined =>
    Either.isLeft(r) && r.left._tag === "StateDatabaseError" ? r.left : undefined)

/** A statement on a plain SQLite file (no migrations, no WAL): how another program would make one. */
const rawSql = (file: string, statement: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
    Effect.provide(SqliteClient.layer({ filename: file, disableWAL: true })),
    Effect.orDie
  )

const pragma = (name: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.map(sql.unsafe<Record<string, unknown>>(`PRAGMA ${name}`), ([row]) => Object.values(row ?? {})[0]))

describe("state database", () => {
  it.effect("a new file is created with WAL, foreign keys, the busy timeout, our application id and the latest schema", () =>
    Effect.gen(function*() {
      const file = join(tempHome("hermes-statedb-"), "nested", "dir", "state.db")
      const facts = yield* withDb(file, Effect.all({
        journal: pragma("journal_mode"),
        foreignKeys: pragma("foreign_keys"),
        busy: pragma("busy_timeout"),
        synchronous: pragma("synchronous"),
        app: pragma("application_id"),
        migrations: Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<{ migration_id: number; name: string }>("SELECT migration_id, name FROM effect_sql_migrations"))
      }))
      expect(facts).toMatchObject({ journal: "wal", foreignKeys: 1, busy: 5000, synchronous: 1, app: APPLICATION_ID })
      expect(facts.migrations.map((m) => m.migration_id)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1))
      // Reopening keeps the data and runs no migration again.
      yield* withDb(file, Effect.flatMap(SessionStore, (s) => Effect.zipRight(s.create({ id: "kept", source: "cli" }), s.append("kept", [{ role: "user", content: "hi" }]))))
      const again = yield* withDb(file, Effect.all({
        session: Effect.flatMap(SessionStore, (s) => s.get("kept")),
        rows: Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe("SELECT * FROM effect_sql_migrations"))
      }))
      expect(again.session.messageCount).toBe(1)
      expect(again.rows).toHaveLength(SCHEMA_VERSION)
    }))

  it.effect("StateDatabaseLive opens <home>/state.db with the sessions: settings", () =>
    Effect.gen(function*() {
      const root = tempHome("hermes-statedb-live-")
      const facts = yield* Effect.all({ busy: pragma("busy_timeout"), synchronous: pragma("synchronous") }).pipe(
        Effect.provide(StateDatabaseLive.pipe(Layer.provide(ConfigTest({ sessions: { busy_timeout_ms: 1234, synchronous: "full" } }, { root }))))
      )
      expect(facts).toEqual({ busy: 1234, synchronous: 2 })
      expect(existsSync(join(root, "state.db"))).toBe(true)
    }))

  it.effect("a file that is not SQLite is refused as damaged and left byte for byte", () =>
    Effect.gen(function*() {
      const file = dbFile()
      writeFileSync(file, "this is not a database, just some text someone saved here\n".repeat(50))
      const before = digest(file)
      const error = yield* openError(file)
      expect(error?.reason).toBe("corrupt")
      expect(error?.message).toContain(file)
      expect(error?.message).toMatch(/left untouched/)
      expect(digest(file)).toBe(before)
    }))

  it.effect("a SQLite file with damaged pages is refused as damaged and not recreated", () =>
    Effect.gen(function*() {
      const file = dbFile()
      yield* withDb(file, Effect.flatMap(SessionStore, (s) => s.create({ id: "x", source: "cli" })))
      const bytes = readFileSync(file)
      // Keep the 100-byte header; scribble over the schema page's b-tree.
      bytes.fill(0xa5, 100, 4096)
      writeFileSync(file, bytes)
      const before = digest(file)
      const error = yield* openError(file)
      expect(error?.reason).toBe("corrupt")
      expect(digest(file)).toBe(before)
    }))

  it.effect("a database written by a newer build is refused, unchanged", () =>
    Effect.gen(function*() {
      const file = dbFile()
      yield* withDb(file, Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe("INSERT INTO effect_sql_migrations (migration_id, name) VALUES (99, 'future')")))
      const before = digest(file)
      const error = yield* openError(file)
      expect(error?.reason).toBe("newer-schema")
      expect(error?.message).toContain(`schema version 99, newer than this hermes-effect knows (${SCHEMA_VERSION})`)
      expect(digest(file)).toBe(before)
    }))

  it.effect("another program's SQLite database is refused, unchanged", () =>
    Effect.gen(function*() {
      const other = dbFile()
      yield* rawSql(other, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
      const before = digest(other)
      const error = yield* openError(other)
      expect(error?.reason).toBe("foreign")
      expect(error?.message).toMatch(/has tables but no hermes-effect schema record/)
      expect(digest(other)).toBe(before)
      const app = dbFile()
      yield* rawSql(app, "PRAGMA application_id = 12345")
      expect((yield* openError(app))?.reason).toBe("foreign")
    }))

  it.effect("an empty file is a new database", () =>
    Effect.gen(function*() {
      const file = dbFile()
      writeFileSync(file, "")
      const session = yield* withDb(file, Effect.flatMap(SessionStore, (s) => s.create({ id: "fresh", source: "cli" })))
      expect(session.id).toBe("fresh")
    }))

  it.effect("a path that cannot hold a database is a clear error", () =>
    Effect.gen(function*() {
      const home = tempHome("hermes-statedb-")
      writeFileSync(join(home, "blocker"), "a file where a directory should be")
      const error = yield* openError(join(home, "blocker", "state.db"))
      expect(error?.reason).toBe("unreadable")
      expect(error?.message).toMatch(/^cannot open .*blocker\/state\.db: /)
    }))
})
