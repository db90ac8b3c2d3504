/**
 * A state database opened when it is first used (`openOnFirstUse`,
 * StateDatabaseMemoryOnDemand): a runtime whose stores are never used never
 * touches the file, the first statement opens it (once, however many ask at
 * the same moment), and a file that cannot be opened fails that statement
 * with the database's own message, untouched. Also: a search backlog an
 * earlier process left is still indexed at the first idle moment, although
 * the store no longer looks for one when it is built.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { SessionStoreSql } from "../../src/layers/sql/sessions/SessionStoreSql.js"
import { StateDatabaseMemoryOnDemand, stateDatabaseLayer } from "../../src/layers/sql/StateDatabase.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { tempHome } from "../support/runtime.js"

const dbFile = () => join(tempHome("hermes-ondemand-"), "state.db")
const onDemand = (filename: string) => stateDatabaseLayer({ filename, openOnFirstUse: true })
const store = (database: Layer.Layer<SqlClient.SqlClient, unknown>) => SessionStoreSql.pipe(Layer.provideMerge(database))

describe("state database opened on first use", () => {
  it.scoped("a runtime whose stores are never used leaves no file; the first tool that uses one creates it", () =>
    Effect.gen(function*() {
      const home = tempHome("hermes-ondemand-runtime-")
      const file = join(home, "ondemand.db")
      const runtime = hermesRuntime({
        config: ConfigTest({}, { root: join(home, "home"), workspaceDir: join(home, "ws") }),
        database: onDemand(file),
        plugins: false,
        mcp: false
      })
      yield* Effect.gen(function*() {
        const registry = yield* ToolRegistry
        const executor = yield* ToolExecutor
        const definitions = yield* registry.definitions({ enabled: ["todo", "file"] })
        expect(definitions.map((d) => d.function.name)).toContain("todo")
        expect(existsSync(file)).toBe(false)
        const answer = yield* executor.dispatch({ tool: "todo", args: { todos: [{ id: "1", content: "x", status: "pending" }] } })
        expect(JSON.parse(answer).summary.total).toBe(1)
        expect(existsSync(file)).toBe(true)
      }).pipe(Effect.provide(runtime))
    }))

  it.effect("the first statement creates the schema; the file stays after the layer closes", () =>
    Effect.gen(function*() {
      const file = dbFile()
      yield* Effect.gen(function*() {
        expect(existsSync(file)).toBe(false)
        const sessions = yield* SessionStore
        yield* sessions.create({ id: "s1", source: "cli" })
        expect(existsSync(file)).toBe(true)
      }).pipe(Effect.provide(store(onDemand(file))))
      const reopened = yield* Effect.flatMap(SessionStore, (s) => s.list()).pipe(Effect.provide(store(stateDatabaseLayer({ filename: file }))))
      expect(reopened.sessions.map((s) => s.id)).toEqual(["s1"])
    }))

  it.effect("statements that arrive together open one database", () =>
    Effect.gen(function*() {
      const sessions = yield* SessionStore
      yield* Effect.all(Array.from({ length: 20 }, (_, i) => sessions.create({ id: `s${i}`, source: "cli" })), { concurrency: "unbounded" })
      expect((yield* sessions.list({ limit: 50 })).total).toBe(20)
    }).pipe(Effect.provide(store(StateDatabaseMemoryOnDemand))))

  it.effect("a file that cannot be opened fails the first statement with the database's message, and is left as it was", () =>
    Effect.gen(function*() {
      const file = dbFile()
      writeFileSync(file, "not a database, just text that happens to be here\n".repeat(20))
      const before = createHash("sha256").update(readFileSync(file)).digest("hex")
      const error = yield* Effect.flip(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`).pipe(Effect.provide(onDemand(file))))
      expect(error._tag).toBe("SqlError")
      expect(error.message).toMatch(/is damaged or not a SQLite database/)
      expect(error.cause).toMatchObject({ _tag: "StateDatabaseError", reason: "corrupt" })
      expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe(before)
    }))

  for (const [name, database] of [["opened when built", (file: string) => stateDatabaseLayer({ filename: file })], ["opened on first use", onDemand]] as const) {
    it.effect(`a substring-index backlog an earlier process left is indexed at the first idle moment (${name})`, () =>
      Effect.gen(function*() {
        const file = dbFile()
        // More than a closing store indexes for trigrams (2000): the rest is left for a later process.
        const backlog = 2100
        const last = yield* Effect.gen(function*() {
          const sessions = yield* SessionStore
          yield* sessions.create({ id: "old", source: "batch" })
          const stored = yield* sessions.append("old", Array.from({ length: backlog }, (_, i) => ({ role: "user" as const, content: `line ${i} zyxwvut` })))
          return stored[stored.length - 1]!.id
        }).pipe(Effect.provide(store(stateDatabaseLayer({ filename: file }))))
        yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const trigramsUpto = Effect.map(sql<{ upto: number }>`SELECT trigrams_upto AS upto FROM search_index_state`, ([row]) => row!.upto)
          expect(yield* trigramsUpto).toBeLessThan(last)
          yield* TestClock.adjust("1 second")
          for (let i = 0; i < 200 && (yield* trigramsUpto) !== last; i++) yield* Effect.yieldNow()
          expect(yield* trigramsUpto).toBe(last)
        }).pipe(Effect.provide(store(database(file))))
      }))
  }
})
