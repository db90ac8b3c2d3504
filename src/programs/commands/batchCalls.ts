/**
 * `batch` over tool-call lines: results in input order, `--resume` after a kill.
 *
 * Resume: the results file holds answers in input order, so its lines are
 * matched to input lines by position (id and tool must agree; the first
 * mismatch ends what is reused). An answer that finished while an earlier
 * line was still running cannot be written in order yet; it goes to
 * `<out>.journal` at once, and a resumed run reuses it too. So every call
 * whose answer was recorded runs once; only the calls running when the
 * batch was killed (at most --concurrency) may run a second time. The journal
 * is removed when a run finishes.
 */
import { closeSync, openSync, rmSync, writeSync } from "node:fs"
import { Effect } from "effect"
import { idKey, isToolError, parseBatch, runBatch } from "../batchRunner.js"
import type { BatchEntry, BatchResult } from "../batchRunner.js"
import { keptLines } from "../resultsFile.js"
import { BatchInputError, progressBar } from "./batchShared.js"
import { withBatchRuntime, writeErr, writeLineSync } from "./shared.js"

export interface CallOptions {
  readonly out: string | undefined
  readonly concurrency: number
  readonly resume: boolean
}

const idOf = (e: BatchEntry) => (e._tag === "Call" ? e.call.id : e.rejected.id)
const toolOf = (e: BatchEntry) => (e._tag === "Call" ? e.call.tool : e.rejected.tool)
const lineOf = (e: BatchEntry) => (e._tag === "Call" ? e.call.line : e.rejected.line)

/** A recorded answer belongs to this input line when id and tool agree. */
const sameCall = (e: BatchEntry | undefined, row: Record<string, unknown>) =>
  e !== undefined && idKey(row["id"]) === idKey(idOf(e)) && (row["tool"] ?? null) === toolOf(e) && typeof row["result"] === "string"

const reused = (e: BatchEntry, row: Record<string, unknown>, status?: unknown): BatchResult => {
  const result = String(row["result"])
  const known = status === "ok" || status === "error" || status === "blocked" ? status : undefined
  return { id: idOf(e), tool: toolOf(e), result, status: known ?? "ok" }
}

export const journalPath = (out: string) => `${out}.journal`

/** What an earlier run of the same batch already answered: the in-order prefix of `out`, and the journal. */
const earlierAnswers = (entries: ReadonlyArray<BatchEntry>, out: string) => {
  let position = 0
  let matching = true
  const prefix = keptLines(out, (row) => {
    matching = matching && sameCall(entries[position], row)
    if (matching) position++
    return matching
  })
  const done = new Map<number, BatchResult>()
  prefix.forEach((row, i) => {
    const e = entries[i]!
    if (e._tag === "Call") done.set(i, reused(e, row))
  })
  const indexOfLine = new Map(entries.map((e, i) => [lineOf(e), i] as const))
  keptLines(journalPath(out), (row) => {
    const i = indexOfLine.get(Number(row["line"]))
    const e = i === undefined ? undefined : entries[i]
    if (i === undefined || e === undefined || e._tag !== "Call" || !sameCall(e, row)) return false
    if (!done.has(i)) done.set(i, reused(e, row, row["status"]))
    return true
  })
  return { written: prefix.length, done }
}

export const runCalls = (text: string, opts: CallOptions) =>
  Effect.gen(function*() {
    if (opts.resume && opts.out === undefined) return yield* new BatchInputError({ message: "--resume needs --out FILE (the results to resume from)" })
    const entries = parseBatch(text)
    const out = opts.out
    const earlier = opts.resume && out !== undefined ? earlierAnswers(entries, out) : { written: 0, done: new Map<number, BatchResult>() }
    const fd = out === undefined ? 1 : openSync(out, opts.resume ? "a" : "w")
    const journalFd = out === undefined ? undefined : openSync(journalPath(out), opts.resume ? "a" : "w")
    const tty = process.stderr.isTTY === true
    let shown = earlier.written
    const onResult = (i: number, r: BatchResult) =>
      Effect.suspend(() =>
        i < earlier.written
          ? Effect.void
          : Effect.andThen(writeLineSync(fd, `${JSON.stringify({ id: r.id, tool: r.tool, result: r.result })}\n`), () => {
            shown++
            if (tty) process.stderr.write(progressBar(shown, entries.length))
          })
      )
    const onHeld = (i: number, r: BatchResult) =>
      Effect.sync(() => {
        if (journalFd === undefined) return
        writeSync(journalFd, `${JSON.stringify({ line: lineOf(entries[i]!), id: r.id, tool: r.tool, status: r.status, result: r.result })}\n`)
      })
    for (const [i, e] of entries.entries()) {
      if (e._tag === "Rejected" && i >= earlier.written) yield* writeErr(`hermes-effect batch: ${e.rejected.problem}`)
    }
    const answeredBefore = earlier.done.size + entries.slice(0, earlier.written).filter((e) => e._tag === "Rejected").length
    if (answeredBefore > 0) yield* writeErr(`batch: resuming, ${answeredBefore} lines already answered`)
    const started = performance.now()
    const results = yield* withBatchRuntime(runBatch(entries, { concurrency: opts.concurrency, onResult, onHeld, done: earlier.done })).pipe(
      Effect.ensuring(Effect.sync(() => {
        if (fd !== 1) closeSync(fd)
        if (journalFd !== undefined) closeSync(journalFd)
      }))
    )
    // Every answer is in the results file now: the journal has nothing left to give.
    if (out !== undefined) rmSync(journalPath(out), { force: true })
    if (tty) process.stderr.write("\n")
    const invalid = results.filter((r) => r.status === "invalid").length
    const errors = results.filter(isToolError).length
    yield* writeErr(
      `batch: ${results.length} lines, ${results.length - invalid - errors} ok, ${errors} tool errors, ${invalid} invalid lines` +
        `${answeredBefore > 0 ? `, ${answeredBefore} answered before (not run again)` : ""}, ${Math.round(performance.now() - started)} ms`
    )
    if (invalid > 0) process.exitCode = 1
  })
