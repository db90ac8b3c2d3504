/** `hermes-effect batch <file.jsonl>`: run a file of tool calls, or of prompts, headless. */
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs"
import { Args, Command, Options } from "@effect/cli"
import { Data, Effect, Option } from "effect"
import { idKey, isPromptBatch, parseBatch, parsePromptBatch, runBatch, runPromptBatch } from "../batchRunner.js"
import type { BatchResult, PromptResult } from "../batchRunner.js"
import { agentRuntime, maxTurnsOption, modelOption, scriptOption } from "./run.js"
import { splitList, toolsetsOption, withBatchRuntime, writeErr } from "./shared.js"

/** The batch file cannot be read: a usage problem (exit 2). */
export class BatchInputError extends Data.TaggedError("BatchInputError")<{ readonly message: string }> {}

const progressBar = (done: number, total: number) => {
  const width = 30
  const filled = total === 0 ? width : Math.round((done / total) * width)
  return `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`
}

/**
 * The complete, readable lines of a results file that `keep` accepts; the file
 * is rewritten (atomically) without the rest: a line cut short by a crash, or
 * a failed prompt that is about to run again.
 */
const keptLines = (path: string, keep: (value: Record<string, unknown>) => boolean): Array<Record<string, unknown>> => {
  if (!existsSync(path)) return []
  const text = readFileSync(path, "utf8")
  const complete = text.endsWith("\n") ? text : text.slice(0, text.lastIndexOf("\n") + 1)
  const kept: Array<Record<string, unknown>> = []
  const lines: Array<string> = []
  for (const line of complete.split("\n")) {
    if (line.trim().length === 0) continue
    try {
      const value: unknown = JSON.parse(line)
      if (value !== null && typeof value === "object" && !Array.isArray(value) && keep(value as Record<string, unknown>)) {
        kept.push(value as Record<string, unknown>)
        lines.push(line)
      }
    } catch {
      // a damaged line: dropped
    }
  }
  const rewritten = lines.map((l) => `${l}\n`).join("")
  if (rewritten !== text) {
    writeFileSync(`${path}.tmp`, rewritten)
    renameSync(`${path}.tmp`, path)
  }
  return kept
}

interface PromptOptions {
  readonly out: string | undefined
  readonly concurrency: number
  readonly resume: boolean
  readonly trajectories: string | undefined
  readonly toolsets: ReadonlyArray<string> | undefined
  readonly model: string | undefined
  readonly script: string | undefined
  readonly maxTurns: number | undefined
}

/** Prompt lines: results in completion order, appended as each finishes, so `--resume` can pick up after a crash. */
const runPrompts = (text: string, opts: PromptOptions) =>
  Effect.gen(function*() {
    if (opts.resume && opts.out === undefined) return yield* new BatchInputError({ message: "--resume needs --out FILE (the results to resume from)" })
    const entries = parsePromptBatch(text)
    const done = opts.resume && opts.out !== undefined
      ? keptLines(opts.out, (r) => r["status"] !== "failed" && r["status"] !== "invalid")
      : []
    const skip = new Set(done.map((r) => idKey(r["id"])))
    const sessions = new Set(done.map((r) => String(r["session_id"])))
    if (opts.trajectories !== undefined) {
      if (opts.resume) keptLines(opts.trajectories, (t) => sessions.has(String(t["session_id"])))
      else writeFileSync(opts.trajectories, "")
    }
    const fd = opts.out === undefined ? 1 : openSync(opts.out, opts.resume ? "a" : "w")
    const trajectoriesFd = opts.trajectories === undefined ? undefined : openSync(opts.trajectories, "a")
    const total = entries.filter((e) => !skip.has(idKey(e._tag === "Prompt" ? e.prompt.id : e.rejected.id))).length
    const tty = process.stderr.isTTY === true
    let finished = 0
    const onResult = (r: PromptResult, trajectory: string | undefined) =>
      Effect.sync(() => {
        // The trajectory first: a result line is only there once everything for its id is.
        if (trajectory !== undefined && trajectoriesFd !== undefined) writeSync(trajectoriesFd, `${trajectory}\n`)
        writeSync(fd, `${JSON.stringify(r)}\n`)
        finished++
        if (tty) process.stderr.write(progressBar(finished, total))
      })
    for (const e of entries) {
      if (e._tag === "Rejected" && !skip.has(idKey(e.rejected.id))) yield* writeErr(`hermes-effect batch: ${e.rejected.problem}`)
    }
    if (skip.size > 0) yield* writeErr(`batch: resuming, ${skip.size} prompts already done`)
    const started = performance.now()
    const results = yield* runPromptBatch(entries, {
      concurrency: opts.concurrency,
      skip,
      model: opts.model,
      maxIterations: opts.maxTurns,
      toolsets: opts.toolsets,
      trajectories: trajectoriesFd !== undefined,
      onResult
    }).pipe(
      Effect.provide(agentRuntime(opts.script, false)),
      Effect.ensuring(Effect.sync(() => {
        if (fd !== 1) closeSync(fd)
        if (trajectoriesFd !== undefined) closeSync(trajectoriesFd)
      }))
    )
    if (tty) process.stderr.write("\n")
    const count = (s: string) => results.filter((r) => r.status === s).length
    const exhausted = count("budget_exhausted") + count("invalid_tool_calls")
    yield* writeErr(
      `batch: ${results.length} prompts, ${count("completed")} completed, ${exhausted} stopped early, ${count("failed")} failed, ` +
        `${count("invalid")} invalid lines${skip.size > 0 ? `, ${skip.size} skipped (done before)` : ""}, ${Math.round(performance.now() - started)} ms`
    )
    if (count("failed") + count("invalid") > 0) process.exitCode = 1
  })

