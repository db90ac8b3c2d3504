/**
 * `patch` (toolset `file`): targeted edits.
 *
 * - `mode: replace` — find `old_string` (unique unless `replace_all`) and put
 *   `new_string` there, with tolerant matching when the exact text is not in
 *   the file; returns a unified diff, or the closest sections on failure.
 * - `mode: patch` — a V4A multi-file patch (Add/Update/Delete/Move), applied
 *   all-or-nothing. Header paths with `..` are refused; every target passes
 *   the same write checks and approval as write_file before anything is written.
 *
 * Results carry Hermes' `lint` of each file written (errors the edit
 * introduced), and its failure shape `{success: false, error}`.
 */
import { Effect, Schema } from "effect"
import { Approval } from "../../services/Approval.js"
import { Config } from "../../services/Config.js"
import { Environments } from "../../services/Environments.js"
import { FileReadTracker } from "../../services/FileReadTracker.js"
import { Shell } from "../../services/Shell.js"
import { TerminalBackend } from "../../services/TerminalBackend.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { defaulted } from "../../lib/tool/lenient.js"
import { openEditable, restoreFormat } from "./editableText.js"
import { lintAfterWrite } from "./lint.js"
import type { LintTarget } from "./lint.js"
import { fuzzyReplace, isAlreadyApplied, noMatchHint } from "../../lib/fuzzyMatch.js"
import { hasTraversalComponent } from "../../lib/pathSafety.js"
import { approveWrites, FileToolError, outsideWorkspaceWarning, resolveTarget, taskFiles, writeRefusal } from "./taskFiles.js"
import type { Target, TaskFiles } from "./taskFiles.js"
import { unifiedDiff } from "./unifiedDiff.js"
import { applyPlan, planPatch } from "./v4aApply.js"
import { headerPaths, parseV4a } from "./v4aParser.js"
import { CROSS_PROFILE_DESCRIPTION, staleWarning } from "./writeFile.js"
import { writeTextAtomic } from "./writeText.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const PatchParameters = Schema.Struct({
  // Required in the definition (as in Hermes) but defaulted when missing.
  mode: defaulted(Schema.Literal("replace", "patch"), "replace", {
    description: "Edit mode. 'replace' (default): requires path + old_string + new_string. 'patch': requires patch content only.",
    default: "replace"
  }),
  path: Schema.optional(Schema.String.annotations({ description: "REQUIRED when mode='replace'. File path to edit." })),
  old_string: Schema.optional(Schema.String.annotations({
    description:
      "REQUIRED when mode='replace'. Exact text to find and replace. Must be unique in the file unless replace_all=true. Include surrounding context lines to ensure uniqueness."
  })),
  new_string: Schema.optional(Schema.String.annotations({
    description: "REQUIRED when mode='replace'. Replacement text. Pass empty string '' to delete the matched text."
  })),
  replace_all: Schema.optional(Schema.Boolean.annotations({ description: "Replace all occurrences instead of requiring a unique match (default: false)", default: false })),
  patch: Schema.optional(Schema.String.annotations({
    description:
      "REQUIRED when mode='patch'. V4A format patch content. Format:\n*** Begin Patch\n*** Update File: path/to/file\n@@ context hint @@\n context line\n-removed line\n+added line\n*** End Patch"
  })),
  cross_profile: Schema.optional(Schema.Boolean.annotations({ description: CROSS_PROFILE_DESCRIPTION, default: false }))
})

export type PatchArgs = typeof PatchParameters.Type

type Result = Record<string, unknown>

const traversalError = (path: string) =>
  `V4A patch header contains '..' traversal: '${path}'. Use the agent's cwd-relative path (no '..') or an absolute path in ` +
  "'*** Update File:' / '*** Add File:' / '*** Delete File:' / '*** Move File:' headers."

/** Refusal of any target, checked before anything is read. */
const checkTargets = (files: TaskFiles, targets: ReadonlyArray<Target>) =>
  Effect.gen(function*() {
    for (const target of targets) {
      const refused = yield* writeRefusal(files, target)
      if (refused !== undefined) return yield* new FileToolError({ message: refused })
    }
  })

