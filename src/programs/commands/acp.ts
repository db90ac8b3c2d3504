/**
 * `hermes-effect acp`: an Agent Client Protocol server on stdin/stdout for
 * editors (Zed, JetBrains, Neovim, VS Code). Stdout carries only JSON-RPC;
 * logs go to stderr. See src/programs/acp/server.ts.
 */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { Config } from "../../services/Config.js"
import type { Askers } from "../acp/approver.js"
import { mcpToolset } from "../../layers/mcp/names.js"
import { runtimeLayer } from "./lazy.js"

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
    return Effect.provide(
      program,
      runtimeLayer(async () => {
        const [{ ApproverAcp }, { ApprovalAcp }, { PrompterNonInteractive }] = await Promise.all([
          import("../acp/approver.js"),
          import("../acp/editApproval.js"),
          import("../../layers/Prompters.js")
        ])
        return { approver: ApproverAcp(askers), approval: ApprovalAcp, prompter: PrompterNonInteractive }
      })
    )
  }).pipe(Command.withDescription("Serve the Agent Client Protocol on stdin/stdout (for editors such as Zed)"))
