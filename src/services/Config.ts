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

/**
 * Names `terminal.backend` accepts (case and surrounding blanks ignored), as
 * `terminalBackendLayer` in layers/TerminalBackendFromConfig.ts maps them:
 * docker and podman are the container backend with that CLI.
 */
export const TERMINAL_BACKENDS = ["local", "sandbox", "ssh", "container", "docker", "podman"] as const

/** A backend name, refused at decode when nothing would run it (not later as "unavailable"). */
const TerminalBackendName = Schema.String.pipe(
  Schema.filter((name) =>
    (TERMINAL_BACKENDS as ReadonlyArray<string>).includes(name.trim().toLowerCase()) ||
    `unknown terminal backend ${JSON.stringify(name)}; allowed: ${TERMINAL_BACKENDS.join(", ")}`
  )
)

/** `terminal:` — the shell backends (Hermes' `terminal.*` keys where they exist). */
export const TerminalSection = Schema.Struct({
  /** local | sandbox | ssh | container (docker, podman: the container backend with that CLI). */
  backend: Schema.optional(TerminalBackendName),
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
  sandbox_dir: Schema.optional(Schema.String),
  /** ssh backend: the host (required), user (default: ssh's own), port (22) and private key file. */
  ssh_host: Schema.optional(Schema.String),
  ssh_user: Schema.optional(Schema.String),
  ssh_port: Schema.optional(Schema.Number),
  ssh_key: Schema.optional(Schema.String),
  /** ssh backend: remote starting directory (default: the remote user's home). */
  ssh_cwd: Schema.optional(Schema.String),
  /** ssh backend: extra `-o Key=Value` options (they win over the defaults, e.g. `StrictHostKeyChecking=yes`). */
  ssh_options: Schema.optional(NameList),
  /** ssh backend: local variables exported on the remote side (with `env_passthrough`). */
  ssh_forward_env: Schema.optional(NameList),
  /** ssh backend: sessions one connection carries (sshd MaxSessions, default 10); more get their own connection. */
  ssh_max_sessions: Schema.optional(Schema.Number),
  /** container backend: `docker` or `podman` (a name or a path; default: the first that answers). */
  container_cli: Schema.optional(Schema.String),
  /** container backend: image (default Hermes' `nikolaik/python-nodejs:python3.11-nodejs20`). */
  container_image: Schema.optional(Schema.String),
  /** container backend: starting directory inside the container (default /workspace, a tmpfs). */
  container_cwd: Schema.optional(Schema.String),
  /** container backend: network access (default false: `--network none`). */
  container_network: Schema.optional(Schema.Boolean),
  /** container backend: `source:target[:options]` mounts; a host path makes the backend not isolated. */
  container_volumes: Schema.optional(NameList),
  /** container backend: variables set in the container. */
  container_env: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  /** container backend: local variables exported inside the container (with `env_passthrough`). */
  container_forward_env: Schema.optional(NameList),
  /** container backend: extra `run` arguments, appended before the image. */
  container_extra_args: Schema.optional(NameList),
  /** container backend: OCI runtime (e.g. runc); podman takes it as a global flag, docker as a `run` flag. */
  container_runtime: Schema.optional(Schema.String),
  /** container backend: CPU limit (`--cpus`) and memory limit in MB (`--memory`); unset = no limit. */
  container_cpu: Schema.optional(Schema.Number),
  container_memory: Schema.optional(Schema.Number),
  /**
   * Mount the runtime's home read-only for commands where the backend can (local with bubblewrap
   * installed, sandbox, container). Default true.
   */
  protect_home: Schema.optional(Schema.Boolean),
  /** Background processes one task may have running at once (default 16). */
  max_background_per_task: Schema.optional(Schema.Number),
  /** Background processes the whole runtime may have running at once (default 64). */
  max_background: Schema.optional(Schema.Number),
  /** sandbox backend: host directories under a home (/root, /home/…) made visible read-only; homes are hidden otherwise. */
  sandbox_home_binds: Schema.optional(NameList)
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

/** `mcp_servers.<name>.tools:` which of the server's tools register. */
export const McpToolsFilter = Schema.Struct({
  /** Only these tools (server names or `*` globs); wins over `exclude`. */
  include: Schema.optional(NameList),
  exclude: Schema.optional(NameList),
  /** Register list_resources/read_resource when the server offers resources (default true). */
  resources: Schema.optional(Schema.Boolean),
  /** Register list_prompts/get_prompt when the server offers prompts (default true). */
  prompts: Schema.optional(Schema.Boolean)
}, Extra)

/** `mcp_servers.<name>:` one MCP server, stdio (`command`) or Streamable HTTP (`url`). Hermes' keys. */
export const McpServerEntry = Schema.Struct({
  command: Schema.optional(Schema.String),
  args: Schema.optional(Schema.Array(Schema.Union(Schema.String, Schema.Number))),
  /** Added to the filtered environment the stdio server gets. */
  env: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean) })),
  cwd: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  /** stdio | http (default: from `command` / `url`). */
  transport: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  /** Seconds one tool call may take (default 300). */
  timeout: Schema.optional(Schema.Number),
  /** Seconds to start and initialize (default 60). */
  connect_timeout: Schema.optional(Schema.Number),
  tools: Schema.optional(McpToolsFilter),
  /** The server's tools may run in parallel with other parallel-safe calls. */
  supports_parallel_tool_calls: Schema.optional(Schema.Boolean)
}, Extra)

