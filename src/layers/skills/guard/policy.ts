/**
 * From findings to a decision. The verdict is the worst severity (critical →
 * dangerous, high → caution); the trust level says who the skill comes from;
 * the policy table says what that pair may do:
 *
 *                   safe    caution   dangerous
 *   builtin         allow   allow     allow
 *   trusted         allow   allow     block
 *   community       allow   block     block
 *   agent-created   allow   allow     ask
 *
 * `force` overrides a block or an ask, except a dangerous verdict from a
 * community or trusted source: nobody's say-so makes that installable.
 */
import * as path from "node:path"
import type { Finding, GuardAction, GuardDecision, ScanResult, TrustLevel, Verdict } from "../../../services/Skills.js"

export const SCANNER_VERSION = "hermes-effect-skills-guard-1"

/** Repositories whose published skills count as trusted (exactly, or a path inside them). */
export const TRUSTED_REPOS: ReadonlyArray<string> = ["openai/skills", "anthropics/skills", "huggingface/skills", "NVIDIA/skills"]

const POLICY: Readonly<Record<TrustLevel, readonly [GuardAction, GuardAction, GuardAction]>> = {
  builtin: ["allow", "allow", "allow"],
  trusted: ["allow", "allow", "block"],
  community: ["allow", "block", "block"],
  "agent-created": ["allow", "allow", "ask"]
}

const VERDICT_INDEX: Readonly<Record<Verdict, 0 | 1 | 2>> = { safe: 0, caution: 1, dangerous: 2 }

export const verdictOf = (findings: ReadonlyArray<Finding>): Verdict =>
  findings.some((f) => f.severity === "critical") ? "dangerous" : findings.some((f) => f.severity === "high") ? "caution" : "safe"

const SOURCE_ALIASES = ["skills-sh/", "skills.sh/"]

/**
 * Trust for a source: `official` is ours, `agent-created` the model's; a
 * trusted repo id (built in, or in `skills.trusted_sources`) or a folder
 * inside a trusted folder is trusted; anything else is community.
 */
export const resolveTrust = (source: string, trustedSources: ReadonlyArray<string> = []): TrustLevel => {
  const alias = SOURCE_ALIASES.find((p) => source.startsWith(p))
  const id = alias === undefined ? source : source.slice(alias.length)
  if (id === "agent-created") return "agent-created"
  if (id === "official") return "builtin"
  const repos = [...TRUSTED_REPOS, ...trustedSources.filter((s) => !path.isAbsolute(s) && !s.startsWith("~"))]
  if (repos.some((t) => id === t || id.startsWith(`${t}/`))) return "trusted"
  if (path.isAbsolute(id)) {
    const dirs = trustedSources.filter((s) => path.isAbsolute(s)).map((s) => path.resolve(s))
    if (dirs.some((d) => id === d || id.startsWith(d.endsWith(path.sep) ? d : d + path.sep))) return "trusted"
  }
  return "community"
}

export const decide = (scan: Pick<ScanResult, "trust" | "verdict" | "findings">, force = false): GuardDecision => {
  const policy = POLICY[scan.trust][VERDICT_INDEX[scan.verdict]]
  const n = scan.findings.length
  const hardBlock = scan.verdict === "dangerous" && (scan.trust === "community" || scan.trust === "trusted")
  if (policy === "allow") return { policy, allowed: true, reason: `Allowed (${scan.trust} source, ${scan.verdict} verdict)` }
  if (force && !hardBlock) return { policy, allowed: true, reason: `Force-installed despite ${scan.verdict} verdict (${n} findings)` }
  if (policy === "ask") return { policy, allowed: "ask", reason: `Requires confirmation (${scan.trust} source + ${scan.verdict} verdict, ${n} findings)` }
  return {
    policy,
    allowed: false,
    reason: `Blocked (${scan.trust} source + ${scan.verdict} verdict, ${n} findings). ` +
      (hardBlock ? "--force does not override a dangerous verdict." : "Use --force to override.")
  }
}

const ORDER: Readonly<Record<string, number>> = { critical: 0, high: 1, medium: 2, low: 3 }

export const summaryOf = (skill: string, verdict: Verdict, findings: ReadonlyArray<Finding>): string =>
  findings.length === 0
    ? `${skill}: clean scan, no threats detected`
    : `${skill}: ${verdict} — ${findings.length} finding(s) in ${[...new Set(findings.map((f) => f.category))].sort().join(", ")}`

/** A compact report for a terminal or the model: one line per finding, worst first, then the decision. */
export const formatReport = (scan: ScanResult, decision: GuardDecision = decide(scan)): string => {
  const lines = [`Scan: ${scan.skill} (${scan.source}/${scan.trust})  Verdict: ${scan.verdict.toUpperCase()}`]
  const sorted = [...scan.findings].sort((a, b) => (ORDER[a.severity] ?? 4) - (ORDER[b.severity] ?? 4))
  for (const f of sorted) {
    const where = f.line > 0 ? `${f.file}:${f.line}` : f.file
    lines.push(`  ${f.severity.toUpperCase().padEnd(8)} ${f.category.padEnd(20)} ${where.padEnd(30)} ${f.ruleId}: ${f.description} — "${f.match.slice(0, 60)}"`)
  }
  const status = decision.allowed === true ? "ALLOWED" : decision.allowed === "ask" ? "NEEDS CONFIRMATION" : "BLOCKED"
  lines.push(`Decision: ${status} — ${decision.reason}`)
  return lines.join("\n")
}
