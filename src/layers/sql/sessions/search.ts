/**
 * Search over messages (see searchQuery.ts for how a query string is read):
 * FTS5 words first, ranked by BM25 or by age; CJK text, and plain queries
 * with no word hits, through the trigram index as substrings.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { SearchHit, SearchOptions } from "../../../services/SessionStore.js"
import type { BackgroundIndexer } from "./backgroundIndexer.js"
import { HIT_COLUMNS, hitRows, toSearchHit } from "./rows.js"
import type { HitColumns } from "./rows.js"
import { hasCjk, quoteTerms, substringSnippet, substringTerms, terms, usesFtsSyntax } from "./searchQuery.js"
import { clamp, failure } from "./storeErrors.js"
import { observedFn } from "../../../lib/effect/observedFn.js"

/** Relevance is ranked among this many most recent matches (see `search`). */
export const RANK_WINDOW = 2000

/** A search as the statements bind it (built from the caller's options in `search`). */
interface SearchRequest {
  readonly match: string
  readonly sort: "relevance" | "newest" | "oldest"
  readonly limit: number
  readonly offset: number
  readonly roles: ReadonlyArray<string> | undefined
  readonly sources: ReadonlyArray<string> | undefined
  readonly excludeSources: ReadonlyArray<string> | undefined
  readonly sessionId: string | undefined
}

interface SubstringRequest extends SearchRequest {
  /** LIKE patterns for the trigram table. */
  readonly patterns: ReadonlyArray<string>
  /** Terms holding LIKE wildcards, re-checked exactly. */
  readonly exact: ReadonlyArray<string>
}

const nonEmpty = (values: ReadonlyArray<string> | undefined): values is ReadonlyArray<string> => values !== undefined && values.length > 0

export const makeSearch = (sql: SqlClient.SqlClient, indexer: BackgroundIndexer) => {
  const columns = sql.literal(HIT_COLUMNS)

  /** The caller's filters, ANDed after the match condition. */
  const filters = (r: SearchRequest) => [
    ...(nonEmpty(r.roles) ? [sql`m.role IN ${sql.in(r.roles)}`] : []),
    ...(nonEmpty(r.sources) ? [sql`s.source IN ${sql.in(r.sources)}`] : []),
    ...(nonEmpty(r.excludeSources) ? [sql`s.source NOT IN ${sql.in(r.excludeSources)}`] : []),
    ...(r.sessionId === undefined ? [] : [sql`m.session_id = ${r.sessionId}`])
  ]

  // The FTS5 expression is a bound parameter: FTS5 parses it, and a syntax error fails the statement (see `search`).
  const wordRows = (r: SearchRequest) => {
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

  // LIKE without ESCAPE, so the trigram index can serve it; wildcard characters get an exact `instr` check.
  const substringRows = (r: SubstringRequest) =>
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

  const wordHit = (r: typeof HitColumns.Type): SearchHit => toSearchHit(r, "fts", r.text ?? "")
  const substringHit = (query: string) => (r: typeof HitColumns.Type): SearchHit =>
    toSearchHit(r, "substring", substringSnippet(r.text ?? "", query))

  const search = observedFn("SessionStore.search")(function*(query: string, options: SearchOptions = {}) {
    const text = query.trim()
    if (terms(text).length === 0) return []
    const request: SearchRequest = {
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
        return substringRows({
          ...request,
          patterns: parts.map((p) => p.pattern),
          exact: parts.flatMap((p) => (p.exact === undefined ? [] : [p.exact]))
        }).pipe(Effect.flatMap((rows) => hitRows.all(rows, substringHit(text))), Effect.mapError(failure("search")))
      })
    )

    if (hasCjk(text)) return yield* substrings
    yield* indexer.ensureIndexed("words")
    const hits = yield* wordRows(request).pipe(
      // FTS5 rejected the syntax (`foo-bar`, `a:b`, an odd quote): every term as a phrase.
      Effect.catchAll(() => wordRows({ ...request, match: quoteTerms(text) })),
      Effect.flatMap((rows) => hitRows.all(rows, wordHit)),
      Effect.mapError(failure("search"))
    )
    if (hits.length > 0 || request.offset > 0 || usesFtsSyntax(text)) return hits
    return yield* substrings
  })

  return { search }
}
