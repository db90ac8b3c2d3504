/**
 * Config: the typed view of `$HERMES_EFFECT_HOME/config.yaml`.
 *
 * Known sections are decoded with effect/Schema; unknown keys are kept (every
 * struct has a string index signature) so a file shared with other tools or
 * written by a newer version loses nothing when we write it back.
 *
 * Every default lives here and nowhere else: decoding fills in absent keys (and
 * replaces out-of-range numbers the way Hermes does), so readers get plain typed
 * values. Defaults exist only in the decoded value; writes edit the YAML document,
 * so they never reach the user's file.
 */
import { Context, Option, Schema } from "effect"
import type { Effect } from "effect"

const Extra = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** An optional key that decodes to `value` when absent. */
const withDefault = <A, I>(schema: Schema.Schema<A, I>, value: A) =>
  Schema.optionalWith(schema, { default: () => value })

/** A section that decodes as if written empty when absent, so its own defaults apply. */
const section = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(schema, { default: () => Schema.decodeUnknownSync(schema)({}) })

/** A number normalised on decode (a value out of range is replaced, never refused). */
const normalised = (normalise: (value: number) => number) =>
  Schema.transform(Schema.Number, Schema.Number, { strict: true, decode: normalise, encode: (value) => value })

const finite = (value: number) => Number.isFinite(value)

/** A positive number; anything else (0, negative, NaN) reads as the default. */
const positive = (fallback: number, max = Infinity) =>
  withDefault(normalised((v) => Math.min(finite(v) && v > 0 ? v : fallback, max)), fallback)

/** A count ≥ `min`, rounded down; anything smaller reads as the default. */
const count = (fallback: number, min = 1) =>
  withDefault(normalised((v) => (finite(v) && v >= min ? Math.floor(v) : fallback)), fallback)

/** A count rounded down and raised to at least `floor`; a non-finite value reads as the default. */
const atLeast = (floor: number, fallback: number) =>
  withDefault(normalised((v) => (finite(v) ? Math.max(floor, Math.floor(v)) : fallback)), fallback)

/** An integer in [min, max]; anything else reads as the default. */
const integer = (fallback: number, min: number, max = Infinity) =>
  withDefault(normalised((v) => (Number.isInteger(v) && v >= min && v <= max ? v : fallback)), fallback)

/** A string trimmed on decode; blank reads as the default. */
const nonBlank = (fallback: string) =>
  withDefault(
    Schema.transform(Schema.String, Schema.String, {
      strict: true,
      decode: (v) => (v.trim() === "" ? fallback : v.trim()),
      encode: (v) => v
    }),
    fallback
  )

/** A list given either as a YAML sequence or as a comma-separated string. */
const NameList = Schema.Array(Schema.String)

export const ToolsSection = Schema.Struct({
  /** Per-call timeout for one tool handler, seconds (tools may set their own). */
  call_timeout_seconds: withDefault(Schema.Number, 300),
  /** Timeout for one whole batch of calls from a model turn, seconds (≤0 disables). */
  batch_timeout_seconds: withDefault(Schema.Number, 420),
  /** Results longer than this many characters are persisted and previewed. */
  result_size_chars: withDefault(Schema.Number, 100_000),
  /** Characters all results of one model turn may hold; past it the largest are persisted (≤0 disables). */
  turn_budget_chars: withDefault(Schema.Number, 200_000),
  /** Most tool calls running at once in one batch (at least 1 is used). */
  max_parallel: withDefault(Schema.Number, 8),
  /** Seconds one tool availability probe may take. */
  check_timeout_seconds: positive(5),
  /**
   * Tool search (progressive disclosure): `{enabled: auto|on|off, threshold_pct, search_default_limit,
   * max_search_limit}` or a boolean; read leniently (src/lib/toolSearch/config.ts), so a typo never breaks a run.
   */
  tool_search: Schema.optional(Schema.Unknown),
  /** How tool results are written as JSON: `python` (Hermes' `json.dumps` spacing, `", "` and `": "`) or `compact` (no spaces). */
  result_json: withDefault(Schema.Literal("python", "compact"), "python")
}, Extra)

