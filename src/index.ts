/**
 * hermes-effect: the tools runtime of an AI agent, on Effect.
 *
 *   import { HermesRuntime, ToolExecutor } from "hermes-effect"
 *   const program = Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool: "todo", args: {} }))
 *   Effect.runPromise(Effect.provide(program, HermesRuntime.layer()))
 *
 * Grouped by service: each service's Tag, errors and types, then its layers.
 * Internals (parsers, rule tables, engines) are not exported.
 */

// ---- Runtime and config: `HermesRuntime.layer(options)` provides every service below; `Config` is the typed `config.yaml` (defaults declared once in its schema).
export * as HermesRuntime from "./layers/HermesRuntime.js"
export { Config, ConfigError } from "./services/Config.js"
export type { ConfigService, HermesConfig, HermesHome } from "./services/Config.js"
export { ConfigLive, resolveHome } from "./layers/ConfigLive.js"
export { ConfigTest } from "./layers/ConfigTest.js"

// ---- Catalogue: `ToolRegistry` holds tools, toolsets, availability and definitions; tools are declared with `defineTool` (an effect/Schema for parameters) and registered with `registerTool`.
export type { Tool, ToolDefinitionJson, ParallelPolicy } from "./services/Tool.js"
export { ToolContext } from "./services/ToolContext.js"
export type { ToolCallContext } from "./services/ToolContext.js"
export * from "./services/ToolError.js"
export { ToolOverrideDenied, ToolRegistry, ToolShadowed } from "./services/ToolRegistry.js"
export type { CallCancellation, RegisteredTool, ToolsetSelection } from "./services/ToolRegistry.js"
export { registerTool } from "./lib/tool/registerTool.js"
export { ToolRegistryLive } from "./layers/registry/ToolRegistryLive.js"
export { defineTool } from "./lib/tool/defineTool.js"
export * as Toolsets from "./lib/toolsets/index.js"

// ---- Execution: `ToolExecutor` runs one call or one model turn (decode, hooks, gates, handler under timeout, result shaping, the one error fold). Hooks, plugins, the ToolGate seam and where oversized results go.
export { Hooks } from "./services/Hooks.js"
export type { HookSet, PreToolDirective, PostToolCallEvent } from "./services/Hooks.js"
export { Plugins } from "./services/Plugins.js"
export { ResultStore } from "./services/ResultStore.js"
export { ToolApprovalDenied, ToolGate } from "./services/ToolGate.js"
export { ToolExecutor } from "./services/ToolExecutor.js"
export type { CallOutcome, DispatchOptions, ToolCall } from "./services/ToolExecutor.js"
export { HooksLive } from "./layers/HooksLive.js"
export { ToolGateAllow } from "./layers/toolGate/ToolGateAllow.js"
export { ToolGateDeny } from "./layers/toolGate/ToolGateDeny.js"
export { ToolExecutorLive } from "./layers/executor/ToolExecutorLive.js"
export { ToolGateApproval } from "./layers/toolGate/ToolGateApproval.js"
export type { PostLlmCallEvent, PreLlmCallEvent, PreLlmDirective } from "./services/Hooks.js"

// ---- Approval: detection plus the fail-closed decision for every shell command and implicit-exec file write; approvers (who is asked) and the audit log.
export { Approval, CommandDenied } from "./services/Approval.js"
export type { ApprovalGranted, CommandApprovalRequest, Detection } from "./services/Approval.js"
export { Approver } from "./services/Approver.js"
export type { ApprovalChoice, ApprovalPrompt, ApproverAnswer } from "./services/Approver.js"
export { ApprovalAudit } from "./services/ApprovalAudit.js"
export type { ApprovalRecord } from "./services/ApprovalAudit.js"
export { ApprovalLive } from "./layers/approval/ApprovalLive.js"
export { ApproverCallback } from "./layers/approval/approvers/ApproverCallback.js"
export { ApproverNonInteractive } from "./layers/approval/approvers/ApproverNonInteractive.js"
export { ApproverTerminal } from "./layers/approval/approvers/ApproverTerminal.js"
export { ApprovalAuditJsonl } from "./layers/approval/audit/ApprovalAuditJsonl.js"
export { ApprovalAuditMemory } from "./layers/approval/audit/ApprovalAuditMemory.js"
export { detectCommand } from "./layers/approval/detect/detect.js"
export { ApprovalAuditSql } from "./layers/approval/audit/ApprovalAuditSql.js"

