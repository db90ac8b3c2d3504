/** `browser_snapshot` (toolset `browser`): the page's accessibility tree with refs, compact unless `full`. */
import { Effect, Schema } from "effect"
import { defineTool } from "../../lib/tool/defineTool.js"
import { Browser, NO_BROWSER } from "../../services/Browser.js"
import { browserAvailable, modelSnapshot, orFailure, success, taskId } from "./common.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const BrowserSnapshotParameters = Schema.Struct({
  full: Schema.optional(Schema.Boolean.annotations({
    description: "true: the whole page content. false (default): a compact view of the interactive elements and text.",
    default: false
  }))
})

export const browserSnapshotTool = defineTool({
  name: "browser_snapshot",
  toolset: "browser",
  emoji: "📸",
  description:
    "Read the current page as an accessibility tree: elements with ref ids (@e1, @e2, …) to pass to browser_click and " +
    "browser_type. Compact by default; full=true includes all page content. A snapshot longer than 15000 characters is cut " +
    "at a line boundary and the whole one saved to a file you can page with read_file (the path is in the output). " +
    "browser_navigate already returns a snapshot: call this after actions that change the page. Refs from an older " +
    "snapshot stop working once the page changes.",
  parameters: BrowserSnapshotParameters,
  check: browserAvailable,
  unavailableReason: NO_BROWSER,
  handler: observedFn("browser_snapshot")(function*(args) {
    const id = yield* taskId
    const browser = yield* Browser
    return yield* orFailure(Effect.gen(function*() {
      const pending = yield* browser.dialogs(id)
      // An open dialog blocks the page's scripts, so the tree cannot be read until it is answered.
      if (pending.length > 0) {
        return success({ snapshot: "(a JavaScript dialog is open: answer it with browser_dialog, then take a snapshot)", element_count: 0, pending_dialogs: pending })
      }
      return success(yield* modelSnapshot(id, args.full === true))
    }))
  })
})
