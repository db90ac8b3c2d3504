/**
 * Variables that make later programs load or run code the gate never sees:
 * `export BASH_ENV=x.sh` runs x.sh in every bash script a later call starts,
 * `NODE_OPTIONS='--require ./x.js'` in every node, `LD_PRELOAD` in every
 * dynamically linked program. Set for one command (`X=… cmd`, `env X=… cmd`)
 * or exported for the calls after it, they need approval. Options of these
 * variables that only tune a runtime (`NODE_OPTIONS=--max-old-space-size=…`)
 * stay quiet. The shell's prompts run the command substitutions they hold
 * each time they are shown (`PS4` before every traced command under
 * `set -x`): one holding `$(…)` counts too, and so does a builtin that
 * fills one of these variables from input (`read -r PS4 <<< …`).
 */
import { D } from "../descriptions.js"
import type { CmdView, View } from "../ruleInput.js"
import { DECLARERS } from "../resolve/variableEffects.js"
import type { Rule, RuleEnv } from "./engine.js"
import { variableTargets } from "./commandLookup.js"
import { argv, runs } from "./operands.js"
import { PROGRAM_VARIABLES } from "./programVariables.js"
import { IMPORTED_FUNCTION } from "../namedPrograms.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

/** A prompt runs the command substitutions it holds when shown. */
function substitutes(value: string): boolean {
  return value.includes("$(") || value.includes("`")
}

/** JVM options that load an agent or run a command on an event. */
function javaLoads(value: string): boolean {
  return /-javaagent|-agentpath|-agentlib|-xx:on(?:error|outofmemoryerror)|-xx:\+?flightrecorder/.test(value)
}

/** Name (lower-case, as rules read words) → whether a value makes programs load code. */
const LOADERS: Readonly<Record<string, (value: string) => boolean>> = lookupTable({
  bash_env: () => true,
  env: () => true,
  ld_preload: () => true,
  ld_audit: () => true,
  gconv_path: () => true,
  pythonstartup: () => true,
  perl5db: () => true,
  node_options: (v) => /(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader)(?:[\s=]|$)/.test(v),
  perl5opt: (v) => /(?:^|\s)-[a-z]*[md]/.test(v),
  rubyopt: (v) => /(?:^|\s)-[a-z]*r/.test(v),
  ps0: substitutes,
  ps1: substitutes,
  ps2: substitutes,
  ps3: substitutes,
  ps4: substitutes,
  prompt_command: () => true,
  // bash replaces `$"…"` text by a catalog found here, and expands it: `$(…)` in a planted catalog runs.
  textdomaindir: (v) => v.trim() !== "",
  // pytest imports the plugins these name before any test (a module planted beside the tests).
  pytest_plugins: (v) => v.trim() !== "",
  pytest_addopts: (v) => /(?:^|\s)-p(?:\s|[\w.]|$)/.test(v) && !/^\s*-p\s*no:\S+\s*$/.test(v),
  // The JVM reads these before any program: an agent jar or native agent is code it loads.
  java_tool_options: javaLoads,
  _java_options: javaLoads,
  jdk_java_options: javaLoads,
  maven_opts: javaLoads,
  gradle_opts: javaLoads
})

/** Builtins that set a named variable from input or at run time (declarers show the value: the word rule reads it). */
const FROM_INPUT = new Set(["read", "mapfile", "readarray", "printf", "getopts", "wait"])

/**
 * `set -k` (`set -o keyword`) in the line: from then on every `NAME=value` word of a command, after its program
 * too, goes into that program's environment (`git status GIT_CONFIG_PARAMETERS=…`). A persistent shell drops the
 * option after each call.
 */
const keywordMode = (v: View): boolean =>
  v.cmds.some((x) => x.name === "set" && runs(x) && argv(x).some((a, k, all) => /^-[a-zA-Z]*k/.test(a) || (a === "keyword" && /^-[a-zA-Z]*o$/.test(all[k - 1] ?? ""))))

/** Word `i` of `c` assigns a variable: before the program, alone, or an argument of a declarer (or any, after `set -k`). */
const assigns = (v: View, c: CmdView, i: number): boolean => c.head < 0 || i <= c.head || DECLARERS.has(c.name) || keywordMode(v)

/**
 * `name=value` as the shell assigns it (quotes removed), with the name lower-cased as rules read words. An element
 * (`PS4[0]=…`) counts: bash reads a variable's element 0 as its value (`$PS4`, the prompt it shows).
 */
const assignment = (c: CmdView, i: number): readonly [string, string] | null => {
  const m = /^([A-Za-z0-9_]+)(?:\[[^\]]*\])?\+?=(.*)$/s.exec(c.cmd.words[i]?.value ?? "")
  return m === null ? null : [(m[1] ?? "").toLowerCase(), m[2] ?? ""]
}

