/**
 * One behaviour suite for SessionStore, run against every database it can sit
 * on (a state.db file, and `:memory:`): each test gets a fresh database.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, TestClock } from "effect"
import { RANK_WINDOW, SessionStoreSql } from "../../src/layers/sql/sessions/SessionStoreSql.js"
import { TodoStoreSql } from "../../src/layers/sql/TodoStoreSql.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import type { NewMessage } from "../../src/services/SessionStore.js"
import type { StateDatabaseError } from "../../src/services/StateDatabase.js"
import { TodoStore } from "../../src/services/TodoStore.js"

type Database = Layer.Layer<SqlClient.SqlClient, StateDatabaseError>

/** The tag of the error `effect` fails with ("succeeded" when it does not). */
const failureTag = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.either(effect), (r) => (Either.isLeft(r) ? r.left._tag : "succeeded"))

const user = (content: string): NewMessage => ({ role: "user", content })
const assistant = (content: string): NewMessage => ({ role: "assistant", content })
const toolTurn = (id: string, name: string, args: string, result: string): ReadonlyArray<NewMessage> => [
  { role: "assistant", content: null, toolCalls: [{ id, type: "function", function: { name, arguments: args } }] },
  { role: "tool", content: result, toolCallId: id, toolName: name }
]

export const sessionStoreSuite = (name: string, database: () => Database) => {
  const fresh = () => Layer.mergeAll(SessionStoreSql, TodoStoreSql).pipe(Layer.provideMerge(database()))
  const test = (title: string, body: Effect.Effect<void, unknown, SessionStore | TodoStore | SqlClient.SqlClient>) =>
    it.effect(title, () => Effect.provide(body, fresh()))

  describe(`SessionStore on ${name}`, () => {
    test("create, get and list newest first, paged and filtered by source and cwd", Effect.gen(function*() {
      const store = yield* SessionStore
      for (const [i, source, cwd] of [[1, "cli", "/a"], [2, "batch", "/b"], [3, "cli", "/b"], [4, "acp", "/a"]] as const) {
        yield* store.create({ id: `s${i}`, source, cwd, title: `session ${i}` })
        yield* TestClock.adjust("1 second")
      }
      const first = yield* store.list({ limit: 3 })
      expect(first.sessions.map((s) => s.id)).toEqual(["s4", "s3", "s2"])
      expect(first.total).toBe(4)
      expect(first.nextOffset).toBe(3)
      const second = yield* store.list({ limit: 3, offset: 3 })
      expect(second.sessions.map((s) => s.id)).toEqual(["s1"])
      expect(second.nextOffset).toBeNull()
      expect((yield* store.list({ source: "cli" })).sessions.map((s) => s.id)).toEqual(["s3", "s1"])
      expect((yield* store.list({ cwd: "/b" })).sessions.map((s) => s.id)).toEqual(["s3", "s2"])
      expect((yield* store.list({ excludeSources: ["cli", "acp"] })).sessions.map((s) => s.id)).toEqual(["s2"])
      const got = yield* store.get("s2")
      expect(got).toMatchObject({ id: "s2", source: "batch", cwd: "/b", title: "session 2", createdAt: 1000, messageCount: 0, parentSessionId: null })
      expect(yield* failureTag(store.get("nope"))).toBe("SessionNotFound")
      expect(yield* failureTag(store.create({ id: "s1", source: "cli" }))).toBe("SessionExists")
    }))

    test("generated ids follow Hermes' YYYYMMDD_HHMMSS_hex shape; ensure creates once", Effect.gen(function*() {
      const store = yield* SessionStore
      const made = yield* store.create({ source: "cli" })
      expect(made.id).toMatch(/^\d{8}_\d{6}_[0-9a-f]{6}$/)
      const a = yield* store.ensure("task-1", { source: "task", cwd: "/w" })
      yield* store.append("task-1", [user("hello")])
      const b = yield* store.ensure("task-1", { source: "other" })
      expect(b).toMatchObject({ id: "task-1", source: "task", cwd: "/w", messageCount: 1 })
      expect(a.createdAt).toBe(b.createdAt)
    }))

    test("append assigns gapless ordinals and counts messages, tool calls and tokens", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "s", source: "cli" })
      const turn1 = yield* store.append("s", [user("list the files"), ...toolTurn("c1", "terminal", "{\"command\":\"ls\"}", "{\"output\":\"a b\"}")], {
        inputTokens: 100,
        outputTokens: 20
      })
      yield* TestClock.adjust("5 seconds")
      const turn2 = yield* store.append("s", [assistant("two files: a and b")], { inputTokens: 50, outputTokens: 5 })
      expect([...turn1, ...turn2].map((m) => m.ordinal)).toEqual([0, 1, 2, 3])
      expect(new Set([...turn1, ...turn2].map((m) => m.id)).size).toBe(4)
      const session = yield* store.get("s")
      expect(session).toMatchObject({ messageCount: 4, toolCallCount: 1, inputTokens: 150, outputTokens: 25, createdAt: 0, updatedAt: 5000 })
      const history = yield* store.history("s")
      expect(history.map((m) => [m.ordinal, m.role, m.content])).toEqual([
        [0, "user", "list the files"],
        [1, "assistant", null],
        [2, "tool", "{\"output\":\"a b\"}"],
        [3, "assistant", "two files: a and b"]
      ])
      expect(history[1]!.toolCalls).toEqual([{ id: "c1", type: "function", function: { name: "terminal", arguments: "{\"command\":\"ls\"}" } }])
      expect(history[2]).toMatchObject({ toolCallId: "c1", toolName: "terminal" })
      expect(history.map((m) => m.id)).toEqual([...turn1, ...turn2].map((m) => m.id))
      expect((yield* store.history("s", { fromOrdinal: 2, limit: 1 })).map((m) => m.ordinal)).toEqual([2])
      expect(yield* failureTag(store.append("missing", [user("x")]))).toBe("SessionNotFound")
      expect(yield* failureTag(store.history("missing"))).toBe("SessionNotFound")
    }))

    test("a turn that fails half way leaves nothing behind", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "s", source: "cli" })
      yield* store.append("s", [user("kept")])
      // The role CHECK constraint rejects the second row, after the counter and the first row were written.
      const bad = yield* Effect.either(store.append("s", [user("lost"), { role: "robot" as "user", content: "x" }]))
      expect(Either.isLeft(bad) ? bad.left._tag : "succeeded").toBe("SessionStoreError")
      expect((yield* store.get("s")).messageCount).toBe(1)
      expect((yield* store.history("s")).map((m) => m.content)).toEqual(["kept"])
      expect(yield* store.search("lost")).toEqual([])
      const next = yield* store.append("s", [user("after")])
      expect(next[0]!.ordinal).toBe(1)
    }))

    test("generated ids never collide: 20 000 sessions and forks made in one second of the clock each get their own", Effect.gen(function*() {
      const store = yield* SessionStore
      const made = yield* Effect.forEach(Array.from({ length: 20_000 }), () => store.create({ source: "batch" }), { concurrency: 8 })
      const forks = yield* Effect.forEach(made.slice(0, 2000), (s) => store.fork(s.id), { concurrency: 8 })
      const ids = [...made, ...forks].map((s) => s.id)
      expect(new Set(ids).size).toBe(22_000)
      expect((yield* store.list({ limit: 1 })).total).toBe(22_000)
    }))

    test("ids one process makes in a second count up from a random point; taken ids (another process, an earlier run) restart the count elsewhere", Effect.gen(function*() {
      const store = yield* SessionStore
      const suffix = (id: string) => Number.parseInt(id.slice(-6), 16)
      const first = yield* store.create({ source: "batch" })
      const second = yield* store.create({ source: "batch" })
      expect(suffix(second.id)).toBe((suffix(first.id) + 1) % 0x1000000)
      // Another process (or a run that ended within the second) made the next 40 ids of this count.
      const stamp = first.id.slice(0, -6)
      const taken = Array.from({ length: 40 }, (_, k) => `${stamp}${((suffix(second.id) + 1 + k) % 0x1000000).toString(16).padStart(6, "0")}`)
      for (const id of taken) yield* store.create({ id, source: "other" })
      const made = yield* Effect.forEach(Array.from({ length: 20 }), () => store.create({ source: "batch" }), { concurrency: 4 })
      const ids = made.map((s) => s.id)
      expect(ids.filter((id) => taken.includes(id) || id === first.id || id === second.id)).toEqual([])
      expect(new Set(ids).size).toBe(20)
      expect(ids.every((id) => id.startsWith(stamp))).toBe(true)
      expect((yield* store.list({ source: "other" })).total).toBe(40)
    }))

    test("concurrent creates and appends (committed together) each get their own outcome", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "a", source: "cli" })
      yield* store.create({ id: "b", source: "cli" })
      const large = Array.from({ length: 1234 }, (_, i) => user(`large ${i}`))
      const outcomes = yield* Effect.all([
        failureTag(store.append("a", [user("a1"), assistant("a2")])),
        failureTag(store.append("missing", [user("x")])),
        failureTag(store.append("b", [user("lost"), { role: "robot" as "user", content: "x" }])),
        failureTag(store.append("b", large)),
        failureTag(store.create({ id: "a", source: "cli" })),
        failureTag(store.create({ id: "c", source: "batch" })),
        failureTag(store.append("a", [user("a3")]))
      ], { concurrency: "unbounded" })
      expect(outcomes).toEqual(["succeeded", "SessionNotFound", "SessionStoreError", "succeeded", "SessionExists", "succeeded", "succeeded"])
      const a = yield* store.history("a")
      expect(a.map((m) => m.ordinal)).toEqual([0, 1, 2])
      expect(a.map((m) => m.content).sort()).toEqual(["a1", "a2", "a3"])
      expect((yield* store.history("b")).map((m) => m.content)).toEqual(large.map((m) => m.content))
      expect((yield* store.get("b")).messageCount).toBe(1234)
      expect((yield* store.get("c")).source).toBe("batch")
    }))

    test("a large turn is split over several statements and keeps its order", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "big", source: "batch" })
      const turn = Array.from({ length: 1234 }, (_, i) => user(`message number ${i}`))
      const stored = yield* store.append("big", turn)
      expect(stored.map((m) => m.ordinal)).toEqual(turn.map((_, i) => i))
      const ids = stored.map((m) => m.id)
      expect([...ids].sort((a, b) => a - b)).toEqual(ids)
      expect((yield* store.history("big")).map((m) => m.content)).toEqual(turn.map((m) => m.content))
    }))

    test("fork copies history up to an ordinal and links the parent; lineage walks to the root", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "root", source: "cli", cwd: "/p", model: "m1", title: "Root" })
      yield* store.append("root", [user("one"), ...toolTurn("c", "todo", "{}", "{}"), assistant("two")])
      const child = yield* store.fork("root", { id: "child", upToOrdinal: 2 })
      expect(child).toMatchObject({ id: "child", parentSessionId: "root", source: "cli", cwd: "/p", model: "m1", title: "Root", messageCount: 3, toolCallCount: 1 })
      expect((yield* store.history("child")).map((m) => m.content)).toEqual(["one", null, "{}"])
      const grandchild = yield* store.fork("child", { id: "gc", source: "subagent", title: "delegated" })
      expect(grandchild).toMatchObject({ source: "subagent", title: "delegated", messageCount: 3 })
      expect(yield* store.lineage("gc")).toEqual(["gc", "child", "root"])
      expect(yield* store.lineage("unknown")).toEqual([])
      expect(yield* failureTag(store.fork("nope"))).toBe("SessionNotFound")
      expect(yield* failureTag(store.fork("root", { id: "child" }))).toBe("SessionExists")
      // Forked messages are searchable in their own right.
      expect((yield* store.search("one")).map((h) => h.sessionId).sort()).toEqual(["child", "gc", "root"])
    }))

    test("delete removes the session, its messages, its todo list and its search entries; children keep theirs", Effect.gen(function*() {
      const store = yield* SessionStore
      const todos = yield* TodoStore
      yield* store.create({ id: "p", source: "cli" })
      yield* store.append("p", [user("zebra crossing"), assistant("zebra stripes")])
      yield* store.fork("p", { id: "c" })
      yield* todos.set("p", [{ id: "1", content: "feed the zebra", status: "pending" }])
      expect((yield* store.search("zebra")).length).toBe(4)
      expect(yield* store.delete("p")).toEqual({ messages: 2 })
      expect(yield* failureTag(store.get("p"))).toBe("SessionNotFound")
      expect(yield* todos.get("p")).toEqual([])
      expect((yield* store.search("zebra")).map((h) => h.sessionId)).toEqual(["c", "c"])
      expect((yield* store.search("ebra")).map((h) => h.sessionId)).toEqual(["c", "c"])
      expect((yield* store.get("c")).parentSessionId).toBeNull()
      expect(yield* failureTag(store.delete("p"))).toBe("SessionNotFound")
      // The index is still consistent after deleting indexed rows.
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')")
      yield* sql.unsafe("INSERT INTO messages_trigram (messages_trigram) VALUES ('integrity-check')")
    }))

    test("around returns a window with counts on each side", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "w", source: "cli" })
      const stored = yield* store.append("w", Array.from({ length: 20 }, (_, i) => user(`m${i}`)))
      const view = yield* store.around("w", stored[10]!.id, 3)
      expect(view.messages.map((m) => m.content)).toEqual(["m7", "m8", "m9", "m10", "m11", "m12", "m13"])
      expect(view.anchor.content).toBe("m10")
      expect([view.before, view.after]).toEqual([7, 6])
      const edge = yield* store.around("w", stored[1]!.id, 5)
      expect([edge.messages.length, edge.before, edge.after]).toEqual([7, 0, 13])
      yield* store.create({ id: "other", source: "cli" })
      expect(yield* failureTag(store.around("other", stored[1]!.id, 2))).toBe("MessageNotFound")
      expect(yield* failureTag(store.around("gone", stored[1]!.id, 2))).toBe("SessionNotFound")
    }))

    test("search: FTS5 words, phrases, OR, NOT, prefixes, with snippets and BM25 order", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "a", source: "cli" })
      yield* store.create({ id: "b", source: "cli" })
      yield* store.append("a", [user("the docker network is broken"), assistant("restart the docker daemon and the network")])
      yield* store.append("b", [user("kubernetes deployment failed"), assistant("docker images are fine")])
      const both = yield* store.search("docker network")
      expect(both).toHaveLength(2)
      expect(both.every((h) => h.sessionId === "a" && h.match === "fts")).toBe(true)
      expect(both[0]!.snippet).toMatch(/>>>docker<<<|>>>network<<</)
      expect((yield* store.search("\"docker daemon\"")).map((h) => h.ordinal)).toEqual([1])
      expect((yield* store.search("kubernetes OR daemon")).length).toBe(2)
      expect((yield* store.search("docker NOT network")).map((h) => h.sessionId)).toEqual(["b"])
      expect((yield* store.search("deploy*")).map((h) => h.sessionId)).toEqual(["b"])
      expect((yield* store.search("docker", { roles: ["user"] })).map((h) => h.sessionId)).toEqual(["a"])
      expect((yield* store.search("docker", { sessionId: "b" })).map((h) => h.ordinal)).toEqual([1])
      const newest = yield* store.search("docker", { sort: "newest" })
      expect(newest.map((h) => h.messageId)).toEqual([...newest.map((h) => h.messageId)].sort((x, y) => y - x))
      const oldest = yield* store.search("docker", { sort: "oldest", limit: 2 })
      expect(oldest.map((h) => h.messageId)).toEqual([...newest].reverse().slice(0, 2).map((h) => h.messageId))
      // Text that is not valid FTS5 syntax is searched as quoted terms instead of failing.
      yield* store.append("b", [user("the build-cache key is stale: rebuild")])
      expect((yield* store.search("build-cache")).map((h) => h.ordinal)).toEqual([2])
      expect((yield* store.search("stale: rebuild")).map((h) => h.ordinal)).toEqual([2])
      expect((yield* store.search("\"unbalanced")).length).toBe(0)
      expect(yield* store.search("   ")).toEqual([])
    }))

    test("search: relevance is ranked among the most recent matches, age order reaches all", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "r", source: "cli" })
      yield* store.append("r", [user("needle needle needle needle haystack")])
      yield* store.append("r", Array.from({ length: RANK_WINDOW }, (_, i) => user(`needle in a long haystack of words number ${i}`)))
      yield* store.append("r", [user("needle needle short")])
      // The strongest match overall is older than the window; the best one inside it wins.
      expect((yield* store.search("needle", { limit: 1 })).map((h) => h.ordinal)).toEqual([RANK_WINDOW + 1])
      expect((yield* store.search("needle", { limit: 1, sort: "oldest" })).map((h) => h.ordinal)).toEqual([0])
      expect((yield* store.search("needle", { limit: 1, sort: "newest" })).map((h) => h.ordinal)).toEqual([RANK_WINDOW + 1])
      // Few matches: plain BM25, the densest first whatever its age.
      yield* store.append("r", [user("quasar quasar quasar bright"), user("a quasar among many other words in this sentence"), user("quasar quasar")])
      expect((yield* store.search("quasar")).map((h) => h.ordinal - RANK_WINDOW - 2)).toEqual([0, 2, 1])
    }))

    test("the search indexes trail the appends and catch up once writes pause", Effect.gen(function*() {
      const store = yield* SessionStore
      const sql = yield* SqlClient.SqlClient
      const watermarks = Effect.map(
        sql.unsafe<{ words_upto: number; trigrams_upto: number }>("SELECT words_upto, trigrams_upto FROM search_index_state"),
        ([row]) => [row!.words_upto, row!.trigrams_upto]
      )
      yield* store.create({ id: "bg", source: "cli" })
      const stored = yield* store.append("bg", [user("background indexing works"), user("while nobody is writing")])
      const last = stored[1]!.id
      expect(yield* watermarks).toEqual([0, 0])
      yield* TestClock.adjust("1 second")
      // The idle indexer runs on its own fiber: give it turns until it is done.
      for (let i = 0; i < 100 && (yield* watermarks)[1] !== last; i++) yield* Effect.yieldNow()
      expect(yield* watermarks).toEqual([last, last])
      expect((yield* store.search("nobody")).map((h) => h.messageId)).toEqual([last])
    }))

    test("search: substrings and CJK through the trigram index", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "zh", source: "cli" })
      yield* store.create({ id: "ja", source: "batch" })
      yield* store.append("zh", [user("数据库连接失败了，请检查配置"), assistant("已经修复了数据库配置")])
      yield* store.append("ja", [user("デプロイが失敗しました"), assistant("ログを確認してください: containerization_v2 failed")])
      const cjk = yield* store.search("连接失败")
      expect(cjk.map((h) => [h.sessionId, h.ordinal, h.match])).toEqual([["zh", 0, "substring"]])
      expect(cjk[0]!.snippet).toContain(">>>连接失败<<<")
      // Two characters are below the trigram size: still found (by a scan of the index's text).
      expect((yield* store.search("配置")).map((h) => h.ordinal).sort()).toEqual([0, 1])
      expect((yield* store.search("失敗")).map((h) => h.sessionId)).toEqual(["ja"])
      expect((yield* store.search("数据库 修复")).map((h) => h.ordinal)).toEqual([1])
      // Part of a word: no word matches, so the substring index answers.
      const part = yield* store.search("ntaineriz")
      expect(part.map((h) => [h.sessionId, h.match])).toEqual([["ja", "substring"]])
      // LIKE wildcards in a term are matched literally.
      expect((yield* store.search("tion_v2")).map((h) => h.sessionId)).toEqual(["ja"])
      expect(yield* store.search("tionXv2")).toEqual([])
      expect((yield* store.search("ation%v2"))).toEqual([])
      // Operators mean the user wanted FTS5 semantics: no substring fallback.
      expect(yield* store.search("ntaineriz OR zzz")).toEqual([])
      expect((yield* store.search("连接", { sources: ["batch"] }))).toEqual([])
    }))

    test("search: filters by source and role; messages appended just now are found", Effect.gen(function*() {
      const store = yield* SessionStore
      for (const [id, source] of [["c", "cli"], ["s", "subagent"], ["t", "tool"]] as const) {
        yield* store.create({ id, source })
        yield* store.append(id, [user("quokka sighting"), { role: "tool", content: "quokka log", toolCallId: "x", toolName: "terminal" }])
      }
      expect((yield* store.search("quokka", { excludeSources: ["subagent", "tool"] })).map((h) => h.sessionId)).toEqual(["c", "c"])
      expect((yield* store.search("quokka", { sources: ["tool"], roles: ["tool"] })).map((h) => [h.sessionId, h.role])).toEqual([["t", "tool"]])
      const hit = (yield* store.search("sighting", { sessionId: "s" }))[0]!
      expect(hit).toMatchObject({ sessionId: "s", source: "subagent", role: "user", ordinal: 0, match: "fts" })
    }))

    test("export: a ShareGPT trajectory line and OpenAI message lines", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "x", source: "cli", model: "hermes-4", title: "Files" })
      yield* store.append("x", [
        { role: "system", content: "You are helpful." },
        user("list files"),
        { role: "assistant", content: "Let me look.", toolCalls: [
          { id: "c1", type: "function", function: { name: "terminal", arguments: "{\"command\":\"ls\"}" } },
          { id: "c2", type: "function", function: { name: "read_file", arguments: "{\"path\":\"a\"}" } }
        ] },
        { role: "tool", content: "{\"output\":\"a\"}", toolCallId: "c1" },
        { role: "tool", content: "plain text", toolCallId: "c2", toolName: "read_file" },
        assistant("There is one file, a.")
      ])
      const line = yield* store.export("x")
      expect(line).not.toContain("\n")
      const trajectory = JSON.parse(line) as { conversations: Array<{ from: string; value: string }>; model: string; session_id: string }
      expect(trajectory).toMatchObject({ model: "hermes-4", session_id: "x", source: "cli", title: "Files", timestamp: "1970-01-01T00:00:00.000Z" })
      expect(trajectory.conversations.map((t) => t.from)).toEqual(["system", "human", "gpt", "tool", "gpt"])
      expect(trajectory.conversations[2]!.value).toBe(
        "<think>\n</think>\nLet me look.\n<tool_call>\n{\"name\":\"terminal\",\"arguments\":{\"command\":\"ls\"}}\n</tool_call>\n<tool_call>\n{\"name\":\"read_file\",\"arguments\":{\"path\":\"a\"}}\n</tool_call>"
      )
      expect(trajectory.conversations[3]!.value).toBe(
        "<tool_response>\n{\"tool_call_id\":\"c1\",\"name\":\"terminal\",\"content\":{\"output\":\"a\"}}\n</tool_response>\n" +
          "<tool_response>\n{\"tool_call_id\":\"c2\",\"name\":\"read_file\",\"content\":\"plain text\"}\n</tool_response>"
      )
      expect(trajectory.conversations[4]!.value).toBe("<think>\n</think>\nThere is one file, a.")
      const lines = (yield* store.export("x", "messages")).split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(lines).toHaveLength(6)
      expect(lines[2]).toMatchObject({ role: "assistant", content: "Let me look.", tool_calls: [{ id: "c1" }, { id: "c2" }] })
      expect(lines[3]).toEqual({ role: "tool", content: "{\"output\":\"a\"}", tool_call_id: "c1" })
      expect(yield* failureTag(store.export("none"))).toBe("SessionNotFound")
    }))

    test("rows read back in the service's shape: damaged tool calls read as none, a column of the wrong type fails the read", Effect.gen(function*() {
      const store = yield* SessionStore
      const sql = yield* SqlClient.SqlClient
      yield* store.create({ id: "r", source: "cli", model: "m1" })
      const [stored] = yield* store.append("r", toolTurn("c1", "terminal", "{}", "done"))
      const [read] = yield* store.history("r")
      expect(read).toEqual(stored)
      expect(Object.keys(read!)).toEqual(["id", "sessionId", "ordinal", "role", "content", "toolCalls", "toolCallId", "toolName", "createdAt"])
      expect(Object.keys(yield* store.get("r"))).toEqual([
        "id", "source", "parentSessionId", "cwd", "model", "title", "createdAt", "updatedAt", "messageCount", "toolCallCount", "inputTokens", "outputTokens"
      ])
      expect(Object.keys((yield* store.list()).sessions[0]!).at(-1)).toBe("preview")
      const [hit] = yield* store.search("done")
      expect(Object.keys(hit!)).toEqual(["messageId", "sessionId", "ordinal", "role", "createdAt", "source", "model", "title", "sessionCreatedAt", "snippet", "match"])

      // Written by another program: JSON that is not an array, and (past the counting trigger) JSON that does not parse.
      yield* sql`INSERT INTO messages (session_id, ordinal, role, content, tool_calls, created_at) VALUES ('r', 2, 'assistant', 'object', '{"id":"c2"}', 0)`
      yield* sql.unsafe("DROP TRIGGER messages_count")
      yield* sql`INSERT INTO messages (session_id, ordinal, role, content, tool_calls, created_at) VALUES ('r', 3, 'assistant', 'cut', '[{"id":', 0)`
      const history = yield* store.history("r")
      expect(history.map((m) => [m.content, m.toolCalls])).toEqual([[null, stored!.toolCalls], ["done", null], ["object", null], ["cut", null]])
      expect((yield* store.around("r", history[3]!.id, 1)).anchor.toolCalls).toBeNull()

      yield* sql`INSERT INTO messages (session_id, ordinal, role, content, created_at) VALUES ('r', 4, 'user', 'when?', 'yesterday')`
      const failed = yield* Effect.flip(store.history("r"))
      expect(failed._tag).toBe("SessionStoreError")
      expect(failed.message).toMatch(/^session store: history failed: .*created_at/s)
    }))

    test("update changes title, model and cwd", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "u", source: "cli" })
      expect(yield* store.update("u", { title: "Named", model: "m2" })).toMatchObject({ title: "Named", model: "m2", cwd: null })
      expect((yield* store.update("u", { title: null })).title).toBeNull()
      expect(yield* failureTag(store.update("none", { title: "x" }))).toBe("SessionNotFound")
    }))

    test("process checkpoints are upserted, listed by status and outlive their session", Effect.gen(function*() {
      const store = yield* SessionStore
      yield* store.create({ id: "ps", source: "cli" })
      const base = { sessionId: "ps", taskId: "t", command: "sleep 100", cwd: "/tmp", pid: 42, exitCode: null, startedAt: 1, updatedAt: 1, outputTail: "" }
      yield* store.checkpointProcess({ ...base, id: "proc_a", status: "running" })
      yield* store.checkpointProcess({ ...base, id: "proc_b", status: "running", sessionId: "not-a-session" })
      yield* store.checkpointProcess({ ...base, id: "proc_a", status: "exited", exitCode: 0, updatedAt: 2, outputTail: "done" })
      expect((yield* store.processCheckpoints({ status: "running" })).map((c) => [c.id, c.sessionId])).toEqual([["proc_b", null]])
      expect((yield* store.processCheckpoints()).find((c) => c.id === "proc_a")).toMatchObject({ status: "exited", exitCode: 0, outputTail: "done", sessionId: "ps" })
      yield* store.delete("ps")
      expect((yield* store.processCheckpoints()).find((c) => c.id === "proc_a")?.sessionId).toBeNull()
      yield* store.removeProcessCheckpoint("proc_a")
      expect((yield* store.processCheckpoints()).map((c) => c.id)).toEqual(["proc_b"])
    }))

    test("todo lists live per session and create the session on first write", Effect.gen(function*() {
      const todos = yield* TodoStore
      const store = yield* SessionStore
      expect(yield* todos.get("task-9")).toEqual([])
      yield* todos.set("task-9", [{ id: "1", content: "a", status: "in_progress" }])
      yield* todos.set("task-9", [{ id: "1", content: "a", status: "completed" }, { id: "2", content: "b", status: "pending" }])
      expect(yield* todos.get("task-9")).toEqual([{ id: "1", content: "a", status: "completed" }, { id: "2", content: "b", status: "pending" }])
      expect(yield* todos.get("other")).toEqual([])
      expect(yield* store.get("task-9")).toMatchObject({ source: "task", messageCount: 0 })
    }))
  })
}
