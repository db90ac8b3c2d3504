/**
 * hermes-effect: the tools runtime of an AI agent, on Effect.
 *
 *   import { HermesRuntime, ToolRegistry } from "hermes-effect"
 *   const program = Effect.flatMap(ToolRegistry, (r) => r.dispatch({ tool: "todo", args: {} }))
 *   Effect.runPromise(Effect.provide(program, HermesRuntime.layer()))
 */
export * as HermesRuntime from "./layers/HermesRuntime.js"
export { Config, ConfigError } from "./services/Config.js"
export type { ConfigService, HermesConfig, HermesHome } from "./services/Config.js"
export { Hooks } from "./services/Hooks.js"
export type { HookSet, PreToolDirective, PostToolCallEvent } from "./services/Hooks.js"
export { Plugins } from "./services/Plugins.js"
export { ResultStore } from "./services/ResultStore.js"
export { TodoStore } from "./services/TodoStore.js"
export type { Tool, ToolDefinitionJson, ParallelPolicy } from "./services/Tool.js"
export { ToolContext } from "./services/ToolContext.js"
export type { ToolCallContext } from "./services/ToolContext.js"
export * from "./services/ToolError.js"
export { ToolApprovalDenied, ToolGate } from "./services/ToolGate.js"
export { ToolOverrideDenied, ToolRegistry, ToolShadowed } from "./services/ToolRegistry.js"
export type { CallOutcome, ToolCall, ToolsetSelection } from "./services/ToolRegistry.js"
export { ConfigLive, resolveHome } from "./layers/ConfigLive.js"
export { ConfigTest } from "./layers/ConfigTest.js"
export { HooksLive } from "./layers/HooksLive.js"
export { registerTool } from "./layers/registry/provideTool.js"
export { ToolGateAllow, ToolGateDeny } from "./layers/ToolGateDeny.js"
export { ToolRegistryLive } from "./layers/ToolRegistryLive.js"
export { defineTool } from "./tools/defineTool.js"
export * as Toolsets from "./tools/toolsets/index.js"
