/**
 * The headless batch: JSONL lines `{"id"?, "tool", "args", "task_id"?}` in,
 * one result per line out, in input order. A bad line becomes an error result
 * naming its line number; the other lines still run. Lines of the same task
 * run in order (they share an environment); different tasks run concurrently.
 *
 * Or prompt lines `{"id", "prompt", "toolsets"?}`: each an agent run in its
 * own session, concurrently, results in completion order so a crash loses
 * nothing already finished (`--resume` skips those ids).
 */
import { Effect } from "effect"
import { AgentLoop } from "../services/AgentLoop.js"
import type { AgentStatus } from "../services/AgentLoop.js"
import { SessionStore } from "../services/SessionStore.js"
import { ToolExecutor } from "../services/ToolExecutor.js"
import { DEFAULT_TASK_ID } from "../services/ToolContext.js"
import { errorJson } from "../layers/executor/sanitizeErrorMessage.js"
import { endTask } from "../layers/agent/endTask.js"

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

/** One JSONL line: its object, or why it is not one. Blank lines and `#` comments are not yielded. */
type JsonLine =
  | { readonly line: number; readonly value: Record<string, unknown> }
  | { readonly line: number; readonly problem: string }

/** The lines of a JSONL text, shared by the tool-call and the prompt batch readers. */
const jsonLines = (text: string): ReadonlyArray<JsonLine> =>
  text.split(/\r?\n/).flatMap((raw, i): Array<JsonLine> => {
    const line = i + 1
    const trimmed = raw.trim()
    if (trimmed.length === 0 || trimmed.startsWith("#")) return []
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch (e) {
      return [{ line, problem: `line ${line} is not valid JSON (${e instanceof Error ? e.message : String(e)})` }]
    }
    return [isRecord(value) ? { line, value } : { line, problem: `line ${line} must be a JSON object` }]
  })

/** Parse the JSONL text; blank lines and `#` comments are skipped. */
export const parseBatch = (text: string): ReadonlyArray<BatchEntry> => {
  const out: Array<BatchEntry> = []
  for (const entry of jsonLines(text)) {
    const { line } = entry
    if ("problem" in entry) {
      out.push({ _tag: "Rejected", rejected: { line, id: line, tool: null, problem: entry.problem } })
      continue
    }
    const value = entry.value
    const id = typeof value["id"] === "string" || typeof value["id"] === "number" ? value["id"] : line
    const tool = value["tool"]
    if (typeof tool !== "string" || tool.length === 0) {
      out.push({ _tag: "Rejected", rejected: { line, id, tool: null, problem: `line ${line} has no "tool" name` } })
      continue
    }
    const task = value["task_id"]
    if (task !== undefined && typeof task !== "string") {
      out.push({ _tag: "Rejected", rejected: { line, id, tool, problem: `line ${line}: "task_id" must be a string` } })
      continue
    }
    out.push({ _tag: "Call", call: { line, id, tool, args: value["args"] ?? {}, taskId: task ?? DEFAULT_TASK_ID } })
  }
  return out
}

/** Statuses that tools put in their own result objects when they did not do what was asked. */
const ERROR_STATUSES: ReadonlySet<unknown> = new Set(["error", "blocked", "disabled"])

/**
 * Whether the model saw an error: dispatch's `{"error": …}` and a tool's own
 * refusal (`"error"` set, `"success": false`, `"status": "blocked"`) alike.
 * A command that ran and failed (`exit_code` 1, `"error": null`) is not one.
 */
export const answeredWithError = (result: string): boolean => {
  if (!result.startsWith("{")) return false
  let value: unknown
  try {
    value = JSON.parse(result)
  } catch {
    return false
  }
  if (!isRecord(value)) return false
  const error = value["error"]
  if (error !== undefined && error !== null && error !== false && error !== "") return true
  return value["success"] === false || ERROR_STATUSES.has(value["status"])
}

/** A call's result counts as a tool error when dispatch said so or when the text the model got is an error. */
export const isToolError = (r: BatchResult): boolean =>
  r.status === "error" || r.status === "blocked" || (r.status !== "invalid" && answeredWithError(r.result))

