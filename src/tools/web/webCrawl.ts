/**
 * `web_crawl` (toolset `web`): same-site pages from a start URL, breadth
 * first, to a bounded depth and page count, each extracted like web_extract
 * (our own fetcher: links are needed). robots.txt is respected.
 */
import { Effect, Schema } from "effect"
import { Config } from "../../services/Config.js"
import { Web } from "../../services/Web.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { lenient } from "../../lib/tool/lenient.js"
import { clampCharLimit } from "../../lib/web/truncate.js"
import { vetUrl } from "../../lib/web/urlPolicy.js"
import { fitToLimit, refused, vetItem } from "./extractUrls.js"
import type { ExtractEntry } from "./extractUrls.js"
import { observedFn } from "../../lib/effect/observedFn.js"

const optionalCount = (description: string, maximum: number) =>
  lenient(Schema.Number, () => NaN, { description, jsonSchema: { type: "integer", minimum: 0, maximum } })

export const WebCrawlParameters = Schema.Struct({
  url: Schema.String.annotations({ description: "The page to start from; only pages on the same site (scheme, host and port) are followed" }),
  instructions: Schema.optional(Schema.String.annotations({ description: "What you are looking for (kept for compatibility; pages are returned whole)" })),
  max_depth: Schema.optional(optionalCount("Link depth from the start page (default web.crawl_max_depth, 2)", 5)),
  limit: Schema.optional(optionalCount("Maximum pages to return (default web.crawl_max_pages, 20; at most 100)", 100)),
  char_limit: Schema.optional(optionalCount("Characters of each page before the middle is cut (default web.extract_char_limit)", 500_000))
})

/** Absent or not a number (a lenient NaN) → the config default. */
const orDefault = (value: number | undefined, fallback: number) => (value !== undefined && Number.isFinite(value) ? value : fallback)

const sameSite = (a: URL, b: URL) => a.protocol === b.protocol && a.host === b.host

export const webCrawlTool = defineTool({
  name: "web_crawl",
  toolset: "web",
  emoji: "🕸️",
  description:
    "Crawl a website: starting from a URL, follow links on the same site to a bounded depth and return each page's content " +
    "as markdown (robots.txt respected). Use web_extract for specific pages.",
  parameters: WebCrawlParameters,
  maxResultChars: 100_000,
  parallel: "safe",
  handler: observedFn("web_crawl")(function*(args) {
    const web = yield* Web
    const config = yield* (yield* Config).current
    const depthLimit = Math.min(5, Math.max(0, Math.floor(orDefault(args.max_depth, config.web.crawl_max_depth))))
    const pageLimit = Math.min(100, Math.max(1, Math.floor(orDefault(args.limit, config.web.crawl_max_pages))))
    const charLimit = clampCharLimit(args.char_limit, config.web.extract_char_limit)
    const start = vetItem(args.url, config.web.allow_private)
    if (start._tag === "Abort") return JSON.stringify({ success: false, error: start.message }, null, 2)
    if (start._tag === "Entry") return JSON.stringify({ results: [start.entry] }, null, 2)
    const startCheck = yield* Effect.either(web.checkPolicy(start.url))
    if (startCheck._tag === "Left") return JSON.stringify({ results: [refused(start.url, startCheck.left)] }, null, 2)
    const origin = new URL(start.url)
    const seen = new Set<string>([start.url])
    const results: Array<ExtractEntry> = []
    const skipped: Array<string> = []
    let frontier: Array<string> = [start.url]
    for (let depth = 0; depth <= depthLimit && frontier.length > 0 && results.length < pageLimit; depth++) {
      const allowed: Array<string> = []
      for (const url of frontier) {
        if (allowed.length + results.length >= pageLimit) break
        if (yield* web.robotsAllow(url)) allowed.push(url)
        else skipped.push(url)
      }
      const pages = yield* Effect.forEach(allowed, (url) =>
        web.page(url, { links: depth < depthLimit }).pipe(Effect.either), { concurrency: 4 })
      const next: Array<string> = []
      for (const [i, outcome] of pages.entries()) {
        if (outcome._tag === "Left") {
          results.push(refused(allowed[i]!, outcome.left))
          continue
        }
        const page = outcome.right
        results.push({ url: page.url, title: page.title, content: page.content, error: null })
        for (const link of page.links) {
          const verdict = vetUrl(link)
          if (verdict._tag !== "Ok" || !sameSite(verdict.url, origin) || seen.has(link)) continue
          seen.add(link)
          // Links the website blocklist refuses are not followed (they would only use up the page budget).
          if ((yield* Effect.either(web.checkPolicy(link)))._tag === "Left") continue
          next.push(link)
        }
      }
      frontier = next
    }
    if (results.length === 0 && skipped.length > 0) {
      return JSON.stringify({ success: false, error: `Blocked by robots.txt: ${skipped[0]}` }, null, 2)
    }
    const fitted = yield* Effect.forEach(results, (entry) => fitToLimit(entry, charLimit))
    return JSON.stringify(skipped.length === 0 ? { results: fitted } : { results: fitted, skipped_by_robots: skipped }, null, 2)
  })
})
