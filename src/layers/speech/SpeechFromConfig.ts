/** The speech provider config.yaml names (`tts.provider`; default local). */
import type { CommandExecutor, FileSystem, HttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Config } from "../../services/Config.js"
import { Speech, SpeechError } from "../../services/Speech.js"
import { SpeechElevenLabs } from "./SpeechElevenLabs.js"
import { SpeechLocal } from "./SpeechLocal.js"
import { SpeechOpenAi } from "./SpeechOpenAi.js"

const SpeechNone = Layer.succeed(Speech, Speech.of({
  provider: "none",
  format: "wav",
  maxChars: 0,
  available: Effect.succeed(false),
  synthesize: () => Effect.fail(new SpeechError({ kind: "configuration", provider: "none", message: "tts.provider is 'none'" }))
}))

type Needs = Config | HttpClient.HttpClient | CommandExecutor.CommandExecutor | FileSystem.FileSystem

export const SpeechFromConfig: Layer.Layer<Speech, never, Needs> =
  Layer.unwrapEffect(Effect.flatMap(Config, (config) =>
    Effect.map(config.current, (c): Layer.Layer<Speech, never, Needs> => {
      switch (c.tts.provider) {
        case "openai":
          return SpeechOpenAi
        case "elevenlabs":
          return SpeechElevenLabs
        case "none":
          return SpeechNone
        default:
          return SpeechLocal
      }
    })))
