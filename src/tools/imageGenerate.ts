/**
 * `image_generate` (toolset `image_gen`): a prompt → an image through the
 * configured provider (image_gen.provider: openai or fal), saved under the
 * home's `cache/images/`. Result keys as Hermes: `{success, image, modality}`
 * (plus `file_path`, and `url` when the provider served one); failures
 * `{success: false, image: null, error, error_type}`.
 */
import { join } from "node:path"
import * as FileSystem from "@effect/platform/FileSystem"
import { Effect, Schema } from "effect"
import { compactStamp } from "../lib/fileStamp.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { Config } from "../services/Config.js"
import { ImageGeneration } from "../services/ImageGeneration.js"
import type { AspectRatio } from "../services/ImageGeneration.js"
import { observedFn } from "../lib/effect/observedFn.js"

export const ImageGenerateParameters = Schema.Struct({
  prompt: Schema.String.annotations({ description: "What the image should show, in detail (subject, style, composition, lighting)" }),
  aspect_ratio: Schema.optional(Schema.String.annotations({
    description: "landscape (default, wide), square, or portrait (tall)",
    jsonSchema: { type: "string", enum: ["landscape", "square", "portrait"] }
  })),
  image_url: Schema.optional(Schema.String.annotations({ description: "A source image to edit (URL or absolute path); only providers that edit accept it" })),
  reference_image_urls: Schema.optional(Schema.Array(Schema.String).annotations({ description: "Reference images; only providers that take them accept them" }))
})

const ASPECTS: ReadonlyArray<AspectRatio> = ["landscape", "square", "portrait"]

const failed = (error: string, errorType: string) => ({ success: false, image: null, error, error_type: errorType })

export const imageGenerateTool = defineTool({
  name: "image_generate",
  toolset: "image_gen",
  emoji: "🎨",
  description:
    "Generate an image from a text prompt. Returns the saved image's path (and the provider's URL when there is one). " +
    "Describe the picture fully: subject, style, composition, colours.",
  parameters: ImageGenerateParameters,
  check: Effect.flatMap(ImageGeneration, (images) => images.available),
  handler: observedFn("image_generate")(function*(args) {
    const images = yield* ImageGeneration
    const config = yield* Config
    const fs = yield* FileSystem.FileSystem
    if (args.prompt.trim().length === 0) return failed("prompt is required", "invalid_argument")
    if ((args.image_url ?? "").trim().length > 0 || (args.reference_image_urls ?? []).length > 0) {
      return failed(`${images.provider} (${images.model}) is not capable of image-to-image / editing here; generate from the prompt alone`, "modality_unsupported")
    }
    // An unknown ratio becomes landscape, as in Hermes.
    const aspect = ASPECTS.find((a) => a === args.aspect_ratio?.trim().toLowerCase()) ?? "landscape"
    const made = yield* Effect.either(images.generate({ prompt: args.prompt, aspectRatio: aspect }))
    if (made._tag === "Left") return failed(`Image generation failed (${made.left.provider}): ${made.left.message}`, made.left.errorType)
    const dir = join(config.home.root, "cache", "images")
    const path = join(dir, `${images.provider}_${compactStamp(new Date())}_${Math.random().toString(36).slice(2, 8)}.${made.right.extension}`)
    const saved = yield* Effect.either(Effect.zipRight(fs.makeDirectory(dir, { recursive: true }), fs.writeFile(path, made.right.bytes)))
    if (saved._tag === "Left") return failed(`could not save the image: ${saved.left.message}`, "provider_exception")
    return { success: true, image: path, modality: "image", file_path: path, ...(made.right.url === undefined ? {} : { url: made.right.url }) }
  })
})
