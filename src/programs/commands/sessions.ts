/**
 * `hermes-effect sessions list | show <id> | search <query> | export <id> | delete <id>`:
 * the sessions in `$HERMES_EFFECT_HOME/state.db`. Only the config and the state
 * database are opened (no terminal backends, no plugins).
 */
import { writeFileSync } from "node:fs"
import { Args, Command, Options } from "@effect/cli"
import { Data, Effect, Layer, Option } from "effect"
import { SessionStore } from "../../services/SessionStore.js"
import type { Session, StoredMessage } from "../../services/SessionStore.js"
import { operatorOnly } from "../operatorOnly.js"
import { configLayer, stateDatabaseLayer } from "./lazy.js"
import { jsonOption, splitList, table, writeOut } from "./shared.js"

export class SessionsOutputError extends Data.TaggedError("SessionsOutputError")<{ readonly message: string }> {}

const withSessions = <A, E>(program: Effect.Effect<A, E, SessionStore>) =>
  Effect.provide(
    program,
    Layer.unwrapEffect(Effect.promise(() => import("../../layers/sql/sessions/SessionStoreSql.js")).pipe(Effect.map((m) => m.SessionStoreSql))).pipe(
      Layer.provideMerge(stateDatabaseLayer),
      Layer.provide(configLayer)
    )
  )

