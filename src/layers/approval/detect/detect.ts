/**
 * Dangerous-command detection for the approval service: pure, synchronous,
 * no I/O. Two independent verdicts, as in Hermes:
 *  - hardline: the command must never run (only commands the shell would execute count);
 *  - dangerous: the command needs approval (prose that mentions a dangerous command counts too).
 * Each carries Hermes' rule description, which doubles as the allowlist key.
 */
import type { Detection } from "../../../services/Approval.js"
import { analyze } from "./analyze.js"
import {
  COMPUTED_NAME_DESCRIPTION,
  D,
  COMPUTED_PIPE_DESCRIPTION,
  HARDLINE_RULE_DESCRIPTIONS,
  INTERPRETER_FLAG_DESCRIPTION,
  INTERPRETER_HEREDOC_DESCRIPTION,
  MALFORMED_DESCRIPTION,
  PARSER_LIMIT_DESCRIPTION,
  DETECTOR_FAILURE_DESCRIPTION,
  PROGRAM_OPTION_DESCRIPTIONS,
  SHELL_FLAG_DESCRIPTION
} from "./descriptions.js"
import type { DetectionEnv } from "./detectionEnv.js"
import { resolveEnv } from "./detectionEnv.js"
import { exceedsParserLimits } from "./parserLimits.js"
import { prepare } from "./normalize.js"
import { DANGEROUS_RULES, dangerousSet } from "./rules/dangerous.js"
import type { RuleEnv, RuleSet } from "./rules/engine.js"
import { firstMatch } from "./rules/engine.js"
import { hardlineSet } from "./rules/hardline.js"
import type { GitDirRef, LoadedModule, ModuleDirRef, RunnerRef } from "./resolve/localFiles.js"
import type { ScriptRef } from "./resolve/resolver.js"
import { Locals } from "./resolve/localFiles.js"
import { wildcardHardline } from "./resolve/wildcard.js"
import { isVerificationCleanup } from "./verificationCleanup.js"
import type { PatchInput } from "./patchInputs.js"
import { patchInputs } from "./patchInputs.js"
import type { View } from "./ruleInput.js"
import { tierOne, tierTwo } from "./ruleInput.js"

export type { Detection } from "../../../services/Approval.js"
export type { DetectionEnv } from "./detectionEnv.js"
export { normalizeCommand } from "./normalize.js"

/** Hardline rule descriptions (Hermes order), then the two parser verdicts the floor can also report. */
export const HARDLINE_DESCRIPTIONS: ReadonlyArray<string> = [
  ...HARDLINE_RULE_DESCRIPTIONS,
  PARSER_LIMIT_DESCRIPTION,
  MALFORMED_DESCRIPTION,
  DETECTOR_FAILURE_DESCRIPTION
]

/** Dangerous rule descriptions (Hermes order, de-duplicated), then the structural findings. */
export const DANGEROUS_DESCRIPTIONS: ReadonlyArray<string> = [...new Set([
  ...DANGEROUS_RULES.map((r) => r.description),
  SHELL_FLAG_DESCRIPTION,
  INTERPRETER_FLAG_DESCRIPTION,
  INTERPRETER_HEREDOC_DESCRIPTION,
  ...PROGRAM_OPTION_DESCRIPTIONS,
  COMPUTED_NAME_DESCRIPTION,
  COMPUTED_PIPE_DESCRIPTION,
  D.shellFunction,
  D.heldArguments,
  D.untrackedArguments,
  D.computedWriteTarget,
  D.arithmeticCode,
  D.computedArithmetic,
  D.substitutedCode,
  D.computedCode,
  D.commandHooks,
  D.inputCommands,
  D.consoleCommands,
  D.stdinProgram,
  D.promptExpansion,
  D.heldArithmetic,
  MALFORMED_DESCRIPTION,
  PARSER_LIMIT_DESCRIPTION,
  DETECTOR_FAILURE_DESCRIPTION
])]

const FAILURE: Detection = {
  dangerous: true,
  description: DETECTOR_FAILURE_DESCRIPTION,
  hardline: true,
  hardline_description: DETECTOR_FAILURE_DESCRIPTION
}

const LIMIT: Detection = {
  dangerous: true,
  description: PARSER_LIMIT_DESCRIPTION,
  hardline: true,
  hardline_description: PARSER_LIMIT_DESCRIPTION
}

/** First rule matching tier 1 (words as written), else tier 2 (command words deobfuscated). */
const firstRule = (set: RuleSet, one: View, two: () => View | null, env?: RuleEnv): string | null => {
  const hit = firstMatch(set, one, env)
  if (hit >= 0) return set.rules[hit]?.description ?? null
  const alt = two()
  const hit2 = alt === null ? -1 : firstMatch(set, alt, env)
  return hit2 >= 0 ? (set.rules[hit2]?.description ?? null) : null
}

