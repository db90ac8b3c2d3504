/**
 * The OpenAI-compatible provider against a real server on loopback
 * (test/support/openaiServer.ts). Retry waits and timeouts run on TestClock:
 * a test moves time only once the provider is observably waiting.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Duration, Effect, Either, Fiber, Stream, TestClock } from "effect"
import { makeOpenAiModel } from "../../src/layers/model/openai.js"
import type { OpenAiOptions } from "../../src/layers/model/settings.js"
import type { ModelDelta, ModelRequest } from "../../src/services/Model.js"
import { Model } from "../../src/services/Model.js"
import { modes, openAiServer } from "../support/openaiServer.js"
import { testRuntime } from "../support/runtime.js"
import type { OpenAiTestServer, ServerOptions } from "../support/openaiServer.js"

const KEY_ENV = "HERMES_TEST_MODEL_KEY"
const KEY = "sk-test-0123456789"

const options = (server: OpenAiTestServer, overrides: Partial<OpenAiOptions> = {}): OpenAiOptions => ({
  provider: "custom",
  baseUrl: server.baseUrl,
  model: "test-model",
  apiKeyEnv: KEY_ENV,
  env: (name) => (name === KEY_ENV ? KEY : undefined),
  timeout: Duration.seconds(30),
  maxRetries: 3,
  retryBase: Duration.seconds(1),
  retryMax: Duration.seconds(60),
  ...overrides
})

/** A server for this test and a provider pointed at it. */
const setup = (overrides: Partial<OpenAiOptions> = {}, serverOptions: ServerOptions = {}) =>
  Effect.gen(function*() {
    const server = yield* openAiServer(serverOptions)
    const model = yield* makeOpenAiModel(options(server, overrides)).pipe(Effect.provide(FetchHttpClient.layer))
    return { server, model }
  })

const ask = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: "system", content: "You are terse." }, { role: "user", content: text }],
  ...extra
})

const readTool = {
  type: "function" as const,
  function: { name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }
}

/** Real time passing, for polling the server or TestClock while the provider works. */
const tick = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 2)))
const waitFor = (promise: () => Promise<void>) => Effect.promise(promise)

/**
 * Wait until something sleeps on the TestClock with a wake-up time, in ms from now, that satisfies `wanted`;
 * returns that offset. (TestClock keeps interrupted sleeps in its list, so tests look in narrow windows.)
 */
const sleepingUntil = (wanted: (inMs: number) => boolean) =>
  Effect.gen(function*() {
    const now = yield* TestClock.currentTimeMillis
    for (;;) {
      const hit = Chunk.toReadonlyArray(yield* TestClock.sleeps()).map((t) => t - now).find(wanted)
      if (hit !== undefined) return hit
      yield* tick
    }
  })

