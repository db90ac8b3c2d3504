// Sessions: append 100 000 messages (one transaction per turn of 5) to a state.db file, then full-text search them.
// Appends include the word index (caught up every 2 000 messages); the trigram index trails and is measured on its
// own (the first substring search brings it up to date). Searches are timed inside one fiber, as a tool calls them.
// Last, one session of 3 000 messages is read back whole (history), each read timed beside the raw select.
// Baseline (same run, interleaved): the same statements on the same schema through raw better-sqlite3 prepared
// statements, so the ratio is what the Effect service costs on top of SQLite. The sequential appends are one caller,
// one statement (its own transaction) per turn on both sides. The concurrent appends (20k messages from 8 fibers, on
// fresh files) are compared with raw one transaction per turn, and with raw 8 turns per transaction (the same grouping
// the store's group commit reaches, so that ratio is the service's cost alone).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SessionStore, SessionStoreSql, stateDatabaseLayer } from "../dist/index.js"
import { RANK_WINDOW } from "../dist/layers/sql/sessions/SessionStoreSql.js"
import { quoteTerms, substringTerms, usesFtsSyntax } from "../dist/layers/sql/sessions/searchQuery.js"
import { median } from "./_stats.mjs"

const MESSAGES = 100_000
const TURN = 5 // user, assistant + tool call, tool result, assistant + tool call, tool result
const SESSIONS = 100
const INDEX_BATCH = 2000 // WORDS_BATCH and INDEX_CHUNK in src/layers/sql/sessions/searchIndex.ts
const HISTORY = 3000 // messages in the session whose whole history is read back
const HISTORY_READS = 30
const CONCURRENT = 8 // fibers appending at once in the concurrent part
const CONCURRENT_MESSAGES = 20_000 // on fresh files, so the searches below see the same 100k rows

// A deterministic corpus of real technical text: lines of the installed packages' docs and type declarations
// (node_modules/**/*.md, *.d.ts; fixed by the lockfile), shuffled into messages of 10–600 characters (~300 on average).
const textLines = () => {
  const root = fileURLToPath(new URL("../node_modules", import.meta.url))
  const files = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".md") || entry.name.endsWith(".d.ts")) files.push(path)
    }
  }
  walk(root)
  const lines = []
  for (const file of files) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const text = line.trim()
      if (text.length >= 20) lines.push(text.slice(0, 400))
    }
  }
  return lines
}

const corpus = () => {
  let seed = 7
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  const lines = textLines()
  const messages = Array.from({ length: MESSAGES }, () => {
    const target = 10 + Math.floor(rnd() * 590)
    let text = ""
    while (text.length < target) text += `${text.length === 0 ? "" : " "}${lines[Math.floor(rnd() * lines.length)]}`
    return text.slice(0, target)
  })
  // Queries are things that were said: words of 6+ letters (not the 200 most common), pairs from one message,
  // prefixes and two-word phrases, as someone recalling a past session would type them.
  const wordsOf = (m) => m.match(/[A-Za-z]{6,}/g) ?? []
  const counts = new Map()
  for (let i = 0; i < MESSAGES; i += 10) for (const w of wordsOf(messages[i])) counts.set(w.toLowerCase(), (counts.get(w.toLowerCase()) ?? 0) + 1)
  const common = new Set([...counts].sort((a, b) => b[1] - a[1]).slice(0, 200).map(([w]) => w))
  const sample = () => {
    for (;;) {
      const words = wordsOf(messages[Math.floor(rnd() * MESSAGES)]).filter((w) => !common.has(w.toLowerCase()))
      if (words.length >= 2) return words
    }
  }
  const any = (ws) => ws[Math.floor(rnd() * ws.length)]
  const queries = [
    ...Array.from({ length: 40 }, () => any(sample())),
    ...Array.from({ length: 30 }, () => { const ws = sample(); return `${ws[0]} ${ws[ws.length - 1]}` }),
    ...Array.from({ length: 15 }, () => `${any(sample()).slice(0, 5)}*`),
    ...Array.from({ length: 15 }, () => {
      const m = messages[Math.floor(rnd() * MESSAGES)].match(/[A-Za-z]{4,} [A-Za-z]{4,}/g) ?? ["session store"]
      return `"${any(m)}"`
    })
  ]
  const substrings = Array.from({ length: 30 }, () => {
    const w = any(sample().filter((x) => x.length >= 8).concat(["serialization"]))
    return w.slice(1, 7)
  })
  return { messages, queries, substrings }
}

