/** The image provider config.yaml names (`image_gen.provider`; default none: image_generate is not offered). */
import type { HttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Config } from "../../services/Config.js"
import { ImageGeneration, ImageGenerationError } from "../../services/ImageGeneration.js"
import { ImageGenFal } from "./ImageGenFal.js"
import { ImageGenOpenAi } from "./ImageGenOpenAi.js"

const ImageGenNone = Layer.succeed(ImageGeneration, ImageGeneration.of({
  provider: "none",
  model: "",
  available: Effect.succeed(false),
  generate: () => Effect.fail(new ImageGenerationError({ errorType: "configuration", provider: "none", message: "no image provider: set image_gen.provider (openai or fal) in config.yaml" }))
}))

export const ImageGenFromConfig: Layer.Layer<ImageGeneration, never, Config | HttpClient.HttpClient> = Layer.unwrapEffect(
  Effect.flatMap(Config, (config) =>
    Effect.map(config.current, (c): Layer.Layer<ImageGeneration, never, Config | HttpClient.HttpClient> =>
      c.image_gen.provider === "openai" ? ImageGenOpenAi : c.image_gen.provider === "fal" ? ImageGenFal : ImageGenNone))
)
