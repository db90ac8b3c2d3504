/**
 * Git configuration that makes git run a program: a planted `core.fsmonitor`
 * or `!` alias turns the next innocent `git status` into arbitrary code.
 * Setting such a key persistently (`git config …`) always needs approval;
 * setting it for one run (`git -c`, GIT_* environment) only when the value
 * is not a plain pager/editor/ssh or a value that switches the hook off.
 */
import { D } from "../descriptions.js"
import type { CmdView, View } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { gitOptions } from "../gitOptions.js"
import { argv, runsAs } from "./operands.js"
import { plainProgram } from "./programValues.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

/** Alias expansions that stay plain: commands that only read, or add and commit (no git options before them). */
const PLAIN_ALIAS = /^(?:status|log|diff|show|add|commit|fetch|blame|shortlog|describe|ls-files|ls-tree|grep|rev-parse|rev-list|cat-file|whatchanged|help|version)(?:\s|$)/

const OFF = new Set(["", "false", "0", "no", "off", "/dev/null"])
const SHELL_META = /[;&|`$<>(){}\n\\]/
const BUILTIN_HELPERS = /^(?:cache|store|manager|manager-core|osxkeychain|libsecret)(?:\s|$)/

/** Whether `key` (lower-cased) is one git runs as a program, given its value. */
export const gitExecKey = (key: string, value: string | null): boolean => {
  const parts = key.toLowerCase().split(".")
  if (parts.length < 2) return false
  const section = parts[0] ?? ""
  const name = parts[parts.length - 1] ?? ""
  const sub = parts.length > 2
  const v = (value ?? "").trim()
  switch (section) {
    case "core":
      return ["fsmonitor", "pager", "editor", "sshcommand", "hookspath", "askpass", "gitproxy", "alternaterefscommand"].includes(name)
    case "sequence":
      return name === "editor"
    case "init":
      // The template directory's hooks are copied into every new repository.
      return name === "templatedir"
    case "alias":
      // `!` runs a shell; any other expansion is a git command the gate no longer sees by name (`git co .` after
      // `alias.co checkout`): only read-only and everyday writing commands are plain.
      return value === null || v.startsWith("!") || !PLAIN_ALIAS.test(v)
    case "diff":
      return (!sub && name === "external") || (sub && (name === "textconv" || name === "command"))
    case "merge":
      return sub && name === "driver"
    case "mergetool":
    case "difftool":
    case "browser":
    case "man":
      return sub && (name === "cmd" || name === "path")
    case "filter":
      return sub && (name === "clean" || name === "smudge" || name === "process")
    case "credential":
      return name === "helper"
    case "gpg":
      return name === "program" || name === "defaultkeycommand"
    case "pager":
      return true
    case "uploadpack":
      return name === "packobjectshook"
    case "include":
      return name === "path"
    case "includeif":
      return sub && name === "path"
    case "remote":
      return sub && (name === "uploadpack" || name === "receivepack")
    case "protocol":
      return name === "allow" && (!sub || parts[1] === "ext") && v.toLowerCase() !== "never"
    case "submodule":
      return sub && name === "update" && (value === null || v.startsWith("!"))
    case "interactive":
      return name === "difffilter"
    case "sendemail":
      return name === "smtpserver" || name === "tocmd" || name === "cccmd"
    default:
      return false
  }
}

/** A one-run setting whose value is harmless: switched off, or a plain pager/editor/ssh/builtin helper. */
const harmlessValue = (key: string, value: string): boolean => {
  const v = value.trim()
  if (OFF.has(v.toLowerCase())) return true
  if (SHELL_META.test(v)) return false
  const k = key.toLowerCase()
  // A bare name or a system path only: `./less` is a planted script, whatever its name.
  if (k.endsWith(".pager") || k.startsWith("pager.")) return plainProgram(v, "pager") || plainProgram(v, "editor")
  if (k.endsWith(".editor")) return plainProgram(v, "editor")
  if (k === "core.sshcommand") return plainProgram(v, "rsh")
  if (k.startsWith("credential.")) return BUILTIN_HELPERS.test(v)
  return false
}

const transientExec = (key: string, value: string | null): boolean =>
  gitExecKey(key, value) && (value === null || !harmlessValue(key, value))

const splitKv = (kv: string): readonly [string, string | null] => {
  const eq = kv.indexOf("=")
  return eq < 0 ? [kv, "true"] : [kv.slice(0, eq), kv.slice(eq + 1)]
}

/** git's own options before the subcommand: any exec `-c`, and the subcommand's index. */
const globalOptions = (args: ReadonlyArray<string>): { readonly exec: boolean; readonly sub: number } => {
  const { options, sub } = gitOptions(args)
  for (const o of options) {
    if (o.name === "-c") {
      const [key, value] = splitKv(o.value ?? "")
      if (transientExec(key, value)) return { exec: true, sub: -1 }
    } else if (o.name === "--config-env") {
      // The value comes from the environment: unknown, so only the key can be judged.
      if (gitExecKey(splitKv(o.value ?? "")[0], null)) return { exec: true, sub: -1 }
    } else if (o.name === "--exec-path" && (o.value !== null || (o.at === sub - 1 && sub < args.length))) {
      // `--exec-path=dir` runs git's helpers from dir; a bare `--exec-path x` is read the same way, to be safe.
      return { exec: true, sub: -1 }
    }
  }
  return { exec: false, sub }
}

const CONFIG_VALUED = new Set([
  "-f", "--file", "--blob", "--type", "--comment", "--default", "--value", "-t"
])
const READS = new Set([
  "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--get-color", "--get-colorbool", "--unset",
  "--unset-all", "--rename-section", "--remove-section", "-e", "--edit", "--show-origin", "--name-only"
])
const READ_VERBS = new Set(["get", "list", "unset", "rename-section", "remove-section", "edit"])

/**
 * `git init|clone --template=dir` copies dir's hooks into the new repository, where the next commit or checkout runs
 * them; `git clone -c key=value` writes the setting into the new repository's config.
 */
const newRepositoryRuns = (sub: string, args: ReadonlyArray<string>): boolean => {
  if (sub !== "init" && sub !== "clone") return false
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") break
    if (a === "--template" || a.startsWith("--template=")) {
      if ((a === "--template" ? args[i + 1] : a.slice("--template=".length)) !== "") return true
    }
    if (sub === "clone" && (a === "-c" || a === "--config" || a.startsWith("--config=") || (a.startsWith("-c") && !a.startsWith("--")))) {
      const kv = a === "-c" || a === "--config" ? args[++i] : a.startsWith("--config=") ? a.slice("--config=".length) : a.slice(2)
      const [key, value] = splitKv(kv ?? "")
      if (transientExec(key, value)) return true
    }
  }
  return false
}

/** `git config … <key> <value>` (or `git config set <key> <value>`) setting an exec key. */
const configSetsExec = (args: ReadonlyArray<string>): boolean => {
  let rest = args
  if (rest[0] === "set") rest = rest.slice(1)
  else if (READ_VERBS.has(rest[0] ?? "")) return false
  if (rest.some((a) => READS.has(a.split("=")[0] ?? ""))) return false
  // The key is the first operand; the word after it is the value even when it starts with `-` (git takes it so).
  let k = 0
  while (k < rest.length) {
    const a = rest[k] ?? ""
    if (a === "--") {
      k++
      break
    }
    if (!a.startsWith("-") || a === "-") break
    k += CONFIG_VALUED.has(a) ? 2 : 1
  }
  const key = rest[k]
  const value = rest[k + 1]
  return key !== undefined && value !== undefined && gitExecKey(key, value)
}

const ASSIGNMENT = /^(GIT_[A-Z0-9_]+)=([\s\S]*)$/
const ENV_PROGRAMS: Readonly<Record<string, string>> = lookupTable({
  GIT_PAGER: "core.pager",
  GIT_EDITOR: "core.editor",
  GIT_SEQUENCE_EDITOR: "sequence.editor",
  GIT_SSH_COMMAND: "core.sshcommand",
  GIT_SSH: "core.sshcommand",
  GIT_ASKPASS: "core.askpass",
  GIT_EXTERNAL_DIFF: "diff.external",
  GIT_PROXY_COMMAND: "core.gitproxy",
  GIT_EXEC_PATH: "core.execpath",
  GIT_TEMPLATE_DIR: "init.templatedir"
})
const CONFIG_FILES = new Set(["GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"])

/** `'key'='value'` pairs of GIT_CONFIG_PARAMETERS. */
const parameters = (s: string): Array<readonly [string, string | null]> =>
  [...s.matchAll(/'([^']*)'(?:\s*=\s*'([^']*)')?/g)].map((m) => [m[1] ?? "", m[2] ?? null] as const)

/** The value assigned to `name` anywhere in the view (for GIT_CONFIG_VALUE_<n>). */
const assignedValue = (v: View, name: string): string | null => {
  for (const d of v.cmds) {
    for (const w of d.cmd.words) if (w.value.startsWith(`${name}=`)) return w.value.slice(name.length + 1)
  }
  return null
}

const envAssignmentExec = (v: View, word: string): boolean => {
  const m = ASSIGNMENT.exec(word)
  if (m === null) return false
  const name = m[1] ?? ""
  const value = m[2] ?? ""
  const key = ENV_PROGRAMS[name]
  if (key !== undefined) {
    if (name === "GIT_EXEC_PATH" || name === "GIT_TEMPLATE_DIR") return value !== ""
    // GIT_SSH is one program, run without a shell.
    if (name === "GIT_SSH") return value !== "" && !plainProgram(value.includes(" ") ? "-" : value, "rsh")
    return !harmlessValue(key, value) && !(name === "GIT_ASKPASS" && value === "")
  }
  if (CONFIG_FILES.has(name)) return !OFF.has(value)
  if (name === "GIT_CONFIG_PARAMETERS") return parameters(value).some(([k, val]) => transientExec(k, val))
  const n = /^GIT_CONFIG_KEY_(\d+)$/.exec(name)
  return n !== null && transientExec(value, assignedValue(v, `GIT_CONFIG_VALUE_${n[1] ?? ""}`))
}

const ENV_TOKENS = [
  ...Object.keys(ENV_PROGRAMS),
  ...CONFIG_FILES,
  "GIT_CONFIG_PARAMETERS",
  ...Array.from({ length: 10 }, (_, n) => `GIT_CONFIG_KEY_${n}`)
].map((t) => t.toLowerCase())

const assignmentRuns = (c: CmdView): boolean => c.cmd.cls === "exec" && c.cmd.origin !== "heredoc"

export const gitExecRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: D.gitExec,
    on: ["git"],
    at: "end",
    test: (_v, c, i) => {
      if (!runsAs(c, i, ["git"])) return false
      const args = argv(c)
      const g = globalOptions(args)
      if (g.exec) return true
      const sub = args[g.sub] ?? ""
      return (sub === "config" && configSetsExec(args.slice(g.sub + 1))) || newRepositoryRuns(sub, args.slice(g.sub + 1))
    }
  },
  {
    kind: "word",
    description: D.gitExec,
    on: ENV_TOKENS,
    at: "any",
    test: (v, c, i) => assignmentRuns(c) && envAssignmentExec(v, c.cmd.words[i]?.value ?? "")
  }
]
