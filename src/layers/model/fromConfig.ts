/**
 * The Model named by `model:` in config.yaml: an OpenAI-compatible provider,
 * the scripted provider, or, when nothing usable is configured, a Model whose
 * every call fails with `ModelNotConfigured` saying what is missing. Building
 * it never fails and never touches the network, so commands that do not talk
 * to a model are unaffected by the model section.
 */
import type { HttpClient } from "@effect/platform"
import { Effect, Layer, Stream } from "effect"
import { Config } from "../../services/Config.js"
import { Model, ModelNotConfigured } from "../../services/Model.js"
import { ModelOpenAi } from "./openai.js"
import { ModelScripted } from "./scripted.js"
import { modelSettings } from "./settings.js"
import type { ModelSettings } from "./settings.js"

/** Every call fails with `ModelNotConfigured(reason)`. */
export const ModelUnconfigured = (reason: string): Layer.Layer<Model> =>
  Layer.succeed(Model, Model.of({
    provider: "none",
    model: "",
    complete: () => Effect.fail(new ModelNotConfigured({ reason })),
    stream: () => Stream.fail(new ModelNotConfigured({ reason }))
  }))

export const modelLayer = (settings: ModelSettings): Layer.Layer<Model, never, HttpClient.HttpClient> => {
  switch (settings.kind) {
    case "none":
      return ModelUnconfigured(settings.reason)
    case "scripted":
      return ModelScripted({ file: settings.script }, { model: settings.model })
    case "openai":
      return ModelOpenAi(settings.options)
  }
}

export const ModelFromConfig: Layer.Layer<Model, never, Config | HttpClient.HttpClient> = Layer.unwrapEffect(
  Effect.flatMap(Config, (config) => Effect.map(config.current, (c) => modelLayer(modelSettings(c))))
)