// ---- Terminal: backends (local, sandbox, ssh, container), per-task environments, background processes, and `Shell` (environment → approval → run → shaped output) for tools.
export { Environments } from "./services/Environments.js"
export { Processes } from "./services/Processes.js"
export { Shell } from "./services/Shell.js"
export type { ProcessInfo, ProcessNotification } from "./services/Processes.js"
export { EnvironmentFileError, TerminalBackend, TerminalError } from "./services/TerminalBackend.js"
export type { TerminalEnvironment } from "./services/TerminalBackend.js"
export { TerminalBackendLocal } from "./layers/terminal/local/TerminalBackendLocal.js"
export { TerminalBackendSandbox } from "./layers/terminal/sandbox/TerminalBackendSandbox.js"
export { TerminalBackendSsh } from "./layers/terminal/ssh/TerminalBackendSsh.js"
export { makeTerminalBackendContainer, TerminalBackendContainer } from "./layers/terminal/container/TerminalBackendContainer.js"
export { EnvironmentsLive } from "./layers/EnvironmentsLive.js"
export { ProcessesLive } from "./layers/ProcessesLive.js"
export { ShellLive } from "./layers/terminal/ShellLive.js"

// ---- State: the SQLite state database, sessions (messages, search, checkpoints), todo lists, memory files, and per-task read tracking for the file tools.
export { TodoStore } from "./services/TodoStore.js"
export { FileReadTracker } from "./services/FileReadTracker.js"
export type { FileReadTrackerService } from "./services/FileReadTracker.js"
export { FileReadTrackerMemory } from "./layers/FileReadTrackerMemory.js"
export { MessageNotFound, SessionExists, SessionNotFound, SessionStore, SessionStoreError, sessionKey, TASK_SESSION_SOURCE } from "./services/SessionStore.js"
export type {
  ExportFormat,
  ListSessionsOptions,
  MessageRole,
  MessageWindow,
  NewMessage,
  NewSession,
  ProcessCheckpoint,
  SearchHit,
  SearchOptions,
  Session,
  SessionPage,
  SessionStoreService,
  SessionSummary,
  StoredMessage,
  ToolCallRecord
} from "./services/SessionStore.js"
export { StateDatabaseError } from "./services/StateDatabase.js"
export { MEMORY_DATABASE, StateDatabaseLive, StateDatabaseMemory, StateDatabaseMemoryOnDemand, stateDatabaseLayer } from "./layers/sql/StateDatabase.js"
export type { StateDatabaseOptions } from "./layers/sql/StateDatabase.js"
export { SessionStoreMemory, SessionStoreSql } from "./layers/sql/sessions/SessionStoreSql.js"
export { TodoStoreSql } from "./layers/sql/TodoStoreSql.js"
export { MemoryStore, MemoryStoreError } from "./services/MemoryStore.js"
export type { MemoryStoreService, MemoryTarget } from "./services/MemoryStore.js"
export { MemoryStoreFiles } from "./layers/MemoryStoreFiles.js"
export { TodoStoreMemory } from "./layers/TodoStoreMemory.js"
export { SessionRecorder } from "./layers/sql/SessionRecorder.js"
export type { RecordSessionsOptions } from "./layers/sql/SessionRecorder.js"

// ---- Skills: skill roots, lookup, validation, seeding and guarded install.
export {
  SkillAmbiguous,
  SkillBlocked,
  SkillFileNotFound,
  SkillInvalid,
  SkillNotFound,
  Skills,
  SkillsIoError,
  SkillUnsupported
} from "./services/Skills.js"
export type {
  AuditEntry,
  Finding,
  GuardAction,
  GuardDecision,
  InstallOptions,
  InstallReport,
  ScanResult,
  SeedReport,
  SkillDocument,
  SkillFile,
  SkillListing,
  SkillReadiness,
  SkillRoot,
  SkillsService,
  SkillSummary,
  SkillView,
  ThreatCategory,
  TrustLevel,
  Verdict
} from "./services/Skills.js"
export { makeSkillsLive, SkillsLive } from "./layers/SkillsLive.js"
export type { SkillsOptions } from "./layers/SkillsLive.js"
export * as SkillsGuard from "./layers/skills/guard/index.js"
export * as SkillValidation from "./layers/skills/validate.js"

