/**
 * The ElevenLabs speech provider (`POST <base_url>/v1/text-to-speech/<voice>`,
 * `xi-api-key` header): MP3 bytes written to the output file. Defaults as
 * Hermes: voice pNInz6obpgDQGcFmaJgB, model eleven_multilingual_v2, key
 * ELEVENLABS_API_KEY.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Layer } from "effect"
import { Config } from "../../services/Config.js"
import { Speech, SpeechError } from "../../services/Speech.js"
import { postForAudio } from "./saveAudio.js"

/** Characters per request by model (ElevenLabs' published limits, as Hermes uses them). */
const MODEL_CAPS: Readonly<Record<string, number>> = {
  eleven_v3: 5000,
  eleven_multilingual_v2: 10000,
  eleven_flash_v2: 30000,
  eleven_flash_v2_5: 40000
}

export const SpeechElevenLabs = Layer.effect(
  Speech,
  Effect.gen(function*() {
    const cfg = (yield* (yield* Config).current).tts
    const http = yield* HttpClient.HttpClient
    const fs = yield* FileSystem.FileSystem
    const keyName = cfg.elevenlabs.api_key_env ?? "ELEVENLABS_API_KEY"
    const keyOf = () => {
      const value = process.env[keyName]
      return value === undefined || value.length === 0 ? undefined : value
    }
    const failed = (kind: SpeechError["kind"], message: string) => new SpeechError({ kind, provider: "elevenlabs", message })
    return Speech.of({
      provider: "elevenlabs",
      format: "mp3",
      maxChars: cfg.max_text_length ?? MODEL_CAPS[cfg.elevenlabs.model] ?? 5000,
      available: Effect.sync(() => keyOf() !== undefined),
      synthesize: Effect.fn("Speech.elevenlabs")(function*(request) {
        const key = keyOf()
        if (key === undefined) return yield* failed("configuration", `no API key: set ${keyName}`)
        const url = `${cfg.elevenlabs.base_url.replace(/\/+$/, "")}/v1/text-to-speech/${encodeURIComponent(cfg.elevenlabs.voice)}?output_format=mp3_44100_128`
        const post = HttpClientRequest.post(url).pipe(
          HttpClientRequest.setHeader("xi-api-key", key),
          HttpClientRequest.setHeader("accept", "audio/mpeg"),
          HttpClientRequest.bodyUnsafeJson({ text: request.text, model_id: cfg.elevenlabs.model })
        )
        yield* postForAudio(http, fs, "elevenlabs", post, request.outputPath)
      })
    })
  })
)
