/**
 * `write_file` (toolset `file`): replace a file's content, creating parent
 * directories. The content goes to the environment as data, never through a
 * command line, so it has no length limit. Refuses system, credential and
 * config paths, paths outside `files.write_roots`, devices, FIFOs and
 * anything in /dev, /proc or /sys, read_file display text and structured
 * files that do not parse; asks approval for files other programs run
 * implicitly (shell start-up files, git config and hooks, .envrc, …); keeps an existing file's BOM and line
 * endings; replaces the file atomically; warns when the file changed on disk
 * since this task last read it; reports a syntax `lint` of the result (only
 * errors the write introduced).
 */
import { posix } from "node:path"
import { Effect, Schema } from "effect"
import { Approval } from "../../services/Approval.js"
import { Config } from "../../services/Config.js"
import { Environments } from "../../services/Environments.js"
import { FileReadTracker } from "../../services/FileReadTracker.js"
import { Shell } from "../../services/Shell.js"
import { TerminalBackend } from "../../services/TerminalBackend.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { lintAfterWrite, lintsFromText } from "./lint.js"
import { approveWrites, FileToolError, outsideWorkspaceWarning, resolveTarget, taskFiles, writeRefusal } from "./taskFiles.js"
import { existingFormat, INTERNAL_CONTENT_REFUSAL, isInternalStatusText, looksLikeReadFileOutput, matchFormat, writeTextAtomic } from "./writeText.js"
import { observedFn } from "../../lib/effect/observedFn.js"

/** Hermes guards edits of another profile's files; hermes-effect has one profile, so the flag is accepted and changes nothing. */
export const CROSS_PROFILE_DESCRIPTION =
  "Hermes' opt-out of its cross-profile guard (default false). Accepted for compatibility; this runtime serves a single profile, so it changes nothing."

export const WriteFileParameters = Schema.Struct({
  path: Schema.String.annotations({ description: "Path to the file to write (will be created if it doesn't exist, overwritten if it does)" }),
  content: Schema.String.annotations({ description: "Complete content to write to the file" }),
  cross_profile: Schema.optional(Schema.Boolean.annotations({ description: CROSS_PROFILE_DESCRIPTION, default: false }))
})

export type WriteFileArgs = typeof WriteFileParameters.Type

export const staleWarning = (shown: string) =>
  `Warning: ${shown} was modified since you last read it (external edit or concurrent agent). The content you read may be stale. ` +
  "Consider re-reading the file to verify before writing."

export const writeFileTool = defineTool<
  WriteFileArgs,
  typeof WriteFileParameters.Encoded,
  Approval | Config | Environments | FileReadTracker | Shell | TerminalBackend
>({
  name: "write_file",
  toolset: "file",
  emoji: "✍️",
  maxResultChars: 100_000,
  parallel: "path-scoped",
  pathArgument: "path",
  description:
    "Write content to a file, completely replacing existing content. Use this instead of echo/cat heredoc in terminal. Creates parent directories automatically. " +
    "OVERWRITES the entire file — use 'patch' for targeted edits. Syntax-checks what it writes: .json, .yaml/.yml and .toml content must parse or nothing is written; " +
    ".py and the other linted languages are checked after the write, and only errors this write introduced are reported (pre-existing ones are left out).",
  parameters: WriteFileParameters,
  check: Effect.flatMap(TerminalBackend, (backend) => backend.available),
  handler: observedFn("write_file")(function*(args) {
    if (args.path.length === 0) {
      return yield* new FileToolError({ message: "write_file: missing required field 'path'. Re-emit the tool call with both 'path' and 'content' set." })
    }
    const files = yield* taskFiles
    const { env, context } = files
    const tracker = yield* FileReadTracker
    const target = yield* resolveTarget(env, args.path)
    const refused = yield* writeRefusal(files, target)
    if (refused !== undefined) return yield* new FileToolError({ message: refused })
    if (isInternalStatusText(args.content) || looksLikeReadFileOutput(args.content)) {
      return yield* new FileToolError({ message: INTERNAL_CONTENT_REFUSAL })
    }

    const before = yield* Effect.either(env.stat(target.real))
    if (before._tag === "Right" && before.right.type === "directory") {
      return yield* new FileToolError({ message: `Cannot write '${args.path}': it is a directory.` })
    }
    const seen = yield* tracker.lastSeenMtime(context.taskId, target.real)
    const stale = before._tag === "Right" && seen !== undefined && seen !== before.right.mtimeMs
    const parentExisted = before._tag === "Right" || (yield* Effect.either(env.stat(posix.dirname(target.real))))._tag === "Right"

    const content = matchFormat(args.content, yield* existingFormat(env, target.real))
    yield* approveWrites(files, "write_file", [target])
    // The text before the write, for a lint that reports only what this write broke.
    const previous = before._tag === "Right" && lintsFromText(target.real)
      ? yield* Effect.orElseSucceed(Effect.map(env.readFile(target.real), (data) => new TextDecoder("utf-8").decode(data)), () => undefined)
      : undefined
    const bytes = yield* writeTextAtomic(env, target.real, args.path, content)
    const after = yield* Effect.either(env.stat(target.real))
    yield* tracker.noteWrite(context.taskId, target.real, after._tag === "Right" ? after.right.mtimeMs : undefined)
    yield* tracker.noteOtherToolCall(context.taskId)

    const lint = yield* lintAfterWrite({ env, shell: yield* Shell, context }, target.real, previous, content)

    // Hermes' key order: the write, its lint, the warning, then where it landed.
    const result: Record<string, unknown> = { bytes_written: bytes, dirs_created: !parentExisted, lint }
    const warning = stale ? staleWarning(args.path) : yield* outsideWorkspaceWarning(env, target)
    if (warning !== undefined) result["_warning"] = warning
    result["resolved_path"] = target.real
    result["files_modified"] = [target.real]
    return result
  })
})
