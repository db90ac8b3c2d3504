/**
 * Every process a tool starts carries HERMES_EFFECT_TOOL_RUN; our CLI refuses
 * operator commands (approvals allow, skills install, …) when it or an
 * ancestor has it. A command that removes or replaces the marker (`unset`,
 * `env -u`, `NAME= cmd`, `export -n`, Python's `os.environ.pop`), clears the
 * whole environment (`env -i`, `env -`, `exec -c`), or unsets variables it
 * names only at run time (`unset $v`, `env -u "$(…)"`) is trying to look like
 * the operator; so is a program of any name given our CLI's self-approval
 * arguments (`./copy approvals allow …`): a renamed copy of the CLI.
 */
import { D } from "../descriptions.js"
import type { CmdView } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { argv, isOption, runs } from "./operands.js"

const MARKER = "hermes_effect_tool_run"
const SELF_APPROVAL = new Set(["allow", "revoke"])

const basename = (w: string) => w.slice(w.lastIndexOf("/") + 1)
/** A variable name only known at run time; an array element's subscript (`m[$k]`) leaves the name known. */
const computed = (w: string) => {
  const name = w.replace(/^--unset=/, "").split("[")[0] ?? ""
  return name.includes("$") || name.includes("`")
}

/** `env` options that start the program with an empty environment, or drop a name given at run time. */
const envSheds = (words: ReadonlyArray<string>, from: number): boolean => {
  for (let k = from; k < words.length; k++) {
    const a = words[k] ?? ""
    if (a === "-" || a === "-i" || a === "--ignore-environment" || a === "--ignore-env") return true
    if (a === "-u" || a === "--unset") {
      if (computed(words[k + 1] ?? "")) return true
      k++
      continue
    }
    if (a.startsWith("--unset=")) {
      if (computed(a)) return true
      continue
    }
    if (/^-[A-Za-z0-9]+$/.test(a)) {
      // A bundle: `-iv`, or `-u` with its value glued on (`-uNAME`).
      const u = a.indexOf("u")
      const flags = u < 0 ? a.slice(1) : a.slice(1, u)
      if (flags.includes("i")) return true
      if (u >= 0 && (u === a.length - 1 ? computed(words[k + 1] ?? "") : computed(a.slice(u + 1)))) return true
      if (u === a.length - 1) k++
      continue
    }
    if (!isOption(a) && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) return false
  }
  return false
}

/** The words up to and including the program: wrappers such as `env` and `exec` stand before it. */
const shedsEnvironment = (c: CmdView): boolean => {
  const words = c.cmd.words
  const last = c.head >= 0 ? c.head : words.length - 1
  for (let k = 0; k <= last; k++) {
    const name = basename(words[k]?.value ?? "")
    if (name === "env" && envSheds(words.map((w) => w.value), k + 1)) return true
    if (name === "exec") {
      for (let j = k + 1; j < words.length && /^-[a-z]+$/.test(words[j]?.value ?? ""); j++) if ((words[j]?.value ?? "").includes("c")) return true
    }
  }
  if (c.name !== "unset" && c.name !== "export") return false
  if (!runs(c)) return false
  const args = argv(c)
  // `unset $v`, `unset ${!HERMES@}`, `export -n "$(…)"`: names chosen at run time.
  if (c.name === "unset") return args.some((a) => !isOption(a) && computed(a))
  return args.includes("-n") && args.some((a) => !isOption(a) && computed(a))
}

/** `approvals allow|revoke` as the first words after any program: the self-approval call, whatever the CLI is named. */
const selfApproval = (c: CmdView): boolean => {
  if (!runs(c)) return false
  const words = c.cmd.words
  for (let k = c.head + 1, seen = 0; k < words.length && seen < 3; k++) {
    const w = words[k]?.value ?? ""
    if (isOption(w)) continue
    if (w.toLowerCase() === "approvals") return SELF_APPROVAL.has((words.slice(k + 1).find((n) => !isOption(n.value))?.value ?? "").toLowerCase())
    seen++
  }
  return false
}

export const toolRunMarkerRules: ReadonlyArray<Rule> = [
  {
    // Any mention of the marker's name, in shell or in code: removing it, emptying it, replacing its value.
    kind: "word",
    description: D.toolRunMarker,
    on: [MARKER],
    at: "any",
    test: () => true
  },
  {
    kind: "program",
    description: D.toolRunMarker,
    test: (_v, c) => shedsEnvironment(c)
  },
  {
    kind: "program",
    description: D.operator,
    test: (_v, c) => selfApproval(c)
  }
]