describe("OpenAI-compatible provider", () => {
  it.scoped("complete: sends model, messages, tools and the key from the named variable; decodes text", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue({ kind: "completion", content: "Hello there.", usage: { prompt_tokens: 12, completion_tokens: 3 } })
      const response = yield* model.complete(ask("hi", { tools: [readTool], temperature: 0.2 }))
      expect(response.message).toEqual({ role: "assistant", content: "Hello there." })
      expect(response.finishReason).toBe("stop")
      expect(response.usage).toEqual({ promptTokens: 12, completionTokens: 3, totalTokens: 15 })
      expect(response.model).toBe("test-model")
      const sent = server.requests[0]!
      expect(sent.path).toBe("/v1/chat/completions")
      expect(sent.headers["authorization"]).toBe(`Bearer ${KEY}`)
      expect(sent.body).toEqual({
        model: "test-model",
        messages: [{ role: "system", content: "You are terse." }, { role: "user", content: "hi" }],
        tools: [readTool],
        temperature: 0.2
      })
    }))

  it.scoped("complete: tool calls come back as OpenAI tool_calls with ids and raw argument strings", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue({
        kind: "completion",
        toolCalls: [
          { id: "call_a", name: "read_file", arguments: "{\"path\": \"a.txt\"}" },
          { id: "call_b", name: "read_file", arguments: "{\"path\": \"b.txt\"}" }
        ]
      })
      const response = yield* model.complete(ask("read both", { tools: [readTool] }))
      expect(response.finishReason).toBe("tool_calls")
      expect(response.message).toEqual({
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "read_file", arguments: "{\"path\": \"a.txt\"}" } },
          { id: "call_b", type: "function", function: { name: "read_file", arguments: "{\"path\": \"b.txt\"}" } }
        ]
      })
    }))

  it.scoped("the conversation is sent in wire format: reasoning and tool names stay home", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup({ apiKeyEnv: undefined })
      yield* model.complete({
        messages: [
          { role: "user", content: "go" },
          { role: "assistant", content: null, reasoning: "thinking", tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: "{}" } }] },
          { role: "tool", tool_call_id: "c1", name: "read_file", content: "data" },
          { role: "assistant", content: "done", tool_calls: [] }
        ]
      })
      const sent = server.requests[0]!
      expect(sent.headers["authorization"]).toBeUndefined()
      expect(sent.body["messages"]).toEqual([
        { role: "user", content: "go" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "data" },
        { role: "assistant", content: "done" }
      ])
    }))

  it.scoped("stream: text arrives in pieces, tool-call fragments assemble by index, Done carries the whole", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue({
        kind: "completion",
        content: "Reading two files now.",
        toolCalls: [
          { id: "call_1", name: "read_file", arguments: "{\"path\": \"first.txt\"}" },
          { id: "call_2", name: "read_file", arguments: "{\"path\": \"second.txt\"}" }
        ],
        usage: { prompt_tokens: 20, completion_tokens: 9 },
        fragment: 3
      })
      const deltas = Chunk.toReadonlyArray(yield* Stream.runCollect(model.stream(ask("read", { tools: [readTool] }))))
      const texts = deltas.flatMap((d) => (d._tag === "TextDelta" ? [d.text] : []))
      expect(texts.length).toBeGreaterThan(3)
      expect(texts.join("")).toBe("Reading two files now.")
      const fragments = deltas.filter((d): d is Extract<ModelDelta, { _tag: "ToolCallDelta" }> => d._tag === "ToolCallDelta")
      expect(fragments.filter((f) => f.index === 1).map((f) => f.arguments).join("")).toBe("{\"path\": \"second.txt\"}")
      expect(fragments.filter((f) => f.name !== undefined).map((f) => [f.index, f.id, f.name])).toEqual([[0, "call_1", "read_file"], [1, "call_2", "read_file"]])
      expect(deltas.filter((d) => d._tag === "FinishDelta")).toEqual([expect.objectContaining({ reason: "tool_calls" })])
      expect(deltas.filter((d) => d._tag === "UsageDelta")).toEqual([expect.objectContaining({ usage: { promptTokens: 20, completionTokens: 9, totalTokens: 29 } })])
      const done = deltas[deltas.length - 1]!
      expect(done._tag).toBe("Done")
      if (done._tag !== "Done") return
      expect(done.response.message).toEqual({
        role: "assistant",
        content: "Reading two files now.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: "{\"path\": \"first.txt\"}" } },
          { id: "call_2", type: "function", function: { name: "read_file", arguments: "{\"path\": \"second.txt\"}" } }
        ]
      })
      expect(done.response.usage?.totalTokens).toBe(29)
      expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
      expect(server.requests[0]!.headers["accept"]).toBe("text/event-stream")
    }))

  it.scoped("429 then success: waits exactly the Retry-After, then answers", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue(...modes.rateLimitedOnce({ kind: "completion", content: "second time lucky" }))
      const fiber = yield* Effect.fork(model.complete(ask("hi")))
      yield* waitFor(() => server.waitForRequests(1))
      yield* sleepingUntil((t) => t === 2_000)
      yield* TestClock.adjust(1_999)
      for (let i = 0; i < 5; i++) yield* tick
      expect(server.requests).toHaveLength(1)
      yield* TestClock.adjust(1)
      const response = yield* Fiber.join(fiber)
      expect(response.message.content).toBe("second time lucky")
      expect(server.requests).toHaveLength(2)
    }))

  it.scoped("5xx is retried with exponential backoff and reported with the attempts once retries run out", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup({ maxRetries: 2 })
      const unavailable = { kind: "status" as const, status: 503, body: { error: { message: "The server is overloaded" } } }
      server.enqueue(unavailable, unavailable, unavailable)
      const fiber = yield* Effect.fork(Effect.either(model.complete(ask("hi"))))
      // First wait ≈ 1 s (jittered ±20 %), second ≈ 2 s.
      yield* waitFor(() => server.waitForRequests(1))
      const first = yield* sleepingUntil((t) => t >= 800 && t <= 1_200)
      yield* TestClock.adjust(first)
      yield* waitFor(() => server.waitForRequests(2))
      const second = yield* sleepingUntil((t) => t >= 1_600 && t <= 2_400)
      yield* TestClock.adjust(second)
      const result = yield* Fiber.join(fiber)
      expect(server.requests).toHaveLength(3)
      expect(Either.isLeft(result) && result.left).toMatchObject({ _tag: "ModelHttpError", status: 503, attempts: 3 })
      if (Either.isLeft(result)) {
        expect(result.left.message).toBe("Model provider returned HTTP 503 after 3 attempts: The server is overloaded")
      }
    }))

  it.scoped("401 fails at once with a message naming the key's environment variable", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup({}, { apiKey: "sk-the-right-one" })
      const error = yield* Effect.flip(model.complete(ask("hi")))
      expect(error._tag).toBe("ModelAuthFailed")
      expect(error.message).toBe(
        `Model provider rejected the credentials (HTTP 401 from ${server.baseUrl}/chat/completions); check the API key in the environment variable ${KEY_ENV}: Incorrect API key provided.`
      )
      expect(server.requests).toHaveLength(1)
    }))

  it.scoped("a missing key fails before any request, naming the variable", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup({ env: () => undefined })
      const error = yield* Effect.flip(model.complete(ask("hi")))
      expect(error).toMatchObject({ _tag: "ModelAuthFailed", envVar: KEY_ENV })
      expect(error.message).toContain(`the environment variable ${KEY_ENV} (model.api_key_env) is not set or empty`)
      const streamed = yield* Effect.flip(Stream.runDrain(model.stream(ask("hi"))))
      expect(streamed._tag).toBe("ModelAuthFailed")
      expect(server.requests).toHaveLength(0)
    }))

  it.scoped("a malformed body is not retried and says what was wrong", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue(...modes.malformed())
      const error = yield* Effect.flip(model.complete(ask("hi")))
      expect(error._tag).toBe("ModelBadResponse")
      expect(error.message).toMatch(/^Malformed response from the model provider \(.*\): choices: Expected non-empty array of choices, actual "none"$/)
      server.enqueue({ kind: "raw", body: "<html>502 Bad Gateway</html>" })
      const notJson = yield* Effect.flip(model.complete(ask("hi")))
      expect(notJson.message).toContain("the body is not JSON")
      expect(notJson.message).toContain("<html>502 Bad Gateway</html>")
      server.enqueue({ kind: "raw", body: JSON.stringify({ choices: [{ message: { content: "x", tool_calls: [{ id: "c", function: { arguments: "{}" } }] } }] }) })
      const noName = yield* Effect.flip(model.complete(ask("hi")))
      expect(noName.message).toMatch(/choices\.0\.message\.tool_calls\.0\.function\.name: is missing/)
      expect(server.requests).toHaveLength(3)
    }))

  it.scoped("other 4xx errors are final and carry the provider's message", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue({ kind: "status", status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens." } } })
      const error = yield* Effect.flip(model.complete(ask("hi")))
      expect(error).toMatchObject({ _tag: "ModelHttpError", status: 400, attempts: 1 })
      expect(error.message).toBe("Model provider returned HTTP 400: This model's maximum context length is 8192 tokens.")
      expect(server.requests).toHaveLength(1)
    }))

  it.scoped("a request that gets no answer times out, is aborted, and is retried", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup({ maxRetries: 1, timeout: Duration.seconds(30) })
      server.enqueue({ kind: "hang" }, { kind: "completion", content: "awake now" })
      const fiber = yield* Effect.fork(model.complete(ask("hi")))
      yield* waitFor(() => server.waitForRequests(1))
      yield* TestClock.adjust("30 seconds")
      yield* waitFor(() => server.waitForAbort(0))
      const retryIn = yield* sleepingUntil((t) => t >= 800 && t <= 1_200)
      yield* TestClock.adjust(retryIn)
      const response = yield* Fiber.join(fiber)
      expect(response.message.content).toBe("awake now")
      expect(server.requests).toHaveLength(2)
    }))

  it.scoped("timeouts and dropped connections become ModelTimeout / ModelNetworkError once retries run out", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup({ maxRetries: 0, timeout: Duration.seconds(5) })
      server.enqueue({ kind: "hang" }, { kind: "drop" })
      const fiber = yield* Effect.fork(Effect.flip(model.complete(ask("hi"))))
      yield* waitFor(() => server.waitForRequests(1))
      yield* TestClock.adjust("5 seconds")
      const timeout = yield* Fiber.join(fiber)
      expect(timeout).toMatchObject({ _tag: "ModelTimeout", seconds: 5, attempts: 1 })
      expect(timeout.message).toBe(`The model provider at ${server.baseUrl}/chat/completions did not answer within 5s`)
      const dropped = yield* Effect.flip(model.complete(ask("hi")))
      expect(dropped._tag).toBe("ModelNetworkError")
      expect(dropped.message).toMatch(/^Could not reach the model provider at .*: /)
    }))

  it.scoped("connection refused is a network error", () =>
    Effect.gen(function*() {
      const { server } = yield* setup()
      yield* Effect.promise(() => server.close())
      const model = yield* makeOpenAiModel(options(server, { maxRetries: 0 })).pipe(Effect.provide(FetchHttpClient.layer))
      const error = yield* Effect.flip(model.complete(ask("hi")))
      expect(error._tag).toBe("ModelNetworkError")
      expect(error.message).toContain("ECONNREFUSED")
    }))

  it.scoped("stream: a 429 before the first delta is retried", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue(...modes.rateLimitedOnce({ kind: "completion", content: "streamed after waiting" }))
      const fiber = yield* Effect.fork(Stream.runCollect(model.stream(ask("hi"))))
      yield* waitFor(() => server.waitForRequests(1))
      yield* sleepingUntil((t) => t === 2_000)
      yield* TestClock.adjust("2 seconds")
      const deltas = Chunk.toReadonlyArray(yield* Fiber.join(fiber))
      expect(deltas.flatMap((d) => (d._tag === "TextDelta" ? [d.text] : [])).join("")).toBe("streamed after waiting")
    }))

  it.scoped("stream: a stream cut before the end, an error event, or a bad chunk fail the stream", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue({ kind: "completion", content: "partial answer", cut: true })
      const cut = yield* Effect.flip(Stream.runDrain(model.stream(ask("hi"))))
      expect(cut.message).toContain("the stream ended before the model finished")
      server.enqueue({ kind: "events", events: [JSON.stringify({ error: { message: "upstream overloaded", code: 502 } })] })
      const inStream = yield* Effect.flip(Stream.runDrain(model.stream(ask("hi"))))
      expect(inStream).toMatchObject({ _tag: "ModelHttpError", status: 502 })
      expect(inStream.message).toContain("error in the stream: upstream overloaded")
      server.enqueue({ kind: "events", events: [JSON.stringify({ choices: [{ delta: { content: "ok" } }] }), "{not json"] })
      const bad = yield* Effect.flip(Stream.runDrain(model.stream(ask("hi"))))
      expect(bad._tag).toBe("ModelBadResponse")
      expect(bad.message).toContain("stream event 2: the body is not JSON")
      expect(server.requests).toHaveLength(3)
    }))

  it.scoped("stream: a stream that stalls times out; a consumer that stops early aborts the request", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup({ timeout: Duration.seconds(10) })
      server.enqueue({ kind: "completion", content: "a long answer that stalls", stallAfter: 3 })
      const fiber = yield* Effect.fork(Effect.flip(Stream.runDrain(model.stream(ask("hi")))))
      yield* waitFor(() => server.waitForRequests(1))
      // Every pull arms a new idle timer: move time until the one that is waiting fires.
      while (fiber.unsafePoll() === null) {
        yield* TestClock.adjust("10 seconds")
        yield* tick
      }
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("ModelTimeout")
      yield* waitFor(() => server.waitForAbort(0))

      server.enqueue({ kind: "completion", content: "abcdefghijklmnop", stallAfter: 4 })
      const first = yield* Stream.runCollect(Stream.take(model.stream(ask("hi")), 2))
      expect(Chunk.toReadonlyArray(first).map((d) => d._tag)).toEqual(["TextDelta", "TextDelta"])
      yield* waitFor(() => server.waitForAbort(1))
      expect(server.requests[1]!.aborted).toBe(true)
    }))

  it.scoped("interrupting a call aborts the HTTP request", () =>
    Effect.gen(function*() {
      const { server, model } = yield* setup()
      server.enqueue({ kind: "hang" })
      const fiber = yield* Effect.fork(model.complete(ask("hi")))
      yield* waitFor(() => server.waitForRequests(1))
      yield* Fiber.interrupt(fiber)
      yield* waitFor(() => server.waitForAbort(0))
      expect(server.requests[0]!.aborted).toBe(true)
    }))

  it.scoped("from config.yaml: provider, base_url, name and the key from the variable named by api_key_env", () =>
    Effect.gen(function*() {
      const server = yield* openAiServer({ apiKey: "sk-from-the-environment" })
      process.env["HERMES_TEST_CONFIG_KEY"] = "sk-from-the-environment"
      server.enqueue({ kind: "completion", content: "configured" })
      const config = { model: { provider: "custom", base_url: server.baseUrl, name: "local-model", api_key_env: "HERMES_TEST_CONFIG_KEY", max_retries: 0 } }
      const response = yield* Effect.flatMap(Model, (model) => model.complete(ask("hi"))).pipe(Effect.provide(testRuntime(config)))
      expect(response.message.content).toBe("configured")
      expect(server.requests[0]!.body["model"]).toBe("local-model")
      delete process.env["HERMES_TEST_CONFIG_KEY"]
      const missing = yield* Effect.flip(Effect.flatMap(Model, (model) => model.complete(ask("hi"))).pipe(Effect.provide(testRuntime(config))))
      expect(missing.message).toContain("HERMES_TEST_CONFIG_KEY")
    }))
})
