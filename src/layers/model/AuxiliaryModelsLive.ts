/**
 * AuxiliaryModels from config: `auxiliary.<task>` builds its own Model (same
 * providers as `model:`), kept while the section stays the same; a task
 * without a section gets the main Model.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Context, Effect, Layer, Scope } from "effect"
import { AuxiliaryModels } from "../../services/AuxiliaryModels.js"
import type { AuxiliaryModel } from "../../services/AuxiliaryModels.js"
import { Config } from "../../services/Config.js"
import { Model } from "../../services/Model.js"
import { modelLayer } from "./fromConfig.js"
import { sectionSettings } from "./settings.js"

export const AuxiliaryModelsLive: Layer.Layer<AuxiliaryModels, never, Config | Model | HttpClient.HttpClient> = Layer.scoped(
  AuxiliaryModels,
  Effect.gen(function*() {
    const config = yield* Config
    const main: AuxiliaryModel = { model: yield* Model, source: "main" }
    const http = yield* HttpClient.HttpClient
    const scope = yield* Effect.scope
    // Built models by task, with the section text they were built from (a changed section is rebuilt).
    const built = new Map<string, { readonly key: string; readonly model: AuxiliaryModel }>()
    const lock = yield* Effect.makeSemaphore(1)
    return AuxiliaryModels.of({
      forTask: (task) =>
        Effect.flatMap(config.current, (current) => {
          const section = current.auxiliary[task]
          if (section === undefined) return Effect.succeed(main)
          const key = JSON.stringify(section)
          const known = built.get(task)
          if (known !== undefined && known.key === key) return Effect.succeed(known.model)
          return lock.withPermits(1)(
            Layer.build(modelLayer(sectionSettings(section, `auxiliary.${task}`))).pipe(
              Scope.extend(scope),
              Effect.provideService(HttpClient.HttpClient, http),
              Effect.map((context): AuxiliaryModel => ({ model: Context.get(context, Model), source: "auxiliary" })),
              Effect.tap((model) => Effect.sync(() => built.set(task, { key, model })))
            )
          )
        })
    })
  })
)
