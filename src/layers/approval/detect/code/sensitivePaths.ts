/** Paths in code: ones other programs run implicitly, system files, credentials, the runtime's home. */
import { implicitlyExecuted } from "../implicitExec.js"
import { systemConfigAt, userSensitiveAt } from "../pathClasses.js"
import type { RuleEnv } from "../rules/engine.js"
import { writtenPath } from "../rules/implicitWrites.js"
import { reachesRuntimeHome } from "../rules/runtimeHome.js"

const PATHISH = /^(?:[~/.$]|[A-Za-z]:\\)|\//
const SYSTEM = /^\/(?:etc|boot|usr|bin|sbin|lib\d*|sys|proc\/sys|dev\/(?:sd|nvme|hd|vd|xvd|mmcblk))(?:\/|$)/
const CREDENTIALS = /(?:^|\/)(?:\.aws\/credentials|\.docker\/config\.json|\.kube\/config|\.netrc|\.pgpass|\.pypirc|\.npmrc|\.git-credentials|id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?)$/

/** Writing (or deleting) this path plants code, changes the system or touches credentials. */
export const sensitiveWrite = (p: string, env: RuleEnv): boolean => {
  const s = p.trim()
  if (s === "" || s.includes("\n") || !(PATHISH.test(s) || s.startsWith("."))) return false
  if (implicitlyExecuted(writtenPath(s, env), { home: env.home }) !== null) return true
  const lower = s.toLowerCase()
  return SYSTEM.test(s) || systemConfigAt(lower, 0) || userSensitiveAt(lower.replace(/^\$home\//, "~/"), 0) || CREDENTIALS.test(s)
}

/** The text names something in the runtime's home. */
export const runtimeHomePath = (p: string, env: RuleEnv): boolean => {
  const s = p.trim()
  if (s === "HERMES_EFFECT_HOME" || s === "HERMES_HOME") return true
  return s !== "" && !s.includes("\n") && s.length < 4096 && (s.includes("/") || s.includes("~")) && reachesRuntimeHome(s, env)
}
