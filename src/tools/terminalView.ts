/**
 * `read_terminal` and `close_terminal` (toolset `terminal`). In Hermes both
 * serve the desktop GUI: one reads the embedded terminal pane, the other
 * drops the read-only tab mirroring a background process (without killing
 * it). Headless, the "terminal" is a background session started with
 * `terminal(background=true)` (PTY or pipes): read_terminal shows its screen
 * (the last rows of its output, escape sequences applied and stripped) or
 * pages its scrollback; close_terminal drops it from the default view of
 * read_terminal while the process keeps running and its output stays
 * readable (`process(action='log')`, or read_terminal with its id).
 */
import { Effect, Schema } from "effect"
import { Processes } from "../services/Processes.js"
import type { ProcessInfo, ProcessesService } from "../services/Processes.js"
import { ToolContext } from "../services/ToolContext.js"
import { redactToolOutput, stripAnsiOutput } from "../lib/text.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { observedFn } from "../lib/effect/observedFn.js"

/** Rows a screen shows when no window is asked for (a classic terminal's height). */
export const VIEWPORT_ROWS = 24

/**
 * Closed views, per Processes instance (one per runtime), so closing a view
 * in one runtime never hides it in another.
 */
const closedViews = new WeakMap<ProcessesService, Set<string>>()
const closedIn = (processes: ProcessesService): Set<string> => {
  let set = closedViews.get(processes)
  if (set === undefined) {
    set = new Set()
    closedViews.set(processes, set)
  }
  return set
}

/** Output as rows on a screen: a carriage return within a line redraws it, so only its last segment shows. */
export const screenLines = (output: string): ReadonlyArray<string> => {
  const text = stripAnsiOutput(output).replace(/\n$/, "")
  if (text.length === 0) return []
  return text.split("\n").map((line) => {
    const cut = line.lastIndexOf("\r")
    return cut < 0 ? line : line.slice(cut + 1)
  })
}

const ProcessId = Schema.transform(Schema.Union(Schema.String, Schema.Number), Schema.String, {
  strict: true,
  decode: (value) => String(value),
  encode: (value) => value
})

export const ReadTerminalParameters = Schema.Struct({
  process_id: Schema.optional(ProcessId.annotations({
    jsonSchema: {
      type: "string",
      description: "The background session to read (from terminal(background=true) or process(action='list')). Omit for this task's most recent open one."
    }
  })),
  start_line: Schema.optional(Schema.Number.annotations({
    jsonSchema: { type: "integer", description: "0-indexed first line (0 = oldest). Omit for the visible screen." }
  })),
  count: Schema.optional(Schema.Number.annotations({
    jsonSchema: { type: "integer", description: `Lines to read from start_line. Defaults to the visible row count (${VIEWPORT_ROWS}).` }
  }))
})

/** This task's most recently started session whose view is open; running ones first. */
const defaultSession = (processes: ProcessesService, all: ReadonlyArray<ProcessInfo>): ProcessInfo | undefined => {
  const closed = closedIn(processes)
  const open = all.filter((p) => !closed.has(p.id)).sort((a, b) => b.startedAt - a.startedAt)
  return open.find((p) => p.status === "running") ?? open[0]
}

export const readTerminalTool = defineTool({
  name: "read_terminal",
  toolset: "terminal",
  emoji: "🖥️",
  parallel: "safe",
  description:
    "Read the screen of a background terminal session (one started with terminal(background=true), PTY or not). " +
    "With no arguments you get the visible screen (the last rows) of this task's most recent open session plus its total line count " +
    "(`total_lines`). To page through scrollback pass `start_line` (0 = oldest line) and `count`; valid lines are [0, total_lines). " +
    "Returns JSON: {process_id, status, total_lines, start, end, viewport_rows, cursor_row, text}.",
  parameters: ReadTerminalParameters,
  handler: observedFn("read_terminal")(function*(args) {
    const processes = yield* Processes
    const context = yield* ToolContext
    let info: ProcessInfo | undefined
    if (args.process_id !== undefined && args.process_id.trim().length > 0) {
      const id = args.process_id.trim()
      const found = yield* Effect.either(processes.get(id))
      if (found._tag === "Left") return { error: found.left.message }
      info = found.right
      // Reading a closed view explicitly opens it again (as reopening a tab would).
      closedIn(processes).delete(id)
    } else {
      const filter = { taskId: context.taskId, ...(context.sessionId === undefined ? {} : { sessionId: context.sessionId }) }
      info = defaultSession(processes, yield* processes.list(filter))
      if (info === undefined) {
        return { error: "No terminal session is open for this task: start one with terminal(background=true), or pass process_id." }
      }
    }
    const output = yield* Effect.orElseSucceed(processes.output(info.id), () => "")
    const lines = screenLines(redactToolOutput(output, info.command))
    const total = lines.length
    const viewport = VIEWPORT_ROWS
    const count = Math.max(1, Math.floor(args.count ?? viewport))
    const start = args.start_line === undefined ? Math.max(0, total - count) : Math.min(Math.max(0, Math.floor(args.start_line)), total)
    const end = Math.min(total, start + count)
    return {
      process_id: info.id,
      status: info.status,
      total_lines: total,
      start,
      end,
      viewport_rows: viewport,
      cursor_row: Math.max(0, total - 1),
      text: lines.slice(start, end).join("\n")
    }
  })
})

export const closeTerminalTool = defineTool({
  name: "close_terminal",
  toolset: "terminal",
  emoji: "🖥️",
  description:
    "Close the view of one of your background terminal sessions (those from terminal(background=true)): read_terminal stops showing it by default. " +
    "This does NOT kill the process: it keeps running, its output keeps buffering and stays readable with process(action='log') or " +
    "read_terminal(process_id=...). To actually stop the process, use process(action='kill') instead.",
  parameters: Schema.Struct({
    process_id: ProcessId.annotations({
      jsonSchema: {
        type: "string",
        description: "The background session's id (from terminal(background=true) output or process(action='list')) whose view should be closed."
      }
    })
  }),
  handler: observedFn("close_terminal")(function*(args) {
    const processes = yield* Processes
    const id = args.process_id.trim()
    if (id.length === 0) return { error: "process_id is required (the background process whose view to close)." }
    // Like Hermes, a session that already ended (or is gone) may still be closed: not an error.
    closedIn(processes).add(id)
    return {
      status: "ok",
      closed: id,
      note: "Closed the terminal view. The process was not killed; its output is still available with process(action='log')."
    }
  })
})
