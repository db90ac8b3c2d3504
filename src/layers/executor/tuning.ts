/** The executor's knobs from config `tools:` (read per call, so a reload applies to the next call; defaults live in the Config schema). */
import type { HermesConfig } from "../../services/Config.js"
import type { JsonStyle } from "../../lib/pythonJson.js"

export interface Tuning {
  readonly callTimeoutMs: number
  readonly batchTimeoutMs: number
  readonly resultChars: number
  readonly turnBudgetChars: number
  readonly maxParallel: number
  /** How results and errors are written as JSON text. */
  readonly jsonStyle: JsonStyle
}

export const tuningOf = (c: HermesConfig): Tuning => ({
  callTimeoutMs: c.tools.call_timeout_seconds * 1000,
  batchTimeoutMs: c.tools.batch_timeout_seconds * 1000,
  resultChars: c.tools.result_size_chars,
  turnBudgetChars: c.tools.turn_budget_chars,
  maxParallel: Math.max(1, c.tools.max_parallel),
  jsonStyle: c.tools.result_json
})