/** `files:` — the file tools (read_file, write_file, patch, search_files). */
export const FilesSection = Schema.Struct({
  /** When set, write_file and patch may only write inside these directories (`~` allowed). */
  write_roots: Schema.optional(NameList),
  /** Characters one read_file result may hold before it is cut on a line boundary (default 100000). */
  read_max_chars: Schema.optional(Schema.Number),
  /** search_files engine: auto (ripgrep in the environment when present), rg, or builtin. */
  search_engine: Schema.optional(Schema.Literal("auto", "rg", "builtin"))
}, Extra)

/** `model:` — the language model the agent loop talks to (layers in src/layers/model/). */
export const ModelSection = Schema.Struct({
  /** openai (default), openrouter, custom or any OpenAI-compatible name; `scripted` replays `script`; `none` disables. */
  provider: Schema.optional(Schema.String),
  /** Model name sent with each request (Hermes' `default` key is read too). */
  name: Schema.optional(Schema.String),
  default: Schema.optional(Schema.String),
  /** Chat-completions base URL, e.g. https://api.openai.com/v1 (`/chat/completions` is appended). */
  base_url: Schema.optional(Schema.String),
  /** NAME of the environment variable holding the API key; the key itself never goes in this file. */
  api_key_env: Schema.optional(Schema.String),
  /** JSONL script of assistant turns for `provider: scripted` (relative to the current directory). */
  script: Schema.optional(Schema.String),
  /** Seconds to wait for an answer, or for the next chunk of a stream (default 300). */
  timeout_seconds: Schema.optional(Schema.Number),
  /** Retries after 429, 5xx, timeouts and network failures (default 3). */
  max_retries: Schema.optional(Schema.Number),
  /** First retry delay in seconds, doubled on each retry (default 1). */
  retry_base_seconds: Schema.optional(Schema.Number),
  /** Longest wait before a retry, Retry-After included (default 60). */
  retry_max_seconds: Schema.optional(Schema.Number),
  temperature: Schema.optional(Schema.Number),
  max_tokens: Schema.optional(Schema.Number),
  /** Extra request headers (e.g. OpenRouter's HTTP-Referer). */
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
}, Extra)

/** `sessions:` — the state database (`state.db`) behind sessions, todo lists and the approval audit. */
export const SessionsSection = Schema.Struct({
  /** How long a write waits for another process's transaction, milliseconds (default 5000). */
  busy_timeout_ms: Schema.optional(Schema.Number),
  /** normal (default; survives a killed process) | full (also survives power loss; slower commits). */
  synchronous: Schema.optional(Schema.Literal("normal", "full"))
}, Extra)

/** `memory:` — the memory tool's two stores (Hermes' keys). */
export const MemorySection = Schema.Struct({
  /** Characters in MEMORY.md, entries and separators included (default 2200). */
  memory_char_limit: Schema.optional(Schema.Number),
  /** Characters in USER.md (default 1375). */
  user_char_limit: Schema.optional(Schema.Number)
}, Extra)

/** `skills:` — skill documents (Hermes' keys, plus the install guard's trust settings). */
export const SkillsSection = Schema.Struct({
  /** More skill roots, read-only here (`~` and `${VAR}` expanded; relative to the home). */
  external_dirs: Schema.optional(Schema.Union(Schema.String, NameList)),
  /** Skill names hidden from skills_list and refused by skill_view. */
  disabled: Schema.optional(NameList),
  /** Scan what skill_manage writes with the guard, as an agent-created skill (default false). */
  guard_agent_created: Schema.optional(Schema.Boolean),
  /** Sources (`owner/repo` ids) and folders whose skills install as trusted: caution allowed, dangerous blocked. */
  trusted_sources: Schema.optional(NameList),
  /** Seed and update the bundled skills on first use (default true). */
  seed_bundled: Schema.optional(Schema.Boolean)
}, Extra)

/** `agent:` — the agent loop (Hermes' keys). */
export const AgentSection = Schema.Struct({
  /** Model calls one run may make (default 90); warnings at 70% and 90%. */
  max_turns: Schema.optional(Schema.Number),
  /** Text appended to the system prompt of new sessions. */
  system_prompt: Schema.optional(Schema.String)
}, Extra)

/** `delegation:` — `delegate_task` subagents (Hermes' keys). */
export const DelegationSection = Schema.Struct({
  /** How deep delegation may nest: 1 (default) = children cannot delegate. */
  max_spawn_depth: Schema.optional(Schema.Number),
  /** Tasks one delegate_task call may run at once (default 3; more are refused). */
  max_concurrent_children: Schema.optional(Schema.Number),
  /** Model calls per child (default 50). */
  max_iterations: Schema.optional(Schema.Number),
  /** Seconds a child may run; 0 (default) = no limit, else at least 30. */
  child_timeout_seconds: Schema.optional(Schema.Number),
  /** Characters of a child's summary returned to the parent (default 24000). */
  summary_max_chars: Schema.optional(Schema.Number)
}, Extra)

export const HermesConfigSchema = Schema.Struct({
  /** Toolsets enabled when the caller names none (default: hermes-cli). */
  toolsets: Schema.optional(NameList),
  disabled_toolsets: Schema.optional(NameList),
  tools: Schema.optional(ToolsSection),
  plugins: Schema.optional(PluginsSection),
  approvals: Schema.optional(ApprovalsSection),
  command_allowlist: Schema.optional(NameList),
  terminal: Schema.optional(TerminalSection),
  sessions: Schema.optional(SessionsSection),
  memory: Schema.optional(MemorySection),
  mcp_servers: Schema.optional(Schema.Record({ key: Schema.String, value: McpServerEntry })),
  files: Schema.optional(FilesSection),
  skills: Schema.optional(SkillsSection),
  /** A model name alone, or the `model:` section. */
  model: Schema.optional(Schema.Union(Schema.String, ModelSection)),
  agent: Schema.optional(AgentSection),
  delegation: Schema.optional(DelegationSection)
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
