/** Image generation on FAL (`POST <base>/<model>`, `Authorization: Key …`); the image is fetched from the URL FAL returns. */
import * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Layer } from "effect"
import { Config } from "../../services/Config.js"
import { ImageGeneration } from "../../services/ImageGeneration.js"
import type { AspectRatio } from "../../services/ImageGeneration.js"
import { download, failure, keyFrom, postJson } from "./providerHttp.js"

/** Hermes' presets for FAL's `image_size`. */
const SIZES: Readonly<Record<AspectRatio, string>> = { landscape: "landscape_16_9", square: "square_hd", portrait: "portrait_16_9" }

export const ImageGenFal = Layer.effect(
  ImageGeneration,
  Effect.gen(function*() {
    const cfg = (yield* (yield* Config).current).image_gen
    const http = yield* HttpClient.HttpClient
    const base = (cfg.base_url ?? "https://fal.run").replace(/\/+$/, "")
    const keyName = cfg.api_key_env ?? "FAL_KEY"
    const model = cfg.model ?? "fal-ai/flux/schnell"
    return ImageGeneration.of({
      provider: "fal",
      model,
      available: Effect.sync(() => keyFrom(keyName) !== undefined),
      generate: Effect.fn("ImageGeneration.fal")(function*(request) {
        const key = keyFrom(keyName)
        if (key === undefined) return yield* failure("fal", "configuration", `no API key: set ${keyName}`)
        const answer = yield* postJson(http, "fal", `${base}/${model}`, `Key ${key}`, { prompt: request.prompt, image_size: SIZES[request.aspectRatio], num_images: 1 }, cfg.timeout_seconds)
        const url = (answer as { images?: ReadonlyArray<{ url?: unknown }> }).images?.[0]?.url
        if (typeof url !== "string") return yield* failure("fal", "provider_contract", "the answer has no images[0].url")
        return yield* download(http, "fal", url, base, cfg.timeout_seconds)
      })
    })
  })
)
