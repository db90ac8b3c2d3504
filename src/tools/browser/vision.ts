/**
 * `browser_vision` (toolset `browser`): a full-page screenshot under
 * `<home>/cache/screenshots/` described by the vision model. Offered only when
 * a vision model is configured (as vision_analyze).
 */
import { randomUUID } from "node:crypto"
import { mkdir } from "node:fs/promises"
import { join } from "node:path"
import { readFile } from "node:fs/promises"
import { Effect, Schema } from "effect"
import { defineTool } from "../../lib/tool/defineTool.js"
import { AuxiliaryModels } from "../../services/AuxiliaryModels.js"
import { Browser, BrowserFailed, NO_BROWSER } from "../../services/Browser.js"
import { Config } from "../../services/Config.js"
import { visionConfigured } from "../vision.js"
import { browserAvailable, failure, redactPage, success, taskId } from "./common.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const BrowserVisionParameters = Schema.Struct({
  question: Schema.String.annotations({ description: "What you want to learn from how the page looks; be specific." }),
  annotate: Schema.optional(Schema.Boolean.annotations({
    description: "If true, label interactive elements with numbers [N] matching refs @eN (not drawn by this runtime yet; accepted for compatibility).",
    default: false
  }))
})

const prompt = (question: string) =>
  "This is a screenshot of a web page in a browser. Answer the question below from what the screenshot shows. " +
  "Describe interactive elements that matter, and any CAPTCHA or verification step with what it asks for.\n\n" +
  `Question: ${question}`

export const browserVisionTool = defineTool({
  name: "browser_vision",
  toolset: "browser",
  emoji: "👁️",
  description:
    "Screenshot the current page and have a vision model answer a question about it: for CAPTCHAs, visual checks, " +
    "layouts, or anything the text snapshot misses. The answer includes screenshot_path; share the picture with the user " +
    "by writing MEDIA:<screenshot_path> in your reply. Needs browser_navigate.",
  parameters: BrowserVisionParameters,
  check: Effect.zipWith(browserAvailable, Effect.flatMap(Config, (c) => Effect.map(c.current, visionConfigured)), (a, b) => a && b),
  unavailableReason: `${NO_BROWSER} browser_vision also needs a vision model (auxiliary.vision, or model.vision: true).`,
  handler: observedFn("browser_vision")(function*(args) {
    const id = yield* taskId
    const browser = yield* Browser
    const config = yield* Config
    const dir = join(config.home.root, "cache", "screenshots")
    const path = join(dir, `browser_screenshot_${randomUUID().replace(/-/g, "")}.png`)
    const shot = yield* Effect.either(Effect.zipRight(
      Effect.tryPromise({ try: () => mkdir(dir, { recursive: true }), catch: (e) => new BrowserFailed({ message: String(e) }) }),
      browser.screenshot(id, path)
    ))
    if (shot._tag === "Left") return failure(`Failed to take screenshot (local mode): ${shot.left.message}`)
    const bytes = yield* Effect.either(Effect.tryPromise(() => readFile(path)))
    if (bytes._tag === "Left") return failure(`Screenshot file was not created at ${path}`)
    const { model } = yield* Effect.flatMap(AuxiliaryModels, (models) => models.forTask("vision"))
    const url = `data:image/png;base64,${bytes.right.toString("base64")}`
    const answer = yield* Effect.either(model.complete({
      messages: [{
        role: "user",
        content: prompt(args.question),
        content_parts: [{ type: "text", text: prompt(args.question) }, { type: "image_url", image_url: { url } }]
      }],
      temperature: 0.1,
      maxTokens: 2000
    }))
    if (answer._tag === "Left") return failure(`Error during vision analysis: ${answer.left.message}`, { screenshot_path: path })
    const analysis = (answer.right.message.content ?? "").trim()
    if (analysis.length === 0) return failure("Error during vision analysis: the vision model returned an empty answer", { screenshot_path: path })
    return success({ analysis: redactPage(analysis), screenshot_path: path })
  })
})
