/**
 * The `terminal.ssh_*` keys with defaults filled in.
 */
import { expandHome } from "../../../lib/text.js"
import type { HermesConfig } from "../../../services/Config.js"

export interface SshSettings {
  readonly host: string | undefined
  /** undefined: whatever ssh would use (ssh config, then the local user name). */
  readonly user: string | undefined
  readonly port: number
  readonly key: string | undefined
  /** Remote starting directory; the remote home when undefined. */
  readonly cwd: string | undefined
  /** Extra `-o Key=Value` options; they take precedence over the defaults. */
  readonly options: ReadonlyArray<string>
  /** Local variable names exported remotely (`ssh_forward_env` plus `env_passthrough`). */
  readonly forwardEnv: ReadonlyArray<string>
  /** Sessions one connection carries before further ones get a connection of their own. */
  readonly maxSessions: number
}

/** OpenSSH's default `MaxSessions`. */
export const DEFAULT_MAX_SESSIONS = 10

const nonEmpty = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim()
  return trimmed === undefined || trimmed === "" ? undefined : trimmed
}

export const sshSettings = (config: HermesConfig): SshSettings => {
  const t = config.terminal ?? {}
  const port = t.ssh_port !== undefined && Number.isInteger(t.ssh_port) && t.ssh_port > 0 && t.ssh_port < 65536 ? t.ssh_port : 22
  const key = nonEmpty(t.ssh_key)
  const maxSessions = t.ssh_max_sessions !== undefined && Number.isInteger(t.ssh_max_sessions) && t.ssh_max_sessions > 0
    ? t.ssh_max_sessions
    : DEFAULT_MAX_SESSIONS
  return {
    host: nonEmpty(t.ssh_host),
    user: nonEmpty(t.ssh_user),
    port,
    key: key === undefined ? undefined : expandHome(key),
    cwd: nonEmpty(t.ssh_cwd),
    options: t.ssh_options ?? [],
    forwardEnv: [...new Set([...(t.ssh_forward_env ?? []), ...(t.env_passthrough ?? [])])],
    maxSessions
  }
}

/** `user@host:port` for messages. */
export const describeTarget = (settings: SshSettings): string =>
  `${settings.user === undefined ? "" : `${settings.user}@`}${settings.host ?? "?"}:${settings.port}`
