/**
 * `memory` (toolset `memory`): durable notes that future sessions start with.
 * Two stores — `memory` (the agent's notes) and `user` (who the user is) — of
 * entries within a character budget. One change (`action` + `content` /
 * `old_text`) or a batch (`operations`) applied all-or-nothing against the
 * budget of the final result. Results follow Hermes' shapes: outcomes the
 * model should act on (over budget, no match, blocked content) are
 * `{"success": false, "error", "current_entries"?, "usage"?}` results, and only
 * an unusable store fails the call.
 */
import { Effect, Schema } from "effect"
import { ENTRY_SEPARATOR, MemoryStore } from "../services/MemoryStore.js"
import type { MemoryChange, MemoryDrift, MemoryTarget } from "../services/MemoryStore.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { defaulted } from "../lib/tool/lenient.js"
import { memoryThreat } from "./memoryThreats.js"
import { observedFn } from "../lib/effect/observedFn.js"

const Action = Schema.Literal("add", "replace", "remove")

const Operation = Schema.Struct({
  action: Action,
  content: Schema.optional(Schema.String.annotations({ description: "Entry text for add and replace." })),
  old_text: Schema.optional(Schema.String.annotations({ description: "A unique substring of the entry to replace or remove." }))
})

export const MemoryParameters = Schema.Struct({
  action: Schema.optional(Action.annotations({ description: "One change: add, replace or remove. Leave out when sending `operations`." })),
  // Required in the definition (as in Hermes); missing or null still means 'memory'.
  target: defaulted(Schema.Literal("memory", "user"), "memory", {
    description: "Which store: 'memory' for your own notes, 'user' for the user profile."
  }),
  content: Schema.optional(Schema.String.annotations({ description: "The entry text; needed by add and replace." })),
  old_text: Schema.optional(Schema.String.annotations({
    description: "Needed by replace and remove: a short substring that identifies exactly one existing entry."
  })),
  operations: Schema.optional(
    Schema.Array(Operation).annotations({
      description: "Several changes applied together, all or none, with the budget checked on the final result. Prefer this for more than one change."
    })
  )
})

type Op = typeof Operation.Type
type Result = Record<string, unknown>

const size = (entries: ReadonlyArray<string>) => (entries.length === 0 ? 0 : entries.join(ENTRY_SEPARATOR).length)
const n = (x: number) => x.toLocaleString("en-US")
const usage = (entries: ReadonlyArray<string>, limit: number) => `${n(size(entries))}/${n(limit)}`
const previews = (entries: ReadonlyArray<string>) => entries.map((e) => (e.length > 80 ? `${e.slice(0, 80)}...` : e))

/** Entries as shown back to the model: one that looks like an injection is not echoed into the conversation. */
const shown = (entries: ReadonlyArray<string>, target: MemoryTarget) =>
  entries.map((e) =>
    memoryThreat(e) === undefined
      ? e
      : `[BLOCKED: this ${target === "user" ? "USER.md" : "MEMORY.md"} entry looks like an injection and is not shown; remove it with memory(action="remove")]`
  )

interface Budget {
  readonly target: MemoryTarget
  readonly limit: number
}

const saved = (b: Budget, entries: ReadonlyArray<string>, message: string): Result => {
  const current = size(entries)
  return {
    success: true,
    done: true,
    target: b.target,
    usage: `${Math.min(100, Math.floor((current / b.limit) * 100))}% — ${n(current)}/${n(b.limit)} chars`,
    entry_count: entries.length,
    message,
    note: "Saved. This change is complete; do not send it again."
  }
}

const refused = (error: string): Result => ({ success: false, error })
/** A call refused before the store is touched: Hermes' tool-level error puts `error` first. */
const badCall = (error: string): Result => ({ error, success: false })

const withEntries = (b: Budget, entries: ReadonlyArray<string>, error: string): Result => ({
  success: false,
  error,
  current_entries: shown(entries, b.target),
  usage: usage(entries, b.limit)
})