// ---- MCP: servers' tools discovered and registered as `mcp-<server>` toolsets.
export { Mcp, McpCallFailed, McpNotConnected, McpToolError, McpUnknownServer } from "./services/Mcp.js"
export type { McpServerState, McpServerStatus, McpTestReport, McpToolReport } from "./services/Mcp.js"
export { makeMcpLive, McpLive, McpNone } from "./layers/McpLive.js"
export type { McpOptions } from "./layers/McpLive.js"

// ---- Model and prompter: chat-completion providers for the agent loop, and who answers `clarify`.
export {
  AssistantMessage,
  ChatMessage,
  Model,
  ModelAuthFailed,
  ModelBadResponse,
  ModelDelta,
  ModelErrorSchema,
  ModelHttpError,
  ModelNetworkError,
  ModelNotConfigured,
  ModelScriptError,
  ModelTimeout,
  SystemMessage,
  ToolCallRequest,
  ToolMessage,
  UserMessage
} from "./services/Model.js"
export type { FinishReason, ModelError, ModelRequest, ModelResponse, ModelService, Usage } from "./services/Model.js"
export { ModelFromConfig, ModelUnconfigured } from "./layers/model/fromConfig.js"
export { AuxiliaryModelsLive } from "./layers/model/AuxiliaryModelsLive.js"
export { AuxiliaryModels } from "./services/AuxiliaryModels.js"
export type { AuxiliaryModel, AuxiliaryModelsService } from "./services/AuxiliaryModels.js"
export { Speech, SpeechError } from "./services/Speech.js"
export type { SpeechRequest, SpeechService } from "./services/Speech.js"
export { SpeechFromConfig } from "./layers/speech/SpeechFromConfig.js"
export { SpeechLocal } from "./layers/speech/SpeechLocal.js"
export { SpeechOpenAi } from "./layers/speech/SpeechOpenAi.js"
export { SpeechElevenLabs } from "./layers/speech/SpeechElevenLabs.js"
export { ImageGeneration, ImageGenerationError } from "./services/ImageGeneration.js"
export type { AspectRatio, GeneratedImage, ImageGenerationService } from "./services/ImageGeneration.js"
export { ImageGenFromConfig } from "./layers/imageGen/ImageGenFromConfig.js"
export { makeOpenAiModel, ModelOpenAi } from "./layers/model/openai.js"
export type { OpenAiOptions } from "./layers/model/settings.js"
export { makeScriptedModel, ModelScripted } from "./layers/model/scripted.js"
export type { ScriptedOptions, ScriptSource } from "./layers/model/scripted.js"
export type { ScriptTurnInput } from "./layers/model/script.js"
export { collectResponse } from "./layers/model/assemble.js"
export { CLARIFY_TIMEOUT_RESPONSE, CLARIFY_UNAVAILABLE, Prompter, PromptFailed, PromptUnavailable } from "./services/Prompter.js"
export type { ClarifyQuestion, PrompterService } from "./services/Prompter.js"
export { PrompterCallback, PrompterNonInteractive, PrompterTerminal, PrompterTerminalWith } from "./layers/Prompters.js"

// ---- Agent: the model ↔ tools loop, subagents, and prompt batches.
export {
  AgentEvent,
  AgentLoop,
  CurrentAgentRun,
  DEFAULT_MAX_ITERATIONS,
  MAX_INVALID_TOOL_RETRIES,
  NonInteractiveApprovals
} from "./services/AgentLoop.js"
export type { AgentError, AgentLoopService, AgentRequest, AgentResult, AgentRunInfo, AgentStatus, AgentUsage, BackgroundWork } from "./services/AgentLoop.js"
export { AgentLoopLive } from "./layers/AgentLoopLive.js"
export { withSubagentApprover } from "./layers/agent/subagentApprover.js"
export { renderSystemPrompt } from "./layers/agent/systemPrompt.js"
export { isPromptBatch, parsePromptBatch, runPromptBatch } from "./programs/batchRunner.js"
export type { PromptEntry, PromptLine, PromptResult, RunPromptBatchOptions } from "./programs/batchRunner.js"

// ---- Built-in tools, for registering on a hand-built runtime.
export { clarifyTool } from "./tools/clarify.js"
export { patchTool, readFileTool, searchFilesTool, writeFileTool } from "./tools/index.js"
export { memoryTool, sessionSearchTool } from "./tools/index.js"
export { skillManageTool, skillsListTool, skillViewTool } from "./tools/index.js"
export { delegateTool, DelegateToolLive } from "./tools/index.js"
export * as PathSafety from "./lib/pathSafety.js"
