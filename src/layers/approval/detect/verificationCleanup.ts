/**
 * Hermes' one exemption: deleting its own verification scratch file,
 * exactly `rm -f <tmp>/hermes-verify-…` or `…/hermes-ad-hoc-…`, spelled
 * literally (no globs, substitutions, extra words or path tricks).
 */
import type { ResolvedEnv } from "./detectionEnv.js"
import { lexCommands } from "../shell/parser.js"
import { basename } from "../shell/words.js"

const SCRATCH_NAME = /^hermes-(?:verify|ad-hoc)-[A-Za-z0-9_.-]+$/

export const isVerificationCleanup = (command: string, env: ResolvedEnv): boolean => {
  if (!command.startsWith("rm")) return false
  const cmds = lexCommands(command)
  const cmd = cmds?.length === 1 ? cmds[0] : undefined
  if (cmd === undefined || cmd.redirs.length > 0 || cmd.words.length !== 3 || cmd.nextOp !== "EOF") return false
  if (cmd.words.some((w) => w.expands || w.unterminated)) return false
  const [rm, flag, operand] = cmd.words.map((w) => w.value)
  if (rm !== "rm" || flag !== "-f" || operand === undefined) return false
  const name = basename(operand)
  return SCRATCH_NAME.test(name) && operand === `${env.tmpDir()}/${name}`
}
