/**
 * The `Prompt` entity's handler on a runner: runs the prompt through the same
 * `runPromptBatch` (AgentLoop) as a local batch, in the runner's own session
 * database, then copies the session with its messages and the result line to
 * Postgres in one statement keyed by batch and index. A message delivered
 * again (its runner was killed before the reply) finds the result there and
 * returns; one whose earlier run died halfway runs again from the start and
 * only the run that commits first is kept. A prompt that fails (model error,
 * defect) is stored as `failed` and answered, so it is never retried.
 *
 * A runner with free slots also re-offers the unanswered messages of its own
 * shards every few seconds (`SWEEP_EVERY`). @effect/cluster marks a message it
 * reads as taken for ten minutes and only clears the marks of a shard when a
 * runner acquires it. When shards change hands under load, a message can be
 * read by the runner letting go of its shard after the new owner cleared the
 * marks (or the clearing timed out, which the cluster ignores): nobody runs it,
 * and the batch waits ten minutes for that prompt. Offered again, a message
 * that runs here already is skipped by the cluster, and a second run elsewhere
 * is harmless (the result row decides).
 */
import { MessageStorage, ShardId, Sharding } from "@effect/cluster"
import { Cause, Effect, Layer, Schedule } from "effect"
import { runPromptBatch } from "../../programs/batchRunner.js"
import type { PromptResult } from "../../programs/batchRunner.js"
import { AgentLoop } from "../../services/AgentLoop.js"
import { ClusterStore } from "../../services/Cluster.js"
import type { PromptJob } from "../../services/Cluster.js"
import { SessionStore } from "../../services/SessionStore.js"
import { PromptEntity } from "./promptEntity.js"
import { SHARDS } from "./shardingLayer.js"

/** How often a runner with free slots re-offers the unanswered messages of its shards. */
const SWEEP_EVERY = "5 seconds"

export interface RunnerOptions {
  /** This runner's address as the others reach it, also its name in results and status. */
  readonly address: string
  /** Prompts this runner runs at once. */
  readonly concurrency: number
}

const failedLine = (job: PromptJob, message: string): PromptResult => ({
  id: job.id,
  status: "failed",
  response: null,
  session_id: null,
  iterations: 0,
  tool_calls: 0,
  error: message
})

export const PromptRunnerLive = (options: RunnerOptions) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const agent = yield* AgentLoop
    const sessions = yield* SessionStore
    const store = yield* ClusterStore
    const sharding = yield* Sharding.Sharding
    const messages = yield* MessageStorage.MessageStorage
    // Each prompt is its own entity, so the cluster would start all of a shard's prompts at once: this bounds them.
    const slots = yield* Effect.makeSemaphore(Math.max(1, options.concurrency))
    let running = 0
    let done = 0
    /** Prompts this runner holds: delivered to it and not answered yet (waiting for a slot or running). */
    let held = 0

    /** Postgres unreachable for a moment: retry the statement alone, never the model run (its verdict is kept). */
    const retryStore = <A, E>(effect: Effect.Effect<A, E>) =>
      Effect.retry(effect, Schedule.exponential("200 millis").pipe(Schedule.intersect(Schedule.recurs(5))))

    const runOne = (job: PromptJob) =>
      Effect.gen(function*() {
        let outcome: { result: PromptResult; trajectory: string | undefined } | undefined
        yield* runPromptBatch([{ _tag: "Prompt", prompt: { line: job.line, id: job.id, prompt: job.prompt, toolsets: job.toolsets } }], {
          concurrency: 1,
          model: job.model,
          maxIterations: job.maxTurns,
          trajectories: job.trajectories,
          onResult: (result, trajectory) => Effect.sync(() => void (outcome = { result, trajectory }))
        }).pipe(Effect.provideService(AgentLoop, agent), Effect.provideService(SessionStore, sessions))
        return outcome ?? { result: failedLine(job, "the run gave no result"), trajectory: undefined }
      }).pipe(
        // A defect in the agent is this prompt's failure, not a reason to run it again and again.
        Effect.catchAllCause((cause) => Effect.succeed({ result: failedLine(job, Cause.pretty(cause).split("\n")[0] ?? "defect"), trajectory: undefined }))
      )

    const handle = (job: PromptJob) =>
      Effect.gen(function*() {
        // Claimed inside the slot, so a runner holding many messages keeps at most `concurrency` queries in flight.
        const ran = yield* slots.withPermits(1)(Effect.gen(function*() {
          if (!(yield* retryStore(store.claim(job.batchId, job.index, options.address)))) return undefined
          running++
          return yield* runOne(job).pipe(Effect.ensuring(Effect.sync(() => void running--)))
        }))
        if (ran === undefined) return
        const { result, trajectory } = ran
        const copy = result.session_id === null
          ? undefined
          : yield* Effect.zip(sessions.get(result.session_id), sessions.history(result.session_id)).pipe(
            Effect.map(([session, messages]) => ({ session, messages })),
            Effect.orElseSucceed(() => undefined)
          )
        const saved = yield* retryStore(store.saveResult(
          job.batchId,
          { index: job.index, status: result.status, line: JSON.stringify(result), trajectory: trajectory ?? null },
          options.address,
          copy
        ))
        if (saved) done++
      }).pipe(
        // Postgres gone for longer: a defect, so the cluster delivers the message again later (a fresh run, nothing stored twice).
        Effect.orDie,
        (run) =>
          Effect.suspend(() => {
            held++
            return Effect.ensuring(run, Effect.sync(() => void held--))
          })
      )

    yield* store.heartbeat({ address: options.address, pid: process.pid, shards: 0, running: 0, done: 0 }).pipe(Effect.orDie)
    const ownShardIds = () => {
      const own: Array<ShardId.ShardId> = []
      for (let i = 1; i <= SHARDS; i++) {
        const id = ShardId.make("default", i)
        if (sharding.hasShardId(id)) own.push(id)
      }
      return own
    }
    const ownShards = () => ownShardIds().length
    yield* Effect.suspend(() => store.heartbeat({ address: options.address, pid: process.pid, shards: ownShards(), running, done })).pipe(
      Effect.ignore,
      Effect.repeat(Schedule.spaced("1 second")),
      Effect.forkScoped
    )
    // Only with free slots: a busy runner holds (and skips) everything it was given, and gets to the rest later.
    yield* Effect.suspend(() => {
      const own = ownShardIds()
      return held >= options.concurrency || own.length === 0 ? Effect.void : messages.resetShards(own)
    }).pipe(
      Effect.ignore,
      Effect.repeat(Schedule.spaced(SWEEP_EVERY)),
      Effect.forkScoped
    )

    return PromptEntity.toLayer(PromptEntity.of({ Run: (envelope) => handle(envelope.payload) }), {
      concurrency: 1,
      maxIdleTime: "5 seconds"
    })
  }))
