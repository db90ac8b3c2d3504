/**
 * Commands that change what a command *name* runs in the shell that later
 * calls share (a persistent shell, local or remote): `hash -p /bin/rm ls`
 * makes the next call's harmless-looking `ls -rf dir` run rm. Bash keeps
 * that mapping in its hash table (`hash -p`, the `BASH_CMDS` array), its
 * aliases (`BASH_ALIASES`) and its loadable builtins (`enable -f`). A setter
 * whose target name is only known at run time (`printf -v "$n[ls]"`,
 * `declare -n ref="$x"`) may write those arrays too. A function exported
 * (`export -f ls`) is defined in every bash the shell starts, scripts
 * included, where the gate never sees its definition.
 *
 * The persistent shell also clears the hash table before every command
 * (shellFrame.ts); this rule is the gate's half, and it holds for any shell.
 */
import { D } from "../descriptions.js"
import type { CmdView } from "../ruleInput.js"
import { DECLARERS } from "../resolve/variableEffects.js"
import type { Rule } from "./engine.js"
import { argv, hasFlag, isOption, runs } from "./operands.js"


/** Options whose value is the next word (`read -p "$prompt" line`); read's `-a` names an array. */
const READ_VALUED = new Set(["-d", "-i", "-n", "-N", "-p", "-t", "-u"])
const MAPFILE_VALUED = new Set(["-d", "-n", "-O", "-s", "-u", "-C", "-c"])

const computed = (w: string): boolean => w.includes("$") || w.includes("`")

/** The setters `variableTargets` knows besides the declarers (the cases of its switch). */
const SETTERS = new Set(["read", "mapfile", "readarray", "printf", "getopts", "wait"])

/**
 * The arguments (indexes into argv) that name a variable the command sets,
 * with the part of each that is the name: `printf -v NAME`, `read … NAME`,
 * `declare NAME=…` (with -n, the value names one too), `getopts spec NAME`,
 * `wait -p NAME`.
 */
export const variableTargets = (c: CmdView): ReadonlyArray<string> => {
  // Most commands set no variable: no argument list is built for them.
  if (!SETTERS.has(c.name) && !DECLARERS.has(c.name)) return []
  const args = argv(c)
  const out: string[] = []
  switch (c.name) {
    case "read":
    case "mapfile":
    case "readarray": {
      const valued = c.name === "read" ? READ_VALUED : MAPFILE_VALUED
      for (let k = 0; k < args.length; k++) {
        const a = args[k] ?? ""
        if (a === "--") {
          out.push(...args.slice(k + 1))
          break
        }
        if (valued.has(a)) k++
        else if (a === "-a") out.push(args[++k] ?? "")
        else if (!isOption(a)) out.push(a)
      }
      return out
    }
    case "printf":
      args.forEach((a, k) => {
        if (a === "-v") out.push(args[k + 1] ?? "")
        else if (/^-v./.test(a)) out.push(a.slice(2))
      })
      return out
    case "getopts":
      return args.slice(1, 2)
    case "wait":
      args.forEach((a, k) => {
        if (a === "-p") out.push(args[k + 1] ?? "")
      })
      return out
    default: {
      if (!DECLARERS.has(c.name)) return out
      const nameref = hasFlag(args, "n", null)
      for (const a of args) {
        if (isOption(a)) continue
        const eq = a.indexOf("=")
        out.push(eq < 0 ? a : a.slice(0, eq))
        if (nameref && eq >= 0) out.push(a.slice(eq + 1))
      }
      return out
    }
  }
}

const LOOKUP_ARRAY = /\bbash_(?:cmds|aliases)\b/i

export const commandLookupRules: ReadonlyArray<Rule> = [
  {
    // Bash hands every command name it cannot find, with its arguments, to the first; the second would stand in
    // for every `builtin …` (the runtime's own shell code calls builtins that way so that functions cannot).
    kind: "view",
    description: D.rebindName,
    test: (v) => v.funcs.some((f) => f.name === "command_not_found_handle" || f.name === "builtin")
  },
  {
    // `BASH_CMDS[ls]=/bin/rm` alone (the parser may take a subscripted assignment for the program word) or before a program.
    kind: "word",
    description: D.rebindName,
    on: ["bash_cmds", "bash_aliases"],
    at: "any",
    test: (_v, c, i) => c.cmd.cls === "exec" && c.cmd.origin !== "heredoc" && (c.head < 0 || i <= c.head)
  },
  {
    kind: "program",
    description: D.rebindName,
    test: (_v, c) => {
      if (!runs(c)) return false
      if (c.name === "hash") return hasFlag(argv(c), "p", null)
      if (c.name === "enable") return hasFlag(argv(c), "f", null)
      // An exported function is defined in every bash the shell starts (scripts included), under any name.
      if (c.name === "export" && hasFlag(argv(c), "f", null)) return true
      if ((c.name === "declare" || c.name === "typeset") && hasFlag(argv(c), "f", null) && hasFlag(argv(c), "x", null)) return true
      // Text `eval` runs whole (`eval "$(ssh-agent -s)"` is everyday; its own findings come from parsing it).
      if (c.name === "eval") return argv(c).some((a) => LOOKUP_ARRAY.test(a))
      return variableTargets(c).some((t) => computed(t) || LOOKUP_ARRAY.test(t))
    }
  }
]
