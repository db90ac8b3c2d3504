/**
 * HermesRuntime: every service on embedded defaults in one Layer.
 *
 *   Config (config.yaml in HERMES_EFFECT_HOME) → state database (state.db) → Approver, ApprovalAudit
 *   → Approval, ToolGate → TerminalBackend → Environments → Processes → Shell
 *   → Hooks, ResultStore, TodoStore, SessionStore, MemoryStore, Skills, Model, Prompter → ToolRegistry, ToolExecutor → built-in tools
 *   → AgentLoop + delegate_task → plugins → MCP servers
 *
 * Each piece can be swapped through the options (tests pass in-memory config,
 * an allowing gate, …) or by providing a different layer for its Tag.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import type { FileSystem, HttpClient, Path } from "@effect/platform"
// Node 20's built-in fetch: no HTTP client library in the bundle, so the CLI starts faster.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type { CommandExecutor } from "@effect/platform/CommandExecutor"
import type { Terminal } from "@effect/platform/Terminal"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqliteClient } from "@effect/sql-sqlite-node/SqliteClient"
import { Context, Effect, Layer } from "effect"
import type { AgentLoop } from "../services/AgentLoop.js"
import type { Approval } from "../services/Approval.js"
import type { ApprovalAudit } from "../services/ApprovalAudit.js"
import type { Approver } from "../services/Approver.js"
import type { Mcp } from "../services/Mcp.js"
import type { AuxiliaryModels } from "../services/AuxiliaryModels.js"
import type { Speech } from "../services/Speech.js"
import type { ImageGeneration } from "../services/ImageGeneration.js"
import type { Model } from "../services/Model.js"
import type { Prompter } from "../services/Prompter.js"
import { Config } from "../services/Config.js"
import type { ConfigError } from "../services/Config.js"
import { Hooks } from "../services/Hooks.js"
import { Plugins } from "../services/Plugins.js"
import { ResultStore } from "../services/ResultStore.js"
import { TodoStore } from "../services/TodoStore.js"
import type { MemoryStore } from "../services/MemoryStore.js"
import type { Skills } from "../services/Skills.js"
import type { SessionStore } from "../services/SessionStore.js"
import type { StateDatabaseError } from "../services/StateDatabase.js"
import { ToolGate } from "../services/ToolGate.js"
import type { ToolExecutor } from "../services/ToolExecutor.js"
import { ToolRegistry } from "../services/ToolRegistry.js"
import type { ToolsetSelection } from "../services/ToolRegistry.js"
import type { Environments } from "../services/Environments.js"
import type { Processes } from "../services/Processes.js"
import type { Shell } from "../services/Shell.js"
import type { TerminalBackend } from "../services/TerminalBackend.js"
import { buildInOrder } from "../lib/effect/buildInOrder.js"
import { BuiltinToolsLive, CronToolLive, DelegateToolLive } from "../tools/index.js"
import type { CronJobs, CronScheduler } from "../services/CronJobs.js"
import { CronJobsSql } from "./cron/CronJobsSql.js"
import { CronSchedulerLive } from "./cron/scheduler.js"
import { withSubagentApprover } from "./agent/subagentApprover.js"
import { AgentLoopLive } from "./AgentLoopLive.js"
import { ApprovalLive } from "./approval/ApprovalLive.js"
import { ApproverNonInteractive } from "./approval/approvers/ApproverNonInteractive.js"
import { ConfigLive } from "./ConfigLive.js"
import { EnvironmentsLive } from "./EnvironmentsLive.js"
import { HooksLive } from "./HooksLive.js"
import { makeMcpLive, McpNone } from "./McpLive.js"
import { AuxiliaryModelsLive } from "./model/AuxiliaryModelsLive.js"
import { SpeechFromConfig } from "./speech/SpeechFromConfig.js"
import { ImageGenFromConfig } from "./imageGen/ImageGenFromConfig.js"
import { ModelFromConfig } from "./model/fromConfig.js"
import { PrompterNonInteractive } from "./Prompters.js"
import type { McpOptions } from "./McpLive.js"
import { PluginsLive } from "./PluginsLive.js"
import { ProcessesLive } from "./ProcessesLive.js"
import { ShellLive } from "./terminal/ShellLive.js"
import { ResultStoreLive } from "./ResultStoreLive.js"
import { TerminalBackendFromConfig, terminalBackendLayer } from "./terminal/backends.js"
import type { BackendName } from "./terminal/backends.js"
import { MemoryStoreFiles } from "./MemoryStoreFiles.js"
import { SkillsLive } from "./SkillsLive.js"
import { SessionRecorder } from "./sql/SessionRecorder.js"
import type { RecordSessionsOptions } from "./sql/SessionRecorder.js"
import { ApprovalAuditSql } from "./approval/audit/ApprovalAuditSql.js"
import { SessionStoreSql } from "./sql/sessions/SessionStoreSql.js"
import { StateDatabaseLive } from "./sql/StateDatabase.js"
import { TodoStoreSql } from "./sql/TodoStoreSql.js"
import type { FileReadTracker } from "../services/FileReadTracker.js"
import { FileReadTrackerMemory } from "./FileReadTrackerMemory.js"
import { ToolGateApproval } from "./toolGate/ToolGateApproval.js"
import { makeToolRegistryLive } from "./registry/ToolRegistryLive.js"
import { ToolExecutorLive } from "./executor/ToolExecutorLive.js"
import { CodeExecutionLive } from "./code/CodeExecutionLive.js"
import { WebLive } from "./web/WebLive.js"
import { BrowserLive } from "./browser/BrowserLive.js"

export interface RuntimeOptions {
  /** Home directory (default: HERMES_EFFECT_HOME or ~/.hermes-effect). Ignored when `config` is given. */
  readonly home?: string
  /** Replace the Config layer (e.g. `ConfigTest({...})`). */
  readonly config?: Layer.Layer<Config, ConfigError>
  /** Who answers approval requests (default: nobody, so they are denied; `ApproverTerminal`, `ApproverCallback(fn)`). */
  readonly approver?: Layer.Layer<Approver, never, Config>
  /** Where approval decisions are recorded (default: the `approvals` table of the state database; `ApprovalAuditJsonl`). */
  readonly approvalAudit?: Layer.Layer<ApprovalAudit, never, Config | SqlClient>
  /** The state database (default: `<home>/state.db`; `StateDatabaseMemory` for tests). */
  readonly database?: Layer.Layer<SqliteClient | SqlClient, StateDatabaseError, Config>
  /** Sessions, messages and search (default: `SessionStoreSql` on the state database). */
  readonly sessionStore?: Layer.Layer<SessionStore, never, SqlClient>
  /** The memory tool's stores (default: `<home>/memories/MEMORY.md` and `USER.md`). */
  readonly memoryStore?: Layer.Layer<MemoryStore, never, Config | FileSystem.FileSystem | Path.Path>
  /** Skill documents (default: `<home>/skills` + `skills.external_dirs`, bundled skills seeded on first use; `makeSkillsLive(options)`). */
  readonly skills?: Layer.Layer<Skills, never, Config | FileSystem.FileSystem | Path.Path>
  /** The gate for tool approvals requested by hooks (default: asks the approver). */
  readonly toolGate?: Layer.Layer<ToolGate, never, Config | Approver | ApprovalAudit>
  readonly hooks?: Layer.Layer<Hooks>
  /** Todo lists (default: per session in the state database; `TodoStoreMemory`). */
  readonly todoStore?: Layer.Layer<TodoStore, never, SqlClient>
  /** What the file tools remember per task (read dedup, loop counters, staleness); default in memory. */
  readonly fileReadTracker?: Layer.Layer<FileReadTracker>
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
  /** MCP servers from `mcp_servers` (default: connect in the background); false = no MCP at all. */
  readonly mcp?: boolean | McpOptions
  /**
   * The language model (default: from config `model:`, an OpenAI-compatible provider or the scripted one;
   * with nothing configured every call fails with `ModelNotConfigured`). E.g. `ModelScripted({ file })`.
   */
  readonly model?: Layer.Layer<Model, never, Config | HttpClient.HttpClient>
  /** Image generation (default: from config `image_gen:`; none configured = image_generate not offered). */
  readonly imageGeneration?: Layer.Layer<ImageGeneration, never, Config | HttpClient.HttpClient>
  /** Text to speech (default: from config `tts:`, espeak-ng locally). */
  readonly speech?: Layer.Layer<Speech, never, Config | HttpClient.HttpClient | CommandExecutor | FileSystem.FileSystem>
  /** Who answers `clarify` (default: nobody, so clarify reports it is unavailable; `PrompterTerminal`, `PrompterCallback(fn)`). */
  readonly prompter?: Layer.Layer<Prompter, never, Config>
  /** Record every tool call and its result as messages of its session (off by default; e.g. `{ source: "batch" }`). */
  readonly recordSessions?: RecordSessionsOptions
}

