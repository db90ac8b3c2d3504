/**
 * Environments: one terminal environment per task id, created on first use
 * (concurrent first uses share one), kept while in use and torn down after
 * `terminal.lifetime_seconds` idle unless something still runs in it. Closing
 * the runtime's scope tears every environment down.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { BackendInfo, TerminalEnvironment, TerminalError } from "./TerminalBackend.js"

/**
 * Every process a tool starts (foreground, background, PTY, every backend) has
 * `HERMES_EFFECT_TOOL_RUN=<runtime instance id>:<task id>` in its environment:
 * cleanup finds what escaped its process group by it, and the CLI refuses
 * operator-only commands (approvals, config) when it is set.
 */
export const TOOL_RUN_VARIABLE = "HERMES_EFFECT_TOOL_RUN"

export interface EnvironmentsService {
  /** The backend every environment is made with. */
  readonly backend: BackendInfo
  /** The value of `TOOL_RUN_VARIABLE` for this task's processes (unique to this runtime). */
  readonly toolRunMarker: (taskId: string) => string
  /** The task's environment, created when it has none; marks it active. */
  readonly get: (taskId: string) => Effect.Effect<TerminalEnvironment, TerminalError>
  /** Task ids with a live (or being created) environment. */
  readonly tasks: Effect.Effect<ReadonlyArray<string>>
  /** Tear one environment down now (kills what runs in it). False when there was none. */
  readonly release: (taskId: string) => Effect.Effect<boolean>
  /** One idle sweep now (the layer also runs it periodically); returns the task ids torn down. */
  readonly sweep: Effect.Effect<ReadonlyArray<string>>
}

export class Environments extends Context.Tag("hermes-effect/Environments")<Environments, EnvironmentsService>() {}