/** `plugins.entries.<name>:` handed to the plugin as written, so no defaults are added here. */
export const PluginEntry = Schema.Struct({
  /** The plugin may replace or remove tools it does not own (only `true` allows it). */
  allow_tool_override: Schema.optional(Schema.Boolean)
}, Extra)

export const PluginsSection = Schema.Struct({
  enabled: withDefault(NameList, []),
  disabled: withDefault(NameList, []),
  entries: withDefault(Schema.Record({ key: Schema.String, value: PluginEntry }), {})
}, Extra)

/**
 * Names `terminal.backend` accepts (case and surrounding blanks ignored), as
 * `terminalBackendLayer` in layers/terminal/backends.ts maps them:
 * docker and podman are the container backend with that CLI.
 */
export const TERMINAL_BACKENDS = ["local", "sandbox", "ssh", "container", "docker", "podman"] as const

/** A backend name, refused at decode when nothing would run it (not later as "unavailable"); read trimmed and lower-case. */
const TerminalBackendName = Schema.transform(
  Schema.String.pipe(
    Schema.filter((name) =>
      (TERMINAL_BACKENDS as ReadonlyArray<string>).includes(name.trim().toLowerCase()) ||
      `unknown terminal backend ${JSON.stringify(name)}; allowed: ${TERMINAL_BACKENDS.join(", ")}`
    )
  ),
  Schema.String,
  { strict: true, decode: (name) => name.trim().toLowerCase(), encode: (name) => name }
)

/** The most a foreground command may run, seconds; `terminal.timeout` and per-call timeouts are capped here. */
export const MAX_FOREGROUND_TIMEOUT_SECONDS = 600

/** `terminal:` — the shell backends (Hermes' `terminal.*` keys where they exist). */
const TerminalKeys = Schema.Struct({
  /** local | sandbox | ssh | container (docker, podman: the container backend with that CLI). */
  backend: withDefault(TerminalBackendName, "local"),
  /** Starting directory for new environments ("." / "auto" / "cwd" = the process cwd, read as unset, as Hermes does). */
  cwd: Schema.optionalToOptional(Schema.String, Schema.String, {
    decode: Option.filter((cwd) => !["", ".", "auto", "cwd"].includes(cwd)),
    encode: (cwd) => cwd
  }),
  /** Default foreground timeout in seconds (capped at MAX_FOREGROUND_TIMEOUT_SECONDS). */
  timeout: positive(180, MAX_FOREGROUND_TIMEOUT_SECONDS),
  /** Idle seconds before an environment without background processes is torn down. */
  lifetime_seconds: positive(300),
  /** Variable names passed to commands even though they look like credentials. */
  env_passthrough: withDefault(NameList, []),
  /** Give the bubblewrap sandbox network access. */
  sandbox_network: withDefault(Schema.Boolean, false),
  /** Where sandbox workspaces live (default: the home's workspace dir). */
  sandbox_dir: Schema.optional(Schema.String),
  /** ssh backend: the host (required), user (default: ssh's own), port (22) and private key file. */
  ssh_host: Schema.optional(Schema.String),
  ssh_user: Schema.optional(Schema.String),
  ssh_port: integer(22, 1, 65535),
  ssh_key: Schema.optional(Schema.String),
  /** ssh backend: remote starting directory (default: the remote user's home). */
  ssh_cwd: Schema.optional(Schema.String),
  /** ssh backend: extra `-o Key=Value` options (they win over the defaults, e.g. `StrictHostKeyChecking=yes`). */
  ssh_options: withDefault(NameList, []),
  /** ssh backend: local variables exported on the remote side (with `env_passthrough`). */
  ssh_forward_env: withDefault(NameList, []),
  /** ssh backend: sessions one connection carries (sshd MaxSessions, default 10); more get their own connection. */
  ssh_max_sessions: integer(10, 1),
  /** container backend: `docker` or `podman` (a name or a path; default: the first that answers). */
  container_cli: Schema.optional(Schema.String),
  /** container backend: image (default Hermes' `nikolaik/python-nodejs:python3.11-nodejs20`). */
  container_image: nonBlank("nikolaik/python-nodejs:python3.11-nodejs20"),
  /** container backend: starting directory inside the container (default /workspace, a tmpfs). */
  container_cwd: nonBlank("/workspace"),
  /** container backend: network access (default false: `--network none`). */
  container_network: withDefault(Schema.Boolean, false),
  /** container backend: `source:target[:options]` mounts; a host path makes the backend not isolated. */
  container_volumes: withDefault(NameList, []),
  /** container backend: variables set in the container. */
  container_env: withDefault(Schema.Record({ key: Schema.String, value: Schema.String }), {}),
  /** container backend: local variables exported inside the container (with `env_passthrough`). */
  container_forward_env: withDefault(NameList, []),
  /** container backend: extra `run` arguments, appended before the image. */
  container_extra_args: withDefault(NameList, []),
  /** container backend: OCI runtime (e.g. runc); podman takes it as a global flag, docker as a `run` flag. */
  container_runtime: Schema.optional(Schema.String),
  /** container backend: CPU limit (`--cpus`) and memory limit in MB (`--memory`); unset = no limit. */
  container_cpu: Schema.optional(Schema.Number),
  container_memory: Schema.optional(Schema.Number),
  /**
   * Mount the runtime's home read-only for commands where the backend can (local with bubblewrap
   * installed, sandbox, container). Default true.
   */
  protect_home: withDefault(Schema.Boolean, true),
  /** ssh and container backends: one long-lived bash per task runs its foreground commands (default true). */
  persistent_shell: withDefault(Schema.Boolean, true),
  /** local backend: the same, opted in (default false). */
  local_persistent: withDefault(Schema.Boolean, false),
  /** Background processes one task may have running at once (default 16). */
  max_background_per_task: count(16),
  /** Background processes the whole runtime may have running at once (default 64). */
  max_background: count(64),
  /** sandbox backend: host directories under a home (/root, /home/…) made visible read-only; homes are hidden otherwise. */
  sandbox_home_binds: withDefault(NameList, [])
}, Extra)

