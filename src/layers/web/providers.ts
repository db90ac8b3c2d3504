/**
 * Keyed web providers spoken over their documented JSON APIs (node fetch).
 * Keys and endpoints come from the environment (Hermes' variable names);
 * config only names the provider. Provider endpoints are the user's choice,
 * so they are not subject to the SSRF policy (a self-hosted SearXNG is local).
 */
import { Effect, Option } from "effect"
import type { HermesConfig } from "../../services/Config.js"
import { WebFetchFailed, WebUnavailable } from "../../services/Web.js"
import type { ProviderDocument, ProviderName, SearchHit } from "../../services/Web.js"

type Env = Readonly<Record<string, string | undefined>>

const has = (env: Env, name: string) => (env[name] ?? "").trim() !== ""
const base = (value: string | undefined, fallback: string) => (value ?? "").trim().replace(/\/+$/, "") || fallback

export const KEYED: ReadonlyArray<ProviderName> = ["tavily", "exa", "parallel", "firecrawl"]
const KNOWN: ReadonlyArray<string> = [...KEYED, "searxng"]

export const searxngUrl = (config: HermesConfig, env: Env) => config.web.searxng_url ?? env["SEARXNG_URL"]

/** Whether a provider has what it needs (a key, or an endpoint for self-hosted ones). */
export const providerReady = (name: ProviderName, config: HermesConfig, env: Env): boolean => {
  switch (name) {
    case "tavily": return has(env, "TAVILY_API_KEY")
    case "exa": return has(env, "EXA_API_KEY")
    case "parallel": return has(env, "PARALLEL_API_KEY")
    case "firecrawl": return has(env, "FIRECRAWL_API_KEY") || has(env, "FIRECRAWL_API_URL")
    case "searxng": return (searxngUrl(config, env) ?? "").trim() !== ""
  }
}

const named = (value: string | undefined): Option.Option<ProviderName> => {
  const name = (value ?? "").trim().toLowerCase()
  return KNOWN.includes(name) ? Option.some(name as ProviderName) : Option.none()
}

/** Hermes' choice: the capability key if ready, else `web.backend` if ready, else the first ready in auto-detect order. */
export const chooseSearch = (config: HermesConfig, env: Env): Option.Option<ProviderName> => {
  const ready = (n: ProviderName) => providerReady(n, config, env)
  for (const key of [config.web.search_backend, config.web.backend]) {
    const choice = named(key)
    if (Option.isSome(choice) && ready(choice.value)) return choice
  }
  return Option.fromNullable((["tavily", "exa", "parallel", "firecrawl", "searxng"] as const).find(ready))
}

/** A keyed extractor when one is configured or has a key; none = our own fetcher. */
export const chooseExtract = (config: HermesConfig, env: Env): Effect.Effect<Option.Option<ProviderName>, WebUnavailable> => {
  const explicit = named(config.web.extract_backend)
  if (Option.isSome(explicit) && explicit.value === "searxng") {
    return Effect.fail(new WebUnavailable({
      message: "SearXNG is a search-only backend and cannot extract URL content. Set web.extract_backend to firecrawl, tavily, exa, or parallel."
    }))
  }
  const ready = (n: ProviderName) => KEYED.includes(n) && providerReady(n, config, env)
  for (const choice of [explicit, named(config.web.backend)]) {
    if (Option.isSome(choice) && ready(choice.value)) return Effect.succeed(choice)
  }
  // `web.backend: local` (or any unknown name) keeps extraction in-process even with keys around.
  if ((config.web.extract_backend ?? config.web.backend) !== undefined) return Effect.succeed(Option.none())
  return Effect.succeed(Option.fromNullable(KEYED.find(ready)))
}

const postJson = (provider: string, url: string, body: unknown, headers: Record<string, string>, timeoutMs: number) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
      })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      return (await response.json()) as unknown
    },
    catch: (error) => new WebFetchFailed({ message: `${provider} request failed: ${error instanceof Error ? error.message : String(error)}` })
  })

const getJson = (provider: string, url: string, timeoutMs: number) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      return (await response.json()) as unknown
    },
    catch: (error) => new WebFetchFailed({ message: `${provider} request failed: ${error instanceof Error ? error.message : String(error)}` })
  })

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {})
const arr = (v: unknown): ReadonlyArray<unknown> => (Array.isArray(v) ? v : [])
const str = (v: unknown): string => (typeof v === "string" ? v : "")

const hits = (items: ReadonlyArray<Json>, description: (item: Json) => string): ReadonlyArray<SearchHit> =>
  items.map((item, i) => ({ title: str(item["title"]), url: str(item["url"]), description: description(item), position: i + 1 }))

const bearer = (key: string | undefined): Record<string, string> => (key === undefined || key === "" ? {} : { authorization: `Bearer ${key}` })

