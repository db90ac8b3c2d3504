/** The executor's knobs from config `tools:` (read per call, so a reload applies to the next call). */
import type { HermesConfig } from "../../services/Config.js"

export const DEFAULTS = {
  callTimeoutSeconds: 300,
  batchTimeoutSeconds: 420,
  resultChars: 100_000,
  maxParallel: 8
} as const

export interface Tuning {
  readonly callTimeoutMs: number
  readonly batchTimeoutMs: number
  readonly resultChars: number
  readonly maxParallel: number
}

export const tuningOf = (c: HermesConfig): Tuning => ({
  callTimeoutMs: (c.tools?.call_timeout_seconds ?? DEFAULTS.callTimeoutSeconds) * 1000,
  batchTimeoutMs: (c.tools?.batch_timeout_seconds ?? DEFAULTS.batchTimeoutSeconds) * 1000,
  resultChars: c.tools?.result_size_chars ?? DEFAULTS.resultChars,
  maxParallel: Math.max(1, c.tools?.max_parallel ?? DEFAULTS.maxParallel)
})
