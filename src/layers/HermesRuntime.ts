/**
 * HermesRuntime: every service on embedded defaults in one Layer.
 *
 *   Config (config.yaml in HERMES_EFFECT_HOME) → Hooks, ResultStore, ToolGate,
 *   TodoStore → ToolRegistry → built-in tools → plugins
 *
 * Each piece can be swapped through the options (tests pass in-memory config,
 * an allowing gate, …) or by providing a different layer for its Tag.
 */
import { NodeContext } from "@effect/platform-node"
import type { FileSystem, Path } from "@effect/platform"
import type { CommandExecutor } from "@effect/platform/CommandExecutor"
import type { Terminal } from "@effect/platform/Terminal"
import { Effect, Layer } from "effect"
import { Config } from "../services/Config.js"
import type { ConfigError } from "../services/Config.js"
import { Hooks } from "../services/Hooks.js"
import { Plugins } from "../services/Plugins.js"
import { ResultStore } from "../services/ResultStore.js"
import { TodoStore } from "../services/TodoStore.js"
import { ToolGate } from "../services/ToolGate.js"
import { ToolRegistry } from "../services/ToolRegistry.js"
import { BuiltinToolsLive } from "../tools/index.js"
import { ConfigLive } from "./ConfigLive.js"
import { HooksLive } from "./HooksLive.js"
import { PluginsLive } from "./PluginsLive.js"
import { ResultStoreLive } from "./ResultStoreLive.js"
import { TodoStoreMemory } from "./TodoStoreMemory.js"
import { ToolGateDeny } from "./ToolGateDeny.js"
import { ToolRegistryLive } from "./ToolRegistryLive.js"

export interface RuntimeOptions {
  /** Home directory (default: HERMES_EFFECT_HOME or ~/.hermes-effect). Ignored when `config` is given. */
  readonly home?: string
  /** Replace the Config layer (e.g. `ConfigTest({...})`). */
  readonly config?: Layer.Layer<Config, ConfigError>
  /** Replace the approval gate for tool approvals requested by hooks (default: deny). */
  readonly toolGate?: Layer.Layer<ToolGate>
  readonly hooks?: Layer.Layer<Hooks>
  readonly todoStore?: Layer.Layer<TodoStore>
  readonly resultStore?: Layer.Layer<ResultStore, never, Config | FileSystem.FileSystem>
  /** Register the built-in tools (default true). */
  readonly builtins?: boolean
  /** Load plugins from the home (default true). */
  readonly plugins?: boolean
}

export type HermesServices = Config | Hooks | ToolGate | ResultStore | TodoStore | ToolRegistry | Plugins

export type PlatformServices = FileSystem.FileSystem | Path.Path | CommandExecutor | Terminal

const emptyPlugins = Layer.succeed(Plugins, Plugins.of({ status: Effect.succeed([]) }))

export const layer = (options: RuntimeOptions = {}): Layer.Layer<HermesServices | PlatformServices, ConfigError> => {
  const platform = NodeContext.layer
  const config = (options.config ?? ConfigLive(options.home === undefined ? {} : { home: options.home })).pipe(
    Layer.provideMerge(platform)
  )
  const services = Layer.mergeAll(
    options.hooks ?? HooksLive,
    options.toolGate ?? ToolGateDeny,
    options.todoStore ?? TodoStoreMemory,
    options.resultStore ?? ResultStoreLive
  ).pipe(Layer.provideMerge(config))
  const registry = ToolRegistryLive.pipe(Layer.provideMerge(services))
  const withBuiltins = options.builtins === false ? registry : BuiltinToolsLive.pipe(Layer.provideMerge(registry))
  return options.plugins === false
    ? Layer.merge(withBuiltins, emptyPlugins)
    : PluginsLive.pipe(Layer.provideMerge(withBuiltins))
}
