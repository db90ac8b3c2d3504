/**
 * Plugins: ES modules under `$HERMES_EFFECT_HOME/plugins/<name>/`, loaded only
 * when enabled by name in config. A plugin may register tools and hooks; one
 * that fails to load is reported and skipped, never fatal.
 */
import { Context } from "effect"
import type { Effect } from "effect"

export type PluginState = "loaded" | "failed" | "disabled" | "not-enabled"

export interface PluginStatus {
  readonly name: string
  readonly state: PluginState
  readonly dir: string
  readonly tools: ReadonlyArray<string>
  readonly hooks: ReadonlyArray<string>
  readonly error?: string | undefined
}

export interface PluginsService {
  readonly status: Effect.Effect<ReadonlyArray<PluginStatus>>
}

export class Plugins extends Context.Tag("hermes-effect/Plugins")<Plugins, PluginsService>() {}
