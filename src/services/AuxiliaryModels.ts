/**
 * AuxiliaryModels: the models side tasks use (vision, summaries, aggregation).
 * `auxiliary.<task>` in config.yaml takes the same keys as `model:`; a task
 * without a section uses the main model, as in Hermes. Every task shares the
 * Model service's client, retries and typed errors.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ModelService } from "./Model.js"

export interface AuxiliaryModel {
  readonly model: ModelService
  /** Where it came from: the task's own `auxiliary.<task>` section, or the main `model:`. */
  readonly source: "auxiliary" | "main"
}

export interface AuxiliaryModelsService {
  readonly forTask: (task: string) => Effect.Effect<AuxiliaryModel>
}

export class AuxiliaryModels extends Context.Tag("hermes-effect/AuxiliaryModels")<AuxiliaryModels, AuxiliaryModelsService>() {}
