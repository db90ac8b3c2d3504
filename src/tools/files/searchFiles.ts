/**
 * `search_files` (toolset `file`): regex search inside files, or files by
 * glob (newest first), under a path of the task's environment.
 *
 * The search runs where the files are: ripgrep as a command in the task's
 * environment when it is installed there (through the approval gate like any
 * command), otherwise the builtin engine over the environment's file
 * operations. Both give the same entries in the same order (see
 * `search/engine.ts`), so a backend without ripgrep answers like one with it.
 * `files.search_engine` forces one engine.
 *
 * Results under secret-bearing paths (and hard links to those files) are
 * dropped with a note; match text is masked like read_file's; five or more
 * matches come as a compact path-grouped block; a truncated result ends with
 * a hint naming the next offset; the same search four times in a row is
 * blocked.
 */
import { posix } from "node:path"
import { Effect, Schema } from "effect"
import { toJsonText } from "../../lib/pythonJson.js"
import { Config } from "../../services/Config.js"
import { Environments } from "../../services/Environments.js"
import { FileReadTracker } from "../../services/FileReadTracker.js"
import { Shell } from "../../services/Shell.js"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import { TerminalBackend } from "../../services/TerminalBackend.js"
import { redactFileText } from "../../lib/text.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { normalizePath, readBlockError } from "../../lib/pathSafety.js"
import { builtinSearch } from "./search/builtin.js"
import type { MatchEntry, OutputMode, SearchAnswer, SearchRequest } from "./search/engine.js"
import { wantsMultiline } from "./search/engine.js"
import { ripgrepSearch } from "./search/ripgrep.js"
import { makeTwinFinder } from "./hardLinks.js"
import { redactKeyMatches } from "./keyMatches.js"
import { similarPaths } from "./suggest.js"
import { FileToolError, resolveTarget, safetyPaths, taskFiles } from "./taskFiles.js"
import { observedFn } from "../../lib/effect/observedFn.js"

const TARGET_DESCRIPTION = "'content' searches inside file contents, 'files' searches for files by name"

export const SearchFilesParameters = Schema.Struct({
  pattern: Schema.String.annotations({ description: "Regex pattern for content search, or glob pattern (e.g., '*.py') for file search" }),
  // Hermes' legacy names grep/find are still accepted, but only content/files are advertised.
  target: Schema.optional(Schema.Literal("content", "files", "grep", "find").annotations({
    description: TARGET_DESCRIPTION,
    default: "content",
    jsonSchema: { type: "string", enum: ["content", "files"], description: TARGET_DESCRIPTION, default: "content" }
  })),
  path: Schema.optional(Schema.String.annotations({ description: "Directory or file to search in (default: current working directory)", default: "." })),
  file_glob: Schema.optional(Schema.String.annotations({ description: "Filter files by pattern in grep mode (e.g., '*.py' to only search Python files)" })),
  limit: Schema.optional(Schema.Int.annotations({ description: "Maximum number of results to return (default: 50)", default: 50 })),
  offset: Schema.optional(Schema.Int.annotations({ description: "Skip first N results for pagination (default: 0)", default: 0 })),
  output_mode: Schema.optional(Schema.Literal("content", "files_only", "count").annotations({
    description: "Output format for grep mode: 'content' shows matching lines with line numbers, 'files_only' lists file paths, 'count' shows match counts per file",
    default: "content"
  })),
  context: Schema.optional(Schema.Int.annotations({ description: "Number of context lines before and after each match (grep mode only)", default: 0 }))
})

export type SearchFilesArgs = typeof SearchFilesParameters.Type

/** At least this many matches come as one path-grouped text block. */
const DENSIFY_MIN = 5

/** Environments found to lack ripgrep: not asked again. */
const withoutRipgrep = new WeakSet<TerminalEnvironment>()