const strings = (value: unknown): ReadonlyArray<string> | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined

const stringRecord = (value: unknown): Readonly<Record<string, string>> | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = String(v)
  }
  return out
}

const isBlank = (value: unknown): boolean => typeof value !== "string" || value.trim() === ""

/**
 * Hermes' `docker_*` keys (image, volumes, env, forward_env, network, extra_args) stand in for
 * an absent `container_*` key, so a Hermes config.yaml keeps working; then the defaults apply.
 */
const withDockerFallbacks = (raw: { readonly [key: string]: unknown }): { readonly [key: string]: unknown } => {
  const out: Record<string, unknown> = { ...raw }
  const image = raw["docker_image"]
  if (isBlank(raw["container_image"]) && typeof image === "string" && !isBlank(image)) out["container_image"] = image
  if (raw["container_network"] === undefined && typeof raw["docker_network"] === "boolean") out["container_network"] = raw["docker_network"]
  const lists = [["container_volumes", "docker_volumes"], ["container_forward_env", "docker_forward_env"], ["container_extra_args", "docker_extra_args"]]
  for (const [key, docker] of lists) {
    const list = strings(raw[docker!])
    if (raw[key!] === undefined && list !== undefined) out[key!] = list
  }
  const env = stringRecord(raw["docker_env"])
  if (raw["container_env"] === undefined && env !== undefined) out["container_env"] = env
  return out
}

export const TerminalSection = Schema.transform(Extra, TerminalKeys, {
  strict: false,
  decode: withDockerFallbacks,
  encode: (keys) => keys
})

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
  mode: withDefault(Schema.Union(Schema.String, Schema.Boolean), "manual"),
  /** What a run with nobody to ask does with a command that needs approval: deny (default) or allow. */
  non_interactive: withDefault(Schema.String, "deny"),
  /** Seconds a human has to answer before the answer is no (default 60). */
  timeout_seconds: withDefault(Schema.Number, 60),
  /** Globs that always block (checked on every backend). */
  deny: withDefault(NameList, []),
  rules: withDefault(Schema.Array(ApprovalRule), []),
  /** Skip non-hardline prompts on backends that declare full isolation (default true). */
  isolated_skip: withDefault(Schema.Boolean, true)
}, Extra)

