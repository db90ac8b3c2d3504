/**
 * The only place an `ApprovedCommand` is made: a command (or text typed into
 * a process) reaches a shell only after Approval has said yes for it, on the
 * path it will take, for the backend it will run on.
 */
import { Effect } from "effect"
import type { ApprovalService, CommandDenied, CommandPath } from "../../services/Approval.js"
import type { ApprovedCommand, BackendInfo } from "../../services/TerminalBackend.js"
import type { ToolCallContext } from "../../services/ToolContext.js"

export const approveCommand = (
  approval: ApprovalService,
  backend: BackendInfo,
  context: ToolCallContext,
  text: string,
  path: CommandPath
): Effect.Effect<ApprovedCommand, CommandDenied> =>
  Effect.map(
    approval.check({ command: text, context, backend: { kind: backend.kind, isolated: backend.isolated }, path }),
    // The brand is declared, never constructed: this cast is the approval boundary.
    (grant) => ({ text, path, grant }) as unknown as ApprovedCommand
  )
