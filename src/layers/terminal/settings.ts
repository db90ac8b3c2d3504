/**
 * The `terminal` config section with Hermes' defaults filled in.
 */
import type { HermesConfig } from "../../services/Config.js"

export const TERMINAL_DEFAULTS = {
  timeoutSeconds: 180,
  maxForegroundTimeoutSeconds: 600,
  lifetimeSeconds: 300,
  /** Hermes checks for idle environments once a minute. */
  sweepIntervalSeconds: 60
} as const

export interface TerminalSettings {
  readonly backend: string
  readonly cwd: string | undefined
  readonly timeoutSeconds: number
  readonly lifetimeSeconds: number
  readonly envPassthrough: ReadonlyArray<string>
  readonly sandboxNetwork: boolean
  readonly sandboxDir: string | undefined
  /** Make the runtime's home read-only for commands where the backend can (default true). */
  readonly protectHome: boolean
  /** Host paths under a home the sandbox may read (homes are hidden otherwise). */
  readonly sandboxHomeBinds: ReadonlyArray<string>
}

const positive = (value: number | undefined, fallback: number): number =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback

/** Hermes treats ".", "auto" and "cwd" as "not set". */
const explicitCwd = (cwd: string | undefined): string | undefined =>
  cwd === undefined || cwd === "" || cwd === "." || cwd === "auto" || cwd === "cwd" ? undefined : cwd

export const terminalSettings = (config: HermesConfig): TerminalSettings => {
  const t = config.terminal ?? {}
  return {
    backend: (t.backend ?? "local").trim().toLowerCase(),
    cwd: explicitCwd(t.cwd),
    timeoutSeconds: Math.min(positive(t.timeout, TERMINAL_DEFAULTS.timeoutSeconds), TERMINAL_DEFAULTS.maxForegroundTimeoutSeconds),
    lifetimeSeconds: positive(t.lifetime_seconds, TERMINAL_DEFAULTS.lifetimeSeconds),
    envPassthrough: t.env_passthrough ?? [],
    sandboxNetwork: t.sandbox_network === true,
    sandboxDir: t.sandbox_dir,
    protectHome: t.protect_home !== false,
    sandboxHomeBinds: t.sandbox_home_binds ?? []
  }
}
