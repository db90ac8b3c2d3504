/** `browser_navigate` (toolset `browser`): open a URL under the address policy; answers with a compact snapshot. */
import { Effect, Schema } from "effect"
import { defineTool } from "../../lib/tool/defineTool.js"
import { Browser, NO_BROWSER } from "../../services/Browser.js"
import { browserAvailable, modelSnapshot, orFailure, redactPage, success, taskId } from "./common.js"
import { botWarning } from "./snapshotText.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const BrowserNavigateParameters = Schema.Struct({
  url: Schema.String.annotations({ description: "The URL to open, e.g. 'https://example.com'" })
})

export const browserNavigateTool = defineTool({
  name: "browser_navigate",
  toolset: "browser",
  emoji: "🌐",
  description:
    "Open a URL in the browser; call it before the other browser tools. The answer carries a compact snapshot of the page " +
    "(accessibility tree with ref ids such as @e1 for browser_click and browser_type), so no separate browser_snapshot is " +
    "needed right after. To just read a page, web_search and web_extract are quicker and cheaper; for plain text or JSON " +
    "endpoints use web_extract or curl in the terminal. Use the browser to interact: click, fill forms, dynamic pages.",
  parameters: BrowserNavigateParameters,
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  handler: observedFn("browser_navigate")(function*(args) {
    const id = yield* taskId
    const browser = yield* Browser
    return yield* orFailure(Effect.gen(function*() {
      const landed = yield* browser.navigate(id, args.url)
      const title = redactPage(landed.title)
      const warning = botWarning(title)
      // As in Hermes, a snapshot that fails leaves the navigation a success without one.
      const snap = yield* Effect.option(modelSnapshot(id, false))
      return success({
        url: landed.url,
        title,
        ...(snap._tag === "Some" ? snap.value : {}),
        ...(warning === undefined ? {} : { bot_detection_warning: warning })
      })
    }))
  })
})
