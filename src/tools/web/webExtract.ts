/**
 * `web_extract` (toolset `web`): up to 5 URLs → readable Markdown (HTML),
 * text, or PDF text, fetched by us under the SSRF policy with no API key, or by
 * a configured keyed provider. Long pages are cut head + tail at `char_limit`
 * with the full text saved under `<home>/cache/web/`.
 */
import { Effect, Schema } from "effect"
import { Config } from "../../services/Config.js"
import { Web } from "../../services/Web.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { lenient } from "../../lib/tool/lenient.js"
import { clampCharLimit } from "../../lib/web/truncate.js"
import { extractAll, failed, fitToLimit, vetItem } from "./extractUrls.js"
import type { ExtractEntry } from "./extractUrls.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const MAX_EXTRACT_URLS = 5

// As in Hermes: a non-list becomes no URLs, items may be {url} or {href} objects.
const UrlItems = lenient(Schema.Array(Schema.Unknown), () => [], {
  description: "List of URLs to extract content from (max 5 URLs per call)",
  jsonSchema: { type: "array", items: { type: "string" }, maxItems: MAX_EXTRACT_URLS }
})

const CharLimit = lenient(Schema.Number, () => NaN, {
  description: "Characters of each page to return before the middle is cut (default web.extract_char_limit, 15000; at least 2000). The full text is saved to a file either way.",
  jsonSchema: { type: "integer", minimum: 2000 }
})

export const WebExtractParameters = Schema.Struct({ urls: UrlItems, char_limit: Schema.optional(CharLimit) })

const itemUrl = (item: unknown, index: number): string | ExtractEntry => {
  if (typeof item === "string") return item
  if (typeof item === "object" && item !== null) {
    const record = item as Record<string, unknown>
    const url = typeof record["url"] === "string" ? record["url"] : record["href"]
    if (typeof url === "string") return url
  }
  return failed("", `Invalid URL item at index ${index}: expected a URL string or an object with 'url'`)
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2)

export const webExtractTool = defineTool({
  name: "web_extract",
  toolset: "web",
  emoji: "📄",
  description:
    "Extract content from web page URLs. Returns page content in markdown format. Also works with PDF URLs (arxiv papers, " +
    "documents, etc.) — pass the PDF link directly and it converts to text. Pages longer than char_limit return their beginning " +
    "and end with the full text saved to a file you can page with read_file. If a URL fails or times out, use the browser tool instead.",
  parameters: WebExtractParameters,
  maxResultChars: 100_000,
  parallel: "safe",
  handler: observedFn("web_extract")(function*(args) {
    const web = yield* Web
    const config = yield* (yield* Config).current
    const limit = clampCharLimit(args.char_limit, config.web.extract_char_limit)
    const items = args.urls.slice(0, MAX_EXTRACT_URLS).map(itemUrl)
    const slots: Array<ExtractEntry | string> = []
    for (const item of items) {
      if (typeof item !== "string") {
        slots.push(item)
        continue
      }
      const vetted = vetItem(item, config.web.allow_private)
      if (vetted._tag === "Abort") return pretty({ success: false, error: vetted.message })
      slots.push(vetted._tag === "Entry" ? vetted.entry : vetted.url)
    }
    const toFetch = slots.filter((s): s is string => typeof s === "string")
    if (slots.length === 0) return pretty({ error: "Content was inaccessible or not found" })
    const provider = yield* web.extractProvider.pipe(Effect.either)
    if (provider._tag === "Left") return pretty({ success: false, error: provider.left.message })
    const fetched = yield* extractAll(toFetch, provider.right)
    let next = 0
    const entries = slots.map((slot) => (typeof slot === "string" ? fetched[next++]! : slot))
    const results = yield* Effect.forEach(entries, (entry) => fitToLimit(entry, limit))
    return pretty({ results })
  })
})