export interface RunBatchOptions {
  /** How many tasks run at once (lines of one task always run in order). */
  readonly concurrency: number
  /** Called with each result as soon as it and every result before it are done. */
  readonly onResult?: (index: number, result: BatchResult) => Effect.Effect<void>
  /**
   * Called with a result that finished but waits behind an unfinished earlier
   * line (so `onResult` does not have it yet); `--resume` journals these.
   */
  readonly onHeld?: (index: number, result: BatchResult) => Effect.Effect<void>
  /** Results from an earlier run (`--resume`), by index: settled without running the call again. */
  readonly done?: ReadonlyMap<number, BatchResult>
}

export const runBatch = (entries: ReadonlyArray<BatchEntry>, options: RunBatchOptions) =>
  Effect.gen(function*() {
    const executor = yield* ToolExecutor
    const results: Array<BatchResult | undefined> = entries.map(() => undefined)
    let flushed = 0
    const settle = (index: number, result: BatchResult, fresh = true) =>
      Effect.suspend(() => {
        results[index] = result
        const ready: Array<[number, BatchResult]> = []
        while (flushed < results.length && results[flushed] !== undefined) {
          ready.push([flushed, results[flushed]!])
          flushed++
        }
        const emit = options.onResult
        const held = fresh && index >= flushed && options.onHeld !== undefined ? options.onHeld(index, result) : Effect.void
        return emit === undefined ? held : Effect.zipRight(held, Effect.forEach(ready, ([i, r]) => emit(i, r), { discard: true }))
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
          const before = options.done?.get(i)
          if (before !== undefined) return settle(i, before, false)
          return Effect.flatMap(
            executor.execute({ tool: call.tool, args: call.args, toolCallId: `batch-${call.line}` }, { context: { taskId: call.taskId } }),
            (outcome) => settle(i, { id: call.id, tool: call.tool, result: outcome.result, status: outcome.status })
          )
        }, { discard: true }),
      { concurrency: Math.max(1, options.concurrency), discard: true }
    )
    return results as ReadonlyArray<BatchResult>
  })

// ---------------------------------------------------------------------------
// Prompt lines: `{"id", "prompt", "toolsets"?}`, each an agent run in its own session.

export interface PromptLine {
  readonly line: number
  readonly id: string | number
  readonly prompt: string
  readonly toolsets: ReadonlyArray<string> | undefined
}

export type PromptEntry = { readonly _tag: "Prompt"; readonly prompt: PromptLine } | { readonly _tag: "Rejected"; readonly rejected: BatchRejected }

/** One finished prompt, as written to the output (completion order). */
export interface PromptResult {
  readonly id: string | number
  /** The run's status, `failed` when it could not finish (model error), `invalid` for a line that could not be read. */
  readonly status: AgentStatus | "failed" | "invalid"
  readonly response: string | null
  readonly session_id: string | null
  readonly iterations: number
  readonly tool_calls: number
  readonly error?: string | undefined
}

const hasPrompt = (raw: string): boolean => {
  const trimmed = raw.trim()
  if (!trimmed.startsWith("{") || !trimmed.includes("\"prompt\"")) return false
  try {
    const value: unknown = JSON.parse(trimmed)
    return isRecord(value) && "prompt" in value
  } catch {
    return false
  }
}

/** A batch of prompts when any line has a "prompt" (a file is one kind or the other). */
export const isPromptBatch = (text: string): boolean => text.split(/\r?\n/).some(hasPrompt)

/** The key an id is remembered by for `--resume` (1 and "1" are the same line). */
export const idKey = (id: unknown): string => String(id)

const toolsetList = (value: unknown): ReadonlyArray<string> | undefined | null => {
  if (value === undefined || value === null) return undefined
  if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as ReadonlyArray<string>
  return null
}

