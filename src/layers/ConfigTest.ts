/**
 * In-memory Config for tests. Edits go through the same YAML Document edit and
 * schema validation as ConfigLive, so a value refused there is refused here too.
 */
import { Effect, Layer, SynchronizedRef } from "effect"
import { Document } from "yaml"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { Config } from "../services/Config.js"
import type { ConfigPath, HermesConfig, HermesHome } from "../services/Config.js"
import { applyEdit } from "./config/yamlConfig.js"
import type { ConfigEdit } from "./config/yamlConfig.js"
import { resolveHome } from "./ConfigLive.js"

interface State {
  readonly config: HermesConfig
  readonly revision: number
}

export const ConfigTest = (config: HermesConfig = {}, home?: Partial<HermesHome>): Layer.Layer<Config> =>
  Layer.effect(
    Config,
    Effect.gen(function*() {
      // Never the user's real home: tests that touch these paths should pass their own.
      const resolved: HermesHome = {
        ...resolveHome(home?.root ?? NodePath.join(tmpdir(), "hermes-effect-test")),
        ...home
      }
      const state = yield* SynchronizedRef.make<State>({ config, revision: 0 })

      const edit = (change: ConfigEdit) =>
        SynchronizedRef.updateEffect(state, (s) =>
          Effect.map(applyEdit(resolved.configFile, new Document(s.config), change), (result) => ({
            config: result._tag === "Changed" ? result.config : s.config,
            revision: s.revision + 1
          })))

      return Config.of({
        home: resolved,
        current: Effect.map(SynchronizedRef.get(state), (s) => s.config),
        revision: Effect.map(SynchronizedRef.get(state), (s) => s.revision),
        reload: SynchronizedRef.modify(state, (s) => [s.config, { ...s, revision: s.revision + 1 }]),
        set: Effect.fn("Config.set")(function*(path: ConfigPath, value: unknown) {
          yield* edit({ _tag: "Set", path, value })
        }),
        remove: Effect.fn("Config.remove")(function*(path: ConfigPath) {
          yield* edit({ _tag: "Remove", path })
        })
      })
    })
  )