const pad = (n: number) => String(n).padStart(2, "0")
const stamp = (ms: number) => {
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
const oneLine = (text: string | null, max: number) => {
  const flat = (text ?? "").replace(/\s*\n\s*/g, " ⏎ ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

const idArg = Args.text({ name: "id" }).pipe(Args.withDescription("Session id (see `sessions list`)"))

const list = Command.make(
  "list",
  {
    source: Options.text("source").pipe(Options.withDescription("Only sessions from this source (cli, batch, acp, subagent, task, …)"), Options.optional),
    cwd: Options.text("cwd").pipe(Options.withDescription("Only sessions started in this directory"), Options.optional),
    limit: Options.integer("limit").pipe(Options.withDescription("Sessions per page"), Options.withDefault(20)),
    offset: Options.integer("offset").pipe(Options.withDescription("Skip this many sessions (paging)"), Options.withDefault(0)),
    json: jsonOption
  },
  (opts) =>
    withSessions(Effect.gen(function*() {
      const store = yield* SessionStore
      const page = yield* store.list({
        limit: opts.limit,
        offset: opts.offset,
        source: Option.getOrUndefined(opts.source),
        cwd: Option.getOrUndefined(opts.cwd)
      })
      if (opts.json) return yield* writeOut(JSON.stringify(page, null, 2))
      if (page.total === 0) return yield* writeOut("no sessions")
      const rows = page.sessions.map((s) => [s.id, s.source, String(s.messageCount), stamp(s.updatedAt), oneLine(s.title ?? s.preview, 60)])
      const more = page.nextOffset === null ? "" : ` (next page: --offset ${page.nextOffset})`
      yield* writeOut(`${table([["ID", "SOURCE", "MESSAGES", "UPDATED", "TITLE / FIRST MESSAGE"], ...rows])}\n\n${page.sessions.length} of ${page.total} sessions, newest first${more}`)
    }))
).pipe(Command.withDescription("List sessions, newest first (--source, --cwd, --limit, --offset, --json)"))

const describeSession = (s: Session) =>
  [
    `session   ${s.id}`,
    `source    ${s.source}${s.parentSessionId === null ? "" : `  (forked from ${s.parentSessionId})`}`,
    ...(s.title === null ? [] : [`title     ${s.title}`]),
    ...(s.model === null ? [] : [`model     ${s.model}`]),
    ...(s.cwd === null ? [] : [`cwd       ${s.cwd}`]),
    `created   ${stamp(s.createdAt)}   updated ${stamp(s.updatedAt)}`,
    `messages  ${s.messageCount}   tool calls ${s.toolCallCount}   tokens in/out ${s.inputTokens}/${s.outputTokens}`
  ].join("\n")

const describeMessage = (m: StoredMessage) => {
  const head = `#${m.ordinal} [${m.id}] ${m.role}${m.toolName === null ? "" : ` (${m.toolName})`}`
  const calls = (m.toolCalls ?? []).map((c) => `    → ${c.function.name}(${oneLine(c.function.arguments, 160)})`)
  return [m.content === null ? head : `${head}: ${oneLine(m.content, 200)}`, ...calls].join("\n")
}

const show = Command.make("show", { id: idArg, json: jsonOption }, (opts) =>
  withSessions(Effect.gen(function*() {
    const store = yield* SessionStore
    const session = yield* store.get(opts.id)
    const messages = yield* store.history(opts.id)
    if (opts.json) return yield* writeOut(JSON.stringify({ session, messages }, null, 2))
    yield* writeOut(`${describeSession(session)}\n\n${messages.length === 0 ? "(no messages)" : messages.map(describeMessage).join("\n")}`)
  }))
).pipe(Command.withDescription("Show one session: its facts and every message"))

const search = Command.make(
  "search",
  {
    query: Args.text({ name: "query" }).pipe(Args.withDescription("Words (AND), OR, NOT, \"phrases\", prefix*; substrings and CJK text work too")),
    limit: Options.integer("limit").pipe(Options.withDescription("Most hits to print"), Options.withDefault(20)),
    role: Options.text("role").pipe(Options.withDescription("Comma-separated roles (user,assistant,tool,system)"), Options.optional),
    source: Options.text("source").pipe(Options.withDescription("Comma-separated session sources"), Options.optional),
    session: Options.text("session").pipe(Options.withDescription("Only this session"), Options.optional),
    sort: Options.choice("sort", ["relevance", "newest", "oldest"]).pipe(Options.withDefault("relevance" as const)),
    json: jsonOption
  },
  (opts) =>
    withSessions(Effect.gen(function*() {
      const store = yield* SessionStore
      const hits = yield* store.search(opts.query, {
        limit: opts.limit,
        roles: splitList(opts.role),
        sources: splitList(opts.source),
        sessionId: Option.getOrUndefined(opts.session),
        sort: opts.sort
      })
      if (opts.json) return yield* writeOut(hits.map((h) => JSON.stringify(h)).join("\n"))
      if (hits.length === 0) return yield* writeOut("no matches")
      yield* writeOut(table([["SESSION", "MESSAGE", "ROLE", "MATCH"], ...hits.map((h) => [h.sessionId, `#${h.ordinal} [${h.messageId}]`, h.role, oneLine(h.snippet, 100)])]))
    }))
).pipe(Command.withDescription("Full-text search over every session's messages (--json: one hit per line)"))

const exportCommand = Command.make(
  "export",
  {
    id: idArg,
    format: Options.choice("format", ["sharegpt", "messages"]).pipe(
      Options.withDescription("sharegpt: one trajectory line (Hermes' training format); messages: one OpenAI chat message per line"),
      Options.withDefault("sharegpt" as const)
    ),
    out: Options.text("out").pipe(Options.withDescription("Write to this file instead of stdout"), Options.optional)
  },
  (opts) =>
    withSessions(Effect.gen(function*() {
      const store = yield* SessionStore
      const text = `${yield* store.export(opts.id, opts.format)}\n`
      const file = Option.getOrUndefined(opts.out)
      if (file === undefined) return yield* writeOut(text)
      yield* Effect.try({
        try: () => writeFileSync(file, text, "utf8"),
        catch: (e) => new SessionsOutputError({ message: `cannot write ${file}: ${e instanceof Error ? e.message : String(e)}` })
      })
    }))
).pipe(Command.withDescription("Export a session as JSONL (--format sharegpt | messages)"))

const deleteCommand = Command.make("delete", { id: idArg }, operatorOnly("sessions delete", (opts) =>
  withSessions(Effect.gen(function*() {
    const store = yield* SessionStore
    const { messages } = yield* store.delete(opts.id)
    yield* writeOut(`deleted session ${opts.id} (${messages} messages)`)
  }))
)).pipe(Command.withDescription("Delete a session with its messages and todo list (forks keep their own copy)"))

export const sessionsCommand = Command.make("sessions").pipe(
  Command.withDescription("Sessions in the state database: list, show, search, export, delete"),
  Command.withSubcommands([list, show, search, exportCommand, deleteCommand])
)