export const providerSearch = (name: ProviderName, query: string, limit: number, config: HermesConfig, env: Env) => {
  const timeout = 60_000
  switch (name) {
    case "tavily":
      return postJson("Tavily", `${base(env["TAVILY_BASE_URL"] ?? env["TAVILY_API_URL"], "https://api.tavily.com")}/search`,
        { api_key: env["TAVILY_API_KEY"], query, max_results: Math.min(limit, 20), include_raw_content: false },
        bearer(env["TAVILY_API_KEY"]), timeout).pipe(
        Effect.map((json) => hits(arr(obj(json)["results"]).map(obj), (r) => str(r["content"]))))
    case "firecrawl":
      return postJson("Firecrawl", `${base(env["FIRECRAWL_API_URL"], "https://api.firecrawl.dev")}/v1/search`, { query, limit },
        bearer(env["FIRECRAWL_API_KEY"]), timeout).pipe(
        Effect.map((json) => {
          const data = obj(json)["data"]
          const items = Array.isArray(data) ? data : arr(obj(data)["web"])
          return hits(items.map(obj), (r) => str(r["description"]) || str(r["markdown"]).slice(0, 500))
        }))
    case "exa":
      return postJson("Exa", `${base(env["EXA_API_URL"], "https://api.exa.ai")}/search`,
        { query, numResults: limit, contents: { highlights: true } }, { "x-api-key": env["EXA_API_KEY"] ?? "" }, timeout).pipe(
        Effect.map((json) => hits(arr(obj(json)["results"]).map(obj), (r) => arr(r["highlights"]).map(str).join(" … ") || str(r["text"]).slice(0, 500))))
    case "parallel":
      return postJson("Parallel", `${base(env["PARALLEL_API_URL"], "https://api.parallel.ai")}/v1beta/search`,
        { objective: query, search_queries: [query], max_results: Math.min(limit, 20), mode: env["PARALLEL_SEARCH_MODE"] ?? "agentic" },
        { "x-api-key": env["PARALLEL_API_KEY"] ?? "" }, timeout).pipe(
        Effect.map((json) => hits(arr(obj(json)["results"]).map(obj), (r) => arr(r["excerpts"]).map(str).join(" … "))))
    case "searxng": {
      const url = new URL(`${base(searxngUrl(config, env), "")}/search`)
      url.searchParams.set("q", query)
      url.searchParams.set("format", "json")
      return getJson("SearXNG", url.toString(), 15_000).pipe(
        Effect.map((json) => {
          const items = arr(obj(json)["results"]).map(obj)
          const sorted = [...items].sort((a, b) => (Number(b["score"]) || 0) - (Number(a["score"]) || 0))
          return hits(sorted.slice(0, limit), (r) => str(r["content"]))
        }))
    }
  }
}

export const providerExtract = (name: ProviderName, urls: ReadonlyArray<string>, env: Env): Effect.Effect<ReadonlyArray<ProviderDocument>, WebFetchFailed> => {
  const timeout = 60_000
  switch (name) {
    case "tavily":
      return postJson("Tavily", `${base(env["TAVILY_BASE_URL"] ?? env["TAVILY_API_URL"], "https://api.tavily.com")}/extract`,
        { api_key: env["TAVILY_API_KEY"], urls }, bearer(env["TAVILY_API_KEY"]), timeout).pipe(
        Effect.map((json) => {
          const body = obj(json)
          const ok = arr(body["results"]).map(obj).map((r) => ({
            url: str(r["url"]), title: str(r["title"]), content: str(r["raw_content"]) || str(r["content"])
          }))
          const failed = arr(body["failed_results"]).map(obj).map((r) => ({
            url: str(r["url"]), title: "", content: "", error: str(r["error"]) || "extraction failed"
          }))
          return [...ok, ...failed]
        }))
    case "firecrawl":
      return Effect.forEach(urls, (url) =>
        postJson("Firecrawl", `${base(env["FIRECRAWL_API_URL"], "https://api.firecrawl.dev")}/v1/scrape`,
          { url, formats: ["markdown"] }, bearer(env["FIRECRAWL_API_KEY"]), timeout).pipe(
          Effect.map((json): ProviderDocument => {
            const data = obj(obj(json)["data"])
            const meta = obj(data["metadata"])
            return { url: str(meta["sourceURL"]) || url, title: str(meta["title"]), content: str(data["markdown"]) }
          }),
          Effect.catchAll((error) => Effect.succeed<ProviderDocument>({ url, title: "", content: "", error: error.message }))
        ), { concurrency: 5 })
    case "exa":
      return postJson("Exa", `${base(env["EXA_API_URL"], "https://api.exa.ai")}/contents`, { urls, text: true },
        { "x-api-key": env["EXA_API_KEY"] ?? "" }, timeout).pipe(
        Effect.map((json) => arr(obj(json)["results"]).map(obj).map((r) => ({ url: str(r["url"]), title: str(r["title"]), content: str(r["text"]) }))))
    case "parallel":
      return postJson("Parallel", `${base(env["PARALLEL_API_URL"], "https://api.parallel.ai")}/v1beta/extract`,
        { urls, full_content: true }, { "x-api-key": env["PARALLEL_API_KEY"] ?? "" }, timeout).pipe(
        Effect.map((json) => arr(obj(json)["results"]).map(obj).map((r) => ({
          url: str(r["url"]), title: str(r["title"]), content: str(r["full_content"]) || arr(r["excerpts"]).map(str).join("\n\n")
        }))))
    case "searxng":
      return Effect.fail(new WebFetchFailed({ message: "SearXNG is a search-only backend and cannot extract URL content." }))
  }
}
