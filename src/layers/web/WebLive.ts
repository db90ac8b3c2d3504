/** Web on our own fetcher (safeFetch) plus the keyed providers; limits and policy read from `web:` per call. */
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { parseRobots } from "../../lib/web/robots.js"
import { cacheFileName, MAX_SAVED_CHARS } from "../../lib/web/truncate.js"
import { Config } from "../../services/Config.js"
import type { HermesConfig } from "../../services/Config.js"
import { NO_SEARCH_PROVIDER, Web, WebBlocked, WebFetchFailed, WebUnavailable } from "../../services/Web.js"
import type { BlockRule } from "../../lib/web/websitePolicy.js"
import { makeBlocklistLoader } from "./blocklist.js"
import type { Robots } from "../../lib/web/robots.js"
import { toPage } from "./pageContent.js"
import { chooseExtract, chooseSearch, providerExtract, providerSearch } from "./providers.js"
import { safeFetch, vetForFetch } from "./safeFetch.js"
import type { FetchPolicy } from "./safeFetch.js"

const ROBOTS_TTL_MS = 10 * 60_000

export const fetchPolicy = (config: HermesConfig, rules: ReadonlyArray<BlockRule> = []): FetchPolicy => ({
  allowPrivate: config.web.allow_private,
  timeoutMs: config.web.timeout_seconds * 1000,
  maxBytes: config.web.max_bytes,
  maxRedirects: config.web.max_redirects,
  userAgent: config.web.user_agent,
  rules
})

export const WebLive = Layer.effect(
  Web,
  Effect.gen(function*() {
    const config = yield* Config
    const cacheDir = join(config.home.root, "cache", "web")
    const robotsCache = new Map<string, { readonly at: number; readonly robots: Robots }>()
    const blocklist = makeBlocklistLoader(config.home.root)
    /** The config and the fetch policy in force now (the blocklist's files re-read when they change). */
    const currentPolicy = Effect.flatMap(config.current, (current) =>
      Effect.map(blocklist.rules(current), (rules) => ({ current, policy: fetchPolicy(current, rules) })))

    const checkPolicy = Effect.fn("Web.checkPolicy")(function*(url: string) {
      const { current, policy } = yield* currentPolicy
      yield* vetForFetch(url, current.web.allow_private, policy.rules).pipe(
        Effect.catchTag("WebFetchFailed", (e) => Effect.fail(new WebBlocked({ message: e.message })))
      )
    })

    const page = Effect.fn("Web.page")(function*(url: string, options?: { readonly links?: boolean }) {
      const { policy } = yield* currentPolicy
      const fetched = yield* safeFetch(url, policy)
      return yield* toPage(fetched, options?.links === true)
    })

    const download = Effect.fn("Web.download")(function*(url: string, options: { readonly accept: string; readonly maxBytes: number }) {
      const { policy } = yield* currentPolicy
      const fetched = yield* safeFetch(url, { ...policy, maxBytes: options.maxBytes }, options.accept)
      if (fetched.status < 200 || fetched.status >= 300) return yield* new WebFetchFailed({ message: `HTTP ${fetched.status}` })
      return { url: fetched.url, contentType: fetched.contentType, body: new Uint8Array(fetched.body), cut: fetched.cut }
    })

    const robotsAllow = Effect.fn("Web.robotsAllow")(function*(url: string) {
      const { current, policy } = yield* Effect.orElse(currentPolicy, () => Effect.map(config.current, (c) => ({ current: c, policy: fetchPolicy(c) })))
      const target = new URL(url)
      const cached = robotsCache.get(target.origin)
      let robots = cached !== undefined && Date.now() - cached.at < ROBOTS_TTL_MS ? cached.robots : undefined
      if (robots === undefined) {
        // A robots.txt that cannot be read (404, network) allows everything, as crawlers usually treat it.
        const text = yield* safeFetch(`${target.origin}/robots.txt`, policy, "text/plain").pipe(
          Effect.map((r) => (r.status === 200 ? r.body.toString("utf8") : "")),
          Effect.orElseSucceed(() => "")
        )
        robots = parseRobots(text, current.web.user_agent)
        robotsCache.set(target.origin, { at: Date.now(), robots })
      }
      return robots.allowed(`${target.pathname}${target.search}`)
    })

    const searchProvider = Effect.map(config.current, (c) => chooseSearch(c, process.env))

    const search = Effect.fn("Web.search")(function*(query: string, limit: number) {
      const current = yield* config.current
      const provider = chooseSearch(current, process.env)
      if (provider._tag === "None") return yield* new WebUnavailable({ message: NO_SEARCH_PROVIDER })
      return yield* providerSearch(provider.value, query, limit, current, process.env)
    })

    const extractProvider = Effect.flatMap(config.current, (c) => chooseExtract(c, process.env))

    const extract = Effect.fn("Web.extract")(function*(provider: Parameters<typeof providerExtract>[0], urls: ReadonlyArray<string>) {
      return yield* providerExtract(provider, urls, process.env)
    })

    const saveFull = Effect.fn("Web.saveFull")(function*(url: string, text: string) {
      const path = join(cacheDir, cacheFileName(url))
      yield* Effect.tryPromise({
        try: async () => {
          await mkdir(cacheDir, { recursive: true })
          await writeFile(path, text.slice(0, MAX_SAVED_CHARS), "utf8")
        },
        catch: (error) => new WebFetchFailed({ message: `Could not save the full text: ${String(error)}` })
      })
      return path
    })

    return Web.of({ checkPolicy, page, download, robotsAllow, searchProvider, search, extractProvider, extract, saveFull })
  })
)
