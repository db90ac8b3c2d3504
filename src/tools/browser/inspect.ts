/** browser_get_images and browser_console (toolset `browser`): what the page shows and logs, redacted. */
import { Effect, Schema } from "effect"
import { defineTool } from "../../lib/tool/defineTool.js"
import { pythonTypeName } from "../../lib/tool/lenient.js"
import { Browser, NO_BROWSER } from "../../services/Browser.js"
import { browserAvailable, orFailure, redactDeep, redactPage, success, taskId } from "./common.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const browserGetImagesTool = defineTool({
  name: "browser_get_images",
  toolset: "browser",
  emoji: "🖼️",
  description:
    "List the images on the current page with their URLs, alt text and natural size (data: URLs left out), " +
    "e.g. to pick one for vision_analyze. Needs browser_navigate.",
  parameters: Schema.Struct({}),
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  parallel: "safe",
  handler: observedFn("browser_get_images")(function*() {
    const id = yield* taskId
    return yield* orFailure(Effect.map(Effect.flatMap(Browser, (b) => b.images(id)), (images) =>
      success({ images: redactDeep(images), count: images.length })))
  })
})

export const BrowserConsoleParameters = Schema.Struct({
  clear: Schema.optional(Schema.Boolean.annotations({ description: "true: empty the message buffers after reading them", default: false })),
  expression: Schema.optional(Schema.String.annotations({
    description:
      "JavaScript to evaluate in the page, as in the DevTools console (DOM, window and document available); the value " +
      "comes back as JSON. E.g. 'document.title' or 'document.querySelectorAll(\"a\").length'"
  }))
})

/** A JSON text result is parsed, as Hermes does, so the model gets structure. */
const parsedIfJson = (value: unknown): unknown => {
  if (typeof value !== "string") return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}

export const browserConsoleTool = defineTool({
  name: "browser_console",
  toolset: "browser",
  emoji: "🖥️",
  description:
    "Read the current page's console output (log, warn, error, info) and uncaught JavaScript errors: silent script failures, " +
    "failed requests, warnings. With 'expression', evaluate JavaScript in the page instead and return its value: for DOM " +
    "inspection, page state or extracting data. Needs browser_navigate.",
  parameters: BrowserConsoleParameters,
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  handler: observedFn("browser_console")(function*(args) {
    const id = yield* taskId
    const browser = yield* Browser
    if (args.expression !== undefined) {
      return yield* orFailure(Effect.map(browser.evaluate(id, args.expression), (value) => {
        const result = parsedIfJson(value)
        return success({ result: redactDeep(result), result_type: pythonTypeName(result) })
      }))
    }
    return yield* orFailure(Effect.map(browser.console(id, args.clear === true), (read) => {
      const consoleMessages = read.messages.map((m) => ({ type: m.type, text: redactPage(m.text), source: "console" }))
      const jsErrors = read.errors.map((message) => ({ message: redactPage(message), source: "exception" }))
      return success({
        console_messages: consoleMessages,
        js_errors: jsErrors,
        total_messages: consoleMessages.length,
        total_errors: jsErrors.length
      })
    }))
  })
})
