/**
 * Dangerous-command detection for the approval service: pure, synchronous,
 * no I/O. Two independent verdicts, as in Hermes:
 *  - hardline: the command must never run (only commands the shell would execute count);
 *  - dangerous: the command needs approval (prose that mentions a dangerous command counts too).
 * Each carries Hermes' rule description, which doubles as the allowlist key.
 */
import type { Detection } from "../../services/Approval.js"
import { analyze } from "./analyze.js"
import {
  HARDLINE_RULE_DESCRIPTIONS,
  INTERPRETER_FLAG_DESCRIPTION,
  INTERPRETER_HEREDOC_DESCRIPTION,
  MALFORMED_DESCRIPTION,
  PARSER_LIMIT_DESCRIPTION,
  PROGRAM_OPTION_DESCRIPTIONS,
  SHELL_FLAG_DESCRIPTION
} from "./descriptions.js"
import type { DetectionEnv } from "./env.js"
import { resolveEnv } from "./env.js"
import { exceedsParserLimits } from "./limits.js"
import { prepare } from "./normalize.js"
import { DANGEROUS_RULES, dangerousSet } from "./rules/dangerous.js"
import type { RuleSet } from "./rules/engine.js"
import { firstMatch } from "./rules/engine.js"
import { hardlineSet } from "./rules/hardline.js"
import { isVerificationCleanup } from "./verification.js"
import type { View } from "./view.js"
import { tierOne, tierTwo } from "./view.js"

export type { Detection } from "../../services/Approval.js"
export type { DetectionEnv } from "./env.js"
export { normalizeCommand } from "./normalize.js"

/** Hardline rule descriptions (Hermes order), then the two parser verdicts the floor can also report. */
export const HARDLINE_DESCRIPTIONS: ReadonlyArray<string> = [
  ...HARDLINE_RULE_DESCRIPTIONS,
  PARSER_LIMIT_DESCRIPTION,
  MALFORMED_DESCRIPTION
]

/** Dangerous rule descriptions (Hermes order, de-duplicated), then the structural findings. */
export const DANGEROUS_DESCRIPTIONS: ReadonlyArray<string> = [
  ...new Set(DANGEROUS_RULES.map((r) => r.description)),
  SHELL_FLAG_DESCRIPTION,
  INTERPRETER_FLAG_DESCRIPTION,
  INTERPRETER_HEREDOC_DESCRIPTION,
  ...PROGRAM_OPTION_DESCRIPTIONS,
  MALFORMED_DESCRIPTION,
  PARSER_LIMIT_DESCRIPTION
]

const LIMIT: Detection = {
  dangerous: true,
  description: PARSER_LIMIT_DESCRIPTION,
  hardline: true,
  hardline_description: PARSER_LIMIT_DESCRIPTION
}

/** First rule matching tier 1 (words as written), else tier 2 (command words deobfuscated). */
const firstRule = (set: RuleSet, one: View, two: () => View | null): string | null => {
  const hit = firstMatch(set, one)
  if (hit >= 0) return set.rules[hit]?.description ?? null
  const alt = two()
  const hit2 = alt === null ? -1 : firstMatch(set, alt)
  return hit2 >= 0 ? (set.rules[hit2]?.description ?? null) : null
}

export const detectCommand = (command: string, options?: DetectionEnv): Detection => {
  if (exceedsParserLimits(command)) return LIMIT
  try {
    return detectWithinLimits(command, options)
  } catch (error) {
    // Only resource exhaustion is expected here (deep recursion); anything else is a bug worth surfacing.
    if (error instanceof RangeError) return LIMIT
    throw error
  }
}

const detectWithinLimits = (command: string, options: DetectionEnv | undefined): Detection => {
  const env = resolveEnv(options)
  const analysis = analyze(prepare(command, env))
  if (analysis.ctx.overflow) return LIMIT
  const one = tierOne(analysis)
  let two: View | null | undefined
  const lazyTwo = (): View | null => (two === undefined ? (two = tierTwo(analysis, one)) : two)

  const hardline = analysis.grepMalformed ? MALFORMED_DESCRIPTION : firstRule(hardlineSet, one, lazyTwo)
  const dangerous = isVerificationCleanup(command, env)
    ? null
    : (firstRule(dangerousSet, one, lazyTwo) ?? analysis.findings[0] ?? null)
  return {
    dangerous: dangerous !== null,
    description: dangerous,
    hardline: hardline !== null,
    hardline_description: hardline
  }
}
