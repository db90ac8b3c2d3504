/**
 * Shared by web_extract and web_crawl: per-URL extraction through our own
 * fetcher or a keyed provider, and the head+tail cut with the full text saved.
 */
import { Effect, Option } from "effect"
import { isIP } from "node:net"
import { addressAllowed } from "../../lib/web/addressPolicy.js"
import { BLOCKED_PRIVATE, vetUrl } from "../../lib/web/urlPolicy.js"
import { truncatedContent } from "../../lib/web/truncate.js"
import { Web } from "../../services/Web.js"
import type { PolicyMatch, ProviderName, WebBlocked, WebFetchFailed } from "../../services/Web.js"

export interface ExtractEntry {
  readonly url: string
  readonly title: string
  readonly content: string
  readonly error: string | null
  /** The website-blocklist rule that refused this URL. */
  readonly blocked_by_policy?: PolicyMatch
}

export const failed = (url: string, error: string): ExtractEntry => ({ url, title: "", content: "", error })

/** An entry for a refused URL; a blocklist refusal names its rule, as Hermes does. */
export const refused = (url: string, error: WebBlocked | WebFetchFailed): ExtractEntry =>
  error._tag === "WebBlocked" && error.policy !== undefined
    ? { ...failed(url, error.message), blocked_by_policy: error.policy }
    : failed(url, error.message)

/** Cut a long page to `limit` (75 % head, 25 % tail) after saving the whole text. */
export const fitToLimit = (entry: ExtractEntry, limit: number) =>
  entry.content.length <= limit
    ? Effect.succeed(entry)
    : Effect.flatMap(Web, (web) => web.saveFull(entry.url, entry.content)).pipe(
      Effect.map((path) => ({ ...entry, content: truncatedContent(entry.content, limit, path) })),
      // Saving failed: still cut, the model gets the head and tail.
      Effect.catchAll(() => Effect.succeed({ ...entry, content: truncatedContent(entry.content, limit, "(not saved)") }))
    )

/** Our own fetcher: one page. */
export const extractOwn = (url: string) =>
  Effect.flatMap(Web, (web) => web.page(url)).pipe(
    Effect.map((page): ExtractEntry => ({ url: page.url, title: page.title, content: page.content, error: null })),
    Effect.catchAll((error) => Effect.succeed(refused(url, error)))
  )

/** A keyed provider: all URLs in one go, results put back in input order. */
export const extractWithProvider = (provider: ProviderName, urls: ReadonlyArray<string>) =>
  Effect.flatMap(Web, (web) => web.extract(provider, urls)).pipe(
    Effect.map((docs) =>
      urls.map((url): ExtractEntry => {
        const doc = docs.find((d) => d.url === url) ?? docs.find((d) => d.url.replace(/\/$/, "") === url.replace(/\/$/, ""))
        return doc === undefined
          ? failed(url, "extraction failed")
          : { url, title: doc.title, content: doc.content, error: doc.error ?? (doc.content === "" ? "no content" : null) }
      })
    ),
    Effect.catchAll((error) => Effect.succeed(urls.map((url) => failed(url, error.message))))
  )

export type Vetted =
  | { readonly _tag: "Fetch"; readonly url: string }
  | { readonly _tag: "Entry"; readonly entry: ExtractEntry }
  | { readonly _tag: "Abort"; readonly message: string }

/** Before any request: scheme, secrets (abort the whole call, as Hermes), metadata names, literal private addresses. */
export const vetItem = (url: string, allowPrivate: boolean): Vetted => {
  const verdict = vetUrl(url)
  switch (verdict._tag) {
    case "Secret":
      return { _tag: "Abort", message: verdict.message }
    case "Invalid":
    case "Private":
      return { _tag: "Entry", entry: failed(url, verdict.message) }
    case "Ok": {
      const host = verdict.url.hostname.replace(/^\[|\]$/g, "")
      return isIP(host) !== 0 && !addressAllowed(host, allowPrivate)
        ? { _tag: "Entry", entry: failed(url, BLOCKED_PRIVATE) }
        : { _tag: "Fetch", url: verdict.url.toString() }
    }
  }
}

/**
 * Extract every URL, own fetcher or provider, in input order. A provider is never
 * handed a URL the website blocklist refuses (our own fetcher checks every hop itself).
 */
export const extractAll = (urls: ReadonlyArray<string>, provider: Option.Option<ProviderName>) =>
  Option.isSome(provider)
    ? Effect.gen(function*() {
      const web = yield* Web
      const checked = yield* Effect.forEach(urls, (url) => Effect.either(web.checkPolicy(url)))
      const allowed = urls.filter((_, i) => checked[i]!._tag === "Right")
      const fetched = allowed.length === 0 ? [] : yield* extractWithProvider(provider.value, allowed)
      let next = 0
      return urls.map((url, i) => {
        const check = checked[i]!
        return check._tag === "Left" ? refused(url, check.left) : fetched[next++]!
      })
    })
    : Effect.forEach(urls, extractOwn, { concurrency: 5 })