const turnOf = (contents, at, n) =>
  contents.slice(at, at + TURN).map((content, i) => {
    const id = `call_${n}_${i}`
    switch (i % 5) {
      case 0:
        return { role: "user", content }
      case 1:
      case 3:
        return { role: "assistant", content, toolCalls: [{ id, type: "function", function: { name: "terminal", arguments: "{\"command\":\"ls\"}" } }] }
      default:
        return { role: "tool", content, toolCallId: `call_${n}_${i - 1}`, toolName: "terminal" }
    }
  })

/** The service: SessionStoreSql on stateDatabaseLayer, driven through a ManagedRuntime as an embedding program would. */
const service = async (file) => {
  const runtime = ManagedRuntime.make(SessionStoreSql.pipe(Layer.provideMerge(stateDatabaseLayer({ filename: file }))))
  const store = await runtime.runPromise(SessionStore)
  await runtime.runPromise(Effect.forEach(Array.from({ length: SESSIONS }, (_, i) => i), (i) => store.create({ id: `s${i}`, source: "bench" }), { discard: true }))
  return {
    appendTurns: (messages, from, to) =>
      runtime.runPromise(Effect.forEach(
        Array.from({ length: to - from }, (_, k) => from + k),
        (n) => store.append(`s${n % SESSIONS}`, turnOf(messages, n * TURN, n), { inputTokens: 100, outputTokens: 20 }),
        { discard: true }
      )),
    /** The same turns from CONCURRENT fibers at once, as sessions of a batch or a gateway append (they share commits). */
    appendConcurrent: (messages, from, to) =>
      runtime.runPromise(Effect.forEach(
        Array.from({ length: to - from }, (_, k) => from + k),
        (n) => store.append(`s${n % SESSIONS}`, turnOf(messages, n * TURN, n), { inputTokens: 100, outputTokens: 20 }),
        { concurrency: CONCURRENT, discard: true }
      )),
    // The trigram index trails the appends; the first substring search brings it up to date.
    firstSubstringSearch: (q) => runtime.runPromise(store.search(q, { limit: 20 })),
    /** One session of HISTORY messages, then both indexes caught up so no indexing runs while it is read. */
    appendHistory: (messages) =>
      runtime.runPromise(Effect.gen(function*() {
        yield* store.create({ id: "history", source: "bench" })
        for (let n = 0; n < HISTORY / TURN; n++) yield* store.append("history", turnOf(messages, n * TURN, n))
        yield* store.search("history", { limit: 1 })
        yield* store.search("istor", { limit: 1 })
      })),
    /** Whole-history reads, each timed inside one fiber beside the raw select (see searchAll). */
    readHistory: (rawHistory) =>
      runtime.runPromise(Effect.forEach(Array.from({ length: HISTORY_READS }), () =>
        Effect.gen(function*() {
          const t0 = performance.now()
          const expected = rawHistory()
          const t1 = performance.now()
          const got = yield* store.history("history")
          const ours = performance.now() - t1
          if (got.length !== expected || got.length !== HISTORY) throw new Error(`history read ${got.length} of ${expected} messages`)
          return { raw: t1 - t0, ours }
        }))),
    /**
     * Each query timed inside one fiber, as a tool handler calls the store (the raw side runs in the
     * same fiber, query by query, so both see the same moment of machine load).
     */
    searchAll: (qs, rawSearch) =>
      runtime.runPromise(Effect.forEach(qs, (q) =>
        Effect.gen(function*() {
          const t0 = performance.now()
          if (rawSearch !== undefined) rawSearch(q)
          const t1 = performance.now()
          yield* store.search(q, { limit: 20 })
          return { raw: t1 - t0, ours: performance.now() - t1 }
        }))),
    close: () => runtime.dispose()
  }
}

