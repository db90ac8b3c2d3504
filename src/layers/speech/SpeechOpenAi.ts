/**
 * The OpenAI speech provider (`POST <base_url>/audio/speech`), for OpenAI and
 * compatible servers: MP3 bytes streamed to the output file. The key comes
 * from the variable config names (Hermes: VOICE_TOOLS_OPENAI_KEY, then
 * OPENAI_API_KEY) and is never logged.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Layer } from "effect"
import { Config } from "../../services/Config.js"
import { Speech, SpeechError } from "../../services/Speech.js"
import { postForAudio } from "./saveAudio.js"

const KEY_VARIABLES = ["VOICE_TOOLS_OPENAI_KEY", "OPENAI_API_KEY"]

export const SpeechOpenAi = Layer.effect(
  Speech,
  Effect.gen(function*() {
    const config = yield* Config
    const http = yield* HttpClient.HttpClient
    const fs = yield* FileSystem.FileSystem
    const cfg = (yield* config.current).tts
    const keyOf = () => {
      const names = cfg.openai.api_key_env === undefined ? KEY_VARIABLES : [cfg.openai.api_key_env]
      return names.map((n) => process.env[n]).find((v) => v !== undefined && v.length > 0)
    }
    const failed = (kind: SpeechError["kind"], message: string) => new SpeechError({ kind, provider: "openai", message })
    return Speech.of({
      provider: "openai",
      format: "mp3",
      maxChars: cfg.max_text_length ?? 4096,
      available: Effect.sync(() => keyOf() !== undefined),
      synthesize: Effect.fn("Speech.openai")(function*(request) {
        const key = keyOf()
        if (key === undefined) return yield* failed("configuration", `no API key: set ${cfg.openai.api_key_env ?? KEY_VARIABLES.join(" or ")}`)
        const post = HttpClientRequest.post(`${cfg.openai.base_url.replace(/\/+$/, "")}/audio/speech`).pipe(
          HttpClientRequest.bearerToken(key),
          HttpClientRequest.bodyUnsafeJson({ model: cfg.openai.model, voice: cfg.openai.voice, input: request.text, response_format: "mp3" })
        )
        yield* postForAudio(http, fs, "openai", post, request.outputPath)
      })
    })
  })
)
