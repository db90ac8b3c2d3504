/**
 * A test Approval: denies any command containing "rm -rf", reports commands
 * containing "APPROVE-ME" as approved by a human, and records every request,
 * so tests can check that each path asked first.
 */
import { Context, Effect, Layer } from "effect"
import { Approval, CommandDenied } from "../../src/services/Approval.js"
import type { ApprovalGranted, CommandApprovalRequest } from "../../src/services/Approval.js"

export class ApprovalLog extends Context.Tag("test/ApprovalLog")<ApprovalLog, {
  readonly requests: Effect.Effect<ReadonlyArray<CommandApprovalRequest>>
}>() {}

export const DENIED_MARKER = "rm -rf"
export const HUMAN_APPROVED_MARKER = "APPROVE-ME"

export const RecordingApproval: Layer.Layer<Approval | ApprovalLog> = Layer.suspend(() => {
  const requests: Array<CommandApprovalRequest> = []
  const approval = Layer.succeed(Approval, Approval.of({
    detect: (command) => ({
      dangerous: command.includes(DENIED_MARKER),
      description: command.includes(DENIED_MARKER) ? "recursive delete" : null,
      hardline: false,
      hardline_description: null
    }),
    check: (request) =>
      Effect.suspend((): Effect.Effect<ApprovalGranted, CommandDenied> => {
        requests.push(request)
        return request.command.includes(DENIED_MARKER)
          ? Effect.fail(new CommandDenied({
            command: request.command,
            description: "recursive delete",
            hardline: false,
            decidedBy: "non-interactive",
            reason: `BLOCKED (test): '${request.command}' is denied.`
          }))
          : request.command.includes(HUMAN_APPROVED_MARKER)
          ? Effect.succeed({ decidedBy: "human" as const, key: "test rule" })
          : Effect.succeed({ decidedBy: "not-dangerous" as const })
      }),
    checkFileWrite: (request) =>
      request.path.includes(DENIED_MARKER)
        ? Effect.fail(new CommandDenied({
          command: `${request.tool} ${request.path}`,
          description: "test write rule",
          hardline: false,
          decidedBy: "non-interactive",
          reason: `BLOCKED (test): writing '${request.path}' is denied.`
        }))
        : Effect.succeed({ decidedBy: "not-dangerous" as const })
  }))
  const log = Layer.succeed(ApprovalLog, ApprovalLog.of({ requests: Effect.sync(() => [...requests]) }))
  return Layer.merge(approval, log)
})