/** The first stale-file warning among the targets (changed on disk since this task saw them). */
const staleness = (files: TaskFiles, tracker: FileReadTracker["Type"], targets: ReadonlyArray<Target>) =>
  Effect.gen(function*() {
    const warnings: Array<string> = []
    for (const target of targets) {
      const seen = yield* tracker.lastSeenMtime(files.context.taskId, target.real)
      const now = yield* Effect.either(files.env.stat(target.real))
      if (seen !== undefined && now._tag === "Right" && now.right.mtimeMs !== seen) warnings.push(staleWarning(target.input))
      else {
        const outside = yield* outsideWorkspaceWarning(files.env, target)
        if (outside !== undefined) warnings.push(outside)
      }
    }
    return warnings.length === 0 ? undefined : warnings.join(" | ")
  })

/** After writing: fresh mtimes, no dedup stubs for the old content, failure counts cleared. */
const noteWritten = (files: TaskFiles, tracker: FileReadTracker["Type"], paths: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    for (const path of paths) {
      const stat = yield* Effect.either(files.env.stat(path))
      yield* tracker.noteWrite(files.context.taskId, path, stat._tag === "Right" ? stat.right.mtimeMs : undefined)
    }
    yield* tracker.resetPatchFailures(files.context.taskId, paths)
    yield* tracker.noteOtherToolCall(files.context.taskId)
  })

const replaceMode = (args: PatchArgs, files: TaskFiles, tracker: FileReadTracker["Type"], lintTarget: LintTarget): Effect.Effect<Result, FileToolError, Approval> =>
  Effect.gen(function*() {
    if (args.path === undefined || args.path.length === 0) return yield* new FileToolError({ message: "path required" })
    if (args.old_string === undefined || args.new_string === undefined) {
      return yield* new FileToolError({ message: "old_string and new_string required" })
    }
    const { env, context } = files
    const target = yield* resolveTarget(env, args.path)
    yield* checkTargets(files, [target])
    const warning = yield* staleness(files, tracker, [target])

    const opened = yield* openEditable(env, target.real)
    // Hermes' answer when the file cannot be read (it does not tell a missing file apart).
    if (opened._tag === "Missing") return { success: false, error: `Failed to read file: ${target.real}` }
    if (opened._tag === "Refused") return yield* new FileToolError({ message: `Cannot patch '${args.path}': ${opened.reason}` })
    const file = opened.file
    const oldString = args.old_string.replace(/\r\n/g, "\n")
    const newString = args.new_string.replace(/\r\n/g, "\n")
    const outcome = fuzzyReplace(file.text, oldString, newString, args.replace_all === true)

    if (outcome.count === 0) {
      if (isAlreadyApplied(file.text, oldString, newString)) {
        return {
          success: true,
          no_change: true,
          note: `File already contains the target text — the edit appears to be already applied to ${target.real}. No write performed; do not re-send this patch.`,
          files_modified: [target.real],
          resolved_path: target.real
        }
      }
      const result: Result = { success: false, error: `${outcome.error ?? "no match"}${noMatchHint(outcome.error, oldString, file.text)}` }
      if (outcome.error?.startsWith("Could not find") === true) {
        const failures = yield* tracker.recordPatchFailure(context.taskId, target.real)
        if (failures >= 3) {
          result["_hint"] = `This is failure #${failures} patching '${args.path}'. Stop retrying with variations of the same old_string. ` +
            "Either: (1) re-read the file fresh to verify current content, (2) use a longer / more unique old_string with surrounding context lines, " +
            "or (3) use write_file to replace the entire file if the targeted region is hard to anchor."
        } else if (!String(result["error"]).includes("Did you mean one of these sections?")) {
          result["_hint"] = "old_string not found. Use read_file to verify the current content, or search_files to locate the text."
        }
      }
      return result
    }

    yield* approveWrites(files, "patch", [target])
    yield* writeTextAtomic(env, target.real, args.path, restoreFormat(outcome.content, file))
    yield* noteWritten(files, tracker, [target.real])
    const lint = yield* lintAfterWrite(lintTarget, target.real, file.text, outcome.content)
    // Hermes' shape and order; its diff names the file by the absolute path it edited (`a//abs/path`).
    const result: Result = { success: true, diff: unifiedDiff(file.text, outcome.content, target.real), files_modified: [target.real], lint }
    if (warning !== undefined) result["_warning"] = warning
    result["resolved_path"] = target.real
    return result
  })

