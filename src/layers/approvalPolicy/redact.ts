/**
 * Redact secrets from text shown to people or stored in logs. The raw command
 * is what runs; only its displayed and recorded copies are redacted.
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, "[REDACTED PRIVATE KEY]"],
  [/\b(sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,})/g, "[REDACTED]"],
  [/\b(gh[pousr]_[A-Za-z0-9]{20,})/g, "[REDACTED]"],
  [/\b(xox[abposr]-[A-Za-z0-9-]{10,})/g, "[REDACTED]"],
  [/\b(AKIA[0-9A-Z]{16})\b/g, "[REDACTED]"],
  [/\b(AIza[0-9A-Za-z_-]{35})\b/g, "[REDACTED]"],
  [/(authorization:\s*(?:bearer|basic)\s+)[^\s'"]+/gi, "$1[REDACTED]"],
  [/\b([A-Za-z_]*(?:API_KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD)[A-Za-z_]*\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s'"]+)/gi, "$1[REDACTED]"],
  [/(--(?:password|token|api-key|secret)[= ])[^\s]+/gi, "$1[REDACTED]"],
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, "$1[REDACTED]@"]
]

export const redactSecrets = (text: string): string =>
  PATTERNS.reduce((acc, [re, replacement]) => acc.replace(re, replacement), text)
