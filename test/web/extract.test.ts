/**
 * web_extract and web_crawl with no API key, against a loopback server
 * (web.allow_private: true), and web_search unavailable with no provider.
 */
import { existsSync, readFileSync } from "node:fs"
import { expect, layer } from "@effect/vitest"
import { Effect, TestServices } from "effect"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { testRuntime } from "../support/runtime.js"
import { startServer } from "./server.js"

type Json = Record<string, any>

for (const key of ["TAVILY_API_KEY", "EXA_API_KEY", "PARALLEL_API_KEY", "FIRECRAWL_API_KEY", "FIRECRAWL_API_URL", "SEARXNG_URL"]) delete process.env[key]

const call = (tool: string, args: Record<string, unknown>) =>
  Effect.map(Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId: "web" } })), (s) => JSON.parse(s) as Json)

layer(testRuntime({ web: { allow_private: true, timeout_seconds: 2, max_bytes: 1024 * 1024 } }), { timeout: 30_000 })("web tools, no key", (it) => {
  it.scoped("an article becomes Markdown: title, headings, links kept; nav, scripts and inline images dropped", () =>
    Effect.gen(function*() {
      const { base } = yield* startServer
      const out = yield* call("web_extract", { urls: [`${base}/article`] })
      expect(out["results"]).toHaveLength(1)
      const page = out["results"][0]
      expect(page.url).toBe(`${base}/article`)
      expect(page.title).toBe("The Effect Article")
      expect(page.error).toBeNull()
      expect(page.content).toContain("# The Effect Article")
      expect(page.content).toContain("## Section 2")
      expect(page.content).toContain(`[the reference page 1](${base}/docs/page-1)`)
      expect(page.content).toContain("[IMAGE: inline chart]")
      // A host name goes through the guarded DNS lookup (allowed here: allow_private is on).
      const byName = yield* call("web_extract", { urls: [`http://localhost:${new URL(base).port}/plain.txt`] })
      expect(byName["results"][0].content).toContain("plain line one")
      for (const gone of ["NAV-HOME-LINK", "SCRIPT-SHOULD-NOT-APPEAR", "FOOTER-COPYRIGHT", "base64", "color:red"]) {
        expect(page.content).not.toContain(gone)
      }
    }))

  it.scoped("plain text, a PDF, a redirect, an HTTP error and object items, in input order", () =>
    Effect.gen(function*() {
      const { base } = yield* startServer
      const out = yield* call("web_extract", {
        urls: [`${base}/plain.txt`, `${base}/doc.pdf`, { url: `${base}/to-article` }, `${base}/missing`, 42, "ftp://x/y"]
      })
      const results = out["results"] as Array<Json>
      expect(results).toHaveLength(5)
      expect(results[0]!["content"]).toBe("plain line one\nplain line two\n")
      expect(results[1]!["content"]).toContain("Hello from a PDF document")
      expect(results[2]!["url"]).toBe(`${base}/article`)
      expect(results[2]!["title"]).toBe("The Effect Article")
      expect(results[3]!["error"]).toContain("HTTP 404")
      expect(results[4]!["error"]).toMatch(/^Invalid URL item at index 4/)
    }))

  it.scoped("a long page is cut head + tail at char_limit, full text saved and pointed at", () =>
    Effect.gen(function*() {
      const { base } = yield* startServer
      const out = yield* call("web_extract", { urls: [`${base}/long`], char_limit: 3000 })
      const content = out["results"][0].content as string
      expect(content).toContain("# The Effect Article")
      expect(content).toContain("Section 120")
      expect(content).toContain("[TRUNCATED]")
      const path = /Full text saved to (\S+?);/.exec(content)?.[1]
      expect(path).toMatch(/cache\/web\/127-0-0-1-[0-9a-f]{10}\.md$/)
      expect(existsSync(path!)).toBe(true)
      const full = readFileSync(path!, "utf8")
      expect(full.length).toBeGreaterThan(30_000)
      expect(content).toContain(`read_file path=${path} offset=`)
      expect(content.length).toBeLessThan(3000 + 600)
    }))

  it.scoped("secrets in a URL abort the whole call; no URLs → inaccessible", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      const out = yield* call("web_extract", { urls: [`${base}/article`, `${base}/x?access_token=abc`] })
      expect(out).toEqual({ success: false, error: expect.stringContaining("credential-like query parameter (access_token)") })
      expect(seen.requests).toHaveLength(0)
      expect(yield* call("web_extract", { urls: [] })).toEqual({ error: "Content was inaccessible or not found" })
    }))

  it.scoped("metadata addresses are refused even with allow_private, on redirects too; bounded redirects", () =>
    Effect.gen(function*() {
      const { base } = yield* startServer
      const out = yield* call("web_extract", {
        urls: ["http://169.254.169.254/latest/", `${base}/to-metadata`, `${base}/to-metadata-name`, `${base}/to-file`, `${base}/loop`]
      })
      const errors = (out["results"] as Array<Json>).map((r) => r["error"])
      expect(errors.slice(0, 3)).toEqual(Array(3).fill("Blocked: URL targets a private or internal network address"))
      expect(errors[3]).toContain("Unsupported URL scheme 'file'")
      expect(errors[4]).toContain("Too many redirects")
    }))

  it.scoped("slow servers time out; big bodies stop at max_bytes", () =>
    TestServices.provideLive(Effect.gen(function*() {
      const { base } = yield* startServer
      const slow = yield* call("web_extract", { urls: [`${base}/slow`] })
      expect(slow["results"][0].error).toContain("Timed out after 2s")
      const out = yield* call("web_extract", { urls: [`${base}/huge`] })
      const total = Number(/Showing \d+ of (\d+) characters/.exec(out["results"][0].content as string)?.[1])
      expect(total).toBeGreaterThan(500_000)
      expect(total).toBeLessThanOrEqual(1024 * 1024)
    })))

  it.scoped("web_crawl: same site, bounded depth, robots.txt respected", () =>
    Effect.gen(function*() {
      const { base } = yield* startServer
      const out = yield* call("web_crawl", { url: `${base}/site/`, max_depth: 2 })
      const urls = (out["results"] as Array<Json>).map((r) => r["url"])
      expect(urls).toEqual([`${base}/site/`, `${base}/site/a`, `${base}/site/b`, `${base}/site/c`])
      expect(out["skipped_by_robots"]).toEqual([`${base}/site/private/x`])
      expect(out["results"][1].title).toBe("Page A")
      const one = yield* call("web_crawl", { url: `${base}/site/`, limit: 2 })
      expect(one["results"]).toHaveLength(2)
      const blocked = yield* call("web_crawl", { url: `${base}/site/private/x` })
      expect(blocked).toEqual({ success: false, error: `Blocked by robots.txt: ${base}/site/private/x` })
    }))

  it.effect("web_search is unavailable with no provider; extract and crawl stay available", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const names = (yield* registry.definitions()).map((d) => d.function.name)
      expect(names).toContain("web_extract")
      expect(names).not.toContain("web_search")
      const out = yield* call("web_search", { query: "effect" })
      expect(out["error"]).toContain("not available right now: No web search provider configured. Set web.backend")
    }))
})

layer(testRuntime({ web: { allow_private: false } }), { timeout: 30_000 })("SSRF policy on (allow_private: false)", (it) => {
  it.scoped("127.0.0.1, localhost and a redirect chain are refused before any request reaches the server", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      const port = new URL(base).port
      const out = yield* call("web_extract", {
        urls: [`${base}/article`, `http://localhost:${port}/article`, `http://2130706433:${port}/article`, `http://[::1]:${port}/to-article`]
      })
      const errors = (out["results"] as Array<Json>).map((r) => r["error"])
      expect(errors).toEqual(Array(4).fill("Blocked: URL targets a private or internal network address"))
      expect(seen.requests).toHaveLength(0)
      const crawl = yield* call("web_crawl", { url: `http://localhost:${port}/site/` })
      expect(crawl["results"][0].error).toBe("Blocked: URL targets a private or internal network address")
    }))
})
