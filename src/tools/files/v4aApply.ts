/**
 * Applying a parsed V4A patch all-or-nothing. Phase one works out every
 * file's new content in memory (later operations see the results of earlier
 * ones) and checks every hunk, target and syntax; if anything fails nothing
 * is touched. Phase two writes; should a write fail half-way (a full disk, a
 * permission), the operations already done are undone in reverse.
 */
import { Effect } from "effect"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import { openEditable, restoreFormat } from "./editableText.js"
import type { EditableText } from "./editableText.js"
import { fuzzyReplace, isAlreadyApplied, noMatchHint } from "../../lib/fuzzyMatch.js"
import { syntaxProblem, syntaxRefusal } from "./syntaxGate.js"
import type { Target } from "./taskFiles.js"
import { unifiedDiff } from "./unifiedDiff.js"
import type { Hunk, PatchOperation } from "./v4aParser.js"
import { hunkSides } from "./v4aParser.js"
import { writeTextAtomic } from "./writeText.js"

/** One file operation ready to run, with what it takes to undo it. */
type Step =
  | { readonly kind: "write"; readonly target: Target; readonly content: string; readonly previous: string | undefined; readonly created: boolean }
  | { readonly kind: "delete"; readonly target: Target; readonly previous: string }
  | { readonly kind: "move"; readonly from: Target; readonly to: Target }

export interface PlannedPatch {
  readonly steps: ReadonlyArray<Step>
  readonly diff: string
  readonly created: ReadonlyArray<string>
  readonly deleted: ReadonlyArray<string>
  readonly modified: ReadonlyArray<string>
}

/** A file as the patch has left it so far: its text, or gone. */
type Overlay = Map<string, { readonly file: EditableText } | "deleted">

/** Hermes' window around a context hint when a hunk does not match the whole file. */
const HINT_BEFORE = 500
const HINT_AFTER = 2000

const applyHunk = (text: string, hunk: Hunk): { readonly text: string; readonly error?: string; readonly changed: boolean } => {
  const { search, replace } = hunkSides(hunk)
  if (search.length > 0 && search.join("\n") === replace.join("\n")) return { text, changed: false }
  const replacement = replace.join("\n")
  if (search.length === 0) {
    if (replacement.length === 0) return { text, changed: false }
    // Addition only: after the line holding the hint, else at the end.
    if (hunk.hint !== undefined) {
      const first = text.indexOf(hunk.hint)
      if (first >= 0 && text.indexOf(hunk.hint, first + 1) >= 0) {
        const count = text.split(hunk.hint).length - 1
        return { text, changed: false, error: `addition-only hunk context hint '${hunk.hint}' is ambiguous (${count} occurrences) — provide a more unique hint` }
      }
      if (first >= 0) {
        const eol = text.indexOf("\n", first)
        return eol < 0
          ? { text: `${text}\n${replacement}`, changed: true }
          : { text: `${text.slice(0, eol + 1)}${replacement}\n${text.slice(eol + 1)}`, changed: true }
      }
    }
    return { text: `${text.replace(/\n+$/, "")}${text.length > 0 ? "\n" : ""}${replacement}\n`, changed: true }
  }
  const pattern = search.join("\n")
  const whole = fuzzyReplace(text, pattern, replacement)
  if (whole.count > 0) return { text: whole.content, changed: true }
  if (hunk.hint !== undefined) {
    const at = text.indexOf(hunk.hint)
    if (at >= 0) {
      const start = Math.max(0, at - HINT_BEFORE)
      const end = Math.min(text.length, at + HINT_AFTER)
      const windowed = fuzzyReplace(text.slice(start, end), pattern, replacement)
      if (windowed.count > 0) return { text: text.slice(0, start) + windowed.content + text.slice(end), changed: true }
    }
  }
  if (isAlreadyApplied(text, pattern, replacement)) return { text, changed: false }
  const label = hunk.hint !== undefined ? `'${hunk.hint}'` : "(no hint)"
  return { text, changed: false, error: `${label} not found — ${whole.error ?? "no match"}${noMatchHint(whole.error, pattern, text)}` }
}

/**
 * Work out the whole patch without touching anything. `targets` resolves
 * each path in the task's environment; errors are returned, all of them.
 */
