/**
 * `text_to_speech` (toolset `tts`): text → an audio file through the Speech
 * provider config.yaml names (local espeak-ng by default: no key, offline).
 * Result keys as Hermes: `{success, file_path, media_tag: "MEDIA:<path>",
 * provider, voice_compatible}`. Unlike Hermes, `output_path` must name an
 * audio file (so the tool cannot be used to overwrite scripts or dotfiles),
 * and cutting the text to the provider's cap is reported, not silent.
 */
import { homedir } from "node:os"
import { dirname, extname, isAbsolute, join } from "node:path"
import * as FileSystem from "@effect/platform/FileSystem"
import { Effect, Schema } from "effect"
import { compactStamp } from "../lib/fileStamp.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { sensitiveWriteError } from "../lib/pathSafety.js"
import { Config } from "../services/Config.js"
import { Speech } from "../services/Speech.js"
import { observedFn } from "../lib/effect/observedFn.js"

export const TtsParameters = Schema.Struct({
  text: Schema.String.annotations({ description: "The text to speak" }),
  output_path: Schema.optional(Schema.String.annotations({
    description: "Where to write the audio (an absolute path ending in .wav, .mp3, .ogg, .opus or .flac); default: the agent's audio cache"
  }))
})

const AUDIO_EXTENSIONS = new Set([".wav", ".mp3", ".ogg", ".opus", ".flac", ".m4a"])

const failed = (error: string) => ({ success: false, error })

export const ttsTool = defineTool({
  name: "text_to_speech",
  toolset: "tts",
  emoji: "🔊",
  description:
    "Turn text into speech and save it as an audio file. Returns the file's path and a MEDIA: tag for platforms that " +
    "deliver audio. Use it when the user asks to hear something or wants an audio version.",
  parameters: TtsParameters,
  check: Effect.flatMap(Speech, (speech) => speech.available),
  handler: observedFn("text_to_speech")(function*(args) {
    const speech = yield* Speech
    const config = yield* Config
    const fs = yield* FileSystem.FileSystem
    if (args.text.trim().length === 0) return failed("Text is required")
    const requested = args.output_path?.trim()
    let path: string
    if (requested === undefined || requested.length === 0) {
      path = join(config.home.root, "cache", "audio", `tts_${compactStamp(new Date())}.${speech.format}`)
    } else {
      if (requested.split(/[\\/]/).includes("..")) return failed(`Invalid output_path '${requested}': '..' is not allowed`)
      const expanded = requested === "~" || requested.startsWith("~/") ? join(homedir(), requested.slice(1)) : requested
      if (!isAbsolute(expanded)) return failed(`Invalid output_path '${requested}': give an absolute path`)
      const extension = extname(expanded).toLowerCase()
      if (!AUDIO_EXTENSIONS.has(extension)) return failed(`Invalid output_path '${requested}': it must end in ${[...AUDIO_EXTENSIONS].join(", ")}`)
      // The provider decides the format; the name follows it.
      path = extension === `.${speech.format}` ? expanded : `${expanded.slice(0, -extension.length)}.${speech.format}`
      const refused = sensitiveWriteError(requested, [path], [config.home.configFile])
      if (refused !== undefined) return failed(refused)
      const existing = yield* Effect.either(fs.stat(path))
      if (existing._tag === "Right" && existing.right.type !== "File") return failed(`Refusing to write '${requested}': it exists and is not a regular file`)
    }
    const text = args.text.length > speech.maxChars ? args.text.slice(0, speech.maxChars) : args.text
    yield* Effect.ignore(fs.makeDirectory(dirname(path), { recursive: true }))
    const made = yield* Effect.either(speech.synthesize({ text, outputPath: path }))
    if (made._tag === "Left") {
      const family = made.left.kind === "configuration" ? "configuration error" : made.left.kind === "dependency" ? "dependency missing" : "generation failed"
      return failed(`TTS ${family} (${made.left.provider}): ${made.left.message}`)
    }
    const size = yield* Effect.either(fs.stat(path))
    if (size._tag === "Left" || Number(size.right.size) === 0) return failed(`TTS generation produced no output (provider: ${speech.provider})`)
    return {
      success: true,
      file_path: path,
      media_tag: `MEDIA:${path}`,
      provider: speech.provider,
      voice_compatible: false,
      ...(text.length < args.text.length ? { truncated: `the text was cut to ${speech.maxChars} of ${args.text.length} characters (the provider's limit)` } : {})
    }
  })
})
