/**
 * The `terminal.ssh_*` keys as the ssh backend uses them (defaults come from the
 * Config schema): blanks read as unset, `~` expanded, forwarded names merged.
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

const nonEmpty = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim()
  return trimmed === undefined || trimmed === "" ? undefined : trimmed
}

export const sshSettings = (config: HermesConfig): SshSettings => {
  const t = config.terminal
  const key = nonEmpty(t.ssh_key)
  return {
    host: nonEmpty(t.ssh_host),
    user: nonEmpty(t.ssh_user),
    port: t.ssh_port,
    key: key === undefined ? undefined : expandHome(key),
    cwd: nonEmpty(t.ssh_cwd),
    options: t.ssh_options,
    forwardEnv: [...new Set([...t.ssh_forward_env, ...t.env_passthrough])],
    maxSessions: t.ssh_max_sessions
  }
}

/** `user@host:port` for messages. */
export const describeTarget = (settings: SshSettings): string =>
  `${settings.user === undefined ? "" : `${settings.user}@`}${settings.host ?? "?"}:${settings.port}`
