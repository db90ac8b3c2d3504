/**
 * AgentLoop: the agent itself. One `run` takes a prompt, asks the model,
 * sends every tool call of a model turn through `ToolExecutor.executeBatch`,
 * feeds the results back and repeats until the model answers without tools,
 * the iteration budget is spent, or the model keeps sending calls that cannot
 * run. Every message lands in the SessionStore as it is produced; interrupting
 * the run interrupts the running tools and stores what they returned so far.
 *
 * Delegation (`delegate_task`) runs child agents through the same service; a
 * child learns about its parent from `CurrentAgentRun`, which dispatch carries
 * into every tool handler of the run, and runs in the background through the
 * parent's `BackgroundWork`: its report comes back later as a user message.
 */
import { Context, Data, FiberRef } from "effect"
import type { Effect } from "effect"
import { CONFIG_DEFAULTS } from "./Config.js"
import type { CallStatus } from "./Hooks.js"
import type { AssistantMessage, ChatMessage, FinishReason, ModelError, ToolCallRequest } from "./Model.js"
import type { SessionNotFound, SessionStoreError } from "./SessionStore.js"
import type { ToolsetSelection } from "./ToolRegistry.js"

/** Model calls per run unless `agent.max_turns` or the request says otherwise (Hermes' default, from the Config schema). */
export const DEFAULT_MAX_ITERATIONS = CONFIG_DEFAULTS.agent.max_turns

/** Turns in a row with calls that cannot run (unknown tool, arguments that are not JSON) before the run stops. */
export const MAX_INVALID_TOOL_RETRIES = 3

export interface AgentRequest {
  readonly prompt: string
  /**
   * Images sent with the prompt (data: or https: URLs), for a model that accepts them. The session stores the
   * prompt's text; the images go to the model with this turn only.
   */
  readonly images?: ReadonlyArray<string> | undefined
  /**
   * The session to write to: its history is loaded when it exists, and it is
   * created with this id otherwise. Default: a new session with a fresh id.
   */
  readonly sessionId?: string | undefined
  /** The session must exist already (`--resume`): `SessionNotFound` otherwise. */
  readonly resume?: boolean | undefined
  /** Source of a new session: cli, batch, subagent, … (default "cli"). */
  readonly source?: string | undefined
  /** Lineage of a new session (delegation). */
  readonly parentSessionId?: string | undefined
  /** Terminal environment key; runs with the same task id share an environment (default: the session id). */
  readonly taskId?: string | undefined
  readonly cwd?: string | undefined
  /** Toolsets offered to the model (default: the runtime's, i.e. config `toolsets`, else all). */
  readonly toolsets?: ToolsetSelection | undefined
  /** When given, only these tools may be offered (a child never gets more than its parent). */
  readonly onlyTools?: ReadonlyArray<string> | undefined
  /** Never offered, whatever the toolsets say. */
  readonly excludeTools?: ReadonlyArray<string> | undefined
  /** Model name for this run (default: the provider's configured one). */
  readonly model?: string | undefined
  /** Model calls this run may make (default `agent.max_turns`, else 90). */
  readonly maxIterations?: number | undefined
  /** Replaces the built system prompt of a new session. */
  readonly systemPrompt?: string | undefined
  /** Ask the model for a stream, so `TextDelta` events arrive as the answer is written. */
  readonly stream?: boolean | undefined
  /** Sees the run as it happens (progress display, delegation bookkeeping). */
  readonly onEvent?: ((event: AgentEvent) => Effect.Effect<void>) | undefined
  /** Delegation depth: 0 for a top-level run. */
  readonly depth?: number | undefined
  /** This run is a subagent's: its approvals go to the parent's approver marked as such, or are refused with nobody to ask. */
  readonly nonInteractive?: boolean | undefined
}

/**
 * - `completed`: the model answered without calling tools
 * - `budget_exhausted`: the iterations ran out; the answer is the model's summary without tools
 * - `invalid_tool_calls`: the model kept sending calls that cannot run
 */
export type AgentStatus = "completed" | "budget_exhausted" | "invalid_tool_calls"

export interface AgentUsage {
  readonly inputTokens: number
  readonly outputTokens: number
}

export interface AgentResult {
  readonly sessionId: string
  readonly taskId: string
  readonly status: AgentStatus
  /** Why the model's last response ended (`length`: cut at max tokens, `content_filter`: refused). */
  readonly finishReason?: FinishReason | undefined
  /** The model's final answer (empty when it gave none). */
  readonly response: string
  /** Model calls made by this run. */
  readonly iterations: number
  readonly toolCalls: number
  readonly usage: AgentUsage
  /** The conversation as the model saw it, system prompt first. */
  readonly messages: ReadonlyArray<ChatMessage>
}

export type AgentEvent = Data.TaggedEnum<{
  /** The session is open (`resumed`: it had history). */
  SessionStarted: { readonly sessionId: string; readonly taskId: string; readonly resumed: boolean }
  /** A piece of the answer as the model streams it (only with `stream`). */
  TextDelta: { readonly text: string }
  /** One model response, before its tool calls run. */
  ModelResponded: { readonly iteration: number; readonly message: AssistantMessage }
  ToolStarted: { readonly call: ToolCallRequest }
  ToolFinished: {
    readonly toolCallId: string
    readonly tool: string
    readonly status: CallStatus
    readonly result: string
    readonly durationMs: number
  }
  /** Something the loop told the model: a budget warning, background-process news, a malformed call. */
  Notice: { readonly kind: "budget" | "process" | "delegation" | "invalid_tool_call"; readonly text: string }
}>
export const AgentEvent = Data.taggedEnum<AgentEvent>()

export type AgentError = ModelError | SessionNotFound | SessionStoreError

/** What a tool handler can learn about the run that called it (delegation reads it). */
export interface AgentRunInfo {
  readonly sessionId: string
  readonly taskId: string
  readonly cwd: string | undefined
  readonly depth: number
  /** The tools offered to the model in this run. */
  readonly tools: ReadonlyArray<string>
  readonly toolsets: ToolsetSelection | undefined
  readonly model: string | undefined
  /** Work that runs beside this run and reports back into its conversation (background delegation). */
  readonly background: BackgroundWork
}

/**
 * Background work of one run (Hermes' async delegation): each unit is forked
 * in the run's scope, so interrupting or ending the run interrupts it; the
 * text a unit ends with re-enters the conversation as a user message before
 * the next model call, and a run whose model has answered waits for the
 * units still going (their reports start new turns) instead of dropping them.
 */
export interface BackgroundWork {
  readonly start: (work: Effect.Effect<string>) => Effect.Effect<void>
  /** Units started and not yet reported. */
  readonly running: Effect.Effect<number>
}

/**
 * The run the current fiber belongs to; undefined outside the agent loop.
 * Dispatch starts handlers with the caller's fiber refs, so a tool sees it.
 */
export const CurrentAgentRun: FiberRef.FiberRef<AgentRunInfo | undefined> = FiberRef.unsafeMake<AgentRunInfo | undefined>(undefined)

/** True inside a subagent: its approvals are asked of the parent's approver as a subagent's, or refused when nobody can answer. */
export const NonInteractiveApprovals: FiberRef.FiberRef<boolean> = FiberRef.unsafeMake(false)

export interface AgentLoopService {
  readonly run: (request: AgentRequest) => Effect.Effect<AgentResult, AgentError>
}

export class AgentLoop extends Context.Tag("hermes-effect/AgentLoop")<AgentLoop, AgentLoopService>() {}
