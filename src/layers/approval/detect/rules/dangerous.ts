/**
 * The approval tier: Hermes' 70 dangerous rules, in Hermes' precedence order,
 * then ours (so where both fire, Hermes' description is the key).
 */
import { configRules } from "./dangerousConfig.js"
import { deleteRules } from "./dangerousDelete.js"
import { gitDiscardRules, gitSudoRules } from "./dangerousGitSudo.js"
import { hermesRules } from "./dangerousHermes.js"
import { commandLookupRules } from "./commandLookup.js"
import { loaderVariableRules } from "./loaderVariables.js"
import { remoteRules } from "./dangerousRemote.js"
import { systemRules } from "./dangerousSystem.js"
import { writeRules } from "./dangerousWrites.js"
import { destructiveRules } from "./destructive.js"
import type { Rule } from "./engine.js"
import { ruleSet } from "./engine.js"
import { gitExecRules } from "./gitExec.js"
import { implicitWriteRules } from "./implicitWrites.js"
import { infrastructureRules } from "./infrastructure.js"
import { worldWritableRules } from "./worldWritable.js"
import { operatorRules } from "./operator.js"
import { toolRunMarkerRules } from "./toolRunMarker.js"
import { programOptionRules } from "./programOptions.js"
import { opaqueInterpreterRules } from "./opaqueInterpreters.js"
import { networkShellRules, remoteShellRules } from "./remoteShell.js"
import { runtimeHomeRules } from "./runtimeHome.js"
import { runtimeProcessRules } from "./runtimeProcess.js"

export const DANGEROUS_RULES: ReadonlyArray<Rule> = [
  ...deleteRules,
  ...systemRules,
  ...remoteRules,
  ...writeRules,
  ...hermesRules,
  ...configRules,
  ...gitSudoRules,
  ...operatorRules,
  ...toolRunMarkerRules,
  ...gitExecRules,
  ...destructiveRules,
  ...gitDiscardRules,
  ...worldWritableRules,
  ...remoteShellRules,
  ...networkShellRules,
  ...infrastructureRules,
  ...runtimeHomeRules,
  ...runtimeProcessRules,
  ...implicitWriteRules,
  ...commandLookupRules,
  ...loaderVariableRules,
  ...programOptionRules,
  ...opaqueInterpreterRules
]

export const dangerousSet = ruleSet(DANGEROUS_RULES, false)
