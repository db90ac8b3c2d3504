/** Pure pieces of the model layers: config resolution, SSE framing, Retry-After, delta assembly. */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Duration, Effect, Stream } from "effect"
import { makeAssembler } from "../../src/layers/model/assemble.js"
import { retryAfter } from "../../src/layers/model/retry.js"
import { modelSettings as settingsOf } from "../../src/layers/model/settings.js"
import type { HermesConfigInput } from "../../src/services/Config.js"
import { resolveConfig } from "../support/config.js"
import { sseData } from "../../src/layers/model/sse.js"
import { ModelDelta } from "../../src/services/Model.js"

/** Settings from config as a file would hold it. */
const modelSettings = (input: HermesConfigInput) => settingsOf(resolveConfig(input))

describe("model settings from config", () => {
  it("nothing configured says what to set", () => {
    expect(modelSettings({})).toMatchObject({ kind: "none", reason: expect.stringMatching(/^config\.yaml has no model section; set model\.provider/) })
    expect(modelSettings({ model: {} })).toMatchObject({ kind: "none", reason: expect.stringMatching(/^the model section names no provider or model/) })
    expect(modelSettings({ model: { provider: "none", name: "x" } })).toEqual({ kind: "none", reason: "model.provider is 'none'" })
    expect(modelSettings({ model: { provider: "scripted" } })).toMatchObject({ kind: "none", reason: expect.stringContaining("model.script") })
    expect(modelSettings({ model: { provider: "openai" } })).toMatchObject({ kind: "none", reason: "model.name is not set (the model to request from provider 'openai')" })
    expect(modelSettings({ model: { provider: "together", name: "m" } })).toMatchObject({
      kind: "none",
      reason: "model.base_url is not set and provider 'together' has no default URL"
    })
  })

  it("known providers fill in URL and key variable; a bare model name means OpenAI; Hermes' `default` is read", () => {
    const bare = modelSettings({ model: "gpt-4o-mini" })
    expect(bare).toMatchObject({ kind: "openai", options: { provider: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini", apiKeyEnv: "OPENAI_API_KEY" } })
    expect(modelSettings({ model: { provider: "OpenRouter", default: "anthropic/claude-sonnet-4" } })).toMatchObject({
      kind: "openai",
      options: { provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", apiKeyEnv: "OPENROUTER_API_KEY", model: "anthropic/claude-sonnet-4" }
    })
  })

  it("a base URL alone means a custom endpoint without a key unless api_key_env names one; limits have defaults", () => {
    const custom = modelSettings({ model: { base_url: "http://127.0.0.1:8080/v1", name: "qwen" } })
    expect(custom.kind).toBe("openai")
    if (custom.kind !== "openai") return
    expect(custom.options).toMatchObject({ provider: "custom", apiKeyEnv: undefined, maxRetries: 3 })
    expect(Duration.toSeconds(custom.options.timeout)).toBe(300)
    expect(Duration.toSeconds(custom.options.retryBase)).toBe(1)
    expect(Duration.toSeconds(custom.options.retryMax)).toBe(60)
    const tuned = modelSettings({
      model: { provider: "openai", name: "m", api_key_env: "MY_KEY", timeout_seconds: 20, max_retries: 0, retry_base_seconds: 0.5, headers: { "X-Title": "hermes" } }
    })
    expect(tuned).toMatchObject({ kind: "openai", options: { apiKeyEnv: "MY_KEY", maxRetries: 0, headers: { "X-Title": "hermes" } } })
    if (tuned.kind === "openai") expect(Duration.toMillis(tuned.options.timeout)).toBe(20_000)
  })

  it("scripted takes the script path and an optional model name", () => {
    expect(modelSettings({ model: { provider: "scripted", script: "demo.jsonl" } })).toEqual({ kind: "scripted", script: "demo.jsonl", model: "scripted" })
  })
})

describe("SSE framing", () => {
  const run = (...parts: Array<string>) =>
    Effect.runSync(Stream.runCollect(sseData(Stream.fromIterable(parts.map((p) => new TextEncoder().encode(p)))))).pipe(Chunk.toReadonlyArray)

  it("splits events on blank lines even when chunks cut lines and characters apart", () => {
    const text = "data: {\"a\":1}\n\n: comment\nevent: x\ndata: é\r\n\r\ndata: [DONE]\n\n"
    const bytes = new TextEncoder().encode(text)
    const cut = [bytes.slice(0, 7), bytes.slice(7, 30), bytes.slice(30, 34), bytes.slice(34)]
    const out = Effect.runSync(Stream.runCollect(sseData(Stream.fromIterable(cut))))
    expect(Chunk.toReadonlyArray(out)).toEqual(["{\"a\":1}", "é", "[DONE]"])
  })

  it("joins multi-line data and flushes an unterminated last event", () => {
    expect(run("data: one\ndata: two\n\n", "data:three")).toEqual(["one\ntwo", "three"])
  })
})

describe("Retry-After", () => {
  it("reads seconds, milliseconds and HTTP dates; ignores garbage", () => {
    expect(Duration.toMillis(retryAfter({ "retry-after": "7" }, 0)!)).toBe(7_000)
    expect(Duration.toMillis(retryAfter({ "retry-after-ms": "250", "retry-after": "7" }, 0)!)).toBe(250)
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(Duration.toMillis(retryAfter({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }, now)!)).toBe(30_000)
    expect(retryAfter({ "retry-after": "soon" }, 0)).toBeUndefined()
    expect(retryAfter({}, 0)).toBeUndefined()
  })
})

describe("delta assembly", () => {
  it("joins fragments by index, keeps the first id and name, and infers the finish reason", () => {
    const a = makeAssembler("m")
    a.add(ModelDelta.ToolCallDelta({ index: 1, id: "b", name: "second", arguments: "{\"x\"" }))
    a.add(ModelDelta.ToolCallDelta({ index: 0, id: "a", name: "first", arguments: "{}" }))
    a.add(ModelDelta.ToolCallDelta({ index: 1, id: "b", name: "second", arguments: ": 1}" }))
    const r = a.response()
    expect(r.message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "a", type: "function", function: { name: "first", arguments: "{}" } },
        { id: "b", type: "function", function: { name: "second", arguments: "{\"x\": 1}" } }
      ]
    })
    expect(r.finishReason).toBe("tool_calls")
    const empty = makeAssembler("m").response()
    expect(empty.message).toEqual({ role: "assistant", content: "" })
    expect(empty.finishReason).toBe("stop")
  })

  it("a call without an id gets a stable one", () => {
    const a = makeAssembler("m")
    a.add(ModelDelta.ToolCallDelta({ index: 2, name: "todo", arguments: "{}" }))
    expect(a.response().message.tool_calls?.[0]?.id).toBe("call_2")
  })
})
