/**
 * In-memory Config for tests. Edits go through the same YAML Document edit and
 * schema validation as ConfigLive, so a value refused there is refused here too.
 */
import { Effect, Layer, Schema } from "effect"
import { Document } from "yaml"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { Config, HermesConfigSchema } from "../services/Config.js"
import type { ConfigPath, HermesConfig, HermesConfigInput, HermesHome } from "../services/Config.js"
import { applyEdit } from "./config/yamlConfig.js"
import type { ConfigEdit } from "./config/yamlConfig.js"
import { resolveHome } from "./ConfigLive.js"

interface State {
  /** As given and edited (what a file would hold): edits start from this, never from the defaults. */
  readonly raw: HermesConfigInput
  readonly config: HermesConfig
  readonly revision: number
}

/** `config` is what a config.yaml would hold; it is decoded (defaults applied) like the file is. */
export const ConfigTest = (config: HermesConfigInput = {}, home?: Partial<HermesHome>): Layer.Layer<Config> =>
  Layer.effect(
    Config,
    Effect.gen(function*() {
      // Never the user's real home: tests that touch these paths should pass their own.
      const resolved: HermesHome = {
        ...resolveHome(home?.root ?? NodePath.join(tmpdir(), "hermes-effect-test")),
        ...home
      }
      const decoded = Schema.decodeUnknownSync(HermesConfigSchema)(config)
      // A plain variable read in one step (as ConfigLive); one permit serialises edits and reloads.
      let state: State = { raw: config, config: decoded, revision: 0 }
      const lock = yield* Effect.makeSemaphore(1)

      const edit = (change: ConfigEdit) =>
        Effect.suspend(() => {
          const s = state
          const doc = new Document(s.raw)
          return Effect.map(applyEdit(resolved.configFile, doc, change), (result) => {
            state = result._tag === "Changed"
              ? { raw: doc.toJS(), config: result.config, revision: s.revision + 1 }
              : { ...s, revision: s.revision + 1 }
          })
        }).pipe(lock.withPermits(1))

      return Config.of({
        home: resolved,
        current: Effect.sync(() => state.config),
        revision: Effect.sync(() => state.revision),
        reload: lock.withPermits(1)(Effect.sync(() => {
          state = { ...state, revision: state.revision + 1 }
          return state.config
        })),
        set: Effect.fn("Config.set")(function*(path: ConfigPath, value: unknown) {
          yield* edit({ _tag: "Set", path, value })
        }),
        remove: Effect.fn("Config.remove")(function*(path: ConfigPath) {
          yield* edit({ _tag: "Remove", path })
        })
      })
    })
  )
