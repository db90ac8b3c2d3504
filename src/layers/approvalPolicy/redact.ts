/**
 * Redaction for what approval shows and records (the approver's prompt, the
 * audit log) and for error text: the one policy in `lib/redact.ts`, with
 * every credential-named assignment masked (a command line's `TOKEN=…` is
 * rarely code). The raw command is what runs; only its copies are redacted.
 */
import { redactSecrets as redactWithPolicy } from "../../lib/redact.js"

export const redactSecrets = (text: string): string => redactWithPolicy(text, { assignments: "any" })
