/**
 * One GET under the SSRF policy, redirects followed by hand.
 *
 * The address check runs inside the socket's `lookup`, so the address judged
 * is the address connected to (no DNS-rebinding gap); literal IP hosts are
 * judged before connecting. Each redirect hop is vetted the same way. The body
 * is streamed (decompressed) and cut at `maxBytes`.
 */
import { lookup as dnsLookup } from "node:dns"
import type { LookupAddress } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"
import type { Readable } from "node:stream"
import * as zlib from "node:zlib"
import { Effect } from "effect"
import { addressAllowed } from "../../lib/web/addressPolicy.js"
import { BLOCKED_PRIVATE, loggableUrl, vetUrl } from "../../lib/web/urlPolicy.js"
import type { BlockRule } from "../../lib/web/websitePolicy.js"
import { WebBlocked, WebFetchFailed } from "../../services/Web.js"
import { checkBlocklist } from "./blocklist.js"

export interface FetchPolicy {
  readonly allowPrivate: boolean
  readonly timeoutMs: number
  readonly maxBytes: number
  readonly maxRedirects: number
  readonly userAgent: string
  /** `security.website_blocklist` rules, checked on the first URL and on every redirect. */
  readonly rules: ReadonlyArray<BlockRule>
}

export interface FetchedBody {
  readonly url: string
  readonly status: number
  readonly contentType: string
  readonly body: Buffer
  /** The body was longer than `maxBytes` and was cut. */
  readonly cut: boolean
}

class AddressBlocked extends Error {
  readonly code = "EHERMESBLOCKED"
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | ReadonlyArray<LookupAddress>, family?: number) => void

/** A `lookup` for sockets that refuses any name resolving to a forbidden address (all answers checked). */
const guardedLookup = (allowPrivate: boolean) =>
  (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err !== null) return callback(err, [])
      if (addresses.length === 0 || addresses.some((a) => !addressAllowed(a.address, allowPrivate))) {
        return callback(new AddressBlocked(BLOCKED_PRIVATE), [])
      }
      return options.all === true ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }

const decoded = (response: http.IncomingMessage): Readable => {
  const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase()
  if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(zlib.createGunzip())
  if (encoding === "deflate") return response.pipe(zlib.createInflate())
  if (encoding === "br") return response.pipe(zlib.createBrotliDecompress())
  return response
}

interface Hop {
  readonly status: number
  readonly location?: string | undefined
  readonly contentType: string
  readonly body: Buffer
  readonly cut: boolean
}

const requestOnce = (url: URL, policy: FetchPolicy, accept: string) =>
  Effect.async<Hop, WebBlocked | WebFetchFailed>((resume, signal) => {
    const client = url.protocol === "https:" ? https : http
    const request = client.get(url, {
      lookup: guardedLookup(policy.allowPrivate) as unknown as http.RequestOptions["lookup"],
      headers: { "user-agent": policy.userAgent, accept, "accept-encoding": "gzip, deflate, br" },
      signal
    }, (response) => {
      const status = response.statusCode ?? 0
      const contentType = String(response.headers["content-type"] ?? "")
      if (status >= 300 && status < 400 && response.headers.location !== undefined) {
        response.resume()
        return resume(Effect.succeed({ status, location: response.headers.location, contentType, body: Buffer.alloc(0), cut: false }))
      }
      const chunks: Array<Buffer> = []
      let size = 0
      let done = false
      const finish = (cut: boolean) => {
        if (done) return
        done = true
        resume(Effect.succeed({ status, contentType, body: Buffer.concat(chunks), cut }))
      }
      const stream = decoded(response)
      stream.on("data", (chunk: Buffer) => {
        if (done) return
        const room = policy.maxBytes - size
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
        size += Math.min(chunk.length, room)
        if (size >= policy.maxBytes) {
          finish(true)
          request.destroy()
        }
      })
      stream.on("end", () => finish(false))
      stream.on("error", (error) => {
        if (!done) {
          done = true
          resume(Effect.fail(new WebFetchFailed({ message: `Error reading ${loggableUrl(url)}: ${error.message}` })))
        }
      })
    })
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (signal.aborted) return
      resume(Effect.fail(
        error instanceof AddressBlocked || error.code === "EHERMESBLOCKED"
          ? new WebBlocked({ message: BLOCKED_PRIVATE })
          : new WebFetchFailed({ message: `Error fetching ${loggableUrl(url)}: ${error.code ?? error.message}` })
      ))
    })
  })

/** Vet a URL (scheme, secrets, metadata names, literal addresses, the blocklist) before any connection. */
export const vetForFetch = (
  raw: string,
  allowPrivate: boolean,
  rules: ReadonlyArray<BlockRule> = []
): Effect.Effect<URL, WebBlocked | WebFetchFailed> => {
  const verdict = vetUrl(raw)
  switch (verdict._tag) {
    case "Invalid":
      return Effect.fail(new WebFetchFailed({ message: verdict.message }))
    case "Secret":
    case "Private":
      return Effect.fail(new WebBlocked({ message: verdict.message }))
    case "Ok": {
      const host = verdict.url.hostname.replace(/^\[|\]$/g, "")
      return isIP(host) !== 0 && !addressAllowed(host, allowPrivate)
        ? Effect.fail(new WebBlocked({ message: BLOCKED_PRIVATE }))
        : Effect.as(checkBlocklist(verdict.url, rules), verdict.url)
    }
  }
}

export const safeFetch = (raw: string, policy: FetchPolicy, accept = "text/html,application/xhtml+xml,application/pdf,text/*;q=0.9,*/*;q=0.5") =>
  Effect.gen(function*() {
    let url = yield* vetForFetch(raw, policy.allowPrivate, policy.rules)
    for (let hop = 0; ; hop++) {
      const answer = yield* requestOnce(url, policy, accept)
      if (answer.location === undefined) {
        return { url: url.toString(), status: answer.status, contentType: answer.contentType, body: answer.body, cut: answer.cut } satisfies FetchedBody
      }
      if (hop >= policy.maxRedirects) {
        return yield* new WebFetchFailed({ message: `Too many redirects (more than ${policy.maxRedirects})` })
      }
      const next = (() => {
        try {
          return new URL(answer.location, url).toString()
        } catch {
          return answer.location
        }
      })()
      url = yield* vetForFetch(next, policy.allowPrivate, policy.rules)
    }
  }).pipe(
    Effect.timeoutFail({
      duration: policy.timeoutMs,
      onTimeout: () => new WebFetchFailed({ message: `Timed out after ${Math.round(policy.timeoutMs / 1000)}s` })
    }),
    Effect.withSpan("Web.fetch")
  )