const patchMode = (args: PatchArgs, files: TaskFiles, tracker: FileReadTracker["Type"], lintTarget: LintTarget): Effect.Effect<Result, FileToolError, Approval> =>
  Effect.gen(function*() {
    if (args.patch === undefined || args.patch.trim().length === 0) return yield* new FileToolError({ message: "patch content required" })
    const named = headerPaths(args.patch)
    const climbing = named.find(hasTraversalComponent)
    if (climbing !== undefined) return yield* new FileToolError({ message: traversalError(climbing) })
    const { env } = files
    const targets = new Map<string, Target>()
    for (const path of named) if (!targets.has(path)) targets.set(path, yield* resolveTarget(env, path))
    yield* checkTargets(files, [...targets.values()])

    const parsed = parseV4a(args.patch)
    if (parsed._tag === "Invalid") return { success: false, error: `Failed to parse patch: ${parsed.error}` }
    for (const op of parsed.operations) {
      for (const path of op.to === undefined ? [op.path] : [op.path, op.to]) {
        if (!targets.has(path)) targets.set(path, yield* resolveTarget(env, path))
      }
    }
    const warning = yield* staleness(files, tracker, [...targets.values()])
    const planned = yield* planPatch(env, parsed.operations, targets)
    if (planned._tag === "Invalid") {
      return { success: false, error: `Patch validation failed (no files were modified):\n${planned.errors.map((e) => `  • ${e}`).join("\n")}` }
    }
    const plan = planned.plan
    // Every target (added, updated, moved to and from, deleted) before the first write: all or nothing.
    yield* approveWrites(files, "patch", [...targets.values()])
    const applied = yield* applyPlan(env, plan)
    if (applied.error !== undefined) return { success: false, error: applied.error }
    const touched = [...new Set([...plan.modified, ...plan.created, ...plan.deleted])]
    yield* noteWritten(files, tracker, touched)
    // Hermes lints each written file and keys the results by the path as the patch names it.
    const lint: Record<string, unknown> = {}
    for (const step of plan.steps) {
      if (step.kind === "write") lint[step.target.input] = yield* lintAfterWrite(lintTarget, step.target.real, step.previous, step.content)
    }
    const result: Result = { success: true }
    if (plan.diff.length > 0) result["diff"] = plan.diff
    result["files_modified"] = touched
    if (plan.created.length > 0) result["files_created"] = plan.created
    if (plan.deleted.length > 0) result["files_deleted"] = plan.deleted
    if (Object.keys(lint).length > 0) result["lint"] = lint
    if (warning !== undefined) result["_warning"] = warning
    return result
  })

export const patchTool = defineTool<PatchArgs, typeof PatchParameters.Encoded, Approval | Config | Environments | FileReadTracker | Shell | TerminalBackend>({
  name: "patch",
  toolset: "file",
  emoji: "🔧",
  maxResultChars: 100_000,
  parallel: "path-scoped",
  // V4A patches carry their paths inside the patch text: without `path` the planner runs the call alone.
  pathArgument: "path",
  description:
    "Targeted find-and-replace edits in files. Use this instead of sed/awk in terminal. Uses fuzzy matching (9 strategies) so minor whitespace/indentation " +
    "differences won't break it. Returns a unified diff. Syntax checks run on the edited files afterwards.\n\n" +
    "REPLACE MODE (mode='replace', default): find a unique string and replace it. REQUIRED PARAMETERS: mode, path, old_string, new_string.\n" +
    "PATCH MODE (mode='patch'): apply V4A multi-file patches for bulk changes, all or nothing. REQUIRED PARAMETERS: mode, patch.",
  parameters: PatchParameters,
  check: Effect.flatMap(TerminalBackend, (backend) => backend.available),
  handler: observedFn("patch")(function*(args) {
    const files = yield* taskFiles
    const tracker = yield* FileReadTracker
    const lintTarget: LintTarget = { env: files.env, shell: yield* Shell, context: files.context }
    return args.mode === "replace"
      ? yield* replaceMode(args, files, tracker, lintTarget)
      : yield* patchMode(args, files, tracker, lintTarget)
  })
})
