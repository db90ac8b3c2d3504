/** D49–D60: copying over or editing in place system, credential and Hermes files; shell heredocs. */
import {
  containsPath,
  hermesFileAt,
  projectDestination,
  sensitiveDestination,
  systemConfigAt,
  userSensitiveAt
} from "../pathClasses.js"
import type { CmdView, View } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { isDash, laterSome, startsTok } from "./tokenMatchers.js"

const COPIERS = ["cp", "mv", "install"]
const TAIL_OPS = new Set(["EOF", "&&", "||", ";"])

/**
 * The last thing written in a command that ends the input or is followed by
 * `&&`, `||` or `;` — where cp/mv/install put their destination.
 */
const destinationAfter = (v: View, c: CmdView, i: number, pred: (t: string) => boolean): boolean =>
  v.cmds.some((d) => {
    if (d.base < c.base || !TAIL_OPS.has(d.cmd.nextOp)) return false
    let trailing = -1
    d.cmd.redirs.forEach((r, k) => {
      if (r.after === d.texts.length) trailing = k
    })
    if (trailing >= 0) return pred(d.redirectTexts[trailing] ?? "")
    const last = d.texts.length - 1
    return last >= 0 && (d !== c || last > i) && pred(d.texts[last] ?? "")
  })

const sedInPlace = (flag: string | undefined): boolean => isDash(flag) && (flag ?? "").indexOf("i", 1) > 0
const sedLongInPlace = (flag: string | undefined): boolean => startsTok(flag ?? "", "--in-place")
const INPLACE_FLAG = /^-\S*i(?![\w])/

/** perl/ruby: an option word carrying `i`, then a later mention matching `pred`. */
const inPlaceThen = (v: View, c: CmdView, i: number, pred: (t: string) => boolean): boolean => {
  for (let k = c.base + i + 1; k < v.flat.length; k++) {
    if (!INPLACE_FLAG.test(v.flat[k] ?? "")) continue
    for (let m = k + 1; m < v.flat.length; m++) if (pred(v.flat[m] ?? "")) return true
    return false
  }
  return false
}

const userFile = (t: string): boolean => containsPath(t, userSensitiveAt)
const hermesFile = (t: string): boolean => containsPath(t, hermesFileAt)
const systemFile = (t: string): boolean => systemConfigAt(t, 0)

export const configRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: "copy/move file into system config path",
    on: COPIERS,
    at: "any",
    test: (v, c, i) => laterSome(v, c, i, systemFile)
  },
  {
    kind: "word",
    description: "overwrite project env/config file",
    on: COPIERS,
    at: "any",
    test: (v, c, i) => destinationAfter(v, c, i, projectDestination)
  },
  {
    kind: "word",
    description: "copy/move file into sensitive credential/SSH/shell-rc path",
    on: COPIERS,
    at: "any",
    test: (v, c, i) => destinationAfter(v, c, i, sensitiveDestination)
  },
  {
    kind: "word",
    description: "in-place edit of sensitive credential/SSH/shell-rc path",
    on: ["sed"],
    at: "end",
    test: (v, c, i) => sedInPlace(c.texts[i + 1]) && laterSome(v, c, i + 1, userFile)
  },
  {
    kind: "word",
    description: "in-place edit of sensitive credential/SSH/shell-rc path (long flag)",
    on: ["sed"],
    at: "end",
    test: (v, c, i) => sedLongInPlace(c.texts[i + 1]) && laterSome(v, c, i + 1, userFile)
  },
  {
    kind: "word",
    description: "in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)",
    on: ["perl", "ruby"],
    at: "any",
    test: (v, c, i) => inPlaceThen(v, c, i, userFile)
  },
  {
    kind: "word",
    description: "in-place edit of system config",
    on: ["sed"],
    at: "end",
    test: (v, c, i) => sedInPlace(c.texts[i + 1]) && laterSome(v, c, i + 1, systemFile)
  },
  {
    kind: "word",
    description: "in-place edit of system config (long flag)",
    on: ["sed"],
    at: "end",
    test: (v, c, i) => sedLongInPlace(c.texts[i + 1]) && laterSome(v, c, i + 1, systemFile)
  },
  {
    kind: "word",
    description: "in-place edit of Hermes config/env",
    on: ["sed"],
    at: "end",
    test: (v, c, i) => sedInPlace(c.texts[i + 1]) && laterSome(v, c, i + 1, hermesFile)
  },
  {
    kind: "word",
    description: "in-place edit of Hermes config/env (long flag)",
    on: ["sed"],
    at: "end",
    test: (v, c, i) => sedLongInPlace(c.texts[i + 1]) && laterSome(v, c, i + 1, hermesFile)
  },
  {
    kind: "word",
    description: "in-place edit of Hermes config/env (perl/ruby)",
    on: ["perl", "ruby"],
    at: "any",
    test: (v, c, i) => inPlaceThen(v, c, i, hermesFile)
  },
  {
    kind: "word",
    description: "shell execution via heredoc",
    on: ["bash", "sh", "zsh", "ksh"],
    at: "end",
    test: (_v, c, i) => c.cmd.redirs.some((r) => r.after === i + 1 && r.op.startsWith("<<"))
  }
]
