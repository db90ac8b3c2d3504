/** `hermes-effect batch <file.jsonl>`: run a file of tool calls, or of prompts, headless. */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs"
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { idKey, isPromptBatch, parsePromptBatch, runPromptBatch } from "../batchRunner.js"
import type { PromptResult } from "../batchRunner.js"
import { keptLines } from "../resultsFile.js"
import { runCalls } from "./batchCalls.js"
import { BatchInputError, progressBar } from "./batchShared.js"
import { agentRuntime, maxTurnsOption, modelOption, scriptOption } from "./run.js"
import { splitList, toolsetsOption, writeErr, writeLineSync } from "./shared.js"
import { readStdinText } from "./stdinText.js"

export { BatchInputError } from "./batchShared.js"

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
      Effect.suspend(() => {
        // The trajectory first: a result line is only there once everything for its id is.
        if (trajectory !== undefined && trajectoriesFd !== undefined) writeSync(trajectoriesFd, `${trajectory}\n`)
        return Effect.andThen(writeLineSync(fd, `${JSON.stringify(r)}\n`), () => {
          finished++
          if (tty) process.stderr.write(progressBar(finished, total))
        })
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
    resume: Options.boolean("resume").pipe(Options.withDescription(
      "Continue a killed batch from --out: tool-call lines already answered there are not run again; prompts skip ids already done (failed ones run again)"
    )),
    trajectories: Options.text("trajectories").pipe(
      Options.withDescription("Prompts: append each finished session as a ShareGPT trajectory line to this file"),
      Options.optional
    ),
    toolsets: toolsetsOption,
    model: modelOption,
    script: scriptOption,
    maxTurns: maxTurnsOption,
    cluster: Options.text("cluster").pipe(
      Options.withDescription("Prompts: run them on the runners of this cluster (Postgres URL; see `hermes-effect runner`), results in input order"),
      Options.optional
    )
  },
  (opts) =>
    Effect.gen(function*() {
      const unreadable = (message: string) => new BatchInputError({ message: `cannot read ${opts.file}: ${message}` })
      const text = opts.file === "-"
        ? yield* readStdinText(unreadable)
        : yield* Effect.try({
          try: () => readFileSync(opts.file, "utf8"),
          catch: (e) => unreadable(e instanceof Error ? e.message : String(e))
        })
      if (Option.isSome(opts.cluster) && !isPromptBatch(text)) {
        return yield* new BatchInputError({ message: `--cluster runs prompt batches; ${opts.file} holds tool-call lines (run it without --cluster)` })
      }
      if (isPromptBatch(text) && Option.isSome(opts.cluster)) {
        // Loaded only here: a batch without --cluster never imports the cluster code.
        const { runClusterBatch } = yield* Effect.promise(() => import("../cluster/submit.js"))
        return yield* runClusterBatch(text, {
          url: opts.cluster.value,
          file: opts.file,
          out: Option.getOrUndefined(opts.out),
          trajectories: Option.getOrUndefined(opts.trajectories),
          toolsets: splitList(opts.toolsets),
          model: Option.getOrUndefined(opts.model),
          maxTurns: Option.getOrUndefined(opts.maxTurns)
        })
      }
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
      return yield* runCalls(text, { out: Option.getOrUndefined(opts.out), concurrency: opts.concurrency, resume: opts.resume })
    })
).pipe(Command.withDescription(
  "Run a JSONL file of tool calls (results {\"id\",\"tool\",\"result\"} in input order; --resume) or of prompts (one agent run per line, " +
    "results {\"id\",\"status\",\"response\",\"session_id\",…} in completion order; --resume, --trajectories)"
))
