/**
 * What every browser tool shares: the availability checks, the task id, the
 * `{"success": …}` JSON results, redaction of page-derived text, and the
 * snapshot as the model sees it (compact unless full, redacted, cut with the
 * full copy saved).
 */
import { Effect } from "effect"
import { redactSecrets } from "../../lib/redact.js"
import { Browser } from "../../services/Browser.js"
import type { BrowserError } from "../../services/Browser.js"
import { ToolContext } from "../../services/ToolContext.js"
import { compactSnapshot, countRefs, cutSnapshot, SNAPSHOT_CHAR_LIMIT } from "./snapshotText.js"

export const browserAvailable = Effect.flatMap(Browser, (browser) => Effect.isSuccess(browser.source))

export const cdpAvailable = Effect.flatMap(Browser, (browser) =>
  Effect.match(browser.source, { onFailure: () => false, onSuccess: (s) => s._tag === "Cdp" }))

export const taskId = Effect.map(ToolContext, (context) => context.taskId)

export const success = (fields: Record<string, unknown>): string => JSON.stringify({ success: true, ...fields })
export const failure = (error: string, fields: Record<string, unknown> = {}): string => JSON.stringify({ success: false, error, ...fields })

/** Page-derived text as the model may see it. */
export const redactPage = (text: string): string => redactSecrets(text, { assignments: "literal", keepLines: true })

/** Every string inside a JSON-like value redacted. */
export const redactDeep = (value: unknown): unknown => {
  if (typeof value === "string") return redactPage(value)
  if (Array.isArray(value)) return value.map(redactDeep)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [redactPage(k), redactDeep(v)]))
  }
  return value
}

/** A browser effect whose typed failures become `{"success": false, "error": …}`. */
export const orFailure = <R>(effect: Effect.Effect<string, BrowserError, R>): Effect.Effect<string, never, R> =>
  Effect.catchAll(effect, (error) =>
    Effect.succeed(
      error._tag === "BrowserBlocked" && error.policy !== undefined
        ? failure(error.message, { blocked_by_policy: error.policy })
        : failure(error.message)
    ))

/** The task's page as a snapshot for the model: `{snapshot, element_count}`. */
export const modelSnapshot = (id: string, full: boolean) =>
  Effect.gen(function*() {
    const browser = yield* Browser
    const taken = yield* browser.snapshot(id)
    const shaped = redactPage(full ? taken.text : compactSnapshot(taken.text))
    const elementCount = countRefs(shaped)
    if (shaped.length <= SNAPSHOT_CHAR_LIMIT) return { snapshot: shaped, element_count: elementCount }
    const saved = yield* Effect.option(browser.saveSnapshot(shaped))
    return { snapshot: cutSnapshot(shaped, saved._tag === "Some" ? saved.value : undefined), element_count: elementCount }
  })
