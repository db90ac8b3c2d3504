/**
 * `mixture_of_agents` (toolset `moa`): the question goes to the configured
 * reference models at once (one fiber each, each with its own timeout); the
 * answers that came back are fused by the aggregator. A reference model that
 * fails or is too slow is left out; the tool fails only when fewer than
 * `moa.min_successful` answered. Result keys as Hermes' tool:
 * `{success, response, models_used: {reference_models, aggregator_model}, processing_time}`.
 */
import { Duration, Effect, Either, Schema } from "effect"
import { defineTool } from "../lib/tool/defineTool.js"
import { Config } from "../services/Config.js"
import type { HermesConfig } from "../services/Config.js"
import { Model } from "../services/Model.js"
import { observedFn } from "../lib/effect/observedFn.js"

export const MoaParameters = Schema.Struct({
  user_prompt: Schema.String.annotations({
    description: "The whole problem, with every piece of context it needs: each model sees only this text"
  })
})

const REFERENCE_TEMPERATURE = 0.6
const AGGREGATOR_TEMPERATURE = 0.4

export const moaConfigured = (config: HermesConfig) => config.model !== undefined && config.moa.reference_models.length >= 2

const AGGREGATOR_SYSTEM = (answers: ReadonlyArray<string>) =>
  "Several models answered the user's question below. Judge their answers critically (some may be wrong), " +
  "then write one answer of your own that keeps what is right and complete. Do not mention the other models.\n\n" +
  answers.map((a, i) => `Answer ${i + 1}:\n${a}`).join("\n\n")

export const moaTool = defineTool({
  name: "mixture_of_agents",
  toolset: "moa",
  emoji: "🧠",
  description:
    "Send a hard problem (difficult maths, algorithms, multi-step reasoning) to several models at once and get one " +
    "answer fused from theirs. Slow and costly: use it only when one model's answer is not good enough. The prompt " +
    "must be self-contained.",
  parameters: MoaParameters,
  check: Effect.flatMap(Config, (config) => Effect.map(config.current, moaConfigured)),
  handler: observedFn("mixture_of_agents")(function*(args) {
    const started = Date.now()
    const cfg = (yield* (yield* Config).current).moa
    const model = yield* Model
    const aggregator = cfg.aggregator ?? model.model
    const used = { reference_models: cfg.reference_models, aggregator_model: aggregator }
    const failed = (error: string) => ({
      success: false,
      response: "MoA processing failed. Please try again or use a single model for this query.",
      models_used: used,
      error
    })
    const ask = (name: string) =>
      model.complete({ model: name, temperature: REFERENCE_TEMPERATURE, messages: [{ role: "user", content: args.user_prompt }] }).pipe(
        Effect.timeoutFail({ duration: Duration.seconds(cfg.timeout_seconds), onTimeout: () => new Error(`timed out after ${cfg.timeout_seconds} s`) }),
        Effect.flatMap((r) => {
          const text = (r.message.content ?? "").trim()
          return text.length > 0 ? Effect.succeed(text) : Effect.fail(new Error("empty answer"))
        }),
        Effect.either
      )
    const results = yield* Effect.forEach(cfg.reference_models, ask, { concurrency: "unbounded" })
    const answers = results.flatMap((r) => (Either.isRight(r) ? [r.right] : []))
    if (answers.length < cfg.min_successful) {
      const why = results.flatMap((r, i) => (Either.isLeft(r) ? [`${cfg.reference_models[i]}: ${r.left.message}`] : []))
      return failed(`Only ${answers.length} of ${cfg.reference_models.length} reference models answered (${cfg.min_successful} needed): ${why.join("; ")}`)
    }
    const fused = yield* Effect.either(model.complete({
      model: aggregator,
      temperature: AGGREGATOR_TEMPERATURE,
      messages: [{ role: "system", content: AGGREGATOR_SYSTEM(answers) }, { role: "user", content: args.user_prompt }]
    }))
    if (Either.isLeft(fused)) return failed(`aggregator ${aggregator}: ${fused.left.message}`)
    return {
      success: true,
      response: (fused.right.message.content ?? "").trim(),
      models_used: used,
      processing_time: Math.round((Date.now() - started) / 10) / 100
    }
  })
})
