/**
 * Search over messages (see searchQuery.ts for how a query string is read):
 * FTS5 words first, ranked by BM25 or by age; CJK text, and plain queries
 * with no word hits, through the trigram index as substrings.
 */
import { SqlSchema } from "@effect/sql"
import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { SearchHit, SearchOptions } from "../../../services/SessionStore.js"
import type { BackgroundIndexer } from "./backgroundIndexer.js"
import { HIT_COLUMNS, HitRow } from "./rows.js"
import { hasCjk, quoteTerms, substringSnippet, substringTerms, terms, usesFtsSyntax } from "./searchQuery.js"
import { clamp, failure } from "./storeErrors.js"

/** Relevance is ranked among this many most recent matches (see `search`). */
export const RANK_WINDOW = 2000

const Strings = Schema.optional(Schema.Array(Schema.String))

const SearchRequest = Schema.Struct({
  match: Schema.String,
  sort: Schema.Literal("relevance", "newest", "oldest"),
  limit: Schema.Number,
  offset: Schema.Number,
  roles: Strings,
  sources: Strings,
  excludeSources: Strings,
  sessionId: Schema.optional(Schema.String)
})

const SubstringRequest = Schema.Struct({
  ...SearchRequest.fields,
  /** LIKE patterns for the trigram table. */
  patterns: Schema.Array(Schema.String),
  /** Terms holding LIKE wildcards, re-checked exactly. */
  exact: Schema.Array(Schema.String)
})

const nonEmpty = (values: ReadonlyArray<string> | undefined): values is ReadonlyArray<string> => values !== undefined && values.length > 0

export const makeSearch = (sql: SqlClient.SqlClient, indexer: BackgroundIndexer) => {
  const columns = sql.literal(HIT_COLUMNS)

  /** The caller's filters, ANDed after the match condition. */
  const filters = (r: typeof SearchRequest.Type) => [
    ...(nonEmpty(r.roles) ? [sql`m.role IN ${sql.in(r.roles)}`] : []),
    ...(nonEmpty(r.sources) ? [sql`s.source IN ${sql.in(r.sources)}`] : []),
    ...(nonEmpty(r.excludeSources) ? [sql`s.source NOT IN ${sql.in(r.excludeSources)}`] : []),
    ...(r.sessionId === undefined ? [] : [sql`m.session_id = ${r.sessionId}`])
  ]

  // The FTS5 expression is a bound parameter: FTS5 parses it, and a syntax error fails the statement (see `search`).
  const wordHits = SqlSchema.findAll({
    Request: SearchRequest,
    Result: HitRow,
    execute: (r) => {
      const matching = sql.and([sql`messages_fts MATCH ${r.match}`, ...filters(r)])
      if (r.sort === "newest" || r.sort === "oldest") {
        return sql`SELECT ${columns}, snippet(messages_fts, 0, '>>>', '<<<', '...', 32) AS text
          FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
          WHERE ${matching}
          ORDER BY messages_fts.rowid ${sql.literal(r.sort === "newest" ? "DESC" : "ASC")} LIMIT ${r.limit} OFFSET ${r.offset}`
      }
      // BM25 over the RANK_WINDOW most recent matches (filters apply within them): exact for all
      // but very common terms, whose ranking cost would otherwise grow with the whole history.
      return sql`SELECT ${columns}, snippet(messages_fts, 0, '>>>', '<<<', '...', 32) AS text
        FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
        WHERE ${matching}
          AND messages_fts.rowid >= coalesce((
            SELECT f2.rowid FROM messages_fts f2 WHERE f2.messages_fts MATCH ${r.match}
            ORDER BY f2.rowid DESC LIMIT 1 OFFSET ${sql.literal(String(RANK_WINDOW - 1))}), 0)
        ORDER BY messages_fts.rank LIMIT ${r.limit} OFFSET ${r.offset}`
    }
  })

  // LIKE without ESCAPE, so the trigram index can serve it; wildcard characters get an exact `instr` check.
  const substringHits = SqlSchema.findAll({
    Request: SubstringRequest,
    Result: HitRow,
    execute: (r) =>
      sql`SELECT ${columns}, m.content AS text
        FROM messages_trigram t JOIN messages m ON m.id = t.rowid JOIN sessions s ON s.id = m.session_id
        WHERE ${
        sql.and([
          ...r.patterns.map((p) => sql`t.content LIKE ${p}`),
          ...r.exact.map((e) => sql`instr(lower(m.content), lower(${e})) > 0`),
          ...filters(r)
        ])
      }
        ORDER BY t.rowid ${sql.literal(r.sort === "oldest" ? "ASC" : "DESC")}
        LIMIT ${r.limit} OFFSET ${r.offset}`
  })

  const toHit = (match: "fts" | "substring", query: string) => (r: typeof HitRow.Type): SearchHit => {
    const { text, ...hit } = r
    return { ...hit, snippet: match === "fts" ? text ?? "" : substringSnippet(text ?? "", query), match }
  }

  const search = Effect.fn("SessionStore.search")(function*(query: string, options: SearchOptions = {}) {
    const text = query.trim()
    if (terms(text).length === 0) return []
    const request: typeof SearchRequest.Type = {
      match: text,
      sort: options.sort === "newest" || options.sort === "oldest" ? options.sort : "relevance",
      limit: clamp(options.limit, 20, 1, 500),
      offset: clamp(options.offset, 0, 0, Number.MAX_SAFE_INTEGER),
      roles: options.roles,
      sources: options.sources,
      excludeSources: options.excludeSources,
      sessionId: options.sessionId
    }

    const substrings = Effect.zipRight(
      indexer.ensureIndexed("trigrams"),
      Effect.suspend(() => {
        const parts = substringTerms(text)
        return substringHits({
          ...request,
          patterns: parts.map((p) => p.pattern),
          exact: parts.flatMap((p) => (p.exact === undefined ? [] : [p.exact]))
        }).pipe(Effect.map((rows) => rows.map(toHit("substring", text))), Effect.mapError(failure("search")))
      })
    )

    if (hasCjk(text)) return yield* substrings
    yield* indexer.ensureIndexed("words")
    const hits = yield* wordHits(request).pipe(
      // FTS5 rejected the syntax (`foo-bar`, `a:b`, an odd quote): every term as a phrase.
      Effect.catchAll(() => wordHits({ ...request, match: quoteTerms(text) })),
      Effect.map((rows) => rows.map(toHit("fts", text))),
      Effect.mapError(failure("search"))
    )
    if (hits.length > 0 || request.offset > 0 || usesFtsSyntax(text)) return hits
    return yield* substrings
  })

  return { search }
}