/** `mcp_servers.<name>.tools:` which of the server's tools register. */
export const McpToolsFilter = Schema.Struct({
  /** Only these tools (server names or `*` globs); wins over `exclude`. */
  include: Schema.optional(NameList),
  exclude: withDefault(NameList, []),
  /** Register list_resources/read_resource when the server offers resources (default true). */
  resources: withDefault(Schema.Boolean, true),
  /** Register list_prompts/get_prompt when the server offers prompts (default true). */
  prompts: withDefault(Schema.Boolean, true)
}, Extra)

/** `mcp_servers.<name>:` one MCP server, stdio (`command`) or Streamable HTTP (`url`). Hermes' keys. */
export const McpServerEntry = Schema.Struct({
  command: Schema.optional(Schema.String),
  args: withDefault(Schema.Array(Schema.Union(Schema.String, Schema.Number)), []),
  /** Added to the filtered environment the stdio server gets. */
  env: withDefault(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean) }), {}),
  cwd: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  headers: withDefault(Schema.Record({ key: Schema.String, value: Schema.String }), {}),
  /** stdio | http (default: from `command` / `url`). */
  transport: Schema.optional(Schema.String),
  enabled: withDefault(Schema.Boolean, true),
  /** Seconds one tool call may take (default 300). */
  timeout: positive(300),
  /** Seconds to start and initialize (default 60). */
  connect_timeout: positive(60),
  tools: section(McpToolsFilter),
  /** The server's tools may run in parallel with other parallel-safe calls. */
  supports_parallel_tool_calls: withDefault(Schema.Boolean, false)
}, Extra)

/** `files:` — the file tools (read_file, write_file, patch, search_files). */
export const FilesSection = Schema.Struct({
  /** When set, write_file and patch may only write inside these directories (`~` allowed). */
  write_roots: withDefault(NameList, []),
  /** Characters one read_file result may hold before it is cut on a line boundary (default 100000). */
  read_max_chars: count(100_000, Number.MIN_VALUE),
  /** search_files engine: auto (ripgrep in the environment when present), rg, or builtin. */
  search_engine: withDefault(Schema.Literal("auto", "rg", "builtin"), "auto")
}, Extra)

/** `model:` — the language model the agent loop talks to (layers in src/layers/model/). */
export const ModelSection = Schema.Struct({
  /** openai (default), openrouter, custom or any OpenAI-compatible name; `scripted` replays `script`; `none` disables. */
  provider: Schema.optional(Schema.String),
  /** Model name sent with each request (Hermes' `default` key is read too). */
  name: Schema.optional(Schema.String),
  default: Schema.optional(Schema.String),
  /** Other model names of this provider an editor may switch a session to (ACP's model picker). */
  choices: Schema.optional(Schema.Array(Schema.String)),
  /** The model accepts images in prompts (ACP advertises image prompts; default false). */
  vision: Schema.optional(Schema.Boolean),
  /** Chat-completions base URL, e.g. https://api.openai.com/v1 (`/chat/completions` is appended). */
  base_url: Schema.optional(Schema.String),
  /** NAME of the environment variable holding the API key; the key itself never goes in this file. */
  api_key_env: Schema.optional(Schema.String),
  /** JSONL script of assistant turns for `provider: scripted` (relative to the current directory). */
  script: Schema.optional(Schema.String),
  /** Seconds to wait for an answer, or for the next chunk of a stream (default 300). */
  timeout_seconds: positive(300),
  /** Retries after 429, 5xx, timeouts and network failures (default 3). */
  max_retries: count(3, 0),
  /** First retry delay in seconds, doubled on each retry (default 1). */
  retry_base_seconds: positive(1),
  /** Longest wait before a retry, Retry-After included (default 60). */
  retry_max_seconds: positive(60),
  temperature: Schema.optional(Schema.Number),
  max_tokens: Schema.optional(Schema.Number),
  /** Extra request headers (e.g. OpenRouter's HTTP-Referer). */
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
}, Extra)

/** A bare model name: the section `{name}`. */
const ModelFromName = Schema.transform(Schema.String, ModelSection, {
  strict: true,
  decode: (name) => ({ name }),
  encode: (section) => section.name ?? ""
})

