/**
 * `vision_analyze` (toolset `vision`): describe an image and answer a question
 * about it with the auxiliary vision model (`auxiliary.vision`, else the main
 * model when `model.vision: true`). Local files are read through the task's
 * environment (so remote backends work) with read_file's secret-file guard;
 * `data:` URLs are used as they are; http(s) URLs are fetched with the web
 * tools' address policy and sent as data URLs. Failures are Hermes'
 * `{success: false, error: "Error analyzing image: …", analysis: <hint>}`.
 */
import { Effect, Schema } from "effect"
import { defineTool } from "../lib/tool/defineTool.js"
import { readBlockError } from "../lib/pathSafety.js"
import { AuxiliaryModels } from "../services/AuxiliaryModels.js"
import { Config } from "../services/Config.js"
import { Web } from "../services/Web.js"
import type { HermesConfig } from "../services/Config.js"
import { resolveTarget, safetyPaths, taskFiles } from "./files/taskFiles.js"
import { observedFn } from "../lib/effect/observedFn.js"

/** No provider takes more (OpenAI's per-image limit); larger files are refused before they are read whole. */
export const VISION_MAX_BYTES = 20 * 1024 * 1024

export const VisionParameters = Schema.Struct({
  image_url: Schema.String.annotations({ description: "Image URL (http/https), local file path (~ and file:// work), or a data: URL" }),
  question: Schema.String.annotations({ description: "What you want to know about the image" })
})

/** Image type from the first bytes: PNG, JPEG, GIF, WebP, BMP; undefined for anything else. */
export const sniffImage = (bytes: Uint8Array): string | undefined => {
  const starts = (...sig: ReadonlyArray<number>) => sig.every((b, i) => bytes[i] === b)
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png"
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg"
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif"
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp"
  if (starts(0x42, 0x4d)) return "image/bmp"
  return undefined
}

/** Whether a vision-capable model is configured: `auxiliary.vision`, or the main model marked `vision: true`. */
export const visionConfigured = (config: HermesConfig): boolean => {
  const usable = (section: NonNullable<HermesConfig["model"]>) =>
    (section.name ?? section.default ?? "").trim().length > 0 || section.provider?.trim().toLowerCase() === "scripted"
  const aux = config.auxiliary["vision"]
  if (aux !== undefined) return usable(aux)
  return config.model !== undefined && config.model.vision === true && usable(config.model)
}

const failure = (message: string, analysis: string) => ({ success: false, error: `Error analyzing image: ${message}`, analysis })

const hintFor = (message: string): string => {
  const text = message.toLowerCase()
  if (/402|credit|quota|billing/.test(text)) return "The vision provider refused for billing reasons (credits or quota); check the account."
  if (/image|vision|multimodal|content type|image_url/.test(text)) {
    return "The vision model may not accept images, or the image is invalid. Set auxiliary.vision to a vision-capable model."
  }
  return "The image could not be analysed; try again or check auxiliary.vision in config.yaml."
}

const PROMPT = (question: string) =>
  `Describe this image fully: what it shows, any text in it word for word, and notable details. Then answer this question about it:\n${question}`

class ImageRefused extends Error {}

/** The image as a URL the provider can take: data: as given, http(s) passed on, a local file read and encoded. */
const imageUrlOf = (input: string) =>
  Effect.gen(function*() {
    const source = input.trim()
    if (source.startsWith("data:image/")) return source
    if (/^https?:\/\//i.test(source)) {
      // Fetched here under the web tools' address policy (private and metadata addresses refused, on every redirect).
      const fetched = yield* Effect.flatMap(Web, (web) => web.download(source, { accept: "image/*,*/*;q=0.8", maxBytes: VISION_MAX_BYTES + 1 })).pipe(
        Effect.mapError((e) => new ImageRefused(e.message))
      )
      if (fetched.cut) return yield* Effect.fail(new ImageRefused(`Image too large for vision API: over ${VISION_MAX_BYTES} bytes`))
      const type = sniffImage(fetched.body)
      if (type === undefined) return yield* Effect.fail(new ImageRefused(`${source} did not answer with an image (PNG, JPEG, GIF, WebP or BMP)`))
      return `data:${type};base64,${Buffer.from(fetched.body).toString("base64")}`
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !source.startsWith("file://")) {
      return yield* Effect.fail(new ImageRefused(`unsupported image source '${source.slice(0, 40)}': use an http(s) URL, a local path or a data: URL`))
    }
    const path = source.startsWith("file://") ? decodeURIComponent(source.slice("file://".length)) : source
    const files = yield* taskFiles
    const target = yield* resolveTarget(files.env, path)
    const blocked = readBlockError(target.real, yield* safetyPaths(files), { literal: target.absolute })
    if (blocked !== undefined) return yield* Effect.fail(new ImageRefused(blocked))
    const stat = yield* Effect.mapError(files.env.stat(target.real), (e) => new ImageRefused(e.reason === "NotFound" ? `image not found: ${path}` : e.message))
    if (stat.type !== "file") return yield* Effect.fail(new ImageRefused(`not a file: ${path}`))
    if (stat.size > VISION_MAX_BYTES) return yield* Effect.fail(new ImageRefused(`Image too large for vision API: ${stat.size} bytes (max ${VISION_MAX_BYTES})`))
    const bytes = yield* Effect.mapError(files.env.readFile(target.real), (e) => new ImageRefused(e.message))
    const type = sniffImage(bytes)
    if (type === undefined) return yield* Effect.fail(new ImageRefused(`${path} is not an image (PNG, JPEG, GIF, WebP or BMP)`))
    return `data:${type};base64,${Buffer.from(bytes).toString("base64")}`
  })

export const visionAnalyzeTool = defineTool({
  name: "vision_analyze",
  toolset: "vision",
  emoji: "👁️",
  description:
    "Look at an image (a URL, a local file path, or a data: URL) with a vision model: it describes the image, " +
    "including any text in it, and answers your question about it.",
  parameters: VisionParameters,
  pathArgument: "image_url",
  check: Effect.flatMap(Config, (config) => Effect.map(config.current, visionConfigured)),
  handler: observedFn("vision_analyze")(function*(args) {
    if (args.question.trim().length === 0) return failure("question is required", "Say what you want to know about the image.")
    const url = yield* Effect.either(imageUrlOf(args.image_url))
    if (url._tag === "Left") return failure(url.left.message, "The image could not be loaded.")
    const { model } = yield* Effect.flatMap(AuxiliaryModels, (models) => models.forTask("vision"))
    const answer = yield* Effect.either(model.complete({
      messages: [{
        role: "user",
        content: PROMPT(args.question),
        content_parts: [{ type: "text", text: PROMPT(args.question) }, { type: "image_url", image_url: { url: url.right } }]
      }],
      temperature: 0.1,
      maxTokens: 2000
    }))
    if (answer._tag === "Left") return failure(answer.left.message, hintFor(answer.left.message))
    const analysis = (answer.right.message.content ?? "").trim()
    if (analysis.length === 0) return failure("the vision model returned an empty answer", hintFor(""))
    return { success: true, analysis }
  })
})
