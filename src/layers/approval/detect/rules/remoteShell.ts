/**
 * Downloaded text run as code where Hermes' rules do not look: a shell or
 * interpreter behind a wrapper (`curl … | sudo bash`, `| env sh -s`), an
 * interpreter reading its program from the pipe (`| python3`), and `source` /
 * `.` / a shell / an interpreter handed a process substitution or a
 * here-string of fetched text (`source <(wget …)`).
 */
import { D } from "../descriptions.js"
import { interpreterFamily } from "../execFlags.js"
import type { CmdView, View } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { argv, isOption, runs } from "./operands.js"

const SHELLS = new Set(["bash", "sh", "zsh", "ksh", "dash", "ash", "mksh", "fish", "busybox"])
const SOURCES = new Set(["source", "."])
const STDIN = new Set(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])
const FETCH = /(?:^|[^\w-])(?:curl|wget|fetch|aria2c|http|https|lwp-request|nc|ncat)(?![\w-])/
const SHELL_VALUED = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"])
const INTERPRETER_VALUED = new Set(["-W", "-X", "-I", "-r", "-C", "-E", "-F", "-d", "-z", "--require", "--import", "--loader"])

const shellLike = (name: string): boolean => SHELLS.has(name) || interpreterFamily(name) !== null

/** The program reads the code it runs from stdin: no script operand, `-`, /dev/stdin, or `sh -s`. */
const readsProgramFromStdin = (c: CmdView): boolean => {
  const args = argv(c)
  const valued = SHELLS.has(c.name) ? SHELL_VALUED : INTERPRETER_VALUED
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (STDIN.has(a)) return true
    if (a === "--") return k + 1 >= args.length || STDIN.has(args[k + 1] ?? "")
    if (!isOption(a)) return false
    if (SHELLS.has(c.name) && /^-[A-Za-z]*s/.test(a)) return true
    // Code from a flag (-c, -e, -m module): not the pipe's text; those have their own findings.
    if (/^-[A-Za-z]*[cem]/.test(a) && !a.startsWith("--")) return false
    if (valued.has(a)) k++
  }
  return true
}

/** Some command before `c` mentions a download tool (the first mention is found once per view). */
const fetchedEarlier = (v: View, c: CmdView): boolean => {
  let at = v.fetchMemo
  if (at === undefined) {
    at = v.flat.findIndex((t) => FETCH.test(t))
    if (at < 0) at = Number.MAX_SAFE_INTEGER
    v.fetchMemo = at
  }
  return at < c.base
}

const piped = (c: CmdView): boolean => c.cmd.prevOp === "|" || c.cmd.prevOp === "|&"

/** A process substitution or here-string whose command downloads something. */
const fetchedText = (w: string): boolean => (w.startsWith("<(") || w.includes("$(") || w.includes("`")) && FETCH.test(w)

export const remoteShellRules: ReadonlyArray<Rule> = [
  {
    kind: "program",
    description: D.remoteShell,
    only: (n) => shellLike(n) || SOURCES.has(n),
    test: (v, c) =>
      piped(c) &&
      runs(c) &&
      (shellLike(c.name) ? readsProgramFromStdin(c) : SOURCES.has(c.name) && argv(c).some((a) => STDIN.has(a))) &&
      fetchedEarlier(v, c)
  },
  {
    kind: "program",
    description: D.remoteProcSubst,
    only: (n) => shellLike(n) || SOURCES.has(n),
    test: (_v, c) => {
      const fed =
        c.cmd.words.some((w) => w.value.startsWith("<(") && fetchedText(w.value)) ||
        c.cmd.redirs.some((r) => (r.op === "<" || r.op === "<<<") && fetchedText(r.target?.value ?? ""))
      return fed && runs(c) && (SOURCES.has(c.name) || shellLike(c.name))
    }
  }
]

/** netcat's flags that hand the connection to a program: `-e prog`, `-c cmd` (traditional nc, busybox), ncat's `--exec`/`--sh-exec`/`--lua-exec`. */
const NETCATS = new Set(["nc", "netcat", "ncat", "nc.traditional", "nc.openbsd"])
const netcatRuns = (args: ReadonlyArray<string>): boolean =>
  args.some((a) => /^--(?:exec|sh-exec|lua-exec)(?:=|$)/.test(a) || /^-[A-Za-z]*[ec]/.test(a) && !a.startsWith("--"))

/** socat's addresses that run a program: `exec:'bash -li'`, `system:…` (any case, after `!!` too). */
const socatRuns = (args: ReadonlyArray<string>): boolean => args.some((a) => /(?:^|!!)(?:exec|system):/i.test(a))

/** A redirect to or from bash's network pseudo-files (`>& /dev/tcp/host/port`, `exec 3<>/dev/udp/…`). */
const NETWORK_FILE = /^\/dev\/(?:tcp|udp)\//

/**
 * A shell or program wired to the network: a reverse or bind shell takes its commands from a socket, so nothing it
 * runs ever reaches the gate.
 */
export const networkShellRules: ReadonlyArray<Rule> = [
  { kind: "redirect", description: D.networkShell, test: (_v, c, r) => NETWORK_FILE.test(c.cmd.redirs[r]?.target?.value ?? "") },
  {
    kind: "program",
    description: D.networkShell,
    only: (n) => NETCATS.has(n) || n === "socat" || n === "busybox",
    test: (_v, c) =>
      runs(c) && ((NETCATS.has(c.name) && netcatRuns(argv(c))) || (c.name === "socat" && socatRuns(argv(c))) || (c.name === "busybox" && argv(c)[0] === "nc" && netcatRuns(argv(c).slice(1))))
  }
]
