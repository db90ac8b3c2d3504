/**
 * `hermes-effect acp`: an Agent Client Protocol server on stdin/stdout for
 * editors (Zed, JetBrains, Neovim, VS Code). Stdout carries only JSON-RPC;
 * logs go to stderr. See src/programs/acp/server.ts.
 */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { layer } from "../../layers/HermesRuntime.js"
import { PrompterNonInteractive } from "../../layers/Prompters.js"
import { Config } from "../../services/Config.js"
import { ApproverAcp } from "../acp/approver.js"
import type { Askers } from "../acp/approver.js"
import { ApprovalAcp } from "../acp/editApproval.js"
import { mcpToolset } from "../../layers/mcp/names.js"

export const acpCommand = (version: string) =>
  Command.make("acp", {}, () => {
    const askers: Askers = new Map()
    const program = Effect.gen(function*() {
      const config = yield* (yield* Config).current
      // Hermes offers the configured MCP servers in every ACP session beside `hermes-acp`.
      const mcp = Object.entries(config.mcp_servers).filter(([, server]) => server.enabled).map(([name]) => mcpToolset(name))
      // Loaded here, not at the top: the ACP SDK would otherwise load with every other command.
      const { ACP_TOOLSET, serveStdio } = yield* Effect.promise(() => import("../acp/server.js"))
      yield* serveStdio({
        name: "hermes-effect",
        version,
        askers,
        toolsets: [ACP_TOOLSET, ...mcp],
        approvalTimeoutSeconds: config.approvals.timeout_seconds,
        modelChoices: config.model?.choices,
        vision: config.model?.vision === true
      })
    })
    return Effect.provide(program, layer({ approver: ApproverAcp(askers), approval: ApprovalAcp, prompter: PrompterNonInteractive }))
  }).pipe(Command.withDescription("Serve the Agent Client Protocol on stdin/stdout (for editors such as Zed)"))
