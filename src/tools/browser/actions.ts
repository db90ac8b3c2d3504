/** browser_click, browser_type, browser_scroll, browser_back, browser_press (toolset `browser`). */
import { Effect, Schema } from "effect"
import { defineTool } from "../../lib/tool/defineTool.js"
import { lenient } from "../../lib/tool/lenient.js"
import { Browser, NO_BROWSER } from "../../services/Browser.js"
import { browserAvailable, failure, orFailure, redactPage, success, taskId } from "./common.js"
import { observedFn } from "../../lib/effect/observedFn.js"

/** Hermes' form of a ref in results: always with `@`. */
const at = (ref: string) => (ref.startsWith("@") ? ref : `@${ref}`)

const SCROLL_PIXELS = 500

export const browserClickTool = defineTool({
  name: "browser_click",
  toolset: "browser",
  emoji: "👆",
  description:
    "Click the element with this ref id from the latest snapshot (e.g. '@e5'; refs appear as [ref=e5]). " +
    "Needs browser_navigate, and a snapshot taken since the page last changed.",
  parameters: Schema.Struct({ ref: Schema.String.annotations({ description: "Ref id of the element from the snapshot, e.g. '@e5'" }) }),
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  handler: observedFn("browser_click")(function*(args) {
    const id = yield* taskId
    return yield* orFailure(Effect.as(Effect.flatMap(Browser, (b) => b.click(id, args.ref)), success({ clicked: at(args.ref.trim()) })))
  })
})

export const browserTypeTool = defineTool({
  name: "browser_type",
  toolset: "browser",
  emoji: "⌨️",
  description:
    "Type into the input field with this ref id: the field is cleared first, then filled with the text. " +
    "Needs browser_navigate and a current snapshot.",
  parameters: Schema.Struct({
    ref: Schema.String.annotations({ description: "Ref id of the field from the snapshot, e.g. '@e3'" }),
    text: Schema.String.annotations({ description: "The text to put in the field" })
  }),
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  handler: observedFn("browser_type")(function*(args) {
    const id = yield* taskId
    return yield* orFailure(Effect.as(
      Effect.flatMap(Browser, (b) => b.type(id, args.ref, args.text)),
      // The typed text is shown masked when it holds a secret; the field got the real text.
      success({ typed: redactPage(args.text), element: at(args.ref.trim()) })
    ))
  })
})

const Direction = lenient(Schema.String, (value) => String(value), {
  description: "Which way to scroll",
  jsonSchema: { type: "string", enum: ["up", "down"] }
})

export const browserScrollTool = defineTool({
  name: "browser_scroll",
  toolset: "browser",
  emoji: "📜",
  description: "Scroll the page up or down (about half a screen) to bring more content into view. Needs browser_navigate.",
  parameters: Schema.Struct({ direction: Direction }),
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  handler: observedFn("browser_scroll")(function*(args) {
    if (args.direction !== "up" && args.direction !== "down") return failure(`Invalid direction '${args.direction}'. Use 'up' or 'down'.`)
    const id = yield* taskId
    const pixels = args.direction === "down" ? SCROLL_PIXELS : -SCROLL_PIXELS
    return yield* orFailure(Effect.as(Effect.flatMap(Browser, (b) => b.scroll(id, pixels)), success({ scrolled: args.direction })))
  })
})

export const browserBackTool = defineTool({
  name: "browser_back",
  toolset: "browser",
  emoji: "◀️",
  description: "Go back to the previous page in the browser history. Needs browser_navigate.",
  parameters: Schema.Struct({}),
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  handler: observedFn("browser_back")(function*() {
    const id = yield* taskId
    return yield* orFailure(Effect.map(Effect.flatMap(Browser, (b) => b.back(id)), (url) => success({ url })))
  })
})

export const browserPressTool = defineTool({
  name: "browser_press",
  toolset: "browser",
  emoji: "⌨️",
  description: "Press a key on the page: Enter submits a form, Tab moves focus, and so on. Needs browser_navigate.",
  parameters: Schema.Struct({ key: Schema.String.annotations({ description: "Key to press, e.g. 'Enter', 'Tab', 'Escape', 'ArrowDown'" }) }),
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  handler: observedFn("browser_press")(function*(args) {
    const id = yield* taskId
    return yield* orFailure(Effect.as(Effect.flatMap(Browser, (b) => b.press(id, args.key)), success({ pressed: args.key })))
  })
})