/** A value the rule cannot read (it holds an expansion): judged as one that flags, fail closed. */
const flagsOrUnknown = (flags: (value: string, env: RuleEnv) => boolean, value: string, env: RuleEnv): boolean =>
  /[$`]/.test(value) || flags(value, env)

/** `for NAME in …` / `select NAME in …`: the values the loop gives NAME (null: unknown, the positional parameters). */
const loopValues = (c: CmdView): { readonly name: string; readonly values: ReadonlyArray<string> | null } | null => {
  if (c.head !== 0 || (c.name !== "for" && c.name !== "select")) return null
  const name = c.cmd.words[1]?.value ?? ""
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return null
  if (c.cmd.words[2]?.value !== "in") return { name: name.toLowerCase(), values: null }
  return { name: name.toLowerCase(), values: c.cmd.words.slice(3).map((w) => (w.expands ? "$" : w.value)) }
}

/**
 * The rules of one table: a setter filling a listed variable from input, an assignment whose value the table flags,
 * and a loop variable (`for LD_PRELOAD in ./x.so; do export LD_PRELOAD; done`). (An expansion that assigns one,
 * `: ${LD_PRELOAD:=./x.so}`, is assigningExpansions.ts'.)
 */
const variableRules = (description: string, table: Readonly<Record<string, (value: string, env: RuleEnv) => boolean>>): ReadonlyArray<Rule> => [
  {
    // `read -r PS4 <<< …`, `printf -v BASH_ENV …`: a value the line does not show.
    kind: "program",
    description,
    only: (n) => FROM_INPUT.has(n),
    test: (_v, c) => runs(c) && FROM_INPUT.has(c.name) && variableTargets(c).some((t) => table[t.toLowerCase()] !== undefined)
  },
  {
    kind: "word",
    description,
    on: Object.keys(table),
    at: "any",
    test: (v, c, i, env) => {
      if (c.cmd.cls !== "exec" || c.cmd.origin === "heredoc" || !assigns(v, c, i)) return false
      const a = assignment(c, i)
      const flags = a === null ? undefined : table[a[0]]
      return flags !== undefined && flags(a?.[1] ?? "", env)
    }
  },
  {
    kind: "program",
    description,
    only: (n) => n === "for" || n === "select",
    test: (_v, c, env) => {
      const loop = loopValues(c)
      const flags = loop === null ? undefined : table[loop.name]
      if (loop === null || flags === undefined) return false
      return loop.values === null || loop.values.some((value) => flagsOrUnknown(flags, value, env))
    }
  }
]

/**
 * The description when assigning `value` to `name` (any case) makes programs load or run code, as the tables judge a
 * `NAME=value` word; a value holding an expansion counts as one that does.
 */
export const assignedValueRunsCode = (name: string, assigned: string, env: RuleEnv): string | null => {
  const lower = name.toLowerCase()
  // `${XDG_CONFIG_HOME:=$HOME/.config}`: the home is known, as the word rules see it once expanded.
  const value = env.home === undefined ? assigned : assigned.replace(/\$\{HOME\}|\$HOME\b/g, env.home)
  const loads = lowerCased[lower]
  if (loads !== undefined) return flagsOrUnknown(loads, value, env) ? D.loaderVariable : null
  const names = PROGRAM_VARIABLES[lower]
  return names !== undefined && flagsOrUnknown(names, value, env) ? D.programVariable : null
}

/**
 * The description when exporting `name` (any case) can hand programs a value that makes them load or run code: a
 * bare `export NAME` of a value an earlier call of a persistent shell left unexported is one the line does not show.
 */
export const codeVariableDescription = (name: string): string | null => {
  const lower = name.toLowerCase()
  return LOADERS[lower] !== undefined ? D.loaderVariable : PROGRAM_VARIABLES[lower] !== undefined ? D.programVariable : null
}

const lowerCased = lookupTable(Object.fromEntries(Object.entries(LOADERS).map(([name, loads]) => [name, (value: string) => loads(value.toLowerCase())])))

/** `env 'BASH_FUNC_ls%%=() {…}' bash x.sh`: the child bash runs the body wherever the script says `ls`. */
const importsFunction: Rule = {
  kind: "program",
  description: D.importedFunction,
  test: (_v, c) => c.cmd.cls === "exec" && c.cmd.words.some((w) => IMPORTED_FUNCTION.test(w.value))
}

export const loaderVariableRules: ReadonlyArray<Rule> = [
  importsFunction,
  ...variableRules(D.loaderVariable, lowerCased),
  ...variableRules(D.programVariable, PROGRAM_VARIABLES)
]
