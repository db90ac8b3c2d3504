/**
 * The cluster entity of a prompt batch: one `Prompt` entity per prompt, keyed
 * `<batchId>/<index>`, with one persisted message `Run`. Persisted means the
 * message sits in Postgres (SqlMessageStorage) until a runner replies, so a
 * runner killed mid-prompt leaves it there for whichever runner takes the
 * shard next; the primary key makes a resubmission of the same prompt a
 * duplicate the storage drops instead of a second run.
 */
import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { Schema } from "effect"
import { PromptJob, promptEntityId } from "../../services/Cluster.js"

export const RunPrompt = Rpc.make("Run", {
  payload: PromptJob.fields,
  success: Schema.Void,
  primaryKey: (job) => promptEntityId(job.batchId, job.index)
})

export const PromptEntity = Entity.make("Prompt", [RunPrompt]).annotateRpcs(ClusterSchema.Persisted, true)
