/** D11–D24: disks, SQL, system config, services and process killing. */
import { systemConfigAt } from "../pathClasses.js"
import type { View } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { hasTok, isDash, laterSome, skipDashes, startsTok, startsTokAny } from "./tokenMatchers.js"

/** Program word of a body command; braces glued on (`{:|:&}`, invalid bash that Hermes still matches) are ignored. */
const calls = (t: string | undefined, name: string): boolean =>
  t !== undefined && (t === name || t.replace(/^\{+/, "").replace(/\}+$/, "") === name)

/**
 * A function whose body pipes itself into itself (`:(){ :|:& };:` and any renamed twin), or calls itself twice with
 * one call in the background (`f(){ f & f; }`): either way the processes double at every level.
 */
export const hasForkBomb = (v: View, execOnly: boolean): boolean =>
  v.funcs.some((f) => {
    if (execOnly && f.cls !== "exec") return false
    const name = f.name.toLowerCase()
    let selfCalls = 0
    let background = false
    for (let s = f.from; s < f.to; s++) {
      const c = v.bySeq[s]
      const next = c?.cmd.pipeNext
      if (calls(c?.texts[0], name) && next !== null && next !== undefined && calls(v.bySeq[next.seq]?.texts[0], name)) return true
      if (c !== undefined && calls(c.texts[0], name)) {
        selfCalls++
        if (c.cmd.nextOp === "&" || c.cmd.bgEnd || c.cmd.ampSemi) background = true
      }
    }
    return selfCalls >= 2 && background
  })

/** Options after killall, scanned for one matching `pred` (optionally looking at the next word). */
const killallOption = (t: ReadonlyArray<string>, i: number, pred: (opt: string, next: string) => boolean): boolean => {
  for (let j = i + 1; j < t.length && isDash(t[j]); j++) if (pred(t[j] ?? "", t[j + 1] ?? "")) return true
  return false
}

export const systemRules: ReadonlyArray<Rule> = [
  {
    kind: "program",
    description: "format filesystem",
    only: (n) => n.startsWith("mkfs"),
    test: (_v, c) => /^mkfs(?![\w])/.test(c.name)
  },
  {
    kind: "program",
    description: "disk copy",
    only: (n) => n === "dd",
    test: (v, c) => c.name === "dd" && laterSome(v, c, c.head, (x) => x.includes("if="))
  },
  {
    kind: "redirect",
    description: "write to block device",
    test: (_v, c, r) => (c.cmd.redirs[r]?.op.endsWith(">") ?? false) && (c.redirectTexts[r] ?? "").startsWith("/dev/sd")
  },
  {
    kind: "word",
    description: "SQL DROP",
    on: ["drop"],
    at: "end",
    test: (_v, c, i) => startsTokAny(c.texts[i + 1] ?? "", ["table", "database"])
  },
  {
    kind: "word",
    description: "SQL DELETE without WHERE",
    on: ["delete"],
    at: "end",
    test: (v, c, i) => startsTok(c.texts[i + 1] ?? "", "from") && !laterSome(v, c, i + 1, (x) => hasTok(x, "where"))
  },
  {
    kind: "word",
    description: "SQL TRUNCATE",
    on: ["truncate"],
    at: "end",
    test: (_v, c, i) => /^\w/.test(c.texts[i + 1] ?? "")
  },
  {
    kind: "redirect",
    description: "overwrite system config",
    test: (_v, c, r) => (c.cmd.redirs[r]?.op.endsWith(">") ?? false) && systemConfigAt(c.redirectTexts[r] ?? "", 0)
  },
  {
    kind: "word",
    description: "stop/restart system service",
    on: ["systemctl"],
    at: "end",
    test: (_v, c, i) => startsTokAny(c.texts[skipDashes(c, i + 1)] ?? "", ["stop", "restart", "disable", "mask"])
  },
  {
    // Ours, under Hermes' key: the same through SysV's and OpenRC's front ends (`service sshd stop`).
    kind: "word",
    description: "stop/restart system service",
    on: ["service", "rc-service"],
    at: "end",
    test: (_v, c, i) => startsTokAny(c.texts[skipDashes(c, skipDashes(c, i + 1) + 1)] ?? "", ["stop", "restart", "zap"])
  },
  {
    kind: "word",
    description: "kill all processes",
    on: ["kill"],
    at: "end",
    test: (_v, c, i) => c.texts[i + 1] === "-9" && startsTok(c.texts[i + 2] ?? "", "-1")
  },
  {
    kind: "word",
    description: "force kill processes",
    on: ["pkill"],
    at: "end",
    test: (_v, c, i) => startsTok(c.texts[i + 1] ?? "", "-9")
  },
  {
    kind: "word",
    description: "force kill processes (killall -KILL)",
    on: ["killall"],
    at: "end",
    test: (_v, c, i) => killallOption(c.texts, i, (o) => startsTokAny(o, ["-9", "-kill", "-sigkill"]))
  },
  {
    kind: "word",
    description: "force kill processes (killall -s KILL)",
    on: ["killall"],
    at: "end",
    test: (_v, c, i) => killallOption(c.texts, i, (o, n) => o === "-s" && startsTokAny(n, ["kill", "sigkill", "9"]))
  },
  {
    kind: "word",
    description: "kill processes by regex (killall -r)",
    on: ["killall"],
    at: "end",
    test: (_v, c, i) => killallOption(c.texts, i, (o) => startsTok(o, "-r"))
  },
  {
    kind: "view",
    description: "fork bomb",
    test: (v) => hasForkBomb(v, false)
  }
]
