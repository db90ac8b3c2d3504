/** The `hermes-effect` command tree. Commands only compose services and print. */
import { Command } from "@effect/cli"
import { acpCommand } from "./commands/acp.js"
import { approvalCommand, approvalsCommand } from "./commands/approval.js"
import { batchCommand } from "./commands/batch.js"
import { callCommand } from "./commands/call.js"
import { clusterCommand } from "./commands/clusterStatus.js"
import { cronCommand } from "./commands/cron.js"
import { mcpCommand } from "./commands/mcp.js"
import { pluginsCommand } from "./commands/plugins.js"
import { runCommand } from "./commands/run.js"
import { runnerCommand } from "./commands/runner.js"
import { sessionsCommand } from "./commands/sessions.js"
import { skillsCommand } from "./commands/skills.js"
import { toolsCommand } from "./commands/tools.js"
import { toolsetsCommand } from "./commands/toolsets.js"
import { version } from "./version.js"

export const root = Command.make("hermes-effect").pipe(
  Command.withDescription("The tools runtime of an AI agent: registry, dispatch, approval, terminal backends, session state."),
  Command.withSubcommands([toolsCommand, toolsetsCommand, callCommand, runCommand, batchCommand, pluginsCommand, approvalCommand, approvalsCommand, mcpCommand, sessionsCommand, skillsCommand, cronCommand, acpCommand(version), runnerCommand, clusterCommand])
)

export const cli = Command.run(root, { name: "hermes-effect", version })
