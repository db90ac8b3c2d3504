/**
 * Environment variable names that hold credentials (provider keys, tokens,
 * cloud credentials): dropped from a command's environment and masked in an
 * environment dump. Pure, so the output redaction in `text.ts` can use it.
 */

/** Whole names that are credentials but match no suffix rule below. */
const BLOCKED_NAMES: ReadonlySet<string> = new Set([
  "GOOGLE_APPLICATION_CREDENTIALS",
  "VERTEX_CREDENTIALS_PATH",
  "GITHUB_APP_PRIVATE_KEY",
  "EMAIL_PASSWORD",
  "SUDO_PASSWORD",
  "HERMES_DASHBOARD_SESSION_TOKEN",
  "NPM_CONFIG__AUTH"
])

const BLOCKED_PREFIXES: ReadonlyArray<string> = [
  "AWS_",
  "OPENAI_",
  "ANTHROPIC_",
  "AZURE_OPENAI_",
  "GITHUB_APP_",
  "GATEWAY_RELAY_",
  "MODAL_TOKEN",
  "_HERMES_"
]

/** `*_API_KEY`, `*_TOKEN`, `*_SECRET*`, `*_PASSWORD`, `*_PRIVATE_KEY`, `*_ACCESS_KEY*`, `*_CREDENTIALS`. */
const BLOCKED_PATTERN = /(?:^|_)(?:API_?KEYS?|TOKENS?|PASSWORD|PASSWD|PRIVATE_KEY|ACCESS_KEY(?:_ID)?|CREDENTIALS?|AUTH_KEY)$|(?:^|_)SECRET/i

export const isCredentialName = (name: string): boolean =>
  BLOCKED_NAMES.has(name.toUpperCase()) ||
  BLOCKED_PREFIXES.some((p) => name.toUpperCase().startsWith(p)) ||
  BLOCKED_PATTERN.test(name)