export const parsePromptBatch = (text: string): ReadonlyArray<PromptEntry> => {
  const out: Array<PromptEntry> = []
  const seen = new Set<string>()
  const reject = (line: number, id: string | number, problem: string) => out.push({ _tag: "Rejected", rejected: { line, id, tool: null, problem } })
  jsonLines(text).forEach((entry) => {
    const { line } = entry
    if ("problem" in entry) return void reject(line, line, entry.problem)
    const value = entry.value
    const id = typeof value["id"] === "string" || typeof value["id"] === "number" ? value["id"] : line
    const prompt = value["prompt"]
    if (typeof prompt !== "string" || prompt.trim().length === 0) {
      const why = "tool" in value ? "a batch of prompts cannot also hold tool calls" : "it has no \"prompt\""
      return void reject(line, id, `line ${line}: ${why}`)
    }
    const toolsets = toolsetList(value["toolsets"])
    if (toolsets === null) return void reject(line, id, `line ${line}: "toolsets" must be a list of toolset names`)
    if (seen.has(idKey(id))) return void reject(line, id, `line ${line}: duplicate id ${JSON.stringify(id)}`)
    seen.add(idKey(id))
    out.push({ _tag: "Prompt", prompt: { line, id, prompt, toolsets } })
  })
  return out
}

export interface RunPromptBatchOptions {
  /** Prompts run at once. */
  readonly concurrency: number
  /** Ids (see `idKey`) already done: skipped. */
  readonly skip?: ReadonlySet<string> | undefined
  readonly model?: string | undefined
  readonly maxIterations?: number | undefined
  /** Toolsets of lines that name none (default: the runtime's). */
  readonly toolsets?: ReadonlyArray<string> | undefined
  /** Export each finished session as a ShareGPT trajectory line for `onResult`. */
  readonly trajectories?: boolean | undefined
  /** Called as each prompt finishes (completion order), with its trajectory when asked for. */
  readonly onResult?: ((result: PromptResult, trajectory: string | undefined) => Effect.Effect<void>) | undefined
}

export const runPromptBatch = (entries: ReadonlyArray<PromptEntry>, options: RunPromptBatchOptions) =>
  Effect.gen(function*() {
    const agent = yield* AgentLoop
    const store = yield* SessionStore
    const emit = options.onResult ?? (() => Effect.void)
    const results: Array<PromptResult> = []
    const settle = (result: PromptResult, trajectory: string | undefined) =>
      Effect.zipRight(Effect.sync(() => void results.push(result)), emit(result, trajectory))

    for (const entry of entries) {
      if (entry._tag !== "Rejected") continue
      const { id, problem } = entry.rejected
      if (options.skip?.has(idKey(id)) === true) continue
      yield* settle({ id, status: "invalid", response: null, session_id: null, iterations: 0, tool_calls: 0, error: problem }, undefined)
    }

    const todo = entries.flatMap((e) => (e._tag === "Prompt" && options.skip?.has(idKey(e.prompt.id)) !== true ? [e.prompt] : []))
    yield* Effect.forEach(todo, (line) => {
      let sessionId: string | null = null
      let taskId: string | null = null
      const toolsets = line.toolsets ?? options.toolsets
      return agent.run({
        prompt: line.prompt,
        source: "batch",
        ...(toolsets === undefined ? {} : { toolsets: { enabled: toolsets } }),
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
        onEvent: (event) =>
          Effect.sync(() => {
            if (event._tag !== "SessionStarted") return
            sessionId = event.sessionId
            taskId = event.taskId
          })
      }).pipe(
        // Each prompt is a task of its own: what it started ends with it (see endTask).
        Effect.ensuring(Effect.suspend(() => (taskId === null ? Effect.void : endTask(taskId)))),
        Effect.map((r): PromptResult => ({
          id: line.id,
          status: r.status,
          response: r.response,
          session_id: r.sessionId,
          iterations: r.iterations,
          tool_calls: r.toolCalls
        })),
        Effect.catchAll((e) =>
          Effect.succeed<PromptResult>({ id: line.id, status: "failed", response: null, session_id: sessionId, iterations: 0, tool_calls: 0, error: e.message })
        ),
        Effect.flatMap((result) =>
          options.trajectories !== true || result.session_id === null || result.status === "failed"
            ? settle(result, undefined)
            : Effect.flatMap(
              store.export(result.session_id, "sharegpt").pipe(Effect.map((t) => t.trim()), Effect.orElseSucceed(() => undefined)),
              (trajectory) => settle(result, trajectory)
            )
        )
      )
    }, { concurrency: Math.max(1, options.concurrency), discard: true })
    return results as ReadonlyArray<PromptResult>
  })
