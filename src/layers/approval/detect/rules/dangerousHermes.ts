/** D39–D48: operations that stop the Hermes gateway or containers (and so kill running agents). */
import type { CmdView, View } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { endsTok, hasTok, hasTokAny, laterSome, startsTok, startsTokAny } from "./tokenMatchers.js"

const FLAG = /^--?\S/

/** From word `p`: any number of `-flag [value]` pairs, then a word starting with one of `verbs`. */
const flagsThenVerb = (t: ReadonlyArray<string>, p: number, verbs: ReadonlyArray<string>, seen = new Set<number>()): boolean => {
  if (p >= t.length || seen.has(p)) return false
  seen.add(p)
  const w = t[p] ?? ""
  if (startsTokAny(w, verbs)) return true
  return FLAG.test(w) && (flagsThenVerb(t, p + 1, verbs, seen) || flagsThenVerb(t, p + 2, verbs, seen))
}

/** `hermes [global flags] gateway stop|restart`. */
const hermesGatewayVerb = (t: ReadonlyArray<string>, p: number, seen = new Set<number>()): boolean => {
  if (p >= t.length || seen.has(p)) return false
  seen.add(p)
  if (t[p] === "gateway" && startsTokAny(t[p + 1] ?? "", ["stop", "restart"])) return true
  return FLAG.test(t[p] ?? "") && (hermesGatewayVerb(t, p + 1, seen) || hermesGatewayVerb(t, p + 2, seen))
}

const gatewayRunAt = (c: CmdView, k: number): boolean => (c.texts[k] ?? "").endsWith("gateway") && startsTok(c.texts[k + 1] ?? "", "run")

/** `gateway run` in `c` after word `i`, or in any later command. */
const laterGatewayRun = (v: View, c: CmdView, i: number): boolean =>
  v.cmds.some((d) => d.base >= c.base && d.texts.some((_, k) => (d !== c || k > i) && gatewayRunAt(d, k)))

/** Backgrounded at the very end (`… &`) or `… & ;` anywhere from `c` on. */
const backgroundedLater = (v: View, c: CmdView): boolean =>
  v.cmds.some((d) => d.base >= c.base && (d.cmd.bgEnd || d.cmd.ampSemi))

const PGREP_SUBST = /\$\(\s*(?:pgrep|pidof)(?![\w])/
const PGREP_BACKTICK = /`\s*(?:pgrep|pidof)(?![\w])/
const LAUNCHD_VERBS = ["stop", "kickstart", "bootout", "unload", "kill", "disable", "remove"]

export const hermesRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: "stop/restart hermes gateway (kills running agents)",
    on: ["hermes"],
    at: "end",
    test: (_v, c, i) => hermesGatewayVerb(c.texts, i + 1)
  },
  {
    kind: "word",
    description: "hermes update (restarts gateway, kills running agents)",
    on: ["hermes"],
    at: "end",
    test: (_v, c, i) => startsTok(c.texts[i + 1] ?? "", "update")
  },
  {
    kind: "word",
    description: "docker compose restart/stop/kill/down (container lifecycle)",
    on: ["compose"],
    at: "end",
    test: (_v, c, i) => {
      const t = c.texts[i] ?? ""
      const compose = endsTok(t, "docker-compose") || (t === "compose" && endsTok(c.texts[i - 1] ?? "", "docker"))
      return compose && flagsThenVerb(c.texts, i + 1, ["restart", "stop", "kill", "down"])
    }
  },
  {
    kind: "word",
    description: "docker restart/stop/kill (container lifecycle)",
    on: ["docker"],
    at: "end",
    test: (_v, c, i) => flagsThenVerb(c.texts, i + 1, ["restart", "stop", "kill"])
  },
  {
    kind: "word",
    description: "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
    on: ["gateway"],
    at: "end",
    test: (v, c, i) =>
      gatewayRunAt(c, i) &&
      (laterSome(v, c, i + 1, (x) => hasTokAny(x, ["disown", "setsid"])) || backgroundedLater(v, c))
  },
  {
    kind: "word",
    description: "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
    on: ["nohup"],
    at: "any",
    test: (v, c, i) => laterGatewayRun(v, c, i)
  },
  {
    kind: "word",
    description: "kill hermes/gateway process (self-termination)",
    on: ["pkill", "killall"],
    at: "any",
    test: (v, c, i) => laterSome(v, c, i, (x) => hasTokAny(x, ["hermes", "gateway", "cli.py"]))
  },
  {
    kind: "word",
    description: "kill process via pgrep/pidof expansion (self-termination)",
    on: ["kill"],
    at: "any",
    test: (v, c, i) => laterSome(v, c, i, (x) => PGREP_SUBST.test(x))
  },
  {
    kind: "word",
    description: "kill process via backtick pgrep/pidof expansion (self-termination)",
    on: ["kill"],
    at: "any",
    test: (v, c, i) => laterSome(v, c, i, (x) => PGREP_BACKTICK.test(x))
  },
  {
    kind: "word",
    description: "stop/restart hermes launchd service (kills running agents)",
    on: ["launchctl"],
    at: "end",
    // The label may be built anywhere in the script (a loop over names), so any mention counts.
    test: (v, c, i) => startsTokAny(c.texts[i + 1] ?? "", LAUNCHD_VERBS) && v.flat.some((x) => hasTok(x, "hermes"))
  }
]
