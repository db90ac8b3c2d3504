/**
 * An OpenAI-compatible chat-completions provider on @effect/platform's
 * HttpClient: OpenAI, OpenRouter, vLLM, llama.cpp, Ollama, LM Studio, …
 *
 * Each attempt is bounded by `timeout`; 429, 5xx, timeouts and network
 * failures are retried with backoff (Retry-After respected). A stream is
 * retried only until its response starts: once deltas have been emitted a
 * failure ends the stream, since the caller has already shown them. The API
 * key is read from the named environment variable at each call, so a key
 * rotated in the environment of a long-lived process is picked up.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { HttpClientError, HttpClientResponse } from "@effect/platform"
import { Clock, Duration, Effect, Either, Layer, Stream } from "effect"
import { Model, ModelAuthFailed, ModelBadResponse, ModelHttpError, ModelNetworkError, ModelTimeout } from "../../services/Model.js"
import type { ModelDelta, ModelError, ModelRequest, ModelService } from "../../services/Model.js"
import { withDone } from "./assemble.js"
import { Retryable, retryAfter, retrySchedule, retryableStatus } from "./retry.js"
import type { OpenAiOptions } from "./settings.js"
import { sseData } from "./sse.js"
import { decodeChunk, decodeCompletion, errorDetail, requestBody } from "./wire.js"

const seconds = (d: Duration.Duration) => Math.round(Duration.toMillis(d) / 100) / 10

const transportDetail = (error: HttpClientError.HttpClientError): string => {
  const cause = error.cause
  const inner = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause : cause) : undefined
  const code = inner !== undefined && "code" in inner && typeof inner.code === "string" ? `${inner.code}: ` : ""
  return inner !== undefined ? `${code}${inner.message}` : error.message
}

export const makeOpenAiModel = (options: OpenAiOptions): Effect.Effect<ModelService, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client): ModelService => {
    const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`
    const env = options.env ?? ((name: string) => process.env[name])
    const policy = { maxRetries: options.maxRetries, retryBase: options.retryBase, retryMax: options.retryMax }

    const apiKey: Effect.Effect<string | undefined, ModelAuthFailed> = Effect.suspend(() => {
      const name = options.apiKeyEnv
      if (name === undefined) return Effect.succeed(undefined)
      const key = env(name)?.trim()
      return key === undefined || key.length === 0
        ? Effect.fail(new ModelAuthFailed({ envVar: name, url, detail: `the environment variable ${name} (model.api_key_env) is not set or empty` }))
        : Effect.succeed(key)
    })

    const build = (request: ModelRequest, stream: boolean) =>
      Effect.map(apiKey, (key) => {
        const body = JSON.stringify(requestBody(request, options, stream))
        const base = HttpClientRequest.post(url).pipe(
          HttpClientRequest.setHeaders({ ...options.headers, accept: stream ? "text/event-stream" : "application/json" }),
          HttpClientRequest.bodyText(body, "application/json")
        )
        return key === undefined ? base : HttpClientRequest.bearerToken(base, key)
      })

    const timedOut = () =>
      new Retryable({
        why: `no answer within ${seconds(options.timeout)}s`,
        retryAfter: undefined,
        final: (attempts) => new ModelTimeout({ url, seconds: seconds(options.timeout), attempts })
      })

    const networkFailure = (error: HttpClientError.HttpClientError) => {
      const detail = transportDetail(error)
      return new Retryable({ why: detail, retryAfter: undefined, final: (attempts) => new ModelNetworkError({ url, detail, attempts }) })
    }

    /** A non-2xx answer: credentials, a retryable status, or a final HTTP error. */
    const statusFailure = (response: HttpClientResponse.HttpClientResponse, attempts: number) =>
      Effect.flatMap(Effect.orElseSucceed(response.text, () => ""), (text) =>
        Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<never, Retryable | ModelError> => {
          const status = response.status
          const detail = errorDetail(text)
          if (status === 401 || status === 403) {
            return Effect.fail(new ModelAuthFailed({ envVar: options.apiKeyEnv, status, url, detail }))
          }
          if (retryableStatus(status)) {
            return Effect.fail(new Retryable({
              why: `HTTP ${status}${status === 429 ? " (rate limited)" : ""}`,
              retryAfter: retryAfter(response.headers, now),
              final: (n) => new ModelHttpError({ status, url, detail, attempts: n })
            }))
          }
          return Effect.fail(new ModelHttpError({ status, url, detail, attempts }))
        }))

    /** Send, check the status, and hand the 2xx response to `read`; everything under one timeout. */
    const attempt = <A>(
      request: HttpClientRequest.HttpClientRequest,
      attempts: number,
      read: (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<A, Retryable | ModelError>
    ): Effect.Effect<A, Retryable | ModelError> =>
      client.execute(request).pipe(
        Effect.catchAll((error) => Effect.fail(networkFailure(error))),
        Effect.flatMap((response) => (response.status >= 200 && response.status < 300 ? read(response) : statusFailure(response, attempts))),
        Effect.timeoutFail({ duration: options.timeout, onTimeout: timedOut })
      )

    /** Repeat `once` on retryable failures; the last one becomes its public error. */
    const withRetries = <A>(once: (attempts: number) => Effect.Effect<A, Retryable | ModelError>): Effect.Effect<A, ModelError> =>
      Effect.suspend(() => {
        let attempts = 0
        const total = options.maxRetries + 1
        return Effect.suspend(() => once(++attempts)).pipe(
          Effect.tapError((error) =>
            error instanceof Retryable && attempts < total
              ? Effect.logWarning(`model request failed (${error.why}); retrying (attempt ${attempts + 1} of ${total})`)
              : Effect.void
          ),
          Effect.retry({ schedule: retrySchedule<Retryable | ModelError>(policy), while: (error) => error instanceof Retryable }),
          Effect.catchAll((error) => Effect.fail(error instanceof Retryable ? error.final(attempts) : error))
        )
      })

    const readCompletion = (requestedModel: string) => (response: HttpClientResponse.HttpClientResponse) =>
      response.text.pipe(
        Effect.catchAll((error) => Effect.fail(networkFailure(error))),
        Effect.flatMap((text) =>
          Either.match(decodeCompletion(text, requestedModel), {
            onLeft: (detail) => Effect.fail(new ModelBadResponse({ url, detail })),
            onRight: Effect.succeed
          })
        )
      )

    const complete = Effect.fn("Model.complete")(function*(request: ModelRequest) {
      const http = yield* build(request, false)
      return yield* withRetries((attempts) => attempt(http, attempts, readCompletion(request.model ?? options.model)))
    })

    const deltasOf = (response: HttpClientResponse.HttpClientResponse, setModel: (model: string) => void): Stream.Stream<ModelDelta, ModelError> =>
      Stream.suspend(() => {
        let finished = false
        let sawDone = false
        let index = 0
        const idle = () => new ModelTimeout({ url, seconds: seconds(options.timeout), attempts: 1 })
        // Any bytes count as life (providers send keep-alive comments while a model thinks).
        const bytes = response.stream.pipe(
          Stream.mapError((error): ModelError => new ModelNetworkError({ url, detail: transportDetail(error), attempts: 1 })),
          Stream.timeoutFail(idle, options.timeout)
        )
        return sseData(bytes).pipe(
          Stream.mapEffect((payload): Effect.Effect<ReadonlyArray<ModelDelta> | "done", ModelError> => {
            index++
            const decoded = decodeChunk(payload)
            if (Either.isLeft(decoded)) return Effect.fail(new ModelBadResponse({ url, detail: `stream event ${index}: ${decoded.left}` }))
            const chunk = decoded.right
            switch (chunk._tag) {
              case "Done":
                sawDone = true
                return Effect.succeed("done")
              case "Error":
                return Effect.fail(new ModelHttpError({ status: chunk.code ?? 500, url, detail: `error in the stream: ${chunk.detail}`, attempts: 1 }))
              case "Deltas":
                if (chunk.model !== undefined) setModel(chunk.model)
                if (chunk.deltas.some((d) => d._tag === "FinishDelta")) finished = true
                return Effect.succeed(chunk.deltas)
            }
          }),
          Stream.takeWhile((item): item is ReadonlyArray<ModelDelta> => item !== "done"),
          Stream.flattenIterables,
          Stream.concat(Stream.suspend(() =>
            finished || sawDone
              ? Stream.empty
              : Stream.fail(new ModelBadResponse({ url, detail: "the stream ended before the model finished (no finish_reason and no [DONE])" }))
          ))
        )
      })

    const stream = (request: ModelRequest): Stream.Stream<ModelDelta, ModelError> => {
      const requestedModel = request.model ?? options.model
      const connect = Effect.flatMap(build(request, true), (http) => withRetries((attempts) => attempt(http, attempts, Effect.succeed)))
      return withDone(requestedModel, (assembler) =>
        Stream.unwrap(Effect.map(connect, (response) => deltasOf(response, assembler.setModel)))).pipe(Stream.withSpan("Model.stream"))
    }

    return { provider: options.provider, model: options.model, complete, stream }
  })

export const ModelOpenAi = (options: OpenAiOptions): Layer.Layer<Model, never, HttpClient.HttpClient> =>
  Layer.effect(Model, makeOpenAiModel(options))
