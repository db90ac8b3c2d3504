/**
 * One task's browser state: its context and page, the refs of its latest
 * snapshot, and what the page logged. Listeners are attached once, when the
 * page is opened.
 */
import { randomUUID } from "node:crypto"
import type { BrowserContext, Dialog, Page } from "playwright-core"
import type { ConsoleMessage, PendingDialog } from "../../services/Browser.js"

/** Entries kept per buffer; older ones are dropped first. */
const MAX_BUFFERED = 500

export interface TaskSession {
  readonly context: BrowserContext
  readonly page: Page
  /** Close the whole context (a launched browser) or only our page (an attached one, whose context is the user's). */
  readonly ownsContext: boolean
  /** Refs of the latest snapshot of the current document; emptied when a new document loads. */
  refs: ReadonlySet<string>
  lastUsed: number
  busy: number
  messages: Array<ConsoleMessage>
  errors: Array<string>
  readonly dialogs: Array<{ readonly info: PendingDialog; readonly dialog: Dialog }>
}

const push = <A>(buffer: Array<A>, item: A) => {
  buffer.push(item)
  if (buffer.length > MAX_BUFFERED) buffer.splice(0, buffer.length - MAX_BUFFERED)
}

/** Wrap a fresh page; `holdDialogs` keeps dialogs pending for browser_dialog, otherwise they are dismissed. */
export const openSession = (context: BrowserContext, page: Page, ownsContext: boolean, holdDialogs: boolean): TaskSession => {
  const session: TaskSession = {
    context,
    page,
    ownsContext,
    refs: new Set(),
    lastUsed: Date.now(),
    busy: 0,
    messages: [],
    errors: [],
    dialogs: []
  }
  page.on("console", (message) => push(session.messages, { type: message.type(), text: message.text() }))
  page.on("pageerror", (error) => push(session.errors, error.message))
  // A new document means new elements: refs of the old one must not reach them.
  page.on("domcontentloaded", () => {
    session.refs = new Set()
  })
  page.on("dialog", (dialog) => {
    if (!holdDialogs) {
      dialog.dismiss().catch(() => undefined)
      return
    }
    session.dialogs.push({
      dialog,
      info: { id: randomUUID().slice(0, 8), type: dialog.type(), message: dialog.message(), default_prompt: dialog.defaultValue(), opened_at: Date.now() / 1000 }
    })
  })
  return session
}

/** `@e5`, `e5`, `ref=e5` → `e5`. */
export const normaliseRef = (ref: string): string => ref.trim().replace(/^@/, "").replace(/^\[?ref=/, "").replace(/\]$/, "")

/** The refs a snapshot text hands out, in order, without repeats. */
export const refsOf = (text: string): ReadonlyArray<string> => [...new Set([...text.matchAll(/\[ref=([A-Za-z0-9]+)\]/g)].map((m) => m[1]!))]