/** No entry matched: the entries to pick from (Hermes gives no usage here). */
const notFound = (b: Budget, entries: ReadonlyArray<string>, error: string): Result => ({
  success: false,
  error,
  current_entries: shown(entries, b.target)
})

const unchanged = (result: Result): MemoryChange<Result> => ({ result })
const write = (entries: ReadonlyArray<string>, result: Result): MemoryChange<Result> => ({ entries, result })

/** The one entry `oldText` identifies (identical duplicates count as one), or why there is none. */
const locate = (entries: ReadonlyArray<string>, oldText: string): number | "none" | "ambiguous" => {
  const hits = entries.flatMap((e, i) => (e.includes(oldText) ? [i] : []))
  if (hits.length === 0) return "none"
  return new Set(hits.map((i) => entries[i])).size > 1 ? "ambiguous" : hits[0]!
}

const addOne = (b: Budget, content: string) => (entries: ReadonlyArray<string>): MemoryChange<Result> => {
  if (entries.includes(content)) return unchanged(saved(b, entries, "Entry already exists; nothing added."))
  const next = [...entries, content]
  if (size(next) > b.limit) {
    return unchanged(withEntries(
      b,
      entries,
      `Memory holds ${n(size(entries))}/${n(b.limit)} chars; this entry (${n(content.length)} chars) would exceed the limit. Make room in the same turn: merge overlapping entries with 'replace' or drop stale ones with 'remove' (current_entries below), then add again, or send all of it as one 'operations' batch.`
    ))
  }
  return write(next, saved(b, next, "Entry added."))
}

const replaceOne = (b: Budget, oldText: string, content: string) => (entries: ReadonlyArray<string>): MemoryChange<Result> => {
  const at = locate(entries, oldText)
  if (at === "none") {
    return unchanged(notFound(b, entries, `No entry contains '${oldText}'. Pick the exact text of the entry to replace from current_entries and try again.`))
  }
  if (at === "ambiguous") {
    return unchanged({
      success: false,
      error: `'${oldText}' matches more than one entry; use a longer, unique substring.`,
      matches: previews(entries.filter((e) => e.includes(oldText)))
    })
  }
  const next = entries.map((e, i) => (i === at ? content : e))
  if (size(next) > b.limit) {
    return unchanged(withEntries(
      b,
      entries,
      `The replacement would bring memory to ${n(size(next))}/${n(b.limit)} chars. Shorten it, or remove stale entries (current_entries below) in the same turn.`
    ))
  }
  return write(next, saved(b, next, "Entry replaced."))
}

const removeOne = (b: Budget, oldText: string) => (entries: ReadonlyArray<string>): MemoryChange<Result> => {
  const at = locate(entries, oldText)
  if (at === "none") {
    return unchanged(notFound(b, entries, `No entry contains '${oldText}'. Pick the exact text of the entry to remove from current_entries and try again.`))
  }
  if (at === "ambiguous") {
    return unchanged({
      success: false,
      error: `'${oldText}' matches more than one entry; use a longer, unique substring.`,
      matches: previews(entries.filter((e) => e.includes(oldText)))
    })
  }
  const next = entries.filter((_, i) => i !== at)
  return write(next, saved(b, next, "Entry removed."))
}

const applyBatch = (b: Budget, operations: ReadonlyArray<Op>) => (entries: ReadonlyArray<string>): MemoryChange<Result> => {
  const abort = (message: string) => unchanged(withEntries(b, entries, `${message} Nothing was applied: a batch is all or nothing.`))
  let working = [...entries]
  for (const [i, op] of operations.entries()) {
    const where = `Operation ${i + 1} (${op.action})`
    const content = (op.content ?? "").trim()
    const oldText = (op.old_text ?? "").trim()
    if (op.action === "add") {
      if (content.length === 0) return abort(`${where}: content is required.`)
      if (!working.includes(content)) working.push(content)
      continue
    }
    if (oldText.length === 0) return abort(`${where}: old_text is required.`)
    if (op.action === "replace" && content.length === 0) return abort(`${where}: content is required (use remove to delete an entry).`)
    const at = locate(working, oldText)
    if (at === "none") return abort(`${where}: no entry contains '${oldText}'.`)
    if (at === "ambiguous") return abort(`${where}: '${oldText}' matches more than one entry; be more specific.`)
    working = op.action === "replace" ? working.map((e, j) => (j === at ? content : e)) : working.filter((_, j) => j !== at)
  }
  if (size(working) > b.limit) {
    return abort(`After all ${operations.length} operations memory would hold ${n(size(working))}/${n(b.limit)} chars, over the limit. Remove or shorten more entries in the same batch.`)
  }
  return write(working, saved(b, working, `Applied ${operations.length} operation(s).`))
}

