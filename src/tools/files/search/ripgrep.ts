/**
 * The ripgrep engine: one `rg` pipeline run in the task's environment, so it
 * searches what the task's commands see on any backend. Like every command
 * it passes the approval gate first. Fixed flags keep its answer the same as
 * the builtin engine's: `--sort path` (stable order, so offsets page
 * correctly), `--no-config` and `--no-ignore-global` (no user config changes
 * the result), `--null` after paths (a path may hold `:`). Files mode stats
 * what `rg --files` lists and sorts it newest first in the same pipeline.
 */
import { Effect } from "effect"
import type { ShellService } from "../../../services/Shell.js"
import type { TerminalEnvironment } from "../../../services/TerminalBackend.js"
import type { ToolCallContext } from "../../../services/ToolContext.js"
import { MATCH_CONTENT_CHARS, wantsMultiline } from "./engine.js"
import type { MatchEntry, SearchAnswer, SearchRequest } from "./engine.js"

const NO_RG = "__HERMES_NO_RG__"
const STATUS = "__HERMES_RG_STATUS__"
const TIMEOUT_MS = 60_000
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024

export const shellQuote = (arg: string): string => (/^[A-Za-z0-9_./=:,+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`)

const BASE = ["rg", "--no-config", "--no-ignore-global", "--sort", "path", "--color", "never"]

/** The shell script for one search. Exported for tests. */
export const ripgrepScript = (request: SearchRequest): string => {
  const root = request.root.startsWith("-") ? `./${request.root}` : request.root
  let pipeline: string
  if (request.target === "files") {
    const words = [...BASE, "--files", "-0", "-g", request.pattern, "--", root]
    pipeline = `${words.map(shellQuote).join(" ")} 2>/dev/null | xargs -0 -r stat -c '%Y %n' 2>/dev/null | LC_ALL=C sort -k1,1nr -k2 | head -n ${request.fetch}`
  } else {
    const words = [...BASE, "--line-number", "--no-heading", "--with-filename"]
    if (request.outputMode !== "files_only") words.push("--null")
    if (request.outputMode === "content") words.push("--max-columns", "2000", "--max-columns-preview")
    if (wantsMultiline(request.pattern)) words.push("--multiline")
    if (request.outputMode === "content" && request.context > 0) words.push("-C", String(request.context))
    if (request.fileGlob !== undefined) words.push("--glob", request.fileGlob)
    if (request.outputMode === "files_only") words.push("-l")
    if (request.outputMode === "count") words.push("-c")
    words.push("-e", request.pattern, "--", root)
    // Context groups are separated by `--` lines: room for one per entry.
    const lines = request.outputMode === "content" && request.context > 0 ? request.fetch * 2 + 1 : request.fetch
    pipeline = `${words.map(shellQuote).join(" ")} 2>&1 | head -n ${lines}`
  }
  return `command -v rg >/dev/null 2>&1 || { printf '%s\\n' ${NO_RG}; exit 0; }\nset -o pipefail\n${pipeline}\nprintf '\\n%s %s\\n' ${STATUS} "$?"`
}

const parseContent = (payload: ReadonlyArray<string>, fetch: number): Array<MatchEntry> => {
  const matches: Array<MatchEntry> = []
  for (const line of payload) {
    const nul = line.indexOf("\u0000")
    if (nul < 0) continue
    const m = /^(\d+)[:-]/.exec(line.slice(nul + 1))
    if (m === null) continue
    const content = line.slice(nul + 1 + m[0].length)
    matches.push({ path: line.slice(0, nul), line: Number(m[1]), content: content.slice(0, MATCH_CONTENT_CHARS) })
    if (matches.length >= fetch) break
  }
  return matches
}

/** Interpret the pipeline's output: payload lines, then the status line. */
export const parseRipgrepOutput = (request: SearchRequest, output: string): SearchAnswer => {
  if (output.split("\n", 1)[0]?.trim() === NO_RG) return { _tag: "Unavailable" }
  const at = output.lastIndexOf(`\n${STATUS} `)
  if (at < 0) return { _tag: "Failed", error: "Search failed: ripgrep did not finish" }
  const status = Number(output.slice(at + STATUS.length + 2).trim())
  const lines = output.slice(0, at).split("\n").filter((l) => l.length > 0)
  const isPayload = (l: string) => request.outputMode === "files_only" && request.target === "content" ? !l.startsWith("rg: ") : l.includes("\u0000") || l === "--"
  const payload = request.target === "files" ? lines : lines.filter(isPayload)
  // 0 found, 1 nothing found, 141 stopped early by `head`; 2 is an error unless something came back too.
  if (status === 127) return { _tag: "Unavailable" }
  if (![0, 1, 141].includes(status) && payload.length === 0) {
    const diagnostics = lines.filter((l) => !payload.includes(l)).join("\n").trim()
    return { _tag: "Failed", error: `Search failed: ${diagnostics.length > 0 ? diagnostics : `ripgrep exited with status ${status}`}` }
  }
  if (request.target === "files") {
    const files = payload.map((l) => l.slice(l.indexOf(" ") + 1))
    return { _tag: "Files", files: files.slice(0, request.fetch) }
  }
  switch (request.outputMode) {
    case "files_only":
      return { _tag: "Files", files: payload.slice(0, request.fetch) }
    case "count":
      return {
        _tag: "Counts",
        counts: payload.flatMap((l) => {
          const nul = l.indexOf("\u0000")
          const n = Number(l.slice(nul + 1))
          return Number.isFinite(n) ? [[l.slice(0, nul), n] as const] : []
        })
      }
    case "content":
      return { _tag: "Matches", matches: parseContent(payload, request.fetch) }
  }
}

/** Run the search with ripgrep in `env`; Unavailable when rg is missing or the command was not approved. */
export const ripgrepSearch = (
  env: TerminalEnvironment,
  shell: ShellService,
  context: ToolCallContext,
  request: SearchRequest
): Effect.Effect<SearchAnswer> =>
  Effect.gen(function*() {
    const approved = yield* Effect.either(shell.approve(env, context, ripgrepScript(request), "foreground"))
    if (approved._tag === "Left") return { _tag: "Unavailable" } as const
    const ran = yield* Effect.either(env.run(approved.right, { timeoutMs: TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES }))
    if (ran._tag === "Left") return { _tag: "Failed", error: `Search failed: ${ran.left.message}` } as const
    if (ran.right.timedOut) return { _tag: "Failed", error: `Search timed out after ${TIMEOUT_MS / 1000}s; narrow the path, pattern or file_glob.` } as const
    const output = ran.right.output.head + ran.right.output.tail
    return parseRipgrepOutput(request, output)
  })
