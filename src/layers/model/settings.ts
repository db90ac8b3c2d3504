/**
 * `model:` in config.yaml → which provider to build and with what options.
 * Nothing here fails: an incomplete section becomes `{kind: "none", reason}`,
 * so commands that never call the model keep working, and the first call
 * explains what is missing.
 */
import { Duration } from "effect"
import type { HermesConfig } from "../../services/Config.js"

export interface OpenAiOptions {
  /** The provider's name as configured (for messages and `Model.provider`). */
  readonly provider: string
  /** Base URL of the chat-completions API; `/chat/completions` is appended. */
  readonly baseUrl: string
  readonly model: string
  /** Name of the environment variable holding the API key; none = no Authorization header. */
  readonly apiKeyEnv?: string | undefined
  /** Where variables are looked up (default `process.env`, read at each call). */
  readonly env?: ((name: string) => string | undefined) | undefined
  /** Per attempt: the whole answer, or the gap between two stream chunks. */
  readonly timeout: Duration.Duration
  /** Retries after 429, 5xx, timeouts and network failures. */
  readonly maxRetries: number
  readonly retryBase: Duration.Duration
  /** Cap on any wait before a retry, Retry-After included. */
  readonly retryMax: Duration.Duration
  readonly temperature?: number | undefined
  readonly maxTokens?: number | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

export type ModelSettings =
  | { readonly kind: "none"; readonly reason: string }
  | { readonly kind: "scripted"; readonly script: string; readonly model: string }
  | { readonly kind: "openai"; readonly options: OpenAiOptions }

/** Providers whose URL and key variable need not be spelled out. */
export const KNOWN_PROVIDERS: Readonly<Record<string, { readonly baseUrl: string; readonly apiKeyEnv: string }>> = {
  openai: { baseUrl: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY" },
  openrouter: { baseUrl: "https://openrouter.ai/api/v1", apiKeyEnv: "OPENROUTER_API_KEY" }
}

const HOW =
  "set model.provider, model.name, model.base_url and model.api_key_env in config.yaml " +
  "(or model.provider: scripted with model.script: <file.jsonl>)"

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim().length === 0 ? undefined : value.trim())

export const modelSettings = (config: HermesConfig): ModelSettings => {
  const section = config.model
  if (section === undefined) return { kind: "none", reason: `config.yaml has no model section; ${HOW}` }
  return sectionSettings(section, "model")
}

/** Settings from one section with `model:`'s keys (`model:` itself or `auxiliary.<task>`); `at` names it in messages. */
export const sectionSettings = (section: NonNullable<HermesConfig["model"]>, at: string): ModelSettings => {
  // A bare model name was read as `{name}`; numbers not given already hold their defaults.
  const name = nonEmpty(section.name) ?? nonEmpty(section.default)
  const baseUrl = nonEmpty(section.base_url)
  const provider = nonEmpty(section.provider)?.toLowerCase() ?? (baseUrl !== undefined ? "custom" : name !== undefined ? "openai" : undefined)
  if (provider === undefined) return { kind: "none", reason: `the ${at} section names no provider or model; ${HOW}` }
  if (provider === "none") return { kind: "none", reason: `${at}.provider is 'none'` }
  if (provider === "scripted") {
    const script = nonEmpty(section.script)
    return script === undefined
      ? { kind: "none", reason: `${at}.provider is 'scripted' but ${at}.script (a JSONL file of assistant turns) is not set` }
      : { kind: "scripted", script, model: name ?? "scripted" }
  }
  const known = KNOWN_PROVIDERS[provider]
  if (name === undefined) return { kind: "none", reason: `${at}.name is not set (the model to request from provider '${provider}')` }
  const url = baseUrl ?? known?.baseUrl
  if (url === undefined) return { kind: "none", reason: `${at}.base_url is not set and provider '${provider}' has no default URL` }
  return {
    kind: "openai",
    options: {
      provider,
      baseUrl: url,
      model: name,
      apiKeyEnv: nonEmpty(section.api_key_env) ?? known?.apiKeyEnv,
      timeout: Duration.seconds(section.timeout_seconds),
      maxRetries: section.max_retries,
      retryBase: Duration.seconds(section.retry_base_seconds),
      retryMax: Duration.seconds(section.retry_max_seconds),
      temperature: section.temperature,
      maxTokens: section.max_tokens,
      headers: section.headers
    }
  }
}
