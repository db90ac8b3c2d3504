/**
 * Config: the typed view of `$HERMES_EFFECT_HOME/config.yaml`.
 *
 * Known sections are decoded with effect/Schema; unknown keys are kept (every
 * struct has a string index signature) so a file shared with other tools or
 * written by a newer version loses nothing when we write it back.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

const Extra = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** A list given either as a YAML sequence or as a comma-separated string. */
const NameList = Schema.Array(Schema.String)

export const ToolsSection = Schema.Struct({
  /** Per-call timeout for one tool handler, seconds (tools may set their own). */
  call_timeout_seconds: Schema.optional(Schema.Number),
  /** Timeout for one whole batch of calls from a model turn, seconds (≤0 disables). */
  batch_timeout_seconds: Schema.optional(Schema.Number),
  /** Results longer than this many characters are persisted and previewed. */
  result_size_chars: Schema.optional(Schema.Number),
  /** Most tool calls running at once in one batch. */
  max_parallel: Schema.optional(Schema.Number)
}, Extra)

export const PluginEntry = Schema.Struct({
  allow_tool_override: Schema.optional(Schema.Boolean)
}, Extra)

export const PluginsSection = Schema.Struct({
  enabled: Schema.optional(NameList),
  disabled: Schema.optional(NameList),
  entries: Schema.optional(Schema.Record({ key: Schema.String, value: PluginEntry }))
}, Extra)

/** `terminal:` — the shell backends (Hermes' `terminal.*` keys where they exist). */
export const TerminalSection = Schema.Struct({
  /** local | sandbox (more backends register their own names). */
  backend: Schema.optional(Schema.String),
  /** Starting directory for new environments ("." / "auto" / "cwd" = the process cwd). */
  cwd: Schema.optional(Schema.String),
  /** Default foreground timeout in seconds (capped at 600). */
  timeout: Schema.optional(Schema.Number),
  /** Idle seconds before an environment without background processes is torn down. */
  lifetime_seconds: Schema.optional(Schema.Number),
  /** Variable names passed to commands even though they look like credentials. */
  env_passthrough: Schema.optional(NameList),
  /** Give the bubblewrap sandbox network access. */
  sandbox_network: Schema.optional(Schema.Boolean),
  /** Where sandbox workspaces live (default: the home's workspace dir). */
  sandbox_dir: Schema.optional(Schema.String)
}, Extra)

/** One ordered policy rule: the strictest matching rule wins (deny > ask > allow). */
export const ApprovalRule = Schema.Struct({
  action: Schema.Literal("allow", "ask", "deny"),
  /** Matches when the command starts with these words. */
  prefix: Schema.optional(Schema.String),
  /** fnmatch-style glob over the whole command (`*`, `?`, `[...]`). */
  glob: Schema.optional(Schema.String),
  /** JavaScript regular expression searched in the command. */
  regex: Schema.optional(Schema.String),
  /** Shown to the model and the approver. */
  reason: Schema.optional(Schema.String)
}, Extra)

export const ApprovalsSection = Schema.Struct({
  /** manual | smart | off; YAML `off` unquoted decodes as `false`. Validated by the Approval layer. */
  mode: Schema.optional(Schema.Union(Schema.String, Schema.Boolean)),
  /** What a run with nobody to ask does with a command that needs approval: deny (default) or allow. */
  non_interactive: Schema.optional(Schema.String),
  /** Seconds a human has to answer before the answer is no. */
  timeout_seconds: Schema.optional(Schema.Number),
  /** Globs that always block (checked on every backend). */
  deny: Schema.optional(NameList),
  rules: Schema.optional(Schema.Array(ApprovalRule)),
  /** Skip non-hardline prompts on backends that declare full isolation (default true). */
  isolated_skip: Schema.optional(Schema.Boolean)
}, Extra)

export const HermesConfigSchema = Schema.Struct({
  /** Toolsets enabled when the caller names none (default: hermes-cli). */
  toolsets: Schema.optional(NameList),
  disabled_toolsets: Schema.optional(NameList),
  tools: Schema.optional(ToolsSection),
  plugins: Schema.optional(PluginsSection),
  approvals: Schema.optional(ApprovalsSection),
  command_allowlist: Schema.optional(NameList),
  terminal: Schema.optional(TerminalSection)
}, Extra)

export type HermesConfig = typeof HermesConfigSchema.Type

/** Where the runtime keeps its files. */
export interface HermesHome {
  readonly root: string
  readonly configFile: string
  readonly database: string
  readonly skillsDir: string
  readonly pluginsDir: string
  readonly logsDir: string
  /** Workspace root for tasks on the local backend (oversized results land under it). */
  readonly workspaceDir: string
}

/** A config file that cannot be read, parsed or decoded. Nothing is overwritten when this is raised. */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  file: Schema.String,
  message: Schema.String,
  line: Schema.optional(Schema.Number),
  key: Schema.optional(Schema.String)
}) {
  /** One line for a terminal: `config.yaml:12: tools.max_parallel: Expected number, actual "x"`. */
  get oneLine(): string {
    const where = this.line === undefined ? this.file : `${this.file}:${this.line}`
    return this.key === undefined ? `${where}: ${this.message}` : `${where}: ${this.key}: ${this.message}`
  }
}

/** A path into the YAML document, e.g. ["approvals", "mode"]. */
export type ConfigPath = ReadonlyArray<string | number>

export interface ConfigService {
  readonly home: HermesHome
  /** The config as last loaded or written. */
  readonly current: Effect.Effect<HermesConfig>
  /** Bumped every time the config changes; used as the config identity in memo keys. */
  readonly revision: Effect.Effect<number>
  /** Re-read the file (e.g. after an outside edit). A bad file fails and keeps the previous config. */
  readonly reload: Effect.Effect<HermesConfig, ConfigError>
  /**
   * Set one value in the file through the YAML Document API (comments and formatting kept),
   * written atomically (temp file + rename). Writes are serialised.
   */
  readonly set: (path: ConfigPath, value: unknown) => Effect.Effect<void, ConfigError>
  /** Remove one key (no-op when absent). */
  readonly remove: (path: ConfigPath) => Effect.Effect<void, ConfigError>
}

export class Config extends Context.Tag("hermes-effect/Config")<Config, ConfigService>() {}
