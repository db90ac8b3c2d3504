/**
 * browser_cdp and browser_dialog (toolset `browser-cdp`): offered only with
 * `browser.cdp_url`, i.e. when the browser is one the user runs.
 */
import { Effect, Schema } from "effect"
import { defineTool } from "../../lib/tool/defineTool.js"
import { lenient } from "../../lib/tool/lenient.js"
import { Browser, NO_CDP } from "../../services/Browser.js"
import { cdpAvailable, failure, orFailure, redactDeep, success, taskId } from "./common.js"
import { observedFn } from "../../lib/effect/observedFn.js"

const CDP_DOCS_URL = "https://chromedevtools.github.io/devtools-protocol/"

const Params = lenient(Schema.Record({ key: Schema.String, value: Schema.Unknown }), () => ({}), {
  description: "The method's parameters as a JSON object; omit or pass {} when it takes none.",
  jsonSchema: { type: "object", properties: {}, additionalProperties: true }
})

const Timeout = lenient(Schema.Number, () => 30, {
  description: "Seconds to wait for the answer (default 30, at most 300).",
  default: 30,
  jsonSchema: { type: "number" }
})

export const BrowserCdpParameters = Schema.Struct({
  method: Schema.String.annotations({ description: "CDP method, e.g. 'Target.getTargets', 'Runtime.evaluate', 'Page.handleJavaScriptDialog'." }),
  params: Schema.optional(Params),
  target_id: Schema.optional(Schema.String.annotations({
    description: "Tab to run a page-level method on: a targetId from Target.getTargets. Omit for browser-level methods."
  })),
  frame_id: Schema.optional(Schema.String.annotations({
    description: "Out-of-process iframe id (from a supervisor's frame tree). Not supported by this runtime: use target_id."
  })),
  timeout: Schema.optional(Timeout)
})

export const browserCdpTool = defineTool({
  name: "browser_cdp",
  toolset: "browser-cdp",
  emoji: "🧪",
  description:
    "Send one raw Chrome DevTools Protocol command to the browser at browser.cdp_url: the escape hatch for what the " +
    `other browser tools do not cover. Method reference: ${CDP_DOCS_URL}. Browser-level methods (Target.*, Browser.*, ` +
    "Storage.*) take no target_id; page-level ones (Page.*, Runtime.*, DOM.*, Emulation.*) take the tab's target_id " +
    "from Target.getTargets. Each call stands alone: no session or event subscription survives it.",
  parameters: BrowserCdpParameters,
  check: cdpAvailable,
  unavailableReason: NO_CDP,
  handler: observedFn("browser_cdp")(function*(args) {
    const method = args.method.trim()
    if (method === "") return JSON.stringify({ error: "'method' is required (e.g. 'Target.getTargets')", cdp_docs: CDP_DOCS_URL })
    if (args.frame_id !== undefined) return failure("frame_id routing needs a CDP supervisor, which this runtime does not run; use target_id.")
    const seconds = Math.max(1, Math.min(300, Number.isFinite(args.timeout) ? args.timeout ?? 30 : 30))
    return yield* Effect.flatMap(Browser, (b) => b.cdp(method, args.params ?? {}, args.target_id, seconds * 1000)).pipe(
      Effect.map((result) => success({ method, result: redactDeep(result), ...(args.target_id === undefined ? {} : { target_id: args.target_id }) })),
      Effect.catchAll((error) => Effect.succeed(JSON.stringify({ error: error.message, method })))
    )
  })
})

export const BrowserDialogParameters = Schema.Struct({
  action: Schema.Literal("accept", "dismiss").annotations({
    description: "'accept' presses OK (a prompt returns prompt_text); 'dismiss' presses Cancel (a prompt returns null)."
  }),
  prompt_text: Schema.optional(Schema.String.annotations({ description: "The answer to a prompt() dialog; ignored for other kinds. Default ''." })),
  dialog_id: Schema.optional(Schema.String.annotations({
    description: "Which dialog, from browser_snapshot's pending_dialogs[].id; needed only when several are open."
  }))
})

export const browserDialogTool = defineTool({
  name: "browser_dialog",
  toolset: "browser-cdp",
  emoji: "💬",
  description:
    "Answer a JavaScript dialog (alert, confirm, prompt, beforeunload) that blocks the page. browser_snapshot lists open " +
    "ones under pending_dialogs with id, type and message; then accept or dismiss here. Only with browser.cdp_url.",
  parameters: BrowserDialogParameters,
  check: cdpAvailable,
  unavailableReason: NO_CDP,
  handler: observedFn("browser_dialog")(function*(args) {
    const id = yield* taskId
    return yield* orFailure(Effect.map(
      Effect.flatMap(Browser, (b) => b.respondDialog(id, args.action, args.prompt_text, args.dialog_id)),
      (dialog) => success({ action: args.action, dialog })
    ))
  })
})
