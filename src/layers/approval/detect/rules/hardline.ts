/**
 * The hardline tier: commands that never run. Only commands the shell would
 * actually execute count (their program word after wrappers), never prose.
 */
import { H } from "../descriptions.js"
import { isBlockDevice, rmTarget } from "../pathClasses.js"
import type { RmTarget } from "../pathClasses.js"
import type { CmdView } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { ruleSet } from "./engine.js"
import { hasForkBomb } from "./dangerousSystem.js"
import { destructiveHardline } from "./destructive.js"
import { isDash, skipDashes, startsTok, startsTokAny } from "./tokenMatchers.js"

/** Any rm operand (not only the first, unlike Hermes) naming the protected target. */
const rmOperand = (c: CmdView, kind: RmTarget): boolean =>
  c.name === "rm" && c.texts.some((t, j) => j > c.head && !isDash(t) && rmTarget(t) === kind)

const DEVICE_OF = /(?:^|[^\w])of=["']?\/dev\/(?:sd|nvme|hd|mmcblk|vd|xvd)/
const unquote = (t: string): string => t.replace(/^["']|["']$/g, "")
const arg = (c: CmdView, k: number): string => c.texts[c.head + k] ?? ""

const HARDLINE_RULES: ReadonlyArray<Rule> = [
  { kind: "program", description: H.rootDelete, test: (_v, c) => rmOperand(c, "root") },
  { kind: "program", description: H.systemDelete, test: (_v, c) => rmOperand(c, "system") },
  { kind: "program", description: H.homeDelete, test: (_v, c) => rmOperand(c, "home") },
  { kind: "program", description: H.mkfs, test: (_v, c) => /^mkfs(?![\w])/.test(c.name) },
  {
    kind: "program",
    description: H.ddDevice,
    test: (_v, c) => c.name === "dd" && c.texts.some((t, j) => j > c.head && DEVICE_OF.test(t))
  },
  {
    kind: "redirect",
    description: H.redirectDevice,
    test: (_v, c, r) => (c.cmd.redirs[r]?.op.endsWith(">") ?? false) && isBlockDevice(unquote(c.redirectTexts[r] ?? ""))
  },
  { kind: "view", description: H.forkBomb, test: (v) => hasForkBomb(v, true) },
  {
    kind: "program",
    description: H.killAll,
    test: (_v, c) => {
      if (c.name !== "kill") return false
      for (let j = c.head + 1; j < c.texts.length && isDash(c.texts[j]); j++) if (startsTok(c.texts[j] ?? "", "-1")) return true
      return false
    }
  },
  { kind: "program", description: H.shutdown, test: (_v, c) => /^(?:shutdown|reboot|halt|poweroff)(?![\w])/.test(c.name) },
  { kind: "program", description: H.init, test: (_v, c) => c.name === "init" && /^[06](?![\w])/.test(arg(c, 1)) },
  {
    kind: "program",
    description: H.systemctlPower,
    test: (_v, c) =>
      c.name === "systemctl" && startsTokAny(c.texts[skipDashes(c, c.head + 1)] ?? "", ["poweroff", "reboot", "halt", "kexec"])
  },
  { kind: "program", description: H.telinit, test: (_v, c) => c.name === "telinit" && /^[06](?![\w])/.test(arg(c, 1)) },
  ...destructiveHardline
]

export const hardlineSet = ruleSet(HARDLINE_RULES, true)

/** Program names the hardline rules look at (a command word computed at run time may turn out to be any of them). */
export const HARDLINE_PROGRAMS: ReadonlyArray<string> = [
  "rm", "mkfs", "dd", "kill", "shutdown", "reboot", "halt", "poweroff", "init", "systemctl", "telinit", "chmod", "chown",
  "chgrp"
]
