/**
 * Secrets held in assignments: `API_KEY=…`, `export TOKEN=…`, `password: …`,
 * `"client_secret": "…"`, `apiKey = '…'`. Two strengths:
 *
 * - `any`: every credential-named assignment (command lines and error text:
 *   short, and a value there is rarely code);
 * - `literal`: file content, where the same names are everywhere in source
 *   code. Only literal values that look like a secret are masked: long
 *   enough, no spaces, not a number, boolean, type name, placeholder,
 *   variable reference or expression (`MAX_TOKENS=100`, `token: string;`,
 *   `password = os.environ["PW"]` stay readable).
 */

/** Credential names, in snake, kebab or camel case (`apiKey` reads as `API_KEY`). */
const CREDENTIAL_NAME =
  /(?:^|_)(?:API_?KEYS?|TOKENS?|PASSWORDS?|PASSWD|PASSPHRASE|PRIVATE_KEY|ACCESS_KEY(?:_ID)?|CREDENTIALS?|AUTH_KEY|CLIENT_SECRET)$|(?:^|_)SECRETS?(?:_|$)/

/** `apiKey` → `API_KEY`, `client-secret` → `CLIENT_SECRET`. */
const snakeUpper = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[-.]/g, "_").toUpperCase()

export const isSecretName = (name: string): boolean => CREDENTIAL_NAME.test(snakeUpper(name))

const MIN_SECRET_CHARS = 6
/** Letters-only values shorter than this read as words (`Password`, `string`), not secrets. */
const MIN_WORD_SECRET_CHARS = 16

const NOT_SECRET = [
  /^-?\d+(?:\.\d+)?$/, // numbers
  /^(?:true|false|null|none|nil|undefined|yes|no|on|off)$/i,
  /^[$%@&*<{[(]/, // references, templates, placeholders, collections
  /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/, // member access: process.env.X, settings.token
  /[([{]/, // calls and subscripts
  /^(?:~|\.{1,2})?\/(?:[\w.-]+\/)*[\w.-]*$/, // paths (to a key file, not the key)
  /^\[REDACTED/
]

/** A literal value that may be a secret (quotes already removed). */
export const looksLikeSecretValue = (value: string): boolean => {
  const v = value.replace(/[;,]$/, "")
  if (v.length < MIN_SECRET_CHARS || /\s/.test(v)) return false
  if (NOT_SECRET.some((re) => re.test(v))) return false
  return /[^A-Za-z]/.test(v) || v.length >= MIN_WORD_SECRET_CHARS
}

/** `NAME=value` (shell, dotenv, ini), `NAME: value` (YAML), optionally `export`/`declare -x`/`set`, quoted or bare. */
const LINE_ASSIGNMENT = /^(\s*(?:export\s+|declare\s+-x\s+|set\s+|const\s+|let\s+|var\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"'#]+)/gm
/** `"name": "value"` or `name = "value"` inside a line (JSON, code, TOML). */
const QUOTED_ASSIGNMENT = /((?:["']([A-Za-z_][\w.-]*)["']|\b([A-Za-z_][\w.-]*))\s*(?::|=|:=|=>)\s*)("[^"\n]*"|'[^'\n]*')/g
/** Any `…NAME…=value` in a command line. */
const ANY_ASSIGNMENT = /\b([A-Za-z_]*(?:API_KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD)[A-Za-z_]*\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s'"]+)/gi

const unquote = (value: string): string =>
  value.length >= 2 && (value[0] === '"' || value[0] === "'") && value[value.length - 1] === value[0] ? value.slice(1, -1) : value

const masked = (value: string): string => {
  const quote = value[0] === '"' || value[0] === "'" ? value[0] : ""
  return `${quote}[REDACTED]${quote}`
}

export type AssignmentStrength = "any" | "literal"

export const redactAssignments = (text: string, strength: AssignmentStrength): string => {
  if (strength === "any") return text.replace(ANY_ASSIGNMENT, "$1[REDACTED]")
  const keep = (whole: string, prefix: string, name: string, value: string) =>
    isSecretName(name) && looksLikeSecretValue(unquote(value)) ? `${prefix}${masked(value)}` : whole
  return text
    .replace(LINE_ASSIGNMENT, (whole, prefix: string, name: string, value: string) => keep(whole, prefix, name, value))
    .replace(QUOTED_ASSIGNMENT, (whole, prefix: string, quoted: string | undefined, bare: string | undefined, value: string) =>
      keep(whole, prefix, quoted ?? bare ?? "", value))
}

/** Cheap first look: a credential word somewhere near an assignment sign. */
export const mayHoldAssignment = (text: string): boolean => /(?:key|token|secret|pass|pwd|credential)[\w"'-]*\s*[:=]/i.test(text)
