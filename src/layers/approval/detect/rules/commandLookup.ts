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
import { trapActionIndex } from "../resolve/codeText.js"


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

/**
 * Bash's builtins: a function of one of these names stands in for the builtin wherever it is called by name, the
 * runtime's own shell code included (a persistent shell's report calls `builtin …`). `cd`, `pushd` and `popd`
 * wrappers are everyday and left out (the runtime calls `builtin cd`).
 */
const BUILTIN_NAMES: ReadonlySet<string> = new Set([
  ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "command", "compgen", "complete", "compopt",
  "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg",
  "getopts", "hash", "help", "history", "jobs", "kill", "let", "local", "logout", "mapfile", "printf", "pwd", "read",
  "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true",
  "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait"
])

const DECLARING = new Set(["declare", "typeset", "local"])

/** `r=TARGET` naming an upper-case (environment or shell) variable, a target computed at run time, or no target yet. */
const namesSharedVariable = (a: string): boolean => {
  const eq = a.indexOf("=")
  if (eq < 0) return true
  const target = a.slice(eq + 1)
  return computed(target) || /^[A-Z_][A-Z0-9_]*(?:\[|$)/.test(target)
}

/** Traps that run around every later command of the shell (before each, after each function, on each failure). */
const COMMAND_TRAPS = /^(?:debug|return|err)$/i

/** `trap action DEBUG|RETURN|ERR` (not a reset to `-` or an ignore), or a signal named at run time. */
const setsCommandTrap = (args: ReadonlyArray<string>): boolean => {
  const k = trapActionIndex(args)
  return k >= 0 && args.slice(k + 1).some((s) => COMMAND_TRAPS.test(s) || computed(s))
}

/** `shopt -s extdebug`, `set -T`/`-E`, `set -o functrace`/`errtrace`: DEBUG, RETURN and ERR traps reach into functions. */
const tracesCommands = (name: string, args: ReadonlyArray<string>): boolean => {
  if (name === "shopt") return args.some((a) => /^-[a-z]*s/.test(a)) && args.some((a) => a === "extdebug" || computed(a))
  if (name !== "set") return false
  return args.some((a, k) => /^-[a-zA-Z]*[TE]/.test(a) || (/^-[a-zA-Z]*o$/.test(args[k - 1] ?? "") && /^(?:functrace|errtrace)$/.test(a)))
}

export const commandLookupRules: ReadonlyArray<Rule> = [
  {
    // Bash hands every command name it cannot find, with its arguments, to the first; the second would stand in
    // for every `builtin …` (the runtime's own shell code calls builtins that way so that functions cannot).
    kind: "view",
    description: D.rebindName,
    test: (v) => v.funcs.some((f) => f.name === "command_not_found_handle" || BUILTIN_NAMES.has(f.name))
  },
  {
    // Code a shell runs around its later commands (the runtime's persistent shell ends each frame with a report a
    // DEBUG trap under extdebug could rewrite).
    kind: "program",
    description: D.commandHooks,
    only: (n) => n === "trap" || n === "shopt" || n === "set",
    test: (_v, c) => runs(c) && (c.name === "trap" ? setsCommandTrap(argv(c)) : tracesCommands(c.name, argv(c)))
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
      // -f loads a builtin from a file, -n disables one (a program of its name then runs), -d deletes a loaded one.
      if (c.name === "enable") return hasFlag(argv(c), "f", null) || hasFlag(argv(c), "n", null) || hasFlag(argv(c), "d", null) || argv(c).some(computed)
      // An exported function is defined in every bash the shell starts (scripts included), under any name.
      if (c.name === "export" && hasFlag(argv(c), "f", null)) return true
      if ((c.name === "declare" || c.name === "typeset") && hasFlag(argv(c), "f", null) && hasFlag(argv(c), "x", null)) return true
      // A nameref to a variable the shell or programs read (`declare -n p=PATH; p=/x`), or one whose target its first
      // assignment sets (`declare -n r; r=IFS`): assignments through it change that variable unseen.
      if (DECLARING.has(c.name) && hasFlag(argv(c), "n", null) && argv(c).some((a) => !isOption(a) && namesSharedVariable(a))) return true
      // Text `eval` runs whole (`eval "$(ssh-agent -s)"` is everyday; its own findings come from parsing it).
      if (c.name === "eval") return argv(c).some((a) => LOOKUP_ARRAY.test(a))
      return variableTargets(c).some((t) => computed(t) || LOOKUP_ARRAY.test(t))
    }
  }
]
