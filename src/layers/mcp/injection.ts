/**
 * Tool descriptions come from the server and go straight into the model's
 * prompt, so a hostile server can hide instructions there ("tool poisoning").
 * We warn the operator about the usual phrasings; the tool still registers,
 * as in Hermes, because a warning is cheap and false positives happen.
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|other|your)\s+(instructions|prompts?|rules|directions)/i, "asks to ignore earlier instructions"],
  [/\b(do\s+not|don'?t|never)\s+(tell|inform|mention|reveal|show|notify)\s+(this\s+to\s+)?(the\s+)?user/i, "asks to hide something from the user"],
  [/<\s*\/?\s*(important|system|instructions?|secret|hidden)\s*>/i, "contains hidden-instruction tags"],
  [/\b(you\s+are\s+now|act\s+as\s+(an?\s+)?(admin|root|system|developer))\b/i, "tries to change the assistant's role"],
  [/\b(new|updated|real)\s+(system\s+)?(instructions|prompt)\s*:/i, "claims to carry new instructions"],
  [/\bsystem\s+prompt\b/i, "mentions the system prompt"],
  [/(~\/\.ssh|id_rsa|id_ed25519|\.aws\/credentials|\.netrc|\/etc\/shadow|\.env\b)/i, "mentions credential files"],
  [/\b(send|upload|post|exfiltrate|forward)\b[^.]{0,60}\b(api[\s_-]?keys?|tokens?|passwords?|credentials|secrets?|private\s+keys?)\b/i, "asks to send credentials somewhere"],
  [/\b(before|instead\s+of)\s+(using|calling)\s+(any|every|all)\s+(other\s+)?tools?\b/i, "tries to take over other tools"]
]

/** What in a description looks like an injection attempt (empty when nothing does). */
export const scanDescription = (description: string): ReadonlyArray<string> =>
  PATTERNS.flatMap(([re, why]) => (re.test(description) ? [why] : []))