/** The same statements on a second file with the same schema, through raw better-sqlite3 prepared statements. */
const raw = (file) => {
  const db = new Database(file)
  db.pragma("busy_timeout = 5000")
  db.pragma("foreign_keys = ON")
  db.pragma("synchronous = NORMAL")
  const now = Date.now()
  const createSession = db.prepare("INSERT INTO sessions (id, source, created_at, updated_at) VALUES (?, ?, ?, ?)")
  for (let i = 0; i < SESSIONS; i++) createSession.run(`s${i}`, "bench", now, now)
  const append = db.prepare(`WITH base (n) AS MATERIALIZED (SELECT coalesce(max(ordinal), -1) FROM messages WHERE session_id = ?)
    INSERT INTO messages (session_id, ordinal, role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, created_at)
    SELECT ?, base.n + v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, ?
    FROM base, (VALUES ${Array.from({ length: TURN }, (_, i) => `(${i + 1}, ?, ?, ?, ?, ?, ?, ?)`).join(", ")}) AS v ORDER BY v.column1
    RETURNING id, ordinal`)
  const top = db.prepare("SELECT max(id) AS hi FROM messages")
  const chunkOf = (table, column) => {
    const lock = db.prepare(`UPDATE search_index_state SET ${column} = ${column} WHERE id = 1 RETURNING ${column} AS upto`)
    const fill = db.prepare(`INSERT INTO ${table} (rowid, content) SELECT id, content FROM messages WHERE id > ? AND id <= ?`)
    const mark = db.prepare(`UPDATE search_index_state SET ${column} = ? WHERE id = 1`)
    return db.transaction(() => {
      const lo = lock.get().upto
      const hi = Math.min(top.get().hi ?? 0, lo + INDEX_BATCH)
      if (hi <= lo) return 0
      fill.run(lo, hi)
      mark.run(hi)
      return hi - lo
    })
  }
  const words = chunkOf("messages_fts", "words_upto")
  const trigrams = chunkOf("messages_trigram", "trigrams_upto")
  const catchUp = (chunk) => {
    while (chunk() > 0);
  }
  // The service's search, statement for statement: pending check, windowed BM25 MATCH, quoted retry, substring fallback.
  const pendingOf = (column) => db.prepare(`SELECT (SELECT max(id) FROM messages) - ${column} AS pending FROM search_index_state WHERE id = 1`)
  const pendingWords = pendingOf("words_upto")
  const pendingTrigrams = pendingOf("trigrams_upto")
  const HIT = "m.id, m.session_id, m.ordinal, m.role, m.created_at, s.source, s.model, s.title, s.created_at AS session_created_at"
  const match = db.prepare(`SELECT ${HIT}, snippet(messages_fts, 0, '>>>', '<<<', '...', 32) AS snippet
    FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
    WHERE messages_fts MATCH ? AND messages_fts.rowid >= coalesce((SELECT f2.rowid FROM messages_fts f2 WHERE f2.messages_fts MATCH ?
      ORDER BY f2.rowid DESC LIMIT 1 OFFSET ${RANK_WINDOW - 1}), 0)
    ORDER BY messages_fts.rank LIMIT ? OFFSET ?`)
  const like = new Map()
  const substring = (q) => {
    if (pendingTrigrams.get().pending > 0) catchUp(trigrams)
    const parts = substringTerms(q)
    if (!like.has(parts.length)) {
      like.set(parts.length, db.prepare(`SELECT ${HIT}, m.content FROM messages_trigram t JOIN messages m ON m.id = t.rowid JOIN sessions s ON s.id = m.session_id
        WHERE ${parts.map(() => "t.content LIKE ?").join(" AND ")} ORDER BY t.rowid DESC LIMIT ? OFFSET ?`))
    }
    return like.get(parts.length).all(...parts.map((p) => p.pattern), 20, 0)
  }
  const createHistory = db.prepare("INSERT INTO sessions (id, source, created_at, updated_at) VALUES ('history', 'bench', ?, ?)")
  const history = db.prepare(`SELECT id, session_id, ordinal, role, content, tool_calls, tool_call_id, tool_name, created_at
    FROM messages WHERE session_id = ? AND ordinal >= ? ORDER BY ordinal LIMIT ?`)
  let pending = 0
  const appendTurn = (messages, n) => {
    const session = `s${n % SESSIONS}`
    const params = [session, session, Date.now()]
    turnOf(messages, n * TURN, n).forEach((m, i) =>
      params.push(m.role, m.content, m.toolCalls ? JSON.stringify(m.toolCalls) : null, m.toolCallId ?? null, m.toolName ?? null, i === 0 ? 100 : 0, i === 0 ? 20 : 0))
    append.all(...params)
    if ((pending += TURN) >= INDEX_BATCH) {
      catchUp(words)
      pending = 0
    }
  }
  /** CONCURRENT turns per transaction: the best a raw program can do for that many callers who each wait for a commit. */
  const appendGroup = db.transaction((messages, from, to) => {
    for (let n = from; n < to; n++) appendTurn(messages, n)
  })
  return {
    /** One transaction (one statement) per turn. */
    appendTurns: (messages, from, to) => {
      for (let n = from; n < to; n++) appendTurn(messages, n)
    },
    appendGrouped: (messages, from, to) => {
      for (let n = from; n < to; n += CONCURRENT) appendGroup(messages, n, Math.min(to, n + CONCURRENT))
    },
    firstSubstringSearch: (q) => substring(q),
    appendHistory: (messages) => {
      createHistory.run(Date.now(), Date.now())
      for (let n = 0; n < HISTORY / TURN; n++) {
        const params = ["history", "history", Date.now()]
        turnOf(messages, n * TURN, n).forEach((m) =>
          params.push(m.role, m.content, m.toolCalls ? JSON.stringify(m.toolCalls) : null, m.toolCallId ?? null, m.toolName ?? null, 0, 0))
        append.all(...params)
      }
      catchUp(words)
      catchUp(trigrams)
    },
    /** The same select as the service's history read, rows as better-sqlite3 returns them. */
    readHistory: () => history.all("history", 0, -1).length,
    search: (q) => {
      if (pendingWords.get().pending > 0) catchUp(words)
      let hits
      try {
        hits = match.all(q, q, 20, 0)
      } catch {
        hits = match.all(quoteTerms(q), quoteTerms(q), 20, 0)
      }
      return hits.length > 0 || usesFtsSyntax(q) ? hits : substring(q)
    },
    close: () => db.close()
  }
}

