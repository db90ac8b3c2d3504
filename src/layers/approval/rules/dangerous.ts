/** The approval tier: Hermes' 70 dangerous rules, in Hermes' precedence order. */
import { configRules } from "./dangerousConfig.js"
import { deleteRules } from "./dangerousDelete.js"
import { gitSudoRules } from "./dangerousGitSudo.js"
import { hermesRules } from "./dangerousHermes.js"
import { remoteRules } from "./dangerousRemote.js"
import { systemRules } from "./dangerousSystem.js"
import { writeRules } from "./dangerousWrites.js"
import type { Rule } from "./engine.js"
import { ruleSet } from "./engine.js"

export const DANGEROUS_RULES: ReadonlyArray<Rule> = [
  ...deleteRules,
  ...systemRules,
  ...remoteRules,
  ...writeRules,
  ...hermesRules,
  ...configRules,
  ...gitSudoRules
]

export const dangerousSet = ruleSet(DANGEROUS_RULES, false)
