/**
 * The approval audit in the state database writes behind the decision: a
 * decision is queued where it is made and inserted once the deciding fiber
 * waits (while the command it let through runs), never lost to a read or to
 * the runtime's end. Real SQLite file, read back by another connection.
 */
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import Sqlite from "better-sqlite3"
import { Effect, Layer } from "effect"
import { ApprovalAuditSql } from "../../src/layers/approval/audit/ApprovalAuditSql.js"
import { stateDatabaseLayer } from "../../src/layers/sql/StateDatabase.js"
import { ApprovalAudit } from "../../src/services/ApprovalAudit.js"
import type { ApprovalRecord } from "../../src/services/ApprovalAudit.js"
import { tempHome } from "../support/runtime.js"

const dbFile = () => join(tempHome("hermes-audit-"), "state.db")

const decision = (command: string, outcome: ApprovalRecord["outcome"] = "allowed"): ApprovalRecord => ({
  at: "2026-11-29T00:00:00.000Z",
  sessionId: "s1",
  taskId: "t1",
  command,
  path: "foreground",
  backend: "local",
  outcome,
  decidedBy: outcome === "allowed" ? "not-dangerous" : "hardline",
  key: null
})

/** What another program reading the file sees now. */
const storedCommands = (file: string): ReadonlyArray<string> => {
  const db = new Sqlite(file, { readonly: true })
  try {
    return (db.prepare("SELECT command FROM approvals ORDER BY id").all() as Array<{ command: string }>).map((r) => r.command)
  } finally {
    db.close()
  }
}

const withAudit = <A, E>(file: string, body: Effect.Effect<A, E, ApprovalAudit>) =>
  Effect.provide(body, ApprovalAuditSql.pipe(Layer.provide(stateDatabaseLayer({ filename: file }))))

describe("ApprovalAuditSql", () => {
  it.live("decisions are committed, in order, as soon as the deciding fiber waits", () => {
    const file = dbFile()
    return withAudit(file, Effect.gen(function*() {
      const audit = yield* ApprovalAudit
      yield* audit.record(decision("echo one"))
      yield* audit.record(decision("rm -rf /", "denied"))
      yield* audit.record(decision("echo three"))
      // The deciding fiber went on without a write of its own; the layer's writer runs once it waits.
      expect(storedCommands(file)).toEqual([])
      yield* Effect.sleep(1)
      expect(storedCommands(file)).toEqual(["echo one", "rm -rf /", "echo three"])
    }))
  })

  it.effect("recent sees a decision still waiting for its write", () => {
    const file = dbFile()
    return withAudit(file, Effect.gen(function*() {
      const audit = yield* ApprovalAudit
      yield* audit.record(decision("git status"))
      const recent = yield* audit.recent(5)
      expect(recent).toEqual([decision("git status")])
      expect(storedCommands(file)).toEqual(["git status"])
    }))
  })

  it.effect("the runtime's end writes out what is still queued", () => {
    const file = dbFile()
    return Effect.gen(function*() {
      yield* withAudit(file, Effect.flatMap(ApprovalAudit, (audit) => Effect.zipRight(audit.record(decision("ls -la")), audit.record(decision("pwd")))))
      expect(storedCommands(file)).toEqual(["ls -la", "pwd"])
    })
  })

  it.live("decisions made by many fibers at once all land", () => {
    const file = dbFile()
    return withAudit(file, Effect.gen(function*() {
      const audit = yield* ApprovalAudit
      yield* Effect.forEach(Array.from({ length: 50 }, (_, i) => i), (i) => Effect.zipRight(Effect.yieldNow(), audit.record(decision(`echo ${i}`))), {
        concurrency: 8,
        discard: true
      })
      yield* Effect.sleep(1)
      const stored = storedCommands(file)
      expect([...stored].sort()).toEqual(Array.from({ length: 50 }, (_, i) => `echo ${i}`).sort())
    }))
  })
})
