/**
 * What the image providers share: the key from the configured variable, a JSON
 * POST with a timeout, and fetching the image a provider answers with a URL
 * (only from the provider itself or over https: the URL is the provider's
 * answer, and is not followed elsewhere).
 */
import type { HttpClient, HttpClientError } from "@effect/platform"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Duration, Effect } from "effect"
import { ImageGenerationError } from "../../services/ImageGeneration.js"

export const failure = (provider: string, errorType: ImageGenerationError["errorType"], message: string) =>
  new ImageGenerationError({ errorType, provider, message })

export const keyFrom = (name: string): string | undefined => {
  const value = process.env[name]
  return value === undefined || value.length === 0 ? undefined : value
}

export const postJson = (
  http: HttpClient.HttpClient,
  provider: string,
  url: string,
  authorization: string,
  body: unknown,
  timeoutSeconds: number
) =>
  HttpClientRequest.post(url).pipe(
    HttpClientRequest.setHeader("authorization", authorization),
    HttpClientRequest.bodyUnsafeJson(body),
    http.execute,
    Effect.flatMap((response): Effect.Effect<unknown, ImageGenerationError | HttpClientError.HttpClientError> =>
      response.status >= 200 && response.status < 300
        ? response.json
        : Effect.flatMap(Effect.orElseSucceed(response.text, () => ""), (text) =>
          Effect.fail(failure(provider, "provider_exception", `HTTP ${response.status}: ${text.slice(0, 300)}`)))
    ),
    Effect.timeoutFail({ duration: Duration.seconds(timeoutSeconds), onTimeout: () => failure(provider, "provider_exception", `no answer in ${timeoutSeconds} s`) }),
    Effect.mapError((e) => (e instanceof ImageGenerationError ? e : failure(provider, "provider_exception", e.message))),
    Effect.scoped
  )

const EXTENSIONS: Readonly<Record<string, string>> = { "image/png": "png", "image/jpeg": "jpeg", "image/webp": "webp", "image/gif": "gif" }

/** The image at a URL the provider gave, if it is the provider's own or https. */
export const download = (http: HttpClient.HttpClient, provider: string, url: string, base: string, timeoutSeconds: number) =>
  Effect.gen(function*() {
    const target = new URL(url)
    if (target.protocol !== "https:" && target.origin !== new URL(base).origin) {
      return yield* Effect.fail(failure(provider, "provider_contract", `the provider answered with a URL that is neither https nor its own: ${target.origin}`))
    }
    const response = yield* http.get(url).pipe(
      Effect.timeoutFail({ duration: Duration.seconds(timeoutSeconds), onTimeout: () => failure(provider, "provider_exception", `image download took over ${timeoutSeconds} s`) }),
      Effect.mapError((e) => (e instanceof ImageGenerationError ? e : failure(provider, "provider_exception", e.message)))
    )
    if (response.status !== 200) return yield* Effect.fail(failure(provider, "provider_exception", `image download: HTTP ${response.status}`))
    const bytes = new Uint8Array(yield* Effect.mapError(response.arrayBuffer, (e) => failure(provider, "provider_exception", e.message)))
    const type = (response.headers["content-type"] ?? "").split(";")[0]!.trim()
    return { bytes, extension: EXTENSIONS[type] ?? "png", url }
  }).pipe(Effect.scoped)
