/**
 * The multimodal result envelope: a tool returns text and image parts; the
 * executor keeps the parts (never capped or persisted) with a text summary,
 * and the agent loop sends the parts in the OpenAI-compatible array form.
 */
import { describe, expect, it, layer as withLayer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { multimodalOf } from "../../src/layers/executor/multimodal.js"
import { requestBody } from "../../src/layers/model/wire.js"
import { defineTool } from "../../src/lib/tool/defineTool.js"
import { registerTool } from "../../src/lib/tool/registerTool.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { testRuntime } from "../support/runtime.js"
import { runAgent, scriptedAgent } from "./helpers.js"

const PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

/** A vision-style tool: an image (padded past the result cap) plus a line of text. */
const lookTool = defineTool({
  name: "look",
  toolset: "testing",
  description: "Put an image into the conversation.",
  parameters: Schema.Struct({ summary: Schema.optional(Schema.Boolean) }),
  handler: (args) => Effect.succeed({
    _multimodal: true,
    content: [{ type: "text", text: "The image is now in context." }, { type: "image_url", image_url: { url: PIXEL + "A".repeat(150_000) } }],
    ...(args.summary === true ? { text_summary: "Image loaded: 1x1 PNG." } : {}),
    meta: { size_bytes: 70 }
  })
})
const withLook = Layer.effectDiscard(Effect.orDie(registerTool(lookTool)))

describe("multimodalOf", () => {
  it("recognises the envelope and nothing else", () => {
    expect(multimodalOf("text")).toBeUndefined()
    expect(multimodalOf({ content: [{ type: "text", text: "x" }] })).toBeUndefined()
    expect(multimodalOf({ _multimodal: true, content: [{ type: "audio" }] })).toBeUndefined()
    expect(multimodalOf({ _multimodal: true, content: [{ type: "image_url", image_url: "u" }] })).toEqual({
      parts: [{ type: "image_url", image_url: { url: "u" } }],
      summary: "[1 image]"
    })
  })
})

describe("the executor", () => {
  it.effect("keeps the parts whole and answers the summary as the result", () =>
    Effect.gen(function*() {
      yield* registerTool(lookTool)
      const executor = yield* ToolExecutor
      const plain = yield* executor.execute({ tool: "look", args: {} })
      expect(plain.result).toBe("The image is now in context.\n[1 image]")
      expect(plain.parts?.map((p) => p.type)).toEqual(["text", "image_url"])
      const withSummary = yield* executor.execute({ tool: "look", args: { summary: true } })
      expect(withSummary.result).toBe("Image loaded: 1x1 PNG.")
      const [a, b] = yield* executor.executeBatch([{ tool: "look", args: {} }, { tool: "look", args: {} }])
      const image = a!.parts?.[1]
      expect(image?.type === "image_url" && image.image_url.url.length > 150_000).toBe(true)
      expect(b!.parts).toBeDefined()
    }).pipe(Effect.provide(testRuntime())))
})

describe("the agent loop", () => {
  const agent = scriptedAgent([
    { tool_calls: [{ name: "look", arguments: { summary: true } }, { name: "echo", arguments: { text: "plain" } }] },
    { expect: { last_contains: "plain" }, content: "I see a pixel." }
  ], {}, {}, [withLook])

  withLayer(agent.layer, { excludeTestServices: true, timeout: "30 seconds" })((it) => {
    it.effect("sends the parts as the tool message's content; plain results stay strings; the store keeps the summary", () =>
      Effect.gen(function*() {
        const { result } = yield* runAgent({ prompt: "look", toolsets: { enabled: ["testing"] } })
        expect(result).toMatchObject({ status: "completed", response: "I see a pixel." })
        const body = requestBody(agent.requests[1]!, { model: "m" }, false) as { messages: Array<{ role: string; content: unknown }> }
        const tools = body.messages.filter((m) => m.role === "tool")
        expect(Array.isArray(tools[0]!.content)).toBe(true)
        expect((tools[0]!.content as Array<{ type: string }>).map((p) => p.type)).toEqual(["text", "image_url"])
        expect(typeof tools[1]!.content).toBe("string")
        const stored = yield* Effect.flatMap(SessionStore, (s) => s.history(result.sessionId))
        expect(stored.filter((m) => m.role === "tool").map((m) => m.content)[0]).toBe("Image loaded: 1x1 PNG.")
      }))
  })
})
