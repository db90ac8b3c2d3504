/**
 * The headless batch: JSONL lines `{"id"?, "tool", "args", "task_id"?}` in,
 * one result per line out, in input order. A bad line becomes an error result
 * naming its line number; the other lines still run. Lines of the same task
 * run in order (they share an environment); different tasks run concurrently.
 */
import { Effect } from "effect"
import { ToolRegistry } from "../services/ToolRegistry.js"
import { DEFAULT_TASK_ID } from "../services/ToolContext.js"
import { errorJson } from "../layers/registry/sanitize.js"

export interface BatchCall {
  readonly line: number
  readonly id: string | number
  readonly tool: string
  readonly args: unknown
  readonly taskId: string
}

export interface BatchRejected {
  readonly line: number
  readonly id: string | number
  readonly tool: string | null
  readonly problem: string
}

export type BatchEntry = { readonly _tag: "Call"; readonly call: BatchCall } | { readonly _tag: "Rejected"; readonly rejected: BatchRejected }

export interface BatchResult {
  readonly id: string | number
  readonly tool: string | null
  readonly result: string
  /** "ok", "error" or "blocked" for calls; "invalid" for lines that could not be read. */
  readonly status: string
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v)

/** Parse the JSONL text; blank lines and `#` comments are skipped. */
export const parseBatch = (text: string): ReadonlyArray<BatchEntry> => {
  const out: Array<BatchEntry> = []
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1
    const trimmed = raw.trim()
    if (trimmed.length === 0 || trimmed.startsWith("#")) return
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e)
      out.push({ _tag: "Rejected", rejected: { line, id: line, tool: null, problem: `line ${line} is not valid JSON (${why})` } })
      return
    }
    if (!isRecord(value)) {
      out.push({ _tag: "Rejected", rejected: { line, id: line, tool: null, problem: `line ${line} must be a JSON object` } })
      return
    }
    const id = typeof value["id"] === "string" || typeof value["id"] === "number" ? value["id"] : line
    const tool = value["tool"]
    if (typeof tool !== "string" || tool.length === 0) {
      out.push({ _tag: "Rejected", rejected: { line, id, tool: null, problem: `line ${line} has no "tool" name` } })
      return
    }
    const task = value["task_id"]
    if (task !== undefined && typeof task !== "string") {
      out.push({ _tag: "Rejected", rejected: { line, id, tool, problem: `line ${line}: "task_id" must be a string` } })
      return
    }
    out.push({ _tag: "Call", call: { line, id, tool, args: value["args"] ?? {}, taskId: task ?? DEFAULT_TASK_ID } })
  })
  return out
}

export interface RunBatchOptions {
  /** How many tasks run at once (lines of one task always run in order). */
  readonly concurrency: number
  /** Called with each result as soon as it and every result before it are done. */
  readonly onResult?: (index: number, result: BatchResult) => Effect.Effect<void>
}

export const runBatch = (entries: ReadonlyArray<BatchEntry>, options: RunBatchOptions) =>
  Effect.gen(function*() {
    const registry = yield* ToolRegistry
    const results: Array<BatchResult | undefined> = entries.map(() => undefined)
    let flushed = 0
    const settle = (index: number, result: BatchResult) =>
      Effect.suspend(() => {
        results[index] = result
        const ready: Array<[number, BatchResult]> = []
        while (flushed < results.length && results[flushed] !== undefined) {
          ready.push([flushed, results[flushed]!])
          flushed++
        }
        const emit = options.onResult
        return emit === undefined ? Effect.void : Effect.forEach(ready, ([i, r]) => emit(i, r), { discard: true })
      })

    const groups = new Map<string, Array<number>>()
    const rejected: Array<number> = []
    entries.forEach((entry, i) => {
      if (entry._tag === "Rejected") return void rejected.push(i)
      const list = groups.get(entry.call.taskId) ?? []
      list.push(i)
      groups.set(entry.call.taskId, list)
    })

    yield* Effect.forEach(rejected, (i) => {
      const { id, problem, tool } = (entries[i] as Extract<BatchEntry, { _tag: "Rejected" }>).rejected
      return settle(i, { id, tool, result: errorJson(problem), status: "invalid" })
    }, { discard: true })

    yield* Effect.forEach(
      groups.values(),
      (indices) =>
        Effect.forEach(indices, (i) => {
          const { call } = entries[i] as Extract<BatchEntry, { _tag: "Call" }>
          return Effect.flatMap(
            registry.execute({ tool: call.tool, args: call.args, toolCallId: `batch-${call.line}` }, { context: { taskId: call.taskId } }),
            (outcome) => settle(i, { id: call.id, tool: call.tool, result: outcome.result, status: outcome.status })
          )
        }, { discard: true }),
      { concurrency: Math.max(1, options.concurrency), discard: true }
    )
    return results as ReadonlyArray<BatchResult>
  })