const densify = (matches: ReadonlyArray<MatchEntry>): string => {
  const lines: Array<string> = []
  let current: string | undefined
  for (const m of matches) {
    if (m.path !== current) {
      lines.push(m.path)
      current = m.path
    }
    lines.push(`  ${m.line}: ${m.content.trimEnd()}`)
  }
  return lines.join("\n")
}

export const searchFilesTool = defineTool<
  SearchFilesArgs,
  typeof SearchFilesParameters.Encoded,
  Config | Environments | FileReadTracker | Shell | TerminalBackend
>({
  name: "search_files",
  toolset: "file",
  emoji: "🔎",
  maxResultChars: 100_000,
  parallel: "safe",
  description:
    "Search file contents or find files by name. Use this instead of grep/rg/find/ls in terminal. Ripgrep-backed where available.\n\n" +
    "Content search (target='content'): Regex search inside files. Output modes: full matches with line numbers, file paths only, or match counts.\n\n" +
    "File search (target='files'): Find files by glob pattern (e.g., '*.py', '*config*'). Also use this instead of ls — results sorted by modification time.",
  parameters: SearchFilesParameters,
  check: Effect.flatMap(TerminalBackend, (backend) => backend.available),
  handler: observedFn("search_files")(function*(args) {
    const target = args.target === "grep" || args.target === undefined ? "content" : args.target === "find" ? "files" : args.target
    const offset = Math.max(0, args.offset ?? 0)
    const limit = Math.max(1, args.limit ?? 50)
    const outputMode: OutputMode = args.output_mode ?? "content"
    const context = Math.max(0, args.context ?? 0)
    const path = args.path === undefined || args.path.length === 0 ? "." : args.path
    if (args.pattern.length === 0) return yield* new FileToolError({ message: "search_files: 'pattern' must not be empty." })

    const files = yield* taskFiles
    const { env, settings } = files
    const tracker = yield* FileReadTracker
    const count = yield* tracker.recordSearch(files.context.taskId, JSON.stringify([args.pattern, target, path, args.file_glob ?? "", limit, offset]))
    if (count >= 4) {
      return {
        error: `BLOCKED: You have run this exact search ${count} times in a row. The results have NOT changed. ` +
          "You already have this information. STOP re-searching and proceed with your task.",
        pattern: args.pattern,
        already_searched: count
      }
    }

    const root = yield* resolveTarget(env, path)
    const safety = yield* safetyPaths(files)
    const blocked = readBlockError(root.real, safety, { literal: root.absolute })
    if (blocked !== undefined) return yield* new FileToolError({ message: blocked })
    const exists = yield* Effect.either(env.stat(root.absolute))
    if (exists._tag === "Left") {
      const similar = yield* similarPaths(env, root.absolute)
      return yield* new FileToolError({ message: `Path not found: ${path}${similar.length > 0 ? `. Similar paths: ${similar.join(", ")}` : ""}` })
    }
    // A FIFO (or device) named as the root would make the search read it forever.
    if (exists.right.type === "other") {
      return yield* new FileToolError({ message: `Cannot search '${path}': not a regular file or directory (a device, FIFO or socket).` })
    }

    const home = yield* env.resolvePath("~")
    const request: SearchRequest = {
      pattern: args.pattern,
      target,
      root: path === "~" ? home : path.startsWith("~/") ? `${home}${path.slice(1)}` : path,
      fileGlob: args.file_glob,
      outputMode,
      context,
      fetch: offset + limit + 1
    }
    let answer: SearchAnswer = { _tag: "Unavailable" }
    if (settings.searchEngine !== "builtin" && !withoutRipgrep.has(env)) {
      answer = yield* ripgrepSearch(env, yield* Shell, files.context, request)
      if (answer._tag === "Unavailable") withoutRipgrep.add(env)
    }
    if (answer._tag === "Unavailable") {
      if (settings.searchEngine === "rg") {
        return yield* new FileToolError({ message: "search_files: ripgrep (rg) is not available in this environment (files.search_engine: rg)." })
      }
      answer = yield* builtinSearch(env, request, root.absolute)
    }
    if (answer._tag === "Failed") return yield* new FileToolError({ message: answer.error })
    if (answer._tag === "Unavailable") return yield* new FileToolError({ message: "search_files: no search engine could run." })

    // Paths as printed are relative to the task's cwd (or absolute): check them as reads would be.
    const cwd = yield* env.cwd
    const absoluteOf = (shown: string) => normalizePath(shown.startsWith("/") ? shown : posix.join(cwd, shown))
    // Hard links to protected files are hidden like the files themselves (only files with several links are compared).
    const shownPaths = answer._tag === "Matches"
      ? answer.matches.slice(offset, offset + limit).map((m) => m.path)
      : answer._tag === "Files"
      ? answer.files.slice(offset, offset + limit)
      : answer.counts.slice(offset, offset + limit).map(([p]) => p)
    const twinOf = makeTwinFinder(files, safety)
    const twins = new Set<string>()
    yield* Effect.forEach(new Set(shownPaths), (shown) =>
      env.stat(absoluteOf(shown)).pipe(
        Effect.flatMap((st) => twinOf(absoluteOf(shown), st)),
        Effect.map((twin) => {
          if (twin !== undefined) twins.add(shown)
        }),
        Effect.ignore
      ), { concurrency: 8, discard: true })
    const hidden = (shown: string) => twins.has(shown) || readBlockError(absoluteOf(shown), safety) !== undefined
    let omitted = 0
    const keep = <T>(items: ReadonlyArray<T>, pathOf: (item: T) => string): Array<T> =>
      items.filter((item) => {
        if (!hidden(pathOf(item))) return true
        omitted++
        return false
      })

    const result: Record<string, unknown> = {}
    let total = 0
    if (answer._tag === "Matches") {
      total = answer.matches.length
      const shown = yield* redactKeyMatches(env, absoluteOf, keep(answer.matches.slice(offset, offset + limit), (m) => m.path))
      const page = shown.map((m) => ({ ...m, content: redactFileText(m.content) }))
      result["total_count"] = total
      if (page.length >= DENSIFY_MIN) {
        result["matches_format"] = "path-grouped: each file path on its own line, followed by indented '<line>: <content>' rows for matches in that file"
        result["matches_text"] = densify(page)
      } else if (page.length > 0) {
        result["matches"] = page.map((m) => ({ path: m.path, line: m.line, content: m.content }))
      }
    } else if (answer._tag === "Files") {
      total = answer.files.length
      result["total_count"] = total
      const page = keep(answer.files.slice(offset, offset + limit), (f) => f)
      if (page.length > 0) result["files"] = page
    } else {
      const page = keep(answer.counts.slice(offset, offset + limit), ([p]) => p)
      total = answer.counts.length
      result["total_count"] = page.reduce((sum, [, n]) => sum + n, 0)
      if (page.length > 0) result["counts"] = Object.fromEntries(page)
    }
    const truncated = total > offset + limit
    if (truncated) {
      result["truncated"] = true
      result["total_count_is_lower_bound"] = true
    }
    if (target === "content" && wantsMultiline(args.pattern)) {
      result["warning"] = "Pattern contains \\n — multiline mode was enabled automatically so the regex can match across line boundaries."
    }
    if (omitted > 0) {
      result["_omitted"] = `${omitted} result(s) omitted because they target credential, token, cache, or secret-bearing environment files.`
    }
    if (count >= 3) {
      result["_warning"] = `You have run this exact search ${count} times consecutively. The results have not changed. Use the information you already have.`
    }
    const json = toJsonText(result, settings.jsonStyle) ?? "{}"
    return truncated
      ? `${json}\n\n[Hint: Results truncated. Use offset=${offset + limit} to see more, or narrow with a more specific pattern or file_glob.]`
      : json
  })
})
