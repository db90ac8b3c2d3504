/**
 * ImageGeneration: a prompt → an image, through the provider config.yaml names
 * (`image_gen.provider`: openai — any OpenAI-compatible `/images/generations` —
 * or fal). One layer per provider (src/layers/imageGen/).
 */
import { Context, Data } from "effect"
import type { Effect } from "effect"

export type AspectRatio = "landscape" | "square" | "portrait"

export interface GeneratedImage {
  /** The image itself, when the provider sent it (or it was downloaded from the provider's URL). */
  readonly bytes: Uint8Array
  /** File extension for `bytes` (png, jpeg, webp). */
  readonly extension: string
  /** Where the provider serves it, when it gave a URL. */
  readonly url?: string | undefined
}

export class ImageGenerationError extends Data.TaggedError("ImageGenerationError")<{
  /** Hermes' error_type values: provider_exception (the call failed), provider_contract (the answer made no sense). */
  readonly errorType: "provider_exception" | "provider_contract" | "configuration"
  readonly provider: string
  readonly message: string
}> {}

export interface ImageGenerationService {
  readonly provider: string
  readonly model: string
  readonly available: Effect.Effect<boolean>
  readonly generate: (request: { readonly prompt: string; readonly aspectRatio: AspectRatio }) => Effect.Effect<GeneratedImage, ImageGenerationError>
}

export class ImageGeneration extends Context.Tag("hermes-effect/ImageGeneration")<ImageGeneration, ImageGenerationService>() {}