const driftResult = (drift: MemoryDrift): Result => ({
  success: false,
  error:
    `Refusing to rewrite ${drift.file}: it holds text the memory tool did not write (an edit by hand, a shell append or another program), which a rewrite would lose. ` +
    `A copy is at ${drift.backup}. Turn the file back into entries separated by lines holding only §, then try again.`,
  drift_backup: drift.backup
})

const isDrift = (value: unknown): value is MemoryDrift =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "MemoryDrift"

export const memoryTool = defineTool({
  name: "memory",
  toolset: "memory",
  emoji: "🧠",
  description:
    "Keep durable facts that future sessions start with. Memory is injected into every later session, so keep entries short and worth it.\n\n" +
    "HOW: make all related changes in one call with `operations` (items: {action, content?, old_text?}); the batch applies all or nothing " +
    "and the character budget is checked on the final result, so one call can remove stale entries and add new ones. Use action/content/old_text " +
    "for a single change. A successful result means the change is saved: do not repeat it.\n\n" +
    "WHEN: the user states a preference, a correction or a personal detail, or you learn a stable fact about their environment or conventions. " +
    "Not for task progress, temporary todo state, logs or facts that are easy to look up again (session_search finds past work).\n\n" +
    "TARGETS: 'user' is who the user is (name, role, preferences, style); 'memory' is your notes (environment, conventions, tool quirks, lessons).\n\n" +
    "IF FULL: an add that does not fit is refused with the current entries; send one batch that frees enough room and adds the new entry.",
  parameters: MemoryParameters,
  handler: observedFn("memory")(function*(args) {
    const store = yield* MemoryStore
    const target: MemoryTarget = args.target
    const b: Budget = { target, limit: store.limit(target) }
    const run = (change: (entries: ReadonlyArray<string>) => MemoryChange<Result>, guardDrift: boolean) =>
      Effect.map(store.modify(target, change, { guardDrift }), (r) => (isDrift(r) ? driftResult(r) : r))

    if (args.operations !== undefined && args.operations.length > 0) {
      for (const [i, op] of args.operations.entries()) {
        const threat = op.action === "remove" || op.content === undefined ? undefined : memoryThreat(op.content)
        if (threat !== undefined) return refused(`Operation ${i + 1}: ${threat}`)
      }
      return yield* run(applyBatch(b, args.operations), true)
    }

    const content = (args.content ?? "").trim()
    const oldText = (args.old_text ?? "").trim()
    const needsOldText = (action: string) =>
      Effect.map(store.entries(target), (entries) =>
        withEntries(b, entries, `'${action}' needs old_text, a short unique substring of the entry to ${action}. Send it again with old_text set to part of one of current_entries.`))

    switch (args.action) {
      case "add": {
        if (content.length === 0) return badCall("Content is required for 'add'.")
        const threat = memoryThreat(content)
        if (threat !== undefined) return refused(threat)
        return yield* run(addOne(b, content), false)
      }
      case "replace": {
        if (oldText.length === 0) return yield* needsOldText("replace")
        if (content.length === 0) return badCall("content is required for 'replace' (use 'remove' to delete an entry).")
        const threat = memoryThreat(content)
        if (threat !== undefined) return refused(threat)
        return yield* run(replaceOne(b, oldText, content), true)
      }
      case "remove": {
        if (oldText.length === 0) return yield* needsOldText("remove")
        return yield* run(removeOne(b, oldText), true)
      }
      default:
        return badCall("No action given. Use action add, replace or remove, or send operations.")
    }
  })
})
