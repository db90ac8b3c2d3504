/**
 * CodeExecution: run a Python script from the model (`execute_code`) in the
 * task's terminal environment, with the tools in `allowed` callable from the
 * script through a generated `hermes_tools` module. Every call the script
 * makes goes through the ToolExecutor as a model call would (hooks, approval,
 * result caps) and counts against `maxToolCalls`.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ToolCallContext } from "./ToolContext.js"

/** Hermes' limits (`code_execution.*` defaults). */
export const CODE_EXECUTION_LIMITS = {
  timeoutSeconds: 300,
  maxToolCalls: 50,
  /** stdout kept: 40% head, 60% tail. */
  maxStdoutBytes: 50_000,
  /** stderr kept: head only. */
  maxStderrBytes: 10_000
} as const

/** Tools a script may call (Hermes' `SANDBOX_ALLOWED_TOOLS`), when the session has them. */
export const SCRIPT_TOOLS: ReadonlyArray<string> = ["web_search", "web_extract", "read_file", "write_file", "search_files", "patch", "terminal"]

export interface ScriptRequest {
  readonly code: string
  readonly context: ToolCallContext
  /** Tools the script may call (a subset of `SCRIPT_TOOLS`). */
  readonly allowed: ReadonlyArray<string>
  readonly timeoutSeconds?: number | undefined
  readonly maxToolCalls?: number | undefined
}

export type ScriptStatus = "success" | "error" | "timeout" | "interrupted"

/** Hermes' result, key for key (JSON order as Hermes prints it). */
export interface ScriptResult {
  readonly status: ScriptStatus
  readonly output?: string | undefined
  readonly exit_code?: number | undefined
  readonly tool_calls_made: number
  readonly duration_seconds: number
  readonly stdout_truncated?: boolean | undefined
  readonly stdout_bytes_captured?: number | undefined
  readonly stdout_bytes_total?: number | undefined
  readonly stdout_bytes_omitted?: number | undefined
  readonly warning?: string | undefined
  readonly error?: string | undefined
}

export interface CodeExecutionService {
  /** Run one script to its end, its timeout or the caller's interruption; never fails (errors are results). */
  readonly run: (request: ScriptRequest) => Effect.Effect<ScriptResult>
}

export class CodeExecution extends Context.Tag("hermes-effect/CodeExecution")<CodeExecution, CodeExecutionService>() {}
