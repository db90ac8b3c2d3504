/**
 * Grants that stop at the runtime's home (red team 8). Approval keys are rule descriptions, shared by every command
 * the rule matches: a session grant or an allowlist entry for "overwrite project env/config file" (`cp
 * config.example.yaml config.yaml`), or for "touches the runtime's home" (running a skill's script), would also cover
 * `cp evil.yaml ~/.hermes-effect/config.yaml`, and a grant for one write_file into a skill's folder would cover the
 * config file beside it. The home holds the approval mode, the allowlist and the rules, which the model may never
 * change by itself: a command or write that reaches it is asked of the approver every time, and its answer is
 * never remembered. Pure.
 */
import { inspectCommand } from "../detect/detect.js"
import { D } from "../detect/descriptions.js"
import { RUNTIME_HOME_DESCRIPTION } from "../detect/implicitExec.js"
import { reachesRuntimeHome } from "../detect/rules/runtimeHome.js"

export interface HomePaths {
  readonly home: string
  readonly hermesHome: string
}

/** Keys that name the runtime's home themselves. */
const HOME_KEYS: ReadonlySet<string> = new Set([D.runtimeHome, RUNTIME_HOME_DESCRIPTION])

export const isRuntimeHomeKey = (key: string): boolean => HOME_KEYS.has(key)

/**
 * Whether a shell command names a path in the runtime's home (read or written, after the line's own resolution),
 * whatever rule its verdict came from. Only asked about commands already judged dangerous.
 */
export const commandReachesRuntimeHome = (command: string, env: HomePaths): boolean => {
  const inspection = inspectCommand(command, env)
  if (inspection.detection.description !== null && isRuntimeHomeKey(inspection.detection.description)) return true
  return [...inspection.paths, ...inspection.writes].some((p) => reachesRuntimeHome(p, env))
}
