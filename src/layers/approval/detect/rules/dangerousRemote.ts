/** D25–D31: remote or decoded content handed to a shell. */
import type { CmdView, View } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { earlierSome, endsTok, hasTok, hasTokAny, laterPipedInto, pipedNext, startsTok, startsTokAny } from "./tokenMatchers.js"

const SHELLS = ["bash", "sh", "zsh", "ksh", "dash"]
const FETCHERS = ["curl", "wget"]
const SHELL_WORD = /^(?:[/\w]*\/)?(?:ba)?sh$/
const PROCESS_SUBST_FETCH = /^<\(\s*(?:curl|wget)(?![\w])/
const SUBST_FETCH = /^(?:\$\(|`)\s*(?:curl|wget)(?![\w])/
const SUBST_FETCH_INLINE = /(?:(?:^|[^\w])(?:eval|source)|\.)(?:\$\(|`)\s*(?:curl|wget)(?![\w])/

const startsShell = (d: CmdView): boolean => startsTokAny(d.texts[0] ?? "", SHELLS)

/** `eval $(curl …)`, `source `wget …``, `. $(curl …)`. */
const sourcesFetch = (v: View): boolean =>
  v.cmds.some((c) =>
    c.texts.some((t, i) => {
      if (SUBST_FETCH_INLINE.test(t)) return true
      const runsNext = endsTok(t, "eval") || endsTok(t, "source") || t.endsWith(".")
      return runsNext && SUBST_FETCH.test(c.texts[i + 1] ?? "")
    })
  )

export const remoteRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: "pipe remote content to shell",
    on: ["sh", "bash"],
    at: "end",
    test: (v, c, i) =>
      i === 0 &&
      (c.cmd.prevOp === "|" || c.cmd.prevOp === "||") &&
      SHELL_WORD.test(c.texts[0] ?? "") &&
      earlierSome(v, c, (x) => hasTokAny(x, FETCHERS))
  },
  {
    kind: "word",
    description: "execute remote script via process substitution",
    on: ["bash", "sh", "zsh", "ksh"],
    at: "end",
    test: (_v, c, i) =>
      PROCESS_SUBST_FETCH.test(c.texts[i + 1] ?? "") ||
      c.cmd.redirs.some((r, k) => r.after === i + 1 && r.op === "<" && PROCESS_SUBST_FETCH.test(c.redirectTexts[k] ?? ""))
  },
  {
    kind: "view",
    description: "execute remote content via command substitution",
    test: sourcesFetch
  },
  {
    kind: "word",
    description: "pipe decoded content to shell (possible command obfuscation)",
    on: ["base64", "base32", "base16"],
    at: "end",
    test: (v, c, i) => startsTokAny(c.texts[i + 1] ?? "", ["-d", "--decode"]) && laterPipedInto(v, c, startsShell)
  },
  {
    kind: "word",
    description: "pipe xxd-decoded content to shell (possible command obfuscation)",
    on: ["xxd"],
    at: "end",
    test: (v, c, i) => startsTok(c.texts[i + 1] ?? "", "-r") && laterPipedInto(v, c, startsShell)
  },
  {
    kind: "word",
    description: "pipe tr-transformed output to shell (possible command obfuscation)",
    on: ["echo"],
    at: "any",
    test: (v, c) => {
      const tr = pipedNext(v, c)
      if (tr === undefined || !startsTok(tr.texts[0] ?? "", "tr")) return false
      const sh = pipedNext(v, tr)
      return sh !== undefined && startsShell(sh)
    }
  },
  {
    kind: "word",
    description: "pipe openssl-decoded content to shell (possible command obfuscation)",
    on: ["openssl"],
    at: "any",
    test: (v, c, i) => {
      const codec = c.texts.findIndex((t, k) => k > i && (hasTok(t, "base64") || hasTok(t, "enc")))
      if (codec < 0 || !c.texts.some((t, k) => k > codec && startsTok(t, "-d"))) return false
      const sh = pipedNext(v, c)
      return sh !== undefined && startsShell(sh)
    }
  }
]
