/** Paths in code: ones other programs run implicitly, system files, credentials, the runtime's home. */
import { implicitlyExecuted } from "../implicitExec.js"
import { systemConfigAt, userSensitiveAt } from "../pathClasses.js"
import type { RuleEnv } from "../rules/engine.js"
import { writtenPath } from "../rules/implicitWrites.js"
import { reachesRuntimeHome } from "../rules/runtimeHome.js"

const PATHISH = /^(?:[~/.$]|[A-Za-z]:\\)|\//
const SYSTEM = /^\/(?:etc|boot|usr|bin|sbin|lib\d*|sys|proc\/sys|dev\/(?:sd|nvme|hd|vd|xvd|mmcblk))(?:\/|$)/
const CREDENTIALS = /(?:^|\/)(?:\.aws\/credentials|\.docker\/config\.json|\.kube\/config|\.netrc|\.pgpass|\.pypirc|\.npmrc|\.git-credentials|id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?)$/

const pathish = (s: string): boolean => s !== "" && !s.includes("\n") && (PATHISH.test(s) || s.startsWith("."))

/** Writing this path plants code another program runs, or touches the user's credentials or settings. */
export const plantingWrite = (p: string, env: RuleEnv): boolean => {
  const s = p.trim()
  if (!pathish(s)) return false
  if (implicitlyExecuted(writtenPath(s, env), { home: env.home }) !== null) return true
  return userSensitiveAt(s.toLowerCase().replace(/^\$home\//, "~/"), 0) || CREDENTIALS.test(s)
}

/** Writing (or deleting) this path plants code, changes the system or touches credentials. */
export const sensitiveWrite = (p: string, env: RuleEnv): boolean => {
  const s = p.trim()
  if (!pathish(s)) return false
  return plantingWrite(s, env) || SYSTEM.test(s) || systemConfigAt(s.toLowerCase(), 0)
}

/** The text names something in the runtime's home. */
export const runtimeHomePath = (p: string, env: RuleEnv): boolean => {
  const s = p.trim()
  if (s === "HERMES_EFFECT_HOME" || s === "HERMES_HOME") return true
  return s !== "" && !s.includes("\n") && s.length < 4096 && (s.includes("/") || s.includes("~")) && reachesRuntimeHome(s, env)
}
