/**
 * WAL checkpoints on a worker thread: the log reaches the database file
 * without the connection checkpointing in a commit; a worker that cannot
 * start hands checkpoints back; closing leaves no log behind.
 */
import { existsSync, statSync } from "node:fs"
import { join } from "node:path"
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { stateDatabaseLayer } from "../../src/layers/sql/StateDatabase.js"
import { makeSqliteClient } from "../../src/layers/sql/sqliteClient.js"
import { startWalCheckpointer } from "../../src/layers/sql/walCheckpointer.js"
import type { WalCheckpointerOptions } from "../../src/layers/sql/walCheckpointer.js"
import { tempHome } from "../support/runtime.js"

const PAGE = 4096
const dbFile = () => join(tempHome("hermes-wal-"), "state.db")
const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0)

/** A WAL-mode file with one table, and a writer of `pages` pages in autocommit statements. */
const openFile = (file: string) =>
  Effect.gen(function*() {
    const { client } = yield* makeSqliteClient({ filename: file }).pipe(Effect.provide(Reactivity.layer))
    yield* client.unsafe("CREATE TABLE IF NOT EXISTS blobs (id INTEGER PRIMARY KEY, body BLOB)")
    const write = (pages: number) =>
      Effect.forEach(Array.from({ length: pages }), () => client.unsafe("INSERT INTO blobs (body) VALUES (zeroblob(4000))"), { discard: true })
    const autocheckpoint = Effect.map(client.unsafe<{ readonly wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint"), ([row]) => row?.wal_autocheckpoint)
    const setAutocheckpoint = (pages: number) => Effect.asVoid(client.unsafe(`PRAGMA wal_autocheckpoint = ${pages}`))
    return { write, autocheckpoint, setAutocheckpoint }
  })

const checkpointer = (file: string, setAutocheckpoint: WalCheckpointerOptions["setAutocheckpoint"], extra: Partial<WalCheckpointerOptions> = {}) =>
  startWalCheckpointer({ filename: file, setAutocheckpoint, thresholdPages: 50, intervalMs: 10, ...extra }, PAGE)

/** Polls `done` every 10 ms for up to 10 s (a worker thread starts in tens of milliseconds). */
const eventually = (done: () => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 1000 && !done(); i++) yield* Effect.sleep("10 millis")
    return done()
  })

describe("WAL checkpoints on a worker thread", () => {
  it.live("the worker copies the log into the file once it passes the threshold, and the connection keeps a backstop", () =>
    Effect.scoped(Effect.gen(function*() {
      const file = dbFile()
      const db = yield* openFile(file)
      const wal = yield* checkpointer(file, db.setAutocheckpoint)
      expect(yield* db.autocheckpoint).toBe(10_000)
      const before = sizeOf(file)
      yield* db.write(200)
      expect(yield* eventually(() => wal.stats().checkpoints >= 1)).toBe(true)
      // 200 pages were copied into the file: SQLite's own trigger (1 000 pages, or the 10 000 backstop) never fired.
      expect(sizeOf(file) - before).toBeGreaterThanOrEqual(150 * PAGE)
      expect(wal.stats().failed).toBe(false)
      // Writing goes on after a checkpoint, and the next pass copies that too.
      const copied = sizeOf(file)
      yield* db.write(200)
      expect(yield* eventually(() => sizeOf(file) - copied >= 150 * PAGE)).toBe(true)
    })))

  it.live("without the worker the same writes stay in the log (the control)", () =>
    Effect.scoped(Effect.gen(function*() {
      const file = dbFile()
      const db = yield* openFile(file)
      const before = sizeOf(file)
      yield* db.write(200)
      yield* Effect.sleep("200 millis")
      expect(sizeOf(file) - before).toBeLessThan(10 * PAGE)
      expect(sizeOf(`${file}-wal`)).toBeGreaterThan(200 * PAGE)
    })))

  it.live("a worker that cannot start gives checkpoints back to the connection, and writes go on", () =>
    Effect.scoped(Effect.gen(function*() {
      const file = dbFile()
      const db = yield* openFile(file)
      const wal = yield* checkpointer(file, db.setAutocheckpoint, { driver: join(tempHome("hermes-wal-none-"), "no-such-driver.js") })
      yield* db.write(100)
      expect(yield* eventually(() => wal.stats().failed)).toBe(true)
      // The setting goes back through the client, from the worker's error event: wait for it the same way.
      let setting = yield* db.autocheckpoint
      for (let i = 0; i < 100 && setting !== 1000; i++) setting = yield* Effect.zipRight(Effect.sleep("10 millis"), db.autocheckpoint)
      expect(setting).toBe(1000)
      yield* db.write(1100)
      // Past 1 000 pages the connection checkpointed in a commit again: the file holds the rows.
      expect(sizeOf(file)).toBeGreaterThan(900 * PAGE)
    })))

  it.live("closing stops the worker before the connection closes: no log is left behind", () =>
    Effect.gen(function*() {
      const file = dbFile()
      yield* Effect.scoped(Effect.gen(function*() {
        const db = yield* openFile(file)
        const wal = yield* checkpointer(file, db.setAutocheckpoint)
        yield* db.write(100)
        expect(yield* eventually(() => wal.stats().checkpoints >= 1)).toBe(true)
        yield* db.write(10)
      }))
      expect(existsSync(`${file}-wal`)).toBe(false)
      expect(sizeOf(file)).toBeGreaterThan(100 * PAGE)
    }))

  it.live("the state database checkpoints on a worker by default, inline when configured, never in memory", () =>
    Effect.gen(function*() {
      const setting = (layer: Layer.Layer<SqlClient.SqlClient, unknown>) =>
        Effect.scoped(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<{ readonly wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint")).pipe(
          Effect.provide(layer),
          Effect.map(([row]) => row?.wal_autocheckpoint),
          Effect.orDie
        ))
      expect(yield* setting(stateDatabaseLayer({ filename: dbFile() }))).toBe(10_000)
      expect(yield* setting(stateDatabaseLayer({ filename: dbFile(), walCheckpoint: "inline" }))).toBe(1000)
      expect(yield* setting(stateDatabaseLayer({ filename: ":memory:" }))).toBe(1000)
    }))
})
