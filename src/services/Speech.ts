/**
 * Speech: text → an audio file, through the provider config.yaml names
 * (`tts.provider`): `local` (espeak-ng on this machine, no key, works offline)
 * or `openai` (any OpenAI-compatible `/audio/speech` endpoint). One layer per
 * provider (src/layers/speech/).
 */
import { Context, Data } from "effect"
import type { Effect } from "effect"

export interface SpeechRequest {
  readonly text: string
  /** Absolute path on this machine; its extension is the provider's format. */
  readonly outputPath: string
}

export class SpeechError extends Data.TaggedError("SpeechError")<{
  /** Hermes' error families: the configuration is wrong, a program or package is missing, or generation failed. */
  readonly kind: "configuration" | "dependency" | "generation"
  readonly provider: string
  readonly message: string
}> {}

export interface SpeechService {
  readonly provider: string
  /** The file extension this provider writes (wav, mp3 …). */
  readonly format: string
  /** Longest text sent; longer text is cut to it. */
  readonly maxChars: number
  /** Whether the provider can work here (program installed, key set); false with `unavailableReason`. */
  readonly available: Effect.Effect<boolean>
  readonly synthesize: (request: SpeechRequest) => Effect.Effect<void, SpeechError>
}

export class Speech extends Context.Tag("hermes-effect/Speech")<Speech, SpeechService>() {}
