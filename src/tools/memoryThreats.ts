/**
 * Memory entries are injected into future system prompts, so a write that
 * reads like prompt injection, exfiltration or persistence is refused (the
 * categories Hermes' strict scan covers). Patterns match behaviour words, not
 * bossy English; fillers between words are bounded so no pattern backtracks badly.
 */

/** Up to eight words between the key words of a phrase. */
const GAP = String.raw`(?:\w+\s+){0,8}`
const SECRET_VAR = String.raw`\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)S?\b`
const EDIT = String.raw`(?:update|modify|edit|write|change|append|add\s+to)\s+[^\n]{0,2048}`

const PATTERNS: ReadonlyArray<readonly [id: string, pattern: RegExp]> = [
  ["prompt_injection", new RegExp(String.raw`ignore\s+${GAP}(?:previous|all|above|prior)\s+${GAP}instructions`, "i")],
  ["sys_prompt_override", /system\s+prompt\s+override/i],
  ["disregard_rules", new RegExp(String.raw`disregard\s+${GAP}(?:your|all|any)\s+${GAP}(?:instructions|rules|guidelines)`, "i")],
  ["bypass_restrictions", new RegExp(String.raw`act\s+as\s+(?:if|though)\s+${GAP}you\s+${GAP}(?:have\s+no|don't\s+have)\s+${GAP}(?:restrictions|limits|rules)`, "i")],
  ["html_comment_injection", /<!--[^>]{0,512}(?<![A-Za-z])(?:ignore|override|system|secret|hidden)(?![A-Za-z])[^>]{0,512}-->/i],
  ["hidden_div", /<\s*div\s+style\s*=\s*["'][^>]{0,2048}display\s*:\s*none/i],
  ["deception_hide", new RegExp(String.raw`do\s+not\s+${GAP}tell\s+${GAP}the\s+user`, "i")],
  ["role_hijack", new RegExp(String.raw`you\s+are\s+${GAP}now\s+(?:a|an|the)\s+`, "i")],
  ["role_pretend", new RegExp(String.raw`pretend\s+${GAP}(?:you\s+are|to\s+be)\s+`, "i")],
  ["leak_system_prompt", new RegExp(String.raw`output\s+${GAP}(?:system|initial)\s+prompt`, "i")],
  ["remove_filters", new RegExp(String.raw`(?:respond|answer|reply)\s+without\s+${GAP}(?:restrictions|limitations|filters|safety)`, "i")],
  ["fake_update", new RegExp(String.raw`you\s+have\s+been\s+${GAP}(?:updated|upgraded|patched)\s+to`, "i")],
  ["c2_heartbeat", /(?:heartbeat|beacon|check[\s-]?in)\s+(?:to|with)\s+/i],
  ["env_var_unset_agent", /unset\s+\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*/i],
  ["exfil_curl", new RegExp(String.raw`curl\s+[^\n]{0,2048}${SECRET_VAR}`, "i")],
  ["exfil_wget", new RegExp(String.raw`wget\s+[^\n]{0,2048}${SECRET_VAR}`, "i")],
  ["read_secrets", /cat\s+[^\n]{0,2048}(?:\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)/i],
  ["send_to_url", /(?:send|post|upload|transmit)\s+[^\n]{0,2048}\s+(?:to|at)\s+https?:\/\//i],
  ["context_exfil", new RegExp(String.raw`(?:include|output|print|share)\s+${GAP}(?:conversation|chat\s+history|previous\s+messages|full\s+context|entire\s+context)`, "i")],
  ["ssh_backdoor", /authorized_keys/i],
  ["ssh_access", /\$HOME\/\.ssh|~\/\.ssh/i],
  ["agent_config_mod", new RegExp(String.raw`${EDIT}(?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules)`, "i")],
  ["hermes_config_mod", new RegExp(String.raw`${EDIT}\.hermes(?:-effect)?/(?:config\.yaml|SOUL\.md)`, "i")],
  ["hardcoded_secret", /(?:api[_-]?key|token|secret|password)\s*[=:]\s*["'][A-Za-z0-9+/=_-]{20,}/i]
]

/** Zero-width and bidi-control characters that hide text from a reader. */
const INVISIBLE = /[\u200B\u200C\u200D\u2060\u2062\u2063\u2064\uFEFF\u202A-\u202E\u2066-\u2069]/u

const SCAN_LIMIT = 65_536

/** Why `content` may not enter a memory store, or undefined when it may. */
export const memoryThreat = (content: string): string | undefined => {
  const text = content.slice(0, SCAN_LIMIT)
  const hidden = INVISIBLE.exec(text)
  if (hidden !== null) {
    const code = hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")
    return `Blocked: the content contains the invisible character U+${code}, a common way to hide instructions.`
  }
  // NFKC folds full-width and compatibility look-alikes (ｃａｔ → cat) before matching.
  const folded = text.normalize("NFKC")
  const hit = PATTERNS.find(([, pattern]) => pattern.test(folded))
  return hit === undefined
    ? undefined
    : `Blocked: the content matches threat pattern '${hit[0]}'. Memory is injected into future system prompts, so it must not carry instructions to the model, exfiltration or persistence payloads.`
}