/** `sessions:` — the state database (`state.db`) behind sessions, todo lists and the approval audit. */
export const SessionsSection = Schema.Struct({
  /** How long a write waits for another process's transaction, milliseconds (default 5000). */
  busy_timeout_ms: withDefault(Schema.Number, 5000),
  /** normal (default; survives a killed process) | full (also survives power loss; slower commits). */
  synchronous: withDefault(Schema.Literal("normal", "full"), "normal")
}, Extra)

/** `memory:` — the memory tool's two stores (Hermes' keys). */
export const MemorySection = Schema.Struct({
  /** Characters in MEMORY.md, entries and separators included (default 2200). */
  memory_char_limit: withDefault(Schema.Number, 2200),
  /** Characters in USER.md (default 1375). */
  user_char_limit: withDefault(Schema.Number, 1375)
}, Extra)

/** `skills:` — skill documents (Hermes' keys, plus the install guard's trust settings). */
export const SkillsSection = Schema.Struct({
  /** More skill roots, read-only here (`~` and `${VAR}` expanded; relative to the home). */
  external_dirs: withDefault(Schema.Union(Schema.String, NameList), []),
  /** Skill names hidden from skills_list and refused by skill_view. */
  disabled: withDefault(NameList, []),
  /** Scan what skill_manage writes with the guard, as an agent-created skill (default false). */
  guard_agent_created: withDefault(Schema.Boolean, false),
  /** Sources (`owner/repo` ids) and folders whose skills install as trusted: caution allowed, dangerous blocked. */
  trusted_sources: withDefault(NameList, []),
  /** Seed and update the bundled skills on first use (default true). */
  seed_bundled: withDefault(Schema.Boolean, true)
}, Extra)

/** `agent:` — the agent loop (Hermes' keys). */
export const AgentSection = Schema.Struct({
  /** Model calls one run may make (default 90); warnings at 70% and 90%. */
  max_turns: count(90),
  /** Text appended to the system prompt of new sessions. */
  system_prompt: Schema.optional(Schema.String)
}, Extra)

/** `delegation:` — `delegate_task` subagents (Hermes' keys). */
export const DelegationSection = Schema.Struct({
  /** How deep delegation may nest: 1 (default) = children cannot delegate. */
  max_spawn_depth: atLeast(1, 1),
  /** Tasks one delegate_task call may run at once (default 3; more are refused). */
  max_concurrent_children: atLeast(1, 3),
  /** Model calls per child (default 50). */
  max_iterations: atLeast(1, 50),
  /** Seconds a child may run; 0 (default) = no limit, else at least 30. */
  child_timeout_seconds: withDefault(normalised((v) => (finite(v) && v > 0 ? Math.max(30, v) : 0)), 0),
  /** Characters of a child's summary returned to the parent (default 24000). */
  summary_max_chars: atLeast(100, 24_000),
  /** Whether role 'orchestrator' may delegate further (default true; false: every child is a leaf). */
  orchestrator_enabled: withDefault(Schema.Boolean, true)
}, Extra)

/** `tts:` — text_to_speech (layers in src/layers/speech/). */
export const TtsSection = Schema.Struct({
  /** local (espeak-ng, no key; default), openai (any OpenAI-compatible /audio/speech), elevenlabs, or none. */
  provider: withDefault(Schema.Literal("local", "openai", "elevenlabs", "none"), "local"),
  /** Longest text sent (default: the provider's cap, 5000 local / 4096 openai). */
  max_text_length: Schema.optional(Schema.Number),
  local: withDefault(Schema.Struct({
    /** espeak-ng voice (default en-us). */
    voice: withDefault(Schema.String, "en-us"),
    /** Words per minute (default 175). */
    speed: withDefault(Schema.Number, 175)
  }, Extra), { voice: "en-us", speed: 175 }),
  openai: withDefault(Schema.Struct({
    model: withDefault(Schema.String, "gpt-4o-mini-tts"),
    voice: withDefault(Schema.String, "alloy"),
    base_url: withDefault(Schema.String, "https://api.openai.com/v1"),
    /** NAME of the variable with the key (default VOICE_TOOLS_OPENAI_KEY, else OPENAI_API_KEY, as Hermes). */
    api_key_env: Schema.optional(Schema.String)
  }, Extra), { model: "gpt-4o-mini-tts", voice: "alloy", base_url: "https://api.openai.com/v1" }),
  elevenlabs: withDefault(Schema.Struct({
    voice: withDefault(Schema.String, "pNInz6obpgDQGcFmaJgB"),
    model: withDefault(Schema.String, "eleven_multilingual_v2"),
    base_url: withDefault(Schema.String, "https://api.elevenlabs.io"),
    /** NAME of the variable with the key (default ELEVENLABS_API_KEY). */
    api_key_env: Schema.optional(Schema.String)
  }, Extra), { voice: "pNInz6obpgDQGcFmaJgB", model: "eleven_multilingual_v2", base_url: "https://api.elevenlabs.io" })
}, Extra)

