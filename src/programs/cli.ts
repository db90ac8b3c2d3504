/** The `hermes-effect` command tree. Commands only compose services and print. */
import { readFileSync } from "node:fs"
import { Command } from "@effect/cli"
import { acpCommand } from "./commands/acp.js"
import { approvalCommand, approvalsCommand } from "./commands/approval.js"
import { batchCommand } from "./commands/batch.js"
import { callCommand } from "./commands/call.js"
import { mcpCommand } from "./commands/mcp.js"
import { pluginsCommand } from "./commands/plugins.js"
import { runCommand } from "./commands/run.js"
import { sessionsCommand } from "./commands/sessions.js"
import { skillsCommand } from "./commands/skills.js"
import { toolsCommand } from "./commands/tools.js"
import { toolsetsCommand } from "./commands/toolsets.js"

/** Our package.json, found upward from this file (dist/programs/cli.js or the bundled dist/bin.mjs). */
const version = (() => {
  for (const up of ["../package.json", "../../package.json"]) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8"))
      if (typeof pkg === "object" && pkg !== null && "name" in pkg && pkg.name === "hermes-effect" && "version" in pkg) {
        return String(pkg.version)
      }
    } catch {
      // not there; try the next level up
    }
  }
  return "0.0.0"
})()

export const root = Command.make("hermes-effect").pipe(
  Command.withDescription("The tools runtime of an AI agent: registry, dispatch, approval, terminal backends, session state."),
  Command.withSubcommands([toolsCommand, toolsetsCommand, callCommand, runCommand, batchCommand, pluginsCommand, approvalCommand, approvalsCommand, mcpCommand, sessionsCommand, skillsCommand, acpCommand(version)])
)

export const cli = Command.run(root, { name: "hermes-effect", version })
