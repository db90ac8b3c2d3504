/**
 * `hermes-effect sessions …` through the built binary, on a home whose
 * state.db was filled the way a runtime fills it.
 */
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SessionStoreSql } from "../../src/layers/sql/sessions/SessionStoreSql.js"
import { stateDatabaseLayer } from "../../src/layers/sql/StateDatabase.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import { runCli } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

const fill = (home: string) =>
  Effect.runPromise(Effect.gen(function*() {
    const store = yield* SessionStore
    yield* store.create({ id: "alpha", source: "cli", cwd: "/srv/app", model: "hermes-4", title: "Deploy the app" })
    yield* store.append("alpha", [
      { role: "user", content: "deploy the app to staging" },
      { role: "assistant", content: null, toolCalls: [{ id: "c1", type: "function", function: { name: "terminal", arguments: "{\"command\":\"make deploy\"}" } }] },
      { role: "tool", content: "{\"output\":\"deployed\",\"exit_code\":0}", toolCallId: "c1", toolName: "terminal" },
      { role: "assistant", content: "Deployed to staging." }
    ], { inputTokens: 120, outputTokens: 30 })
    yield* store.create({ id: "beta", source: "batch", title: null })
    yield* store.append("beta", [{ role: "user", content: "数据库连接失败了" }])
    yield* store.create({ id: "gamma", source: "acp" })
  }).pipe(Effect.provide(SessionStoreSql.pipe(Layer.provideMerge(stateDatabaseLayer({ filename: join(home, "state.db") }))))))

describe("hermes-effect sessions", () => {
  it("list, show, search, export and delete", async () => {
    const home = tempHome("hermes-sessions-cli-")
    expect(runCli(["sessions", "list"], { home }).stdout).toBe("no sessions\n")
    await fill(home)

    const list = runCli(["sessions", "list"], { home })
    expect(list.code).toBe(0)
    expect(list.stdout).toMatch(/^ID\s+SOURCE\s+MESSAGES\s+UPDATED\s+TITLE \/ FIRST MESSAGE\n/)
    expect(list.stdout).toMatch(/alpha\s+cli\s+4\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+Deploy the app/)
    expect(list.stdout).toMatch(/beta\s+batch\s+1\s+.*数据库连接失败了/)
    expect(list.stdout).toContain("3 of 3 sessions, newest first")
    const page = JSON.parse(runCli(["sessions", "list", "--json", "--limit", "1", "--source", "cli"], { home }).stdout) as { sessions: Array<{ id: string }>; total: number; nextOffset: number | null }
    expect(page).toMatchObject({ total: 1, nextOffset: null })
    expect(page.sessions.map((s) => s.id)).toEqual(["alpha"])
    expect(runCli(["sessions", "list", "--limit", "2"], { home }).stdout).toContain("2 of 3 sessions, newest first (next page: --offset 2)")

    const show = runCli(["sessions", "show", "alpha"], { home })
    expect(show.code).toBe(0)
    expect(show.stdout).toContain("session   alpha")
    expect(show.stdout).toContain("messages  4   tool calls 1   tokens in/out 120/30")
    expect(show.stdout).toMatch(/#1 \[\d+\] assistant\n {4}→ terminal\(\{"command":"make deploy"\}\)/)
    expect(show.stdout).toMatch(/#2 \[\d+\] tool \(terminal\): \{"output":"deployed","exit_code":0\}/)
    const shown = JSON.parse(runCli(["sessions", "show", "alpha", "--json"], { home }).stdout) as { session: { id: string }; messages: Array<unknown> }
    expect([shown.session.id, shown.messages.length]).toEqual(["alpha", 4])

    const search = runCli(["sessions", "search", "staging"], { home })
    expect(search.stdout).toMatch(/^SESSION\s+MESSAGE\s+ROLE\s+MATCH\n/)
    expect(search.stdout).toMatch(/alpha\s+#0 \[\d+\]\s+user\s+deploy the app to >>>staging<<</)
    expect(search.stdout).toMatch(/alpha\s+#3 \[\d+\]\s+assistant\s+Deployed to >>>staging<<</)
    const cjk = runCli(["sessions", "search", "连接失败", "--json"], { home }).stdout.trim().split("\n").map((l) => JSON.parse(l) as { sessionId: string })
    expect(cjk.map((h) => h.sessionId)).toEqual(["beta"])
    expect(runCli(["sessions", "search", "staging", "--role", "assistant", "--json"], { home }).stdout.trim().split("\n")).toHaveLength(1)
    expect(runCli(["sessions", "search", "nothing-like-this"], { home }).stdout).toBe("no matches\n")

    const exported = runCli(["sessions", "export", "alpha"], { home })
    expect(exported.code).toBe(0)
    const trajectory = JSON.parse(exported.stdout) as { conversations: Array<{ from: string }> }
    expect(trajectory.conversations.map((t) => t.from)).toEqual(["human", "gpt", "tool", "gpt"])
    const out = join(home, "alpha.jsonl")
    expect(runCli(["sessions", "export", "alpha", "--format", "messages", "--out", out], { home }).stdout).toBe("")
    expect(readFileSync(out, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { role: string }).role)).toEqual(["user", "assistant", "tool", "assistant"])

    expect(runCli(["sessions", "delete", "alpha"], { home }).stdout).toBe("deleted session alpha (4 messages)\n")
    const gone = runCli(["sessions", "show", "alpha"], { home })
    expect(gone.code).toBe(1)
    expect(gone.stderr).toBe("hermes-effect: session not found: alpha\n")
    expect(runCli(["sessions", "search", "staging"], { home }).stdout).toBe("no matches\n")
    expect(runCli(["sessions", "export", "nope"], { home }).stderr).toBe("hermes-effect: session not found: nope\n")
  }, 60_000)

  it("a damaged state.db is one clear line and is left as it was", () => {
    const home = tempHome("hermes-sessions-cli-")
    const file = join(home, "state.db")
    writeFileSync(file, "garbage, not a database\n".repeat(100))
    const before = createHash("sha256").update(readFileSync(file)).digest("hex")
    const r = runCli(["sessions", "list"], { home })
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split("\n")).toHaveLength(1)
    expect(r.stderr).toMatch(new RegExp(`^hermes-effect: ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is damaged or not a SQLite database`))
    expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe(before)
  })

  it("a todo written by `call` belongs to the task's session, which `call` records as a cli session", () => {
    const home = tempHome("hermes-sessions-cli-")
    const r = runCli(["call", "todo", "{\"todos\":[{\"id\":\"1\",\"content\":\"x\",\"status\":\"pending\"}]}", "--task-id", "job-1"], { home })
    expect(r.code).toBe(0)
    // the call and its result are the session's two messages
    expect(runCli(["sessions", "list"], { home }).stdout).toMatch(/job-1\s+cli\s+2\s/)
    expect(JSON.parse(runCli(["call", "todo", "{}", "--task-id", "job-1"], { home }).stdout)).toMatchObject({ summary: { total: 1 } })
    expect(runCli(["sessions", "--help"], { home }).stdout).toContain("USAGE")
  }, 60_000)
})
