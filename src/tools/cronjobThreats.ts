/**
 * A scheduled prompt runs later, unattended, with nobody to read it first, so
 * create and update refuse prompts that read like injection, secret reading,
 * persistence or exfiltration (the strict set Hermes scans cron prompts with).
 */

/** Up to eight words between the key words of a phrase. */
const GAP = String.raw`(?:\w+\s+){0,8}`
const SECRET_VAR = String.raw`\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)S?\b`

const PATTERNS: ReadonlyArray<readonly [id: string, pattern: RegExp]> = [
  ["prompt_injection", new RegExp(String.raw`ignore\s+${GAP}(?:previous|all|above|prior)\s+${GAP}instructions`, "i")],
  ["deception_hide", new RegExp(String.raw`do\s+not\s+${GAP}tell\s+${GAP}the\s+user`, "i")],
  ["sys_prompt_override", /system\s+prompt\s+override/i],
  ["disregard_rules", new RegExp(String.raw`disregard\s+${GAP}(?:your|all|any)\s+${GAP}(?:instructions|rules|guidelines)`, "i")],
  ["read_secrets", /cat\s+[^\n]{0,2048}(?:\.env\b|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)/i],
  ["ssh_backdoor", /authorized_keys/i],
  ["sudoers_mod", /\/etc\/sudoers|visudo/i],
  ["destructive_root_rm", /rm\s+-[a-z]*r[a-z]*f?[a-z]*\s+\/(?:\s|$|\*)/i],
  ["exfil_curl_url", new RegExp(String.raw`curl\s+[^\n]{0,2048}${SECRET_VAR}`, "i")],
  ["exfil_wget_url", new RegExp(String.raw`wget\s+[^\n]{0,2048}${SECRET_VAR}`, "i")],
  ["exfil_curl_data", /curl\s+[^\n]{0,2048}(?:-d|--data(?:-binary|-raw)?|-F|--form)\s+[^\n]{0,2048}@[^\s]*(?:\.env\b|credentials|id_rsa|\.netrc)/i]
]

/** Zero-width and bidi-control characters that hide text from a reader (a ZWJ inside an emoji sequence is fine). */
const INVISIBLE = /[\u200B\u200C\u2060\u2062\u2063\u2064\uFEFF\u202A-\u202E\u2066-\u2069]|(?<!\p{Extended_Pictographic}\uFE0F?)\u200D|\u200D(?!\p{Extended_Pictographic})/u

/** Why `prompt` may not be scheduled, or undefined when it may. */
export const cronPromptThreat = (prompt: string): string | undefined => {
  const text = prompt.slice(0, 65_536)
  const hidden = INVISIBLE.exec(text)
  if (hidden !== null) {
    const code = hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")
    return `Blocked: prompt contains the invisible character U+${code}, a common way to hide instructions.`
  }
  const folded = text.normalize("NFKC")
  const hit = PATTERNS.find(([, pattern]) => pattern.test(folded))
  return hit === undefined
    ? undefined
    : `Blocked: prompt matches threat pattern '${hit[0]}'. Scheduled prompts run unattended, so they must not carry injected instructions, secret reads, persistence or exfiltration.`
}
