/**
 * The `Prompt` entity's handler on a runner: runs the prompt through the same
 * `runPromptBatch` (AgentLoop) as a local batch, in the runner's own session
 * database, then copies the session with its messages and the result line to
 * Postgres in one statement keyed by batch and index. A message delivered
 * again (its runner was killed before the reply) finds the result there and
 * returns; one whose earlier run died halfway runs again from the start and
 * only the run that commits first is kept. A prompt that fails (model error,
 * defect) is stored as `failed` and answered, so it is never retried.
 */
import { ShardId, Sharding } from "@effect/cluster"
import { Cause, Effect, Layer, Schedule } from "effect"
import { runPromptBatch } from "../../programs/batchRunner.js"
import type { PromptResult } from "../../programs/batchRunner.js"
import { AgentLoop } from "../../services/AgentLoop.js"
import { ClusterStore } from "../../services/Cluster.js"
import type { PromptJob } from "../../services/Cluster.js"
import { SessionStore } from "../../services/SessionStore.js"
import { PromptEntity } from "./promptEntity.js"
import { SHARDS } from "./shardingLayer.js"

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
    // Each prompt is its own entity, so the cluster would start all of a shard's prompts at once: this bounds them.
    const slots = yield* Effect.makeSemaphore(Math.max(1, options.concurrency))
    let running = 0
    let done = 0

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
        Effect.orDie
      )

    yield* store.heartbeat({ address: options.address, pid: process.pid, shards: 0, running: 0, done: 0 }).pipe(Effect.orDie)
    const ownShards = () => {
      let n = 0
      for (let i = 1; i <= SHARDS; i++) if (sharding.hasShardId(ShardId.make("default", i))) n++
      return n
    }
    yield* Effect.suspend(() => store.heartbeat({ address: options.address, pid: process.pid, shards: ownShards(), running, done })).pipe(
      Effect.ignore,
      Effect.repeat(Schedule.spaced("1 second")),
      Effect.forkScoped
    )

    return PromptEntity.toLayer(PromptEntity.of({ Run: (envelope) => handle(envelope.payload) }), {
      concurrency: 1,
      maxIdleTime: "5 seconds"
    })
  }))
