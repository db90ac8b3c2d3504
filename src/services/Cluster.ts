/**
 * Scale-out of prompt batches on @effect/cluster: the domain types shared by
 * the submitter (`batch --cluster`), the runners (`runner --cluster`) and
 * `cluster status`. Only types and errors here; the Postgres store is in
 * src/layers/sql/pg, the entity and the runner layers in src/layers/cluster.
 */
import { Context, Data, Schema } from "effect"
import type { Effect } from "effect"
import type { Session, StoredMessage } from "./SessionStore.js"

/** Postgres refused or failed an operation of the cluster store. */
export class ClusterStoreError extends Data.TaggedError("ClusterStoreError")<{ readonly operation: string; readonly message: string }> {}

/** One prompt of a batch as a cluster message: everything a runner needs to run it. */
export const PromptJob = Schema.Struct({
  batchId: Schema.String,
  /** Position in the input (of prompt lines), the key of its result row. */
  index: Schema.Number,
  id: Schema.Union(Schema.String, Schema.Number),
  line: Schema.Number,
  prompt: Schema.String,
  toolsets: Schema.optional(Schema.Array(Schema.String)),
  model: Schema.optional(Schema.String),
  maxTurns: Schema.optional(Schema.Number),
  trajectories: Schema.Boolean
})
export type PromptJob = typeof PromptJob.Type

/** The entity id of a prompt: the batch and its index, so the same prompt always lands on the same shard. */
export const promptEntityId = (batchId: string, index: number) => `${batchId}/${index}`

/** A finished prompt as stored: the result line a local batch would print, and its trajectory line. */
export interface StoredResult {
  readonly index: number
  readonly status: string
  /** The JSON result line (same keys as a local prompt batch). */
  readonly line: string
  readonly trajectory: string | null
}

export interface RunnerRow {
  readonly address: string
  readonly pid: number
  readonly shards: number
  readonly running: number
  readonly done: number
  /** Seconds since its last heartbeat. */
  readonly age: number
}

export interface BatchProgress {
  readonly batchId: string
  readonly source: string
  readonly total: number
  readonly done: number
  readonly failed: number
  readonly running: number
}

export interface ClusterStatus {
  readonly runners: ReadonlyArray<RunnerRow>
  readonly shardsPerGroup: number
  readonly batches: ReadonlyArray<BatchProgress>
}

/** Statuses of a result that count as failed (recorded once, never retried by the cluster). */
export const FAILED_STATUSES: ReadonlyArray<string> = ["failed", "invalid"]

/** The batch store in Postgres that submitter, runners and status share (src/layers/sql/pg/ClusterStorePg.ts). */
export interface ClusterStoreService {
  /** Record a batch (idempotent: the same file submitted again is the same batch). */
  readonly registerBatch: (batchId: string, source: string, total: number) => Effect.Effect<void, ClusterStoreError>
  /** Mark the prompt running on this runner; false when its result is there already (nothing to run). */
  readonly claim: (batchId: string, index: number, runner: string) => Effect.Effect<boolean, ClusterStoreError>
  /**
   * Store one finished prompt with its session and messages, in one transaction;
   * false when a result was there already (the copy is then dropped, so nothing doubles).
   */
  readonly saveResult: (
    batchId: string,
    result: StoredResult,
    runner: string,
    session: { readonly session: Session; readonly messages: ReadonlyArray<StoredMessage> } | undefined
  ) => Effect.Effect<boolean, ClusterStoreError>
  readonly results: (batchId: string) => Effect.Effect<ReadonlyArray<StoredResult>, ClusterStoreError>
  readonly progress: (batchId: string) => Effect.Effect<BatchProgress, ClusterStoreError>
  readonly heartbeat: (row: Omit<RunnerRow, "age">) => Effect.Effect<void, ClusterStoreError>
  readonly status: (shardsPerGroup: number) => Effect.Effect<ClusterStatus, ClusterStoreError>
}

export class ClusterStore extends Context.Tag("hermes-effect/ClusterStore")<ClusterStore, ClusterStoreService>() {}