/** `image_gen:` — image_generate (layers in src/layers/imageGen/). */
export const ImageGenSection = Schema.Struct({
  /** none (default: the tool is not offered), openai (any OpenAI-compatible /images/generations) or fal. */
  provider: withDefault(Schema.Literal("none", "openai", "fal"), "none"),
  /** Model (default gpt-image-1 for openai, fal-ai/flux/schnell for fal). */
  model: Schema.optional(Schema.String),
  /** API base URL (default https://api.openai.com/v1 or https://fal.run). */
  base_url: Schema.optional(Schema.String),
  /** NAME of the variable with the key (default OPENAI_API_KEY or FAL_KEY). */
  api_key_env: Schema.optional(Schema.String),
  /** Seconds one generation may take (default 120). */
  timeout_seconds: positive(120)
}, Extra)

/** `moa:` — mixture_of_agents: reference models answer in parallel, an aggregator fuses their answers. */
export const MoaSection = Schema.Struct({
  /** Model names on the main provider (`model:`), e.g. OpenRouter ids; two or more make the tool available. */
  reference_models: withDefault(NameList, []),
  /** The model that fuses the answers (default: the main model). */
  aggregator: Schema.optional(Schema.String),
  /** Seconds one reference model may take; a slower one is left out (default 120). */
  timeout_seconds: positive(120),
  /** Reference answers needed before fusing (default 1). */
  min_successful: count(1)
}, Extra)

/** `web:` — web_search / web_extract / web_crawl (Hermes' keys plus our fetch limits). API keys come from the environment only. */
export const WebSection = Schema.Struct({
  /** Provider for both jobs: firecrawl, tavily, exa, parallel or searxng (search only); absent = auto-detect from keys. */
  backend: Schema.optional(Schema.String),
  search_backend: Schema.optional(Schema.String),
  extract_backend: Schema.optional(Schema.String),
  /** SearXNG instance for web_search (no key); SEARXNG_URL is read too. */
  searxng_url: Schema.optional(Schema.String),
  /** Characters of one page web_extract returns before the head+tail cut (default 15000; 2000–500000). */
  extract_char_limit: withDefault(normalised((v) => (finite(v) ? Math.min(500_000, Math.max(2000, Math.floor(v))) : 15_000)), 15_000),
  /** Fetch private, loopback and link-local addresses (default false; cloud metadata stays refused). */
  allow_private: withDefault(Schema.Boolean, false),
  /** Seconds one fetch may take, redirects included (default 30). */
  timeout_seconds: positive(30),
  /** Bytes read from one response before it is cut (default 10 MB). */
  max_bytes: count(10 * 1024 * 1024),
  /** Redirects followed per fetch (default 5). */
  max_redirects: count(5, 0),
  /** web_crawl bounds: link depth from the start page (default 2) and pages per call (default 20). */
  crawl_max_depth: count(2, 0),
  crawl_max_pages: count(20),
  /** User-Agent sent with our own fetches (robots.txt is matched against it too). */
  user_agent: nonBlank("hermes-effect/1.0 (+web_extract)")
}, Extra)

