/**
 * security.website_blocklist: hosts (with subdomains), globs and URL-shaped
 * rules, from config and shared files; checked before the first request and
 * on every redirect, and before a keyed provider is handed a URL.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { tmpdir } from "node:os"
import { expect, layer } from "@effect/vitest"
import { describe, it } from "vitest"
import { Effect } from "effect"
import { findBlock, hostMatches, normalizeRule, rulesFromText } from "../../src/lib/web/websitePolicy.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { testRuntime } from "../support/runtime.js"
import { startServer } from "./server.js"

type Json = Record<string, any>

for (const key of ["TAVILY_API_KEY", "EXA_API_KEY", "PARALLEL_API_KEY", "FIRECRAWL_API_KEY", "FIRECRAWL_API_URL", "SEARXNG_URL"]) delete process.env[key]

const call = (tool: string, args: Record<string, unknown>) =>
  Effect.map(Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId: "web" } })), (s) => JSON.parse(s) as Json)

describe("website blocklist rules", () => {
  it.each([
    ["example.com", "example.com"],
    ["  Example.COM. ", "example.com"],
    ["https://www.Evil.example:8443/path?q=1", "evil.example"],
    ["user@tracker.example:9000", "tracker.example"],
    ["ads.example/banner", "ads.example"],
    ["*.cdn.example", "*.cdn.example"],
    ["# a comment", undefined],
    ["   ", undefined]
  ])("normalizeRule(%j) = %j", (raw, expected) => {
    expect(normalizeRule(raw)).toBe(expected)
  })

  it("a host rule covers its subdomains but not look-alikes; a glob needs a subdomain", () => {
    expect(hostMatches("evil.example", "evil.example")).toBe(true)
    expect(hostMatches("a.b.evil.example", "evil.example")).toBe(true)
    expect(hostMatches("notevil.example", "evil.example")).toBe(false)
    expect(hostMatches("evil.example.org", "evil.example")).toBe(false)
    expect(hostMatches("x.cdn.example", "*.cdn.example")).toBe(true)
    expect(hostMatches("cdn.example", "*.cdn.example")).toBe(false)
  })

  it("the host is read the way the fetcher reads it: case, trailing dot, IDN and numeric forms", () => {
    const rules = [...rulesFromText("bad.example\n127.0.0.1\nxn--mnchen-3ya.example\n", "list.txt")]
    for (const url of ["http://BAD.example./x", "http://2130706433/", "http://0x7f.0.0.1/", "https://münchen.example/"]) {
      expect(findBlock(new URL(url), rules)?.source, url).toBe("list.txt")
    }
    expect(findBlock(new URL("http://good.example/"), rules)).toBeUndefined()
  })
})

const dir = join(tmpdir(), `hermes-blocklist-${process.pid}`)
mkdirSync(dir, { recursive: true })
const sharedFile = join(dir, "shared.txt")
writeFileSync(sharedFile, "# shared list\nlocalhost\n")

layer(testRuntime({
  web: { allow_private: true, timeout_seconds: 2 },
  security: { website_blocklist: { enabled: true, domains: ["blocked.invalid"], shared_files: [sharedFile] } }
}), { timeout: 30_000 })("website blocklist in the web tools", (it) => {
  it.scoped("a listed host is refused before any request, with the rule and its source", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      const port = new URL(base).port
      const out = yield* call("web_extract", { urls: [`http://localhost:${port}/article`, `${base}/plain.txt`] })
      const [blocked, allowed] = out["results"] as Array<Json>
      expect(blocked).toEqual({
        url: `http://localhost:${port}/article`, title: "", content: "",
        error: `Blocked by website policy: 'localhost' matched rule 'localhost' from ${sharedFile}`,
        blocked_by_policy: { host: "localhost", rule: "localhost", source: sharedFile }
      })
      expect(allowed!["content"]).toContain("plain line one")
      expect(seen.requests.map((r) => r.url)).toEqual(["/plain.txt"])
    }))

  it.scoped("a redirect onto a listed host is refused without following it", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      const port = new URL(base).port
      const out = yield* call("web_extract", { urls: [`${base}/redirect?to=${encodeURIComponent(`http://localhost:${port}/article`)}`] })
      expect(out["results"][0].blocked_by_policy).toEqual({ host: "localhost", rule: "localhost", source: sharedFile })
      expect(seen.requests.map((r) => r.url.split("?")[0])).toEqual(["/redirect"])
    }))

  it.scoped("web_crawl refuses a listed start page and never follows a link onto one", () =>
    Effect.gen(function*() {
      const { base } = yield* startServer
      const out = yield* call("web_crawl", { url: "http://sub.blocked.invalid/" })
      expect(out["results"][0].blocked_by_policy).toEqual({ host: "sub.blocked.invalid", rule: "blocked.invalid", source: "config" })
      const site = yield* call("web_crawl", { url: `${base}/site/`, max_depth: 1 })
      expect((site["results"] as Array<Json>).every((r) => r["blocked_by_policy"] === undefined)).toBe(true)
    }))
})

layer(testRuntime({
  web: { allow_private: true, timeout_seconds: 2 },
  security: { website_blocklist: { enabled: true, shared_files: [join(dir, "missing.txt")] } }
}), { timeout: 30_000 })("an unreadable shared list", (it) => {
  it.scoped("refuses every URL with a message naming the file (fails closed, unlike Hermes)", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* startServer
      const out = yield* call("web_extract", { urls: [`${base}/plain.txt`] })
      expect(out["results"][0].error).toContain(`the website blocklist file ${join(dir, "missing.txt")} cannot be read (ENOENT)`)
      expect(seen.requests).toHaveLength(0)
    }))
})