/** A command's verdict, and what the caller may look at to judge it further. */
export interface Inspection {
  readonly detection: Detection
  /** Variables the command needed that neither the line nor `env.variables` gave (the task's exports may). */
  readonly unresolved: ReadonlyArray<string>
  /** Local files the command runs, after resolution (relative paths follow the line's literal `cd`s). */
  readonly scripts: ReadonlyArray<ScriptRef>
  /** Path-like words of the commands that run, redirect targets and cd targets, after resolution. */
  readonly paths: ReadonlyArray<string>
  /** `make` / `npm test`-style runners: the project files they read hold shell text that will run. */
  readonly runners: ReadonlyArray<RunnerRef>
  /** Sources of `mv` (a directory moved out of the working directory is destructive). */
  readonly moves: ReadonlyArray<string>
  /** Relative files written where the command starts (before a `cd` of its own): judged against the real cwd. */
  readonly startWrites: ReadonlyArray<string>
  /** Every file the command writes, placed after the line's own `cd`s: judged where its symlinks lead. */
  readonly writes: ReadonlyArray<string>
  /** An archive extracted, or a download named by the server, where the command starts: every name may land there. */
  readonly startFills: boolean
  /** `patch` runs that write what their diff names: the diff is read where the command starts (policy/patchTargets.ts). */
  readonly patchInputs: ReadonlyArray<PatchInput>
  /** An `mv` source is computed at run time. */
  readonly computedMove: boolean
  /** Bare program names the line runs, and directories a `PATH=` in the line adds (planted programs). */
  readonly programs: ReadonlyArray<string>
  /** The line runs more distinct programs than `programs` lists. */
  readonly programsCapped: boolean
  readonly pathDirs: ReadonlyArray<string>
  /** Where `git` commands start (a planted bare repository found from there would have its config read). */
  readonly gitDirs: ReadonlyArray<GitDirRef>
  /** Module search path directories the line sets (`PYTHONPATH=src python3 x.py`). */
  readonly moduleDirs: ReadonlyArray<ModuleDirRef>
  /** Modules the command line loads by name (`python -m mod`, `perl -Mmod`, `ruby -rfeat`). */
  readonly loadedModules: ReadonlyArray<LoadedModule>
}

const limit = (): Inspection => ({
  detection: LIMIT,
  unresolved: [],
  scripts: [],
  paths: [],
  runners: [],
  moves: [],
  startWrites: [],
  writes: [],
  startFills: false,
  patchInputs: [],
  computedMove: false,
  programs: [],
  programsCapped: false,
  pathDirs: [],
  gitDirs: [],
  moduleDirs: [],
  loadedModules: []
})

/** What `detectCommand` returns besides the verdict (it collects nothing, and reads only the verdict). */
const NOTHING_COLLECTED: Inspection = limit()

const guarded = (command: string, options: DetectionEnv | undefined, collect: boolean): Inspection => {
  if (exceedsParserLimits(command)) return limit()
  try {
    return inspectWithinLimits(command, options, collect)
  } catch (error) {
    // Resource exhaustion (deep recursion) is the parser limit; anything else is a bug, and a bug must not open the
    // gate nor reach the model as an exception: the command is refused with a verdict that says so.
    return error instanceof RangeError ? limit() : { ...limit(), detection: FAILURE }
  }
}

export const inspectCommand = (command: string, options?: DetectionEnv): Inspection => guarded(command, options, true)

export const detectCommand = (command: string, options?: DetectionEnv): Detection =>
  guarded(command, options, false).detection

const inspectWithinLimits = (command: string, options: DetectionEnv | undefined, collect: boolean): Inspection => {
  const env = resolveEnv(options)
  const locals = collect ? new Locals() : undefined
  const held = options?.shellFunctions
  const shellFunctions = held === undefined || held.length === 0 ? undefined : new Set(held)
  const analysis = analyze(prepare(command, env, options?.variables !== undefined && Object.hasOwn(options.variables, "IFS")), {
    env,
    variables: options?.variables,
    shellFunctions,
    shellKeepsVariables: options?.shellKeepsVariables,
    locals
  })
  if (analysis.ctx.overflow) return limit()
  const one = tierOne(analysis)
  let two: View | null | undefined
  const lazyTwo = (): View | null => (two === undefined ? (two = tierTwo(analysis, one)) : two)
  const found = analysis.resolution

  const hardline = analysis.grepMalformed
    ? MALFORMED_DESCRIPTION
    : (firstRule(hardlineSet, one, lazyTwo, env) ??
      (found !== null && found.wildcards.length > 0 ? wildcardHardline(one, found.wildcards, env) : null))
  const flagged = firstRule(dangerousSet, one, lazyTwo, env) ?? analysis.findings[0] ?? found?.computed[0] ?? null
  // Asked only of a flagged line: a verification's cleanup is let through whatever flagged it.
  const dangerous = flagged !== null && isVerificationCleanup(command, env) ? null : flagged
  const detection: Detection = {
    dangerous: dangerous !== null,
    description: dangerous,
    hardline: hardline !== null,
    hardline_description: hardline
  }
  if (locals === undefined) return { ...NOTHING_COLLECTED, detection }
  const unresolved = found === null ? [] : [...found.missing]
  // `export PAGER` in a persistent shell: quiet once the exports show they hold it.
  for (const name of analysis.heldExports ?? []) if (!unresolved.includes(name)) unresolved.push(name)
  // `$IFS` reads as a blank before the exports are given (normalize.ts); they may give it another value.
  if (options?.variables === undefined && command.includes("IFS") && /\$\{?IFS\b/.test(command) && !unresolved.includes("IFS")) unresolved.push("IFS")
  return {
    detection,
    unresolved,
    scripts: locals?.settledScripts() ?? [],
    paths: locals?.paths ?? [],
    runners: locals?.runners ?? [],
    moves: locals?.moves ?? [],
    startWrites: locals?.startWrites ?? [],
    writes: locals?.writes() ?? [],
    startFills: locals?.startFills ?? false,
    patchInputs: patchInputs(one),
    computedMove: locals?.computedMove ?? false,
    programs: locals?.programs ?? [],
    programsCapped: locals?.programsCapped ?? false,
    pathDirs: locals?.pathDirs ?? [],
    gitDirs: locals?.gitDirs ?? [],
    moduleDirs: locals?.moduleDirs ?? [],
    loadedModules: locals?.loadedModules ?? []
  }
}
