/**
 * Our own binary's operator commands, run from inside a tool call: changing
 * the allowlist, the config, installed skills or recorded sessions is the
 * operator's act, never the model's (the CLI refuses them there too).
 * Recognised however the binary is reached: `hermes-effect`, a path to it,
 * `npx hermes-effect`, `node …/dist/bin.mjs`, `npm run cli -- …`.
 */
import { D } from "../descriptions.js"
import type { CmdView } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { argv, isOption, runs } from "./operands.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

const BINARY = "hermes-effect"
/** Entry points of the built or source CLI. */
const ENTRY = /(?:^|\/)(?:dist\/bin\.mjs|dist\/cli\/bin\.js|dist\/programs\/bin\.js|cli\/bin\.js|programs\/bin\.[cm]?[jt]s)$/
const RUNNERS = new Set(["npx", "pnpx", "bunx"])
const NODES = new Set(["node", "nodejs", "tsx", "ts-node", "bun", "deno"])
const NPM = new Set(["npm", "pnpm", "yarn"])
const RUNNER_VALUED = new Set(["-p", "--package", "-c", "--call", "--cache", "--prefix", "-w", "--workspace"])
const NODE_VALUED = new Set(["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--env-file", "--title"])

/** Subcommands that change state, by top-level command; `true`: every subcommand. */
const OPERATOR: Readonly<Record<string, true | ReadonlySet<string>>> = lookupTable({
  approvals: true,
  config: true,
  skills: new Set(["install", "uninstall", "remove", "update", "enable", "disable"]),
  mcp: new Set(["add", "remove", "enable", "disable", "install", "uninstall"]),
  plugins: new Set(["install", "uninstall", "add", "remove", "enable", "disable"]),
  sessions: new Set(["delete", "prune", "clear", "rm"])
})

const isBinary = (w: string): boolean => {
  const base = w.slice(w.lastIndexOf("/") + 1).toLowerCase()
  return base === BINARY || base.startsWith(`${BINARY}@`)
}

const READ_ONLY = new Set(["tools", "toolsets", "call", "run", "batch", "approval"])

const unknownWord = (w: string): boolean => w.includes("$") || w.includes("`")

/** From the CLI's own arguments: an operator command, or arguments we cannot read. */
const operatorArgs = (args: ReadonlyArray<string>, fromStdin: boolean): boolean => {
  const words = args.filter((a) => !isOption(a) && a !== "--")
  if (words.length === 0) return fromStdin
  // The command is the first word the CLI knows; an earlier one is an option's value.
  for (let k = 0; k < words.length && k < 4; k++) {
    const w = words[k] ?? ""
    if (unknownWord(w)) return true
    const name = w.toLowerCase()
    if (READ_ONLY.has(name)) return false
    const top = OPERATOR[name]
    if (top === undefined) continue
    if (top === true) return true
    const sub = words[k + 1]
    return sub !== undefined && (unknownWord(sub) || top.has(sub.toLowerCase()))
  }
  return false
}

/** Index (into args) just past the word that reaches our CLI, or -1. */
const cliStart = (c: CmdView, args: ReadonlyArray<string>): number => {
  const program = c.cmd.words[c.head]?.value ?? ""
  if (isBinary(program) || ENTRY.test(program)) return 0
  let k = 0
  if (RUNNERS.has(c.name) || NPM.has(c.name)) {
    if (NPM.has(c.name)) {
      while (k < args.length && isOption(args[k] ?? "")) k++
      const verb = args[k] ?? ""
      if (verb === "run" || verb === "run-script" || verb === "rum" || verb === "urn") {
        k++
        while (k < args.length && isOption(args[k] ?? "")) k++
        return args[k] === "cli" ? k + 1 : -1
      }
      if (verb === "exec" || verb === "x" || verb === "dlx") k++
      else if (c.name !== "yarn") return -1
    }
    while (k < args.length && (isOption(args[k] ?? "") || args[k] === "--")) k += RUNNER_VALUED.has(args[k] ?? "") ? 2 : 1
    return isBinary(args[k] ?? "") ? k + 1 : -1
  }
  if (NODES.has(c.name)) {
    while (k < args.length && isOption(args[k] ?? "")) k += NODE_VALUED.has(args[k] ?? "") ? 2 : 1
    const script = args[k] ?? ""
    return ENTRY.test(script) || isBinary(script) || script.includes(`/${BINARY}/`) ? k + 1 : -1
  }
  return -1
}

export const operatorRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: D.operator,
    on: ["effect", "npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "node", "nodejs", "tsx", "bun", "deno", "mjs", "js", "ts"],
    at: "end",
    test: (_v, c, i) => {
      if (i !== c.head || !runs(c)) return false
      const args = argv(c)
      const start = cliStart(c, args)
      // Run by xargs / find -exec, the arguments arrive at run time.
      return start >= 0 && operatorArgs(args.slice(start), c.cmd.origin === "through")
    }
  }
]
