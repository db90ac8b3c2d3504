/**
 * The one redaction policy: what counts as a secret in text shown to the
 * model or a person, or stored in a log. Terminal and process output, the
 * approval audit and prompts, MCP errors, read_file and search_files all mask
 * with this pattern set; they differ only in how assignments are treated
 * (see `secretAssignments.ts`). What runs or is written is never changed:
 * only its displayed and recorded copies.
 */
import { collapseKeyBlocks, mayHoldKeyLines, redactKeyLines } from "./privateKeys.js"
import { mayHoldAssignment, redactAssignments } from "./secretAssignments.js"
import type { AssignmentStrength } from "./secretAssignments.js"

/** Credentials with a recognisable shape, whatever surrounds them. */
const TOKENS: ReadonlyArray<RegExp> = [
  /\bsk-(?:ant-|proj-|or-v1-|live-|test-)?[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g
]

const AUTH_HEADER = /\b((?:Proxy-)?Authorization\s*:\s*(?:Bearer|Basic|Token|Bot)\s+)[^\s"']+/gi
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi
const SECRET_FLAG = /(--(?:password|passwd|token|api-key|secret)[= ])[^\s]+/gi

const mask = (secret: string) => `${secret.slice(0, 4)}…[REDACTED]`

/**
 * Cheap first look: text with none of these fragments holds nothing the
 * token masks would change (most text), so it skips their full scans.
 */
const TELLTALE = /sk-|gh[pousr]_|github_pat_|xox[abposr]-|AKIA|ASIA|AIza|hf_|glpat-|npm_|eyJ|uthorization|:\/\/|--(?:pass|token|api-key|secret)/i

export interface RedactOptions {
  /**
   * Assignments with a credential name: `any` masks every value (commands,
   * error text), `literal` only literal secret-looking values (file content),
   * `none` leaves them (command output, where the caller decides).
   */
  readonly assignments?: AssignmentStrength | "none" | undefined
  /**
   * Keep every line (numbered views: read_file): key lines are replaced one
   * by one instead of a whole BEGIN … END block collapsing to one marker.
   */
  readonly keepLines?: boolean | undefined
}

/** Mask secrets in `text`: private keys (whole blocks and stray body lines), shaped tokens, auth headers, URL passwords, assignments. */
export const redactSecrets = (text: string, options: RedactOptions = {}): string => {
  const assignments = options.assignments ?? "none"
  let out = text
  if (assignments !== "none" && mayHoldAssignment(out)) out = redactAssignments(out, assignments)
  if (mayHoldKeyLines(out)) out = redactKeyLines(collapseKeyBlocks(out, options.keepLines === true))
  if (!TELLTALE.test(out)) return out
  for (const pattern of TOKENS) out = out.replace(pattern, mask)
  return out.replace(AUTH_HEADER, "$1[REDACTED]").replace(URL_PASSWORD, "$1[REDACTED]@").replace(SECRET_FLAG, "$1[REDACTED]")
}

export { isSecretName, looksLikeSecretValue } from "./secretAssignments.js"
export { KEY_MARKERS, privateKeyLines, REDACTED_KEY_LINE } from "./privateKeys.js"
