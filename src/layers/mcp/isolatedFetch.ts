/**
 * A fetch for the Streamable HTTP transport that gives every request its own
 * AbortSignal. The SDK passes one connection-wide signal to every fetch, and
 * undici adds an abort listener to it per request that only goes away when the
 * request is garbage-collected: a busy connection piles up thousands of them
 * (MaxListenersExceededWarning after 1500 calls). Here the shared signal gets
 * one short-lived listener per request, removed as soon as the response body
 * is finished, cancelled or failed, so aborting the connection still aborts
 * everything in flight, including the long-lived SSE stream.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"

export const isolatedFetch: FetchLike = async (url, init) => {
  const shared = init?.signal
  if (shared === undefined || shared === null || shared.aborted) return fetch(url, init)
  const own = new AbortController()
  const forward = () => own.abort(shared.reason)
  shared.addEventListener("abort", forward, { once: true })
  const release = () => shared.removeEventListener("abort", forward)
  let response: Response
  try {
    response = await fetch(url, { ...init, signal: own.signal })
  } catch (e) {
    release()
    throw e
  }
  const source = response.body
  if (source === null) {
    release()
    return response
  }
  const reader = source.getReader()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read()
        if (chunk.done) {
          release()
          controller.close()
        } else {
          controller.enqueue(chunk.value)
        }
      } catch (e) {
        release()
        controller.error(e)
      }
    },
    cancel(reason) {
      release()
      return reader.cancel(reason)
    }
  })
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}
