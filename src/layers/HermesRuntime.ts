/**
 * HermesRuntime: every service on embedded defaults in one Layer.
 *
 *   Config (config.yaml in HERMES_EFFECT_HOME) → Approver, ApprovalAudit
 *   → Approval, ToolGate → TerminalBackend → Environments → Processes
 *   → Hooks, ResultStore, TodoStore → ToolRegistry → built-in tools → plugins
 *
 * Each piece can be swapped through the options (tests pass in-memory config,
 * an allowing gate, …) or by providing a different layer for its Tag.
 */
import { NodeContext } from "@effect/platform-node"
import type { FileSystem, Path } from "@effect/platform"
import type { CommandExecutor } from "@effect/platform/CommandExecutor"
import type { Terminal } from "@effect/platform/Terminal"
import { Effect, Layer } from "effect"
import type { Approval } from "../services/Approval.js"
import type { ApprovalAudit } from "../services/ApprovalAudit.js"
import type { Approver } from "../services/Approver.js"
import { Config } from "../services/Config.js"
import type { ConfigError } from "../services/Config.js"
import { Hooks } from "../services/Hooks.js"
import { Plugins } from "../services/Plugins.js"
import { ResultStore } from "../services/ResultStore.js"
import { TodoStore } from "../services/TodoStore.js"
import { ToolGate } from "../services/ToolGate.js"
import { ToolRegistry } from "../services/ToolRegistry.js"
import type { ToolsetSelection } from "../services/ToolRegistry.js"
import type { Environments } from "../services/Environments.js"
import type { Processes } from "../services/Processes.js"
import type { TerminalBackend } from "../services/TerminalBackend.js"
import { BuiltinToolsLive } from "../tools/index.js"
import { ApprovalAuditJsonl } from "./ApprovalAuditLayers.js"
import { ApprovalLive } from "./ApprovalLive.js"
import { ApproverNonInteractive } from "./Approvers.js"
import { ConfigLive } from "./ConfigLive.js"
import { EnvironmentsLive } from "./EnvironmentsLive.js"
import { HooksLive } from "./HooksLive.js"
import { PluginsLive } from "./PluginsLive.js"
import { ProcessesLive } from "./ProcessesLive.js"
import { ResultStoreLive } from "./ResultStoreLive.js"
import { TerminalBackendFromConfig, terminalBackendLayer } from "./TerminalBackendFromConfig.js"
import type { BackendName } from "./TerminalBackendFromConfig.js"
import { TodoStoreMemory } from "./TodoStoreMemory.js"
import { ToolGateApproval } from "./ToolGateApproval.js"
import { makeToolRegistryLive } from "./ToolRegistryLive.js"

export interface RuntimeOptions {
  /** Home directory (default: HERMES_EFFECT_HOME or ~/.hermes-effect). Ignored when `config` is given. */
  readonly home?: string
  /** Replace the Config layer (e.g. `ConfigTest({...})`). */
  readonly config?: Layer.Layer<Config, ConfigError>
  /** Who answers approval requests (default: nobody, so they are denied; `ApproverTerminal`, `ApproverCallback(fn)`). */
  readonly approver?: Layer.Layer<Approver, never, Config>
  /** Where approval decisions are recorded (default: `<home>/logs/approvals.jsonl`). */
  readonly approvalAudit?: Layer.Layer<ApprovalAudit, never, Config>
  /** The gate for tool approvals requested by hooks (default: asks the approver). */
  readonly toolGate?: Layer.Layer<ToolGate, never, Config | Approver | ApprovalAudit>
  readonly hooks?: Layer.Layer<Hooks>
  readonly todoStore?: Layer.Layer<TodoStore>
  readonly resultStore?: Layer.Layer<ResultStore, never, Config | Environments>
  /** Toolsets used when a caller names none (overrides config `toolsets` / `disabled_toolsets`). */
  readonly toolsets?: ToolsetSelection
  /** Register the built-in tools (default true). */
  readonly builtins?: boolean
  /** Load plugins from the home (default true). */
  readonly plugins?: boolean
  /** The command approval service every shell command passes through (default: `ApprovalLive`). */
  readonly approval?: Layer.Layer<Approval, never, Config | Approver | ApprovalAudit>
  /**
   * Where commands run: "local", "sandbox" (bubblewrap), or a TerminalBackend layer.
   * Default: `terminal.backend` from config, else local.
   */
  readonly terminalBackend?: BackendName | Layer.Layer<TerminalBackend, never, Config>
}

export type HermesServices =
  | Config
  | Hooks
  | ToolGate
  | ResultStore
  | TodoStore
  | ToolRegistry
  | Plugins
  | Approval
  | Approver
  | ApprovalAudit
  | TerminalBackend
  | Environments
  | Processes

export type PlatformServices = FileSystem.FileSystem | Path.Path | CommandExecutor | Terminal

const emptyPlugins = Layer.succeed(Plugins, Plugins.of({ status: Effect.succeed([]) }))

export const layer = (options: RuntimeOptions = {}): Layer.Layer<HermesServices | PlatformServices, ConfigError> => {
  const platform = NodeContext.layer
  const config = (options.config ?? ConfigLive(options.home === undefined ? {} : { home: options.home })).pipe(
    Layer.provideMerge(platform)
  )
  const backend = options.terminalBackend === undefined
    ? TerminalBackendFromConfig
    : typeof options.terminalBackend === "string"
    ? terminalBackendLayer(options.terminalBackend)
    : options.terminalBackend
  const approvalDeps = Layer.mergeAll(
    options.approver ?? ApproverNonInteractive,
    options.approvalAudit ?? ApprovalAuditJsonl
  ).pipe(Layer.provideMerge(config))
  const gates = Layer.merge(options.approval ?? ApprovalLive, options.toolGate ?? ToolGateApproval).pipe(
    Layer.provideMerge(approvalDeps)
  )
  // Built in this order, torn down in reverse: processes die before their environments close.
  const terminal = ProcessesLive.pipe(
    Layer.provideMerge(EnvironmentsLive),
    Layer.provideMerge(backend),
    Layer.provideMerge(gates)
  )
  const services = Layer.mergeAll(
    options.hooks ?? HooksLive,
    options.todoStore ?? TodoStoreMemory,
    options.resultStore ?? ResultStoreLive
  ).pipe(Layer.provideMerge(terminal))
  const registry = makeToolRegistryLive(options.toolsets).pipe(Layer.provideMerge(services))
  const withBuiltins = options.builtins === false ? registry : BuiltinToolsLive.pipe(Layer.provideMerge(registry))
  return options.plugins === false
    ? Layer.merge(withBuiltins, emptyPlugins)
    : PluginsLive.pipe(Layer.provideMerge(withBuiltins))
}