export const batchCommand = Command.make(
  "batch",
  {
    file: Args.text({ name: "file.jsonl" }).pipe(
      Args.withDescription("JSONL of tool calls {\"id\"?, \"tool\", \"args\", \"task_id\"?} or of prompts {\"id\", \"prompt\", \"toolsets\"?}; - for stdin")
    ),
    out: Options.text("out").pipe(Options.withDescription("Write results to this file instead of stdout"), Options.optional),
    concurrency: Options.integer("concurrency").pipe(
      Options.withDescription("Tasks (or prompts) run at once; lines of one task_id always run in order"),
      Options.withDefault(4)
    ),
    resume: Options.boolean("resume").pipe(Options.withDescription("Prompts: skip ids already in --out (failed ones run again)")),
    trajectories: Options.text("trajectories").pipe(
      Options.withDescription("Prompts: append each finished session as a ShareGPT trajectory line to this file"),
      Options.optional
    ),
    toolsets: toolsetsOption,
    model: modelOption,
    script: scriptOption,
    maxTurns: maxTurnsOption
  },
  (opts) =>
    Effect.gen(function*() {
      const text = yield* Effect.try({
        try: () => readFileSync(opts.file === "-" ? 0 : opts.file, "utf8"),
        catch: (e) => new BatchInputError({ message: `cannot read ${opts.file}: ${e instanceof Error ? e.message : String(e)}` })
      })
      if (isPromptBatch(text)) {
        return yield* runPrompts(text, {
          out: Option.getOrUndefined(opts.out),
          concurrency: opts.concurrency,
          resume: opts.resume,
          trajectories: Option.getOrUndefined(opts.trajectories),
          toolsets: splitList(opts.toolsets),
          model: Option.getOrUndefined(opts.model),
          script: Option.getOrUndefined(opts.script),
          maxTurns: Option.getOrUndefined(opts.maxTurns)
        })
      }
      const entries = parseBatch(text)
      const outPath = Option.getOrUndefined(opts.out)
      const fd = outPath === undefined ? 1 : openSync(outPath, "w")
      const tty = process.stderr.isTTY === true
      let done = 0
      const onResult = (_: number, r: BatchResult) =>
        Effect.sync(() => {
          writeSync(fd, `${JSON.stringify({ id: r.id, tool: r.tool, result: r.result })}\n`)
          done++
          if (tty) process.stderr.write(progressBar(done, entries.length))
        })
      for (const e of entries) if (e._tag === "Rejected") yield* writeErr(`hermes-effect batch: ${e.rejected.problem}`)
      const started = performance.now()
      const results = yield* withBatchRuntime(runBatch(entries, { concurrency: opts.concurrency, onResult })).pipe(
        Effect.ensuring(Effect.sync(() => (fd === 1 ? undefined : closeSync(fd))))
      )
      if (tty) process.stderr.write("\n")
      const count = (s: string) => results.filter((r) => r.status === s).length
      yield* writeErr(
        `batch: ${results.length} lines, ${count("ok")} ok, ${count("error") + count("blocked")} tool errors, ${count("invalid")} invalid lines, ${Math.round(performance.now() - started)} ms`
      )
      if (count("invalid") > 0) process.exitCode = 1
    })
).pipe(Command.withDescription(
  "Run a JSONL file of tool calls (results {\"id\",\"tool\",\"result\"} in input order) or of prompts (one agent run per line, " +
    "results {\"id\",\"status\",\"response\",\"session_id\",…} in completion order; --resume, --trajectories)"
))
