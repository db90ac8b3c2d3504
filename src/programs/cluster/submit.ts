/**
 * `batch prompts.jsonl --cluster <postgres-url>`: the batch goes to the
 * cluster's storage as one persisted `Prompt` message per line; runners
 * (`hermes-effect runner`) take them. This process only writes the messages,
 * polls the results table for a progress bar, and writes the result lines in
 * input order once every prompt has one. The batch id is a hash of the file
 * and the options, so running the same command again picks up the same batch:
 * prompts with a result are not sent again, the others are sent again and the
 * message storage drops those it already holds (same primary key).
 */
import { createHash } from "node:crypto"
import { writeFileSync } from "node:fs"
import { Effect, Layer, Schedule } from "effect"
import { clientSharding } from "../../layers/cluster/shardingLayer.js"
import { PromptEntity } from "../../layers/cluster/promptEntity.js"
import { ClusterStorePg, pgClientLayer } from "../../layers/sql/pg/ClusterStorePg.js"
import { ClusterStore, ClusterStoreError, FAILED_STATUSES, promptEntityId } from "../../services/Cluster.js"
import type { PromptJob } from "../../services/Cluster.js"
import { parsePromptBatch } from "../batchRunner.js"
import type { PromptResult } from "../batchRunner.js"
import { progressBar } from "../commands/batchShared.js"

export interface SubmitOptions {
  readonly url: string
  readonly file: string
  readonly out: string | undefined
  readonly trajectories: string | undefined
  readonly toolsets: ReadonlyArray<string> | undefined
  readonly model: string | undefined
  readonly maxTurns: number | undefined
  /** How often the results table is polled (ms). */
  readonly pollMs?: number | undefined
}

const log = (line: string) => Effect.sync(() => void process.stderr.write(`${line}\n`))

export const batchIdOf = (text: string, options: Pick<SubmitOptions, "toolsets" | "model" | "maxTurns" | "trajectories">) =>
  createHash("sha256")
    .update(text)
    .update(JSON.stringify([options.toolsets ?? null, options.model ?? null, options.maxTurns ?? null, options.trajectories !== undefined]))
    .digest("hex")
    .slice(0, 16)

const submit = (text: string, options: SubmitOptions) =>
  Effect.gen(function*() {
    const store = yield* ClusterStore
    const entries = parsePromptBatch(text)
    const batchId = batchIdOf(text, options)
    yield* store.registerBatch(batchId, options.file, entries.length)
    const before = new Set((yield* store.results(batchId)).map((r) => r.index))
    if (before.size > 0) yield* log(`batch: resuming cluster batch ${batchId}, ${before.size} prompts already done`)
    else yield* log(`batch: cluster batch ${batchId}, ${entries.length} prompts`)

    // Unreadable lines never reach a runner: their `invalid` result is stored here, once, like any other.
    yield* Effect.forEach(entries, (entry, index) => {
      if (entry._tag !== "Rejected" || before.has(index)) return Effect.void
      const { id, problem } = entry.rejected
      const result: PromptResult = { id, status: "invalid", response: null, session_id: null, iterations: 0, tool_calls: 0, error: problem }
      return Effect.zipRight(
        log(`hermes-effect batch: ${problem}`),
        Effect.asVoid(store.saveResult(batchId, { index, status: "invalid", line: JSON.stringify(result), trajectory: null }, "submitter", undefined))
      )
    }, { discard: true })

    const client = yield* PromptEntity.client
    const jobs = entries.flatMap((entry, index): Array<PromptJob> =>
      entry._tag !== "Prompt" || before.has(index) ? [] : [{
        batchId,
        index,
        id: entry.prompt.id,
        line: entry.prompt.line,
        prompt: entry.prompt.prompt,
        ...(entry.prompt.toolsets ?? options.toolsets) === undefined ? {} : { toolsets: entry.prompt.toolsets ?? options.toolsets },
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
        trajectories: options.trajectories !== undefined
      }]
    )
    const started = performance.now()
    // `discard`: stored in Postgres and the owning runner notified; the reply is the result row, read below.
    // A runner dying during the send breaks the notify socket (a defect in the cluster client): the send is
    // idempotent (primary key), so it is simply made again, and the next owner of the shard gets the notify.
    const send = (job: PromptJob) =>
      client(promptEntityId(batchId, job.index)).Run(job, { discard: true }).pipe(
        Effect.catchAllDefect((defect) => Effect.fail(defect)),
        Effect.retry(Schedule.spaced("500 millis").pipe(Schedule.intersect(Schedule.recurs(60))))
      )
    yield* Effect.forEach(jobs, send, { concurrency: 16, discard: true })
    const sentMs = performance.now() - started

    const tty = process.stderr.isTTY === true
    const total = entries.length
    yield* store.progress(batchId).pipe(
      Effect.tap((p) => (tty ? Effect.sync(() => void process.stderr.write(progressBar(p.done + p.failed, total))) : Effect.void)),
      Effect.repeat({ schedule: Schedule.spaced(options.pollMs ?? 300), until: (p) => p.done + p.failed >= total })
    )
    if (tty) process.stderr.write("\n")

    const results = yield* store.results(batchId)
    const lines = results.map((r) => `${r.line}\n`).join("")
    if (options.out === undefined) process.stdout.write(lines)
    else writeFileSync(options.out, lines)
    if (options.trajectories !== undefined) {
      writeFileSync(options.trajectories, results.flatMap((r) => (r.trajectory === null ? [] : [`${r.trajectory}\n`])).join(""))
    }
    const count = (s: string) => results.filter((r) => r.status === s).length
    const exhausted = count("budget_exhausted") + count("invalid_tool_calls")
    yield* log(
      `batch: ${results.length} prompts, ${count("completed")} completed, ${exhausted} stopped early, ${count("failed")} failed, ` +
        `${count("invalid")} invalid lines${before.size > 0 ? `, ${before.size} skipped (done before)` : ""}, ` +
        `${Math.round(performance.now() - started)} ms (${Math.round(sentMs)} ms to submit) on the cluster`
    )
    if (results.some((r) => FAILED_STATUSES.includes(r.status))) process.exitCode = 1
  })

/** Cluster, storage and config failures as one error with a message (the CLI prints it on one line). */
const asClusterError = (operation: string) => (e: unknown): ClusterStoreError =>
  e instanceof ClusterStoreError
    ? e
    : new ClusterStoreError({ operation, message: e instanceof Error ? e.message : typeof e === "object" && e !== null && "_tag" in e ? String(e._tag) : String(e) })

export const runClusterBatch = (text: string, options: SubmitOptions): Effect.Effect<void, ClusterStoreError> =>
  submit(text, options).pipe(
    Effect.provide(Layer.merge(clientSharding(options.url), ClusterStorePg.pipe(Layer.provide(pgClientLayer(options.url))))),
    Effect.scoped,
    Effect.mapError(asClusterError("submit the batch"))
  )
