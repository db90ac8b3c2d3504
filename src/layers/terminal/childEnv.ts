/**
 * The environment variables a command gets: the runtime's own, minus anything
 * that looks like a credential (provider keys, tokens, cloud credentials), so
 * a command the model writes cannot read or leak them. Names listed in
 * `terminal.env_passthrough` are kept anyway.
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

/** Runtime-internal variables that are not credentials but must not leak into a command either. */
const DROPPED: ReadonlySet<string> = new Set(["VIRTUAL_ENV", "CONDA_PREFIX"])

export const isCredentialName = (name: string): boolean =>
  BLOCKED_NAMES.has(name.toUpperCase()) ||
  BLOCKED_PREFIXES.some((p) => name.toUpperCase().startsWith(p)) ||
  BLOCKED_PATTERN.test(name)

/** Directories a bare PATH may lack; appended so common tools resolve. */
const STANDARD_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

const normalisePath = (path: string | undefined): string => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const dir of [...(path ?? "").split(":"), ...STANDARD_PATH]) {
    if (dir === "" || seen.has(dir)) continue
    seen.add(dir)
    out.push(dir)
  }
  return out.join(":")
}

/**
 * Filtered copy of `base` for a child process. `extra` (per command) wins
 * over the base and is not filtered: the caller chose it.
 */
export const childEnv = (
  base: Readonly<Record<string, string | undefined>>,
  passthrough: ReadonlyArray<string>,
  extra?: Readonly<Record<string, string>>
): Record<string, string> => {
  const allowed = new Set(passthrough)
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue
    if (DROPPED.has(name)) continue
    if (!allowed.has(name) && isCredentialName(name)) continue
    out[name] = value
  }
  out["PATH"] = normalisePath(out["PATH"])
  if (extra !== undefined) Object.assign(out, extra)
  return out
}