export type HermesServices =
  | AgentLoop
  | Config
  | Hooks
  | ToolGate
  | ResultStore
  | TodoStore
  | ToolRegistry
  | ToolExecutor
  | Plugins
  | Approval
  | Approver
  | ApprovalAudit
  | TerminalBackend
  | Environments
  | Processes
  | Shell
  | FileReadTracker
  | Mcp
  | Model
  | AuxiliaryModels
  | Speech
  | ImageGeneration
  | Prompter
  | SessionStore
  | MemoryStore
  | Skills
  | SqlClient
  | CronJobs
  | CronScheduler

export type PlatformServices = FileSystem.FileSystem | Path.Path | CommandExecutor | Terminal

const emptyPlugins = Layer.succeed(Plugins, Plugins.of({ status: Effect.succeed([]) }))

/**
 * Every service, built in the order of the diagram above (each stage gets the services of the stages before it)
 * by `buildInOrder`, one node each: the same graph written with `Layer.provideMerge` had ~105 composite nodes,
 * which cost a cold start as much as the services. What a stage `Layer.provide`d (the HTTP client, code
 * execution) is given to that stage only, and stays out of what the runtime provides.
 */
export const layer = (options: RuntimeOptions = {}): Layer.Layer<HermesServices | PlatformServices, ConfigError | StateDatabaseError> =>
  Layer.scopedContext(Effect.gen(function*() {
    const { build, extend } = yield* buildInOrder
    const platform = yield* build(NodeContext.layer, Context.empty())
    const config = yield* extend(platform, options.config ?? ConfigLive(options.home === undefined ? {} : { home: options.home }))
    const database = yield* extend(config, options.database ?? StateDatabaseLive)
    // Subagents' asks go to nobody, whoever answers the parent.
    const approvalDeps = Context.merge(
      database,
      Context.merge(
        yield* build(withSubagentApprover(options.approver ?? ApproverNonInteractive), database),
        yield* build(options.approvalAudit ?? ApprovalAuditSql, database)
      )
    )
    const gates = Context.merge(
      approvalDeps,
      Context.merge(yield* build(options.approval ?? ApprovalLive, approvalDeps), yield* build(options.toolGate ?? ToolGateApproval, approvalDeps))
    )
    // Built in this order, torn down in reverse: processes die before their environments close.
    const backend = options.terminalBackend === undefined
      ? TerminalBackendFromConfig
      : typeof options.terminalBackend === "string"
      ? terminalBackendLayer(options.terminalBackend)
      : options.terminalBackend
    const withBackend = yield* extend(gates, backend)
    const withEnvironments = yield* extend(withBackend, EnvironmentsLive)
    const withProcesses = yield* extend(withEnvironments, ProcessesLive)
    const terminal = yield* extend(withProcesses, ShellLive)
    // Each of these sees the terminal stage only, as siblings of one `Layer.mergeAll` would.
    const http = yield* extend(terminal, FetchHttpClient.layer)
    const model = yield* build(options.model ?? ModelFromConfig, http)
    const services = Context.mergeAll(
      terminal,
      yield* build(options.hooks ?? HooksLive, terminal),
      yield* build(options.todoStore ?? TodoStoreSql, terminal),
      yield* build(options.sessionStore ?? SessionStoreSql, terminal),
      yield* build(options.memoryStore ?? MemoryStoreFiles, terminal),
      yield* build(options.skills ?? SkillsLive, terminal),
      yield* build(options.fileReadTracker ?? FileReadTrackerMemory, terminal),
      yield* build(options.resultStore ?? ResultStoreLive, terminal),
      model,
      yield* build(AuxiliaryModelsLive, Context.merge(http, model)),
      yield* build(options.speech ?? SpeechFromConfig, http),
      yield* build(options.imageGeneration ?? ImageGenFromConfig, http),
      yield* build(options.prompter ?? PrompterNonInteractive, terminal),
      yield* build(CronJobsSql, terminal),
      yield* build(WebLive, terminal),
      yield* build(BrowserLive, terminal)
    )
    // The executor reads the catalogue per call, so it can be built before any tool is registered.
    const withRegistry = yield* extend(services, makeToolRegistryLive(options.toolsets))
    const registry = yield* extend(withRegistry, ToolExecutorLive)
    if (options.builtins !== false) {
      yield* build(BuiltinToolsLive, yield* extend(registry, CodeExecutionLive))
    }
    const withAgentLoop = yield* extend(registry, AgentLoopLive)
    const agent = yield* extend(withAgentLoop, CronSchedulerLive)
    if (options.builtins !== false) {
      yield* build(DelegateToolLive, agent)
      yield* build(CronToolLive, agent)
    }
    if (options.recordSessions !== undefined) yield* build(SessionRecorder(options.recordSessions), agent)
    const withPlugins = yield* extend(agent, options.plugins === false ? emptyPlugins : PluginsLive)
    // MCP last: its tools never shadow built-ins or plugins, and its servers close before the registry.
    const mcp = options.mcp === false ? McpNone : makeMcpLive(options.mcp === true || options.mcp === undefined ? {} : options.mcp)
    return yield* extend(withPlugins, mcp)
  }))
