/**
 * The state database under real processes: a writer killed with SIGKILL in
 * the middle of a stream of appends, and two writers appending to one session
 * at once (each also racing the other to create and migrate a fresh file), and
 * three processes racing through the same sixty fresh files.
 * The children run the built code (test/sessions/fixtures/appender.mjs).
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SessionStoreSql } from "../../src/layers/sql/sessions/SessionStoreSql.js"
import { stateDatabaseLayer } from "../../src/layers/sql/StateDatabase.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import { tempHome } from "../support/runtime.js"

const APPENDER = fileURLToPath(new URL("./fixtures/appender.mjs", import.meta.url))
const OPENER = fileURLToPath(new URL("./fixtures/opener.mjs", import.meta.url))
const DIST = fileURLToPath(new URL("../../dist/layers/sql/sessions/SessionStoreSql.js", import.meta.url))

interface Child {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>
  /** Resolves with the number of acknowledged turns once at least `n` were acknowledged. */
  readonly acked: (n: number) => Promise<number>
  readonly kill: () => void
  readonly count: () => number
}

const startAppender = (db: string, session: string, label: string, turns: number | "forever"): Child => {
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run \`npm run build\` first (npm test does)`)
  const child = spawn(process.execPath, [APPENDER, db, session, label, String(turns)], { stdio: ["ignore", "pipe", "pipe"] })
  let acks = 0
  const waiters: Array<{ n: number; resolve: (n: number) => void }> = []
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (!line.startsWith("ack ")) return
    acks++
    for (const w of waiters.splice(0)) (acks >= w.n ? w.resolve(acks) : waiters.push(w))
  })
  let stderr = ""
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal, stderr }))
  )
  return {
    exited,
    acked: (n) => (acks >= n ? Promise.resolve(acks) : new Promise((resolve) => waiters.push({ n, resolve }))),
    kill: () => void child.kill("SIGKILL"),
    count: () => acks
  }
}

const run = (script: string, args: ReadonlyArray<string>) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()))
    child.once("close", (code) => resolve({ code, stderr }))
  })

/** Opens the file the way the runtime does (migrations, pragmas) and inspects it. */
const inspect = <A>(db: string, body: Effect.Effect<A, unknown, SessionStore | SqlClient.SqlClient>) =>
  Effect.runPromise(Effect.provide(body, SessionStoreSql.pipe(Layer.provideMerge(stateDatabaseLayer({ filename: db })))))

const integrity = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [check] = yield* sql.unsafe<{ integrity_check: string }>("PRAGMA integrity_check")
  return check?.integrity_check
})

describe("state database reliability", () => {
  it("SIGKILL in the middle of appends loses no acknowledged turn and leaves a clean database", async () => {
    const db = join(tempHome("hermes-sigkill-"), "state.db")
    let acknowledged = 0
    for (const [round, killAfter] of [[0, 40], [1, 120], [2, 300]] as const) {
      const child = startAppender(db, "killed", `r${round}`, "forever")
      await child.acked(killAfter)
      child.kill()
      const exit = await child.exited
      expect(exit.signal).toBe("SIGKILL")
      const acked = child.count()
      acknowledged += acked
      const state = await inspect(db, Effect.gen(function*() {
        const store = yield* SessionStore
        const sql = yield* SqlClient.SqlClient
        const session = yield* store.get("killed")
        const history = yield* store.history("killed")
        const [rows] = yield* sql.unsafe<{ n: number }>("SELECT count(*) AS n FROM messages WHERE session_id = 'killed'")
        const hits = yield* store.search(`r${round} question`, { limit: 500, sessionId: "killed" })
        return { session, history, rows: rows!.n, check: yield* integrity, hits: hits.length }
      }))
      expect(state.check).toBe("ok")
      // Counters and rows commit together, and a turn is all or nothing.
      expect(state.rows).toBe(state.session.messageCount)
      expect(state.rows % 3).toBe(0)
      expect(state.history.map((m) => m.ordinal)).toEqual(state.history.map((_, i) => i))
      const contents = new Set(state.history.map((m) => m.content))
      for (let n = 0; n < acked; n++) {
        expect(contents.has(`r${round} question ${n}`)).toBe(true)
        expect(contents.has(`r${round} answer ${n}`)).toBe(true)
      }
      // At most the turn in flight may have committed without its ack being read.
      expect(state.rows / 3).toBeGreaterThanOrEqual(acknowledged)
      expect(state.hits).toBeGreaterThanOrEqual(acked)
      acknowledged = state.rows / 3
    }
  }, 60_000)

  it("processes racing through the same fresh state databases all open every one (none half-sees another's migration)", async () => {
    const dir = tempHome("hermes-fresh-race-")
    const children = Array.from({ length: 3 }, () => run(OPENER, [dir, "60"]))
    for (const exit of await Promise.all(children)) expect(exit).toMatchObject({ code: 0, stderr: "" })
  }, 60_000)

  it("two processes appending to one session at once both succeed, with one gapless order", async () => {
    const db = join(tempHome("hermes-concurrent-"), "state.db")
    const turns = 150
    const a = startAppender(db, "shared", "A", turns)
    const b = startAppender(db, "shared", "B", turns)
    const [ea, eb] = await Promise.all([a.exited, b.exited])
    expect(ea).toMatchObject({ code: 0, stderr: "" })
    expect(eb).toMatchObject({ code: 0, stderr: "" })
    const state = await inspect(db, Effect.gen(function*() {
      const store = yield* SessionStore
      return { session: yield* store.get("shared"), history: yield* store.history("shared"), check: yield* integrity }
    }))
    expect(state.check).toBe("ok")
    expect(state.session.messageCount).toBe(2 * turns * 3)
    expect(state.session.toolCallCount).toBe(2 * turns)
    expect(state.history.map((m) => m.ordinal)).toEqual(state.history.map((_, i) => i))
    for (const label of ["A", "B"]) {
      const mine = state.history.filter((m) => m.content?.startsWith(`${label} question`)).map((m) => m.content)
      expect(mine).toEqual(Array.from({ length: turns }, (_, n) => `${label} question ${n}`))
    }
    // Each turn stayed contiguous: a question is always followed by its own call and answer.
    state.history.forEach((m, i) => {
      if (m.role !== "user") return
      const [label, , n] = m.content!.split(" ")
      expect(state.history[i + 1]!.toolCalls?.[0]?.id).toBe(`${label}-${n}`)
      expect(state.history[i + 2]!.content).toBe(`${label} answer ${n}`)
    })
  }, 60_000)
})
