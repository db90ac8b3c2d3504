/**
 * Keyed providers against loopback stand-ins that answer in each provider's
 * documented JSON: Tavily and Firecrawl (search + extract), SearXNG (search).
 * Keys and endpoints come from the environment, as in Hermes.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { testRuntime } from "../support/runtime.js"
import { startServer } from "./server.js"

type Json = Record<string, any>

const call = (tool: string, args: Record<string, unknown>) =>
  Effect.map(Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId: "web" } })), (s) => JSON.parse(s) as Json)

const setEnv = (values: Record<string, string>) => Effect.acquireRelease(
  Effect.sync(() => Object.assign(process.env, values)),
  () => Effect.sync(() => { for (const key of Object.keys(values)) delete process.env[key] })
)

layer(testRuntime({ web: { backend: "tavily" } }), { timeout: 30_000 })("tavily", (it) => {
  it.scoped("search and extract speak Tavily's API; failed URLs keep their place", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      yield* setEnv({ TAVILY_API_KEY: "tvly-test-key", TAVILY_BASE_URL: `${base}/tavily` })
      const names = (yield* (yield* ToolRegistry).definitions()).map((d) => d.function.name)
      expect(names).toContain("web_search")
      const out = yield* call("web_search", { query: "effect typescript", limit: 1 })
      expect(out).toEqual({ success: true, data: { web: [
        { title: "Effect docs", url: "https://effect.website/docs", description: "Effect is a TypeScript library.", position: 1 }
      ] } })
      const request = JSON.parse(seen.requests[0]!.body) as Json
      expect(request).toMatchObject({ api_key: "tvly-test-key", query: "effect typescript", max_results: 1 })
      const extracted = yield* call("web_extract", { urls: ["https://fail.example/x", "https://ok.example/a"] })
      expect(extracted["results"]).toEqual([
        { url: "https://fail.example/x", title: "", content: "", error: "could not fetch" },
        { url: "https://ok.example/a", title: "", content: "# Extracted\n\nContent of https://ok.example/a", error: null }
      ])
    }))
})

layer(testRuntime({ web: { backend: "firecrawl" } }), { timeout: 30_000 })("firecrawl", (it) => {
  it.scoped("search and scrape speak Firecrawl's v1 API with a bearer key", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      yield* setEnv({ FIRECRAWL_API_KEY: "fc-test-key", FIRECRAWL_API_URL: `${base}/firecrawl` })
      const out = yield* call("web_search", { query: "q" })
      expect(out["data"]["web"]).toEqual([{ title: "FC A", url: "https://fc.example/a", description: "first", position: 1 }])
      expect(seen.requests[0]!.headers["authorization"]).toBe("Bearer fc-test-key")
      expect(JSON.parse(seen.requests[0]!.body)).toEqual({ query: "q", limit: 5 })
      const extracted = yield* call("web_extract", { urls: ["https://site.example/page"] })
      expect(extracted["results"][0]).toEqual({ url: "https://site.example/page", title: "FC page", content: "# FC\n\nScraped https://site.example/page", error: null })
    }))
})

layer(testRuntime({}), { timeout: 30_000 })("searxng", (it) => {
  it.scoped("SEARXNG_URL makes web_search available with no key; results sorted by score; extraction stays local", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      yield* setEnv({ SEARXNG_URL: `${base}/searx` })
      const out = yield* call("web_search", { query: "hello world", limit: 7 })
      expect(out["data"]["web"].map((h: Json) => h["title"])).toEqual(["High", "Low"])
      expect(seen.requests[0]!.url).toBe("/searx/search?q=hello+world&format=json")
    }))
})

layer(testRuntime({ web: { extract_backend: "searxng" } }), { timeout: 30_000 })("search-only extract backend", (it) => {
  it.effect("web_extract names the search-only backend", () =>
    Effect.gen(function*() {
      const out = yield* call("web_extract", { urls: ["https://example.com/"] })
      expect(out).toEqual({ success: false, error: expect.stringMatching(/^SearXNG is a search-only backend/) })
    }))
})

layer(testRuntime({ web: { backend: "tavily" }, security: { website_blocklist: { enabled: true, domains: ["*.blocked.example"] } } }), { timeout: 30_000 })("a keyed provider and the website blocklist", (it) => {
  it.scoped("the provider is never handed a listed URL; the others keep their places", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      yield* setEnv({ TAVILY_API_KEY: "tvly-test-key", TAVILY_BASE_URL: `${base}/tavily` })
      const out = yield* call("web_extract", { urls: ["https://x.blocked.example/a", "https://ok.example/a"] })
      expect(out["results"][0]).toEqual({
        url: "https://x.blocked.example/a", title: "", content: "",
        error: "Blocked by website policy: 'x.blocked.example' matched rule '*.blocked.example' from config",
        blocked_by_policy: { host: "x.blocked.example", rule: "*.blocked.example", source: "config" }
      })
      expect(out["results"][1].content).toContain("Content of https://ok.example/a")
      expect(seen.requests.map((r) => r.body).join("\n")).not.toContain("blocked.example")
    }))
})
