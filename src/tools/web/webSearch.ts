/**
 * `web_search` (toolset `web`): through the configured provider (Tavily, Exa,
 * Parallel, Firecrawl with a key; SearXNG by URL). With none configured the
 * tool is unavailable (its check fails), so the model never sees it.
 */
import { Effect, Option, Schema } from "effect"
import { NO_SEARCH_PROVIDER, Web } from "../../services/Web.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { lenient } from "../../lib/tool/lenient.js"
import { observedFn } from "../../lib/effect/observedFn.js"

const Limit = lenient(Schema.Int.pipe(Schema.between(1, 100)), (value) =>
  typeof value === "number" && Number.isFinite(value) ? Math.min(100, Math.max(1, Math.trunc(value))) : 5, {
  description: "Maximum number of results to return (default 5, at most 100)",
  default: 5,
  jsonSchema: { type: "integer", minimum: 1, maximum: 100 }
})

export const WebSearchParameters = Schema.Struct({
  query: Schema.String.annotations({ description: "The search query to look up on the web" }),
  limit: Schema.optionalWith(Limit, { default: () => 5 })
})

export const webSearchTool = defineTool({
  name: "web_search",
  toolset: "web",
  emoji: "🔍",
  description:
    "Search the web for information on any topic. Returns up to `limit` relevant results (default 5) with titles, URLs, and descriptions.",
  parameters: WebSearchParameters,
  maxResultChars: 100_000,
  parallel: "safe",
  check: Effect.flatMap(Web, (web) => Effect.map(web.searchProvider, Option.isSome)),
  unavailableReason: NO_SEARCH_PROVIDER,
  handler: observedFn("web_search")(function*(args) {
    const web = yield* Web
    return yield* web.search(args.query, args.limit).pipe(
      Effect.map((hits) => JSON.stringify({ success: true, data: { web: hits } }, null, 2)),
      Effect.catchTags({
        WebUnavailable: (error) => Effect.succeed(JSON.stringify({ success: false, error: error.message })),
        WebFetchFailed: (error) => Effect.succeed(JSON.stringify({ error: `Error searching web: ${error.message}` }))
      })
    )
  })
})
