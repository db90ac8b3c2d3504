/** Image generation through an OpenAI-compatible `/images/generations` (gpt-image-1 by default). */
import * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Layer } from "effect"
import { Config } from "../../services/Config.js"
import { ImageGeneration } from "../../services/ImageGeneration.js"
import type { AspectRatio } from "../../services/ImageGeneration.js"
import { download, failure, keyFrom, postJson } from "./providerHttp.js"

const SIZES: Readonly<Record<AspectRatio, string>> = { landscape: "1536x1024", square: "1024x1024", portrait: "1024x1536" }

export const ImageGenOpenAi = Layer.effect(
  ImageGeneration,
  Effect.gen(function*() {
    const cfg = (yield* (yield* Config).current).image_gen
    const http = yield* HttpClient.HttpClient
    const base = (cfg.base_url ?? "https://api.openai.com/v1").replace(/\/+$/, "")
    const keyName = cfg.api_key_env ?? "OPENAI_API_KEY"
    const model = cfg.model ?? "gpt-image-1"
    return ImageGeneration.of({
      provider: "openai",
      model,
      available: Effect.sync(() => keyFrom(keyName) !== undefined),
      generate: Effect.fn("ImageGeneration.openai")(function*(request) {
        const key = keyFrom(keyName)
        if (key === undefined) return yield* failure("openai", "configuration", `no API key: set ${keyName}`)
        const answer = yield* postJson(http, "openai", `${base}/images/generations`, `Bearer ${key}`, { model, prompt: request.prompt, size: SIZES[request.aspectRatio], n: 1 }, cfg.timeout_seconds)
        const first = (answer as { data?: ReadonlyArray<{ b64_json?: unknown; url?: unknown }> }).data?.[0]
        if (typeof first?.b64_json === "string") return { bytes: new Uint8Array(Buffer.from(first.b64_json, "base64")), extension: "png" }
        if (typeof first?.url === "string") return yield* download(http, "openai", first.url, base, cfg.timeout_seconds)
        return yield* failure("openai", "provider_contract", "the answer has no image (data[0].b64_json or data[0].url)")
      })
    })
  })
)