/** An empty state.db with our schema, made by the layer itself. */
const emptyDatabase = async (file) => {
  const runtime = ManagedRuntime.make(stateDatabaseLayer({ filename: file }))
  await runtime.runPromise(Effect.void)
  await runtime.dispose()
}

const timed = async (f) => {
  const t = performance.now()
  await f()
  return performance.now() - t
}

export const run = async () => {
  const dir = mkdtempSync(join(tmpdir(), "hermes-effect-bench-sessions-"))
  const { messages, queries, substrings } = corpus()
  const rawFile = join(dir, "raw.db")
  await emptyDatabase(rawFile)
  const base = raw(rawFile)
  const ours = await service(join(dir, "state.db"))
  // Interleaved in blocks, so both sides see the same machine load. Blocks are short enough that the
  // service's idle indexer (500 ms without writes) does not start between them.
  const turns = MESSAGES / TURN
  const block = turns / 50
  let rawAppendMs = 0
  let ourAppendMs = 0
  for (let from = 0; from < turns; from += block) {
    rawAppendMs += await timed(() => base.appendTurns(messages, from, from + block))
    ourAppendMs += await timed(() => ours.appendTurns(messages, from, from + block))
  }
  // Concurrent appends, on three fresh files: ours from CONCURRENT fibers, raw one transaction per turn, raw grouped.
  const concurrentDir = mkdtempSync(join(tmpdir(), "hermes-effect-bench-sessions-concurrent-"))
  await emptyDatabase(join(concurrentDir, "raw-turn.db"))
  await emptyDatabase(join(concurrentDir, "raw-grouped.db"))
  const rawTurn = raw(join(concurrentDir, "raw-turn.db"))
  const rawGrouped = raw(join(concurrentDir, "raw-grouped.db"))
  const oursConcurrent = await service(join(concurrentDir, "state.db"))
  const concurrentTurns = CONCURRENT_MESSAGES / TURN
  let rawTurnMs = 0
  let rawGroupedMs = 0
  let ourConcurrentMs = 0
  for (let from = 0; from < concurrentTurns; from += block) {
    rawTurnMs += await timed(() => rawTurn.appendTurns(messages, from, from + block))
    rawGroupedMs += await timed(() => rawGrouped.appendGrouped(messages, from, from + block))
    ourConcurrentMs += await timed(() => oursConcurrent.appendConcurrent(messages, from, from + block))
  }
  rawTurn.close()
  rawGrouped.close()
  await oursConcurrent.close()
  const rawTrigramMs = await timed(() => base.firstSubstringSearch(substrings[0]))
  const ourTrigramMs = await timed(() => ours.firstSubstringSearch(substrings[0]))
  const rawSearch = []
  const ourSearch = []
  const ourSubstring = []
  for (let round = 0; round < 3; round++) {
    for (const t of await ours.searchAll(queries, base.search)) {
      rawSearch.push(t.raw)
      ourSearch.push(t.ours)
    }
    for (const t of await ours.searchAll(substrings)) ourSubstring.push(t.ours)
  }
  base.appendHistory(messages)
  await ours.appendHistory(messages)
  const rawHistory = []
  const ourHistory = []
  for (const t of await ours.readHistory(base.readHistory)) {
    rawHistory.push(t.raw)
    ourHistory.push(t.ours)
  }
  base.close()
  await ours.close()
  const rate = (ms) => MESSAGES / (ms / 1000)
  const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]
  return [
    {
      name: `sessions: append 100k messages (turns of ${TURN}, WAL file)`,
      value: rate(ourAppendMs),
      unit: "msg/s",
      baseline: rate(rawAppendMs),
      baselineName: "raw better-sqlite3, same SQL",
      ratio: rawAppendMs / ourAppendMs,
      target: "≥ 0.9× raw"
    },
    {
      name: `sessions: append 20k messages from ${CONCURRENT} fibers (WAL file)`,
      value: CONCURRENT_MESSAGES / (ourConcurrentMs / 1000),
      unit: "msg/s",
      baseline: CONCURRENT_MESSAGES / (rawTurnMs / 1000),
      baselineName: "raw better-sqlite3, same SQL, one transaction per turn",
      ratio: rawTurnMs / ourConcurrentMs
    },
    {
      name: `sessions: append 20k messages from ${CONCURRENT} fibers, vs grouped raw`,
      value: CONCURRENT_MESSAGES / (ourConcurrentMs / 1000),
      unit: "msg/s",
      baseline: CONCURRENT_MESSAGES / (rawGroupedMs / 1000),
      baselineName: `raw better-sqlite3, same SQL, ${CONCURRENT} turns per transaction`,
      ratio: rawGroupedMs / ourConcurrentMs
    },
    {
      name: "sessions: FTS search over 100k messages (median)",
      value: median(ourSearch),
      unit: "ms",
      baseline: median(rawSearch),
      baselineName: "raw better-sqlite3, same statements",
      ratio: median(ourSearch) / median(rawSearch),
      target: "≤ 5 ms"
    },
    { name: "sessions: FTS search over 100k messages (p90)", value: p90(ourSearch), unit: "ms", baseline: p90(rawSearch), baselineName: "raw p90", ratio: p90(ourSearch) / p90(rawSearch) },
    {
      name: "sessions: trigram index catch-up after the appends",
      value: rate(ourTrigramMs),
      unit: "msg/s",
      baseline: rate(rawTrigramMs),
      baselineName: "raw better-sqlite3",
      ratio: rawTrigramMs / ourTrigramMs
    },
    { name: "sessions: substring search, trigram (median)", value: median(ourSubstring), unit: "ms" },
    {
      name: `sessions: read a ${HISTORY}-message history (median)`,
      value: median(ourHistory),
      unit: "ms",
      baseline: median(rawHistory),
      baselineName: "raw better-sqlite3, same select",
      ratio: median(ourHistory) / median(rawHistory)
    }
  ]
}
