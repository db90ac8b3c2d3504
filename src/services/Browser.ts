/**
 * Browser: one Chromium driven through playwright-core for the browser_*
 * tools, with one isolated context (cookies, tabs) per task id. Pages are
 * reached under the web tools' address policy. Implementation:
 * src/layers/browser/.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import { PolicyMatch } from "./Web.js"

/** No browser can be used here (none installed, or launching/attaching failed): the message says how to get one. */
export class BrowserUnavailable extends Schema.TaggedError<BrowserUnavailable>()("BrowserUnavailable", { message: Schema.String }) {}

/** Refused by policy (private address, metadata endpoint, secret in the URL). */
export class BrowserBlocked extends Schema.TaggedError<BrowserBlocked>()("BrowserBlocked", {
  message: Schema.String,
  /** The website-blocklist rule that refused the URL, when that is why. */
  policy: Schema.optional(PolicyMatch)
}) {}

/** A ref the latest snapshot of this task does not hold (or whose element is gone). */
export class BrowserStaleRef extends Schema.TaggedError<BrowserStaleRef>()("BrowserStaleRef", { message: Schema.String }) {}

/** A command that failed or timed out in the page. */
export class BrowserFailed extends Schema.TaggedError<BrowserFailed>()("BrowserFailed", { message: Schema.String }) {}

export type BrowserError = BrowserUnavailable | BrowserBlocked | BrowserStaleRef | BrowserFailed

/** Why the browser tools are unavailable, and how to make them available. */
export const NO_BROWSER =
  "No Chromium or Chrome found. Install one (e.g. `apt-get install chromium`), set browser.executable in config.yaml " +
  "to its path, or set browser.cdp_url to attach to a running browser started with --remote-debugging-port."

export const NO_CDP = "browser_cdp and browser_dialog need browser.cdp_url (a browser started with --remote-debugging-port)."

/** Where the browser comes from. */
export type BrowserSource =
  | { readonly _tag: "Executable"; readonly path: string }
  | { readonly _tag: "Cdp"; readonly url: string }

export interface PageSnapshot {
  /** Accessibility tree lines such as `- button "Send" [ref=e4]` (unredacted, uncut). */
  readonly text: string
  readonly url: string
}

export interface ConsoleMessage {
  readonly type: string
  readonly text: string
}

export interface PageImage {
  readonly src: string
  readonly alt: string
  readonly width: number
  readonly height: number
}

/** A JavaScript dialog waiting for browser_dialog (attached browsers only; a launched one dismisses them). */
export interface PendingDialog {
  readonly id: string
  readonly type: string
  readonly message: string
  readonly default_prompt: string
  readonly opened_at: number
}

export interface BrowserService {
  /** The browser that would be used, or BrowserUnavailable when there is none (nothing is launched). */
  readonly source: Effect.Effect<BrowserSource, BrowserUnavailable>
  /** Go to `url` (policy-checked before and after) and wait for the DOM; the final URL and title. */
  readonly navigate: (taskId: string, url: string) => Effect.Effect<{ readonly url: string; readonly title: string }, BrowserError>
  /** The page's accessibility tree with refs; the refs become the ones click/type accept. */
  readonly snapshot: (taskId: string) => Effect.Effect<PageSnapshot, BrowserError>
  readonly click: (taskId: string, ref: string) => Effect.Effect<void, BrowserError>
  /** Clear the field, then fill it with `text`. */
  readonly type: (taskId: string, ref: string, text: string) => Effect.Effect<void, BrowserError>
  readonly scroll: (taskId: string, pixels: number) => Effect.Effect<void, BrowserError>
  /** History back; the URL now shown. */
  readonly back: (taskId: string) => Effect.Effect<string, BrowserError>
  readonly press: (taskId: string, key: string) => Effect.Effect<void, BrowserError>
  readonly images: (taskId: string) => Effect.Effect<ReadonlyArray<PageImage>, BrowserError>
  /** Console messages and uncaught errors since the page opened (or the last clear). */
  readonly console: (taskId: string, clear: boolean) => Effect.Effect<{
    readonly messages: ReadonlyArray<ConsoleMessage>
    readonly errors: ReadonlyArray<string>
  }, BrowserError>
  /** Evaluate a JavaScript expression in the page; the JSON-safe result (undefined as null). */
  readonly evaluate: (taskId: string, expression: string) => Effect.Effect<unknown, BrowserError>
  /** A full-page PNG written to `path`. */
  readonly screenshot: (taskId: string, path: string) => Effect.Effect<void, BrowserError>
  /** Pending JavaScript dialogs of the task's page (attached browsers only). */
  readonly dialogs: (taskId: string) => Effect.Effect<ReadonlyArray<PendingDialog>>
  readonly respondDialog: (
    taskId: string,
    action: "accept" | "dismiss",
    promptText: string | undefined,
    dialogId: string | undefined
  ) => Effect.Effect<PendingDialog, BrowserError>
  /** A raw CDP command: browser-level, or on the tab whose target id is given. */
  readonly cdp: (method: string, params: Record<string, unknown>, targetId: string | undefined, timeoutMs: number) => Effect.Effect<unknown, BrowserError>
  /** Save a long snapshot under the home's cache/web; returns the path. */
  readonly saveSnapshot: (text: string) => Effect.Effect<string, BrowserFailed>
  /** Close the task's context now (end of a task); a no-op when it has none. */
  readonly closeTask: (taskId: string) => Effect.Effect<void>
}

export class Browser extends Context.Tag("hermes-effect/Browser")<Browser, BrowserService>() {}
