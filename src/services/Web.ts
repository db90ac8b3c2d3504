/**
 * Web: fetching pages for web_extract / web_crawl under the SSRF policy, and
 * the keyed search/extract providers (Firecrawl, Tavily, Exa, Parallel,
 * SearXNG) behind web_search. Implementation: src/layers/web/.
 */
import { Context, Schema } from "effect"
import type { Effect, Option } from "effect"

/** Which `security.website_blocklist` rule refused a URL (shown to the model as `blocked_by_policy`). */
export const PolicyMatch = Schema.Struct({ host: Schema.String, rule: Schema.String, source: Schema.String })
export type PolicyMatch = typeof PolicyMatch.Type

/** Refused by policy (private address, secret in the URL, website blocklist, robots.txt): the message is the model's. */
export class WebBlocked extends Schema.TaggedError<WebBlocked>()("WebBlocked", {
  message: Schema.String,
  policy: Schema.optional(PolicyMatch)
}) {}

/** Network, HTTP or decoding failure. */
export class WebFetchFailed extends Schema.TaggedError<WebFetchFailed>()("WebFetchFailed", { message: Schema.String }) {}

/** No provider can do this job. */
export class WebUnavailable extends Schema.TaggedError<WebUnavailable>()("WebUnavailable", { message: Schema.String }) {}

/** Why web_search is unavailable: the config keys and environment variables that enable it. */
export const NO_SEARCH_PROVIDER =
  "No web search provider configured. Set web.backend (tavily, exa, parallel, firecrawl or searxng) with its key " +
  "(TAVILY_API_KEY, EXA_API_KEY, PARALLEL_API_KEY, FIRECRAWL_API_KEY / FIRECRAWL_API_URL), or web.searxng_url / SEARXNG_URL."

export type WebError = WebBlocked | WebFetchFailed | WebUnavailable

/** A page read by our own fetcher, converted to text. */
export interface WebPage {
  /** Where the content came from, after redirects. */
  readonly url: string
  readonly title: string
  /** Markdown for HTML, text for text/* and PDFs. */
  readonly content: string
  /** Absolute http(s) links found on an HTML page (only when asked for). */
  readonly links: ReadonlyArray<string>
}

export interface SearchHit {
  readonly title: string
  readonly url: string
  readonly description: string
  readonly position: number
}

/** One document from a keyed extract provider. */
export interface ProviderDocument {
  readonly url: string
  readonly title: string
  readonly content: string
  readonly error?: string | undefined
}

export type ProviderName = "firecrawl" | "tavily" | "exa" | "parallel" | "searxng"

export interface WebService {
  /**
   * The checks a URL passes before anything touches it (scheme, secrets, metadata hosts, literal private addresses,
   * the website blocklist): for callers that hand URLs to someone else (keyed providers, the browser).
   */
  readonly checkPolicy: (url: string) => Effect.Effect<void, WebBlocked>
  /** Fetch and convert one page (http(s) only; every hop checked after DNS). */
  readonly page: (url: string, options?: { readonly links?: boolean }) => Effect.Effect<WebPage, WebBlocked | WebFetchFailed>
  /** The raw body of one GET under the same address policy (images for vision), cut at `maxBytes` (`cut` says so). */
  readonly download: (url: string, options: { readonly accept: string; readonly maxBytes: number }) => Effect.Effect<
    { readonly url: string; readonly contentType: string; readonly body: Uint8Array; readonly cut: boolean },
    WebBlocked | WebFetchFailed
  >
  /** Whether `path` may be crawled on `origin` per its robots.txt (fetched once per origin and call site). */
  readonly robotsAllow: (url: string) => Effect.Effect<boolean>
  /** The provider web_search would use now, if any. */
  readonly searchProvider: Effect.Effect<Option.Option<ProviderName>>
  readonly search: (query: string, limit: number) => Effect.Effect<ReadonlyArray<SearchHit>, WebFetchFailed | WebUnavailable>
  /** A configured keyed extract provider; none = web_extract fetches itself. */
  readonly extractProvider: Effect.Effect<Option.Option<ProviderName>, WebUnavailable>
  readonly extract: (provider: ProviderName, urls: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ProviderDocument>, WebFetchFailed>
  /** Save a page's full text under the cache dir; returns the file path. */
  readonly saveFull: (url: string, text: string) => Effect.Effect<string, WebFetchFailed>
}

export class Web extends Context.Tag("hermes-effect/Web")<Web, WebService>() {}
