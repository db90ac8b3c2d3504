/** `hermes-effect batch <file.jsonl>`: run a file of tool calls headless. */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs"
import { Args, Command, Options } from "@effect/cli"
import { Data, Effect, Option } from "effect"
import { parseBatch, runBatch } from "../batchRunner.js"
import type { BatchResult } from "../batchRunner.js"
import { withRuntime, writeErr } from "./shared.js"

/** The batch file cannot be read: a usage problem (exit 2). */
export class BatchInputError extends Data.TaggedError("BatchInputError")<{ readonly message: string }> {}

const progressBar = (done: number, total: number) => {
  const width = 30
  const filled = total === 0 ? width : Math.round((done / total) * width)
  return `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`
}

export const batchCommand = Command.make(
  "batch",
  {
    file: Args.text({ name: "file.jsonl" }).pipe(Args.withDescription("JSONL of {\"id\"?, \"tool\", \"args\", \"task_id\"?}; - for stdin")),
    out: Options.text("out").pipe(Options.withDescription("Write results to this file instead of stdout"), Options.optional),
    concurrency: Options.integer("concurrency").pipe(
      Options.withDescription("Tasks run at once; lines of one task_id always run in order"),
      Options.withDefault(4)
    )
  },
  (opts) =>
    Effect.gen(function*() {
      const text = yield* Effect.try({
        try: () => readFileSync(opts.file === "-" ? 0 : opts.file, "utf8"),
        catch: (e) => new BatchInputError({ message: `cannot read ${opts.file}: ${e instanceof Error ? e.message : String(e)}` })
      })
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
      const results = yield* withRuntime(runBatch(entries, { concurrency: opts.concurrency, onResult })).pipe(
        Effect.ensuring(Effect.sync(() => (fd === 1 ? undefined : closeSync(fd))))
      )
      if (tty) process.stderr.write("\n")
      const count = (s: string) => results.filter((r) => r.status === s).length
      yield* writeErr(
        `batch: ${results.length} lines, ${count("ok")} ok, ${count("error") + count("blocked")} tool errors, ${count("invalid")} invalid lines, ${Math.round(performance.now() - started)} ms`
      )
      if (count("invalid") > 0) process.exitCode = 1
    })
).pipe(Command.withDescription("Run a JSONL file of tool calls; results as JSONL {\"id\",\"tool\",\"result\"} in input order"))