export const planPatch = (
  env: TerminalEnvironment,
  operations: ReadonlyArray<PatchOperation>,
  targets: ReadonlyMap<string, Target>
): Effect.Effect<{ readonly _tag: "Planned"; readonly plan: PlannedPatch } | { readonly _tag: "Invalid"; readonly errors: ReadonlyArray<string> }> =>
  Effect.gen(function*() {
    const overlay: Overlay = new Map()
    const errors: Array<string> = []
    const steps: Array<Step> = []
    const diffs: Array<string> = []
    const created: Array<string> = []
    const deleted: Array<string> = []
    const modified: Array<string> = []
    let changes = 0

    const targetOf = (path: string) => targets.get(path) as Target
    /** The file's current state: from the overlay, or opened from disk. */
    const load = (target: Target) =>
      Effect.gen(function*() {
        const known = overlay.get(target.real)
        if (known === "deleted") return { _tag: "Missing" } as const
        if (known !== undefined) return { _tag: "Opened", file: known.file } as const
        return yield* openEditable(env, target.real)
      })
    const original = new Map<string, string | undefined>()
    /** The bytes on disk before the patch (for undo), read once. */
    const remember = (target: Target, file: EditableText | undefined) => {
      if (!original.has(target.real)) original.set(target.real, file === undefined ? undefined : restoreFormat(file.text, file))
    }

    for (const op of operations) {
      const target = targetOf(op.path)
      const state = yield* load(target)
      if (state._tag === "Refused") {
        errors.push(`${op.path}: ${state.reason}`)
        continue
      }
      switch (op.kind) {
        case "update": {
          if (state._tag === "Missing") {
            errors.push(`${op.path}: file not found`)
            break
          }
          remember(target, state.file)
          let text = state.file.text
          let failed = false
          op.hunks.forEach((hunk, i) => {
            if (failed) return
            const applied = applyHunk(text, hunk)
            if (applied.error !== undefined) {
              errors.push(`${op.path}: hunk ${i + 1} ${applied.error}`)
              failed = true
              return
            }
            if (applied.changed || hunk.lines.some((l) => l.prefix !== " ")) changes++
            text = applied.text
          })
          if (failed) break
          const content = restoreFormat(text, state.file)
          const problem = syntaxProblem(target.real, content)
          if (problem !== undefined) {
            errors.push(syntaxRefusal(op.path, problem))
            break
          }
          const before = restoreFormat(state.file.text, state.file)
          overlay.set(target.real, { file: { ...state.file, text } })
          steps.push({ kind: "write", target, content, previous: original.get(target.real), created: false })
          diffs.push(unifiedDiff(state.file.text, text, op.path))
          if (before !== content) modified.push(target.real)
          break
        }
        case "add": {
          if (state._tag === "Opened") {
            errors.push(`${op.path}: file already exists — use Update File, not Add File`)
            break
          }
          remember(target, undefined)
          const lines = op.hunks.flatMap((h) => h.lines.filter((l) => l.prefix === "+").map((l) => l.text))
          const text = lines.length === 0 ? "" : `${lines.join("\n")}\n`
          const problem = syntaxProblem(target.real, text)
          if (problem !== undefined) {
            errors.push(syntaxRefusal(op.path, problem))
            break
          }
          changes++
          overlay.set(target.real, { file: { text, bom: false, crlf: false } })
          steps.push({ kind: "write", target, content: text, previous: original.get(target.real), created: true })
          diffs.push(unifiedDiff("", text, op.path))
          created.push(target.real)
          break
        }
        case "delete": {
          if (state._tag === "Missing") {
            errors.push(`${op.path}: file not found for deletion`)
            break
          }
          remember(target, state.file)
          changes++
          overlay.set(target.real, "deleted")
          steps.push({ kind: "delete", target, previous: restoreFormat(state.file.text, state.file) })
          diffs.push(unifiedDiff(state.file.text, undefined, op.path) || `# Deleted: ${op.path}`)
          deleted.push(target.real)
          break
        }
        case "move": {
          const to = targetOf(op.to as string)
          if (state._tag === "Missing") {
            errors.push(`${op.path}: source file not found for move`)
            break
          }
          const destination = yield* load(to)
          if (destination._tag === "Opened") {
            errors.push(`${op.to}: destination already exists — move would overwrite`)
            break
          }
          if (destination._tag === "Refused") {
            errors.push(`${op.to}: could not confirm the destination is free — ${destination.reason}`)
            break
          }
          changes++
          overlay.set(to.real, { file: state.file })
          overlay.set(target.real, "deleted")
          steps.push({ kind: "move", from: target, to })
          diffs.push(`# Moved: ${op.path} -> ${op.to}`)
          modified.push(target.real, to.real)
          break
        }
      }
    }
    if (errors.length === 0 && changes === 0) errors.push("Patch contains no changes (only context lines were provided)")
    if (errors.length > 0) return { _tag: "Invalid", errors } as const
    return {
      _tag: "Planned",
      plan: { steps, diff: diffs.filter((d) => d.length > 0).join("\n"), created, deleted, modified: [...new Set(modified)] }
    } as const
  })

/** Run the steps; on a failure undo what was done (newest first) and report it. */
export const applyPlan = (env: TerminalEnvironment, plan: PlannedPatch): Effect.Effect<{ readonly error?: string }> =>
  Effect.gen(function*() {
    const done: Array<Step> = []
    for (const step of plan.steps) {
      const ran = yield* Effect.either(runStep(env, step))
      if (ran._tag === "Right") {
        done.push(step)
        continue
      }
      const undo = yield* Effect.either(Effect.forEach([...done].reverse(), (s) => undoStep(env, s), { discard: true }))
      return {
        error: undo._tag === "Right"
          ? `Patch failed while writing and was rolled back (no files were modified): ${ran.left}`
          : `Patch failed while writing and could not be fully rolled back (state may be inconsistent — check with git diff): ${ran.left}`
      }
    }
    return {}
  })

const runStep = (env: TerminalEnvironment, step: Step): Effect.Effect<void, string> => {
  switch (step.kind) {
    case "write":
      return Effect.asVoid(writeTextAtomic(env, step.target.real, step.target.input, step.content)).pipe(Effect.mapError((e) => e.message))
    case "delete":
      return env.remove(step.target.absolute).pipe(Effect.mapError((e) => e.message))
    case "move":
      return env.rename(step.from.absolute, step.to.absolute).pipe(Effect.mapError((e) => e.message))
  }
}

const undoStep = (env: TerminalEnvironment, step: Step): Effect.Effect<void, unknown> => {
  switch (step.kind) {
    case "write":
      return step.created || step.previous === undefined
        ? env.remove(step.target.absolute)
        : env.writeFile(step.target.absolute, step.previous, { atomic: true })
    case "delete":
      return env.writeFile(step.target.absolute, step.previous, { atomic: true })
    case "move":
      return env.rename(step.to.absolute, step.from.absolute)
  }
}
