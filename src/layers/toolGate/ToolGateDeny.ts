/**
 * The gate with nobody behind it: every tool approval request is denied, with
 * a message that says how to allow. Silence is not consent.
 */
import { Effect, Layer } from "effect"
import { ToolApprovalDenied, ToolGate } from "../../services/ToolGate.js"

export const ToolGateDeny = Layer.succeed(
  ToolGate,
  ToolGate.of({
    requestToolApproval: (request) =>
      Effect.fail(
        new ToolApprovalDenied({
          tool: request.tool,
          ruleKey: request.ruleKey,
          reason: `Approval required for '${request.tool}' (${request.message}) but no approver is available, so it was denied. Do not retry; ask the user to approve it from an interactive session or to change the policy.`
        })
      )
  })
)