/** `security.website_blocklist` — hosts no web or browser tool may reach (Hermes' keys). */
export const WebsiteBlocklistSection = Schema.Struct({
  enabled: withDefault(Schema.Boolean, false),
  /** Hosts (subdomains included), `*.` globs, or URLs reduced to their host. */
  domains: withDefault(NameList, []),
  /** Files of rules, one per line (`#` comments); relative paths are under the home. An unreadable file refuses every URL. */
  shared_files: withDefault(NameList, [])
}, Extra)

export const SecuritySection = Schema.Struct({
  website_blocklist: section(WebsiteBlocklistSection)
}, Extra)

/** `browser:` — the browser tools on a local Chromium (playwright-core) or a browser reached at `cdp_url`. */
export const BrowserSection = Schema.Struct({
  /** Chromium/Chrome binary; absent = the first of chromium, chromium-browser, google-chrome(-stable) on PATH. */
  executable: Schema.optional(Schema.String),
  /** Attach to a running browser over CDP (ws:// or http://host:port) instead of launching one; enables browser_cdp/browser_dialog. */
  cdp_url: Schema.optional(Schema.String),
  /** Seconds one browser command may take (default 30, at least 1). */
  command_timeout: atLeast(1, 30),
  /** Seconds a task's browser context may sit idle before it is closed (default 120); Hermes' `inactivity_timeout` wins when set. */
  idle_seconds: positive(120),
  inactivity_timeout: Schema.optional(Schema.Number),
  /** Hermes' key: also lets the browser reach private addresses (as `web.allow_private`). */
  allow_private_urls: withDefault(Schema.Boolean, false),
  /** A visible window instead of headless (default false). */
  headed: withDefault(Schema.Boolean, false)
}, Extra)

/** `cluster:` — defaults for `runner`, `cluster status` and `batch --cluster` (docs/scale-out.md). */
export const ClusterSection = Schema.Struct({
  /** Postgres URL of the cluster; `--cluster` wins. `batch` runs on the cluster only when `--cluster` is given. */
  url: Schema.optional(Schema.String),
  /** The address other runners reach this runner at (default 127.0.0.1). */
  host: nonBlank("127.0.0.1"),
  /** The port this runner listens on (default 0: a free one). */
  port: count(0, 0),
  /** Prompts one runner runs at once (default 4). */
  concurrency: count(4)
}, Extra)

export const HermesConfigSchema = Schema.Struct({
  /** Toolsets enabled when the caller names none (default: hermes-cli). */
  toolsets: Schema.optional(NameList),
  disabled_toolsets: withDefault(NameList, []),
  tools: section(ToolsSection),
  plugins: section(PluginsSection),
  approvals: section(ApprovalsSection),
  command_allowlist: withDefault(NameList, []),
  terminal: section(TerminalSection),
  sessions: section(SessionsSection),
  memory: section(MemorySection),
  mcp_servers: withDefault(Schema.Record({ key: Schema.String, value: McpServerEntry }), {}),
  files: section(FilesSection),
  skills: section(SkillsSection),
  /** A model name alone (read as `{name}`), or the `model:` section; absent = no model configured. */
  model: Schema.optional(Schema.Union(ModelFromName, ModelSection)),
  /** `auxiliary.<task>` (vision, …): a model for a side task, same keys as `model:`; a task without one uses `model:`. */
  auxiliary: withDefault(Schema.Record({ key: Schema.String, value: Schema.Union(ModelFromName, ModelSection) }), {}),
  moa: section(MoaSection),
  tts: section(TtsSection),
  image_gen: section(ImageGenSection),
  agent: section(AgentSection),
  delegation: section(DelegationSection),
  web: section(WebSection),
  security: section(SecuritySection),
  browser: section(BrowserSection),
  cluster: section(ClusterSection)
}, Extra)

/** The config as readers see it: every default applied. */
export type HermesConfig = typeof HermesConfigSchema.Type
/** The config as written in the file (or given to ConfigTest): every key optional. */
export type HermesConfigInput = typeof HermesConfigSchema.Encoded

/** What an empty config.yaml means (e.g. for tool descriptions written before any config is read). */
export const CONFIG_DEFAULTS: HermesConfig = Schema.decodeUnknownSync(HermesConfigSchema)({})

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
