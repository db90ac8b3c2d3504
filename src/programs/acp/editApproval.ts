/**
 * The ACP runtime's Approval: the usual one (planted-file protection and
 * command rules unchanged), plus a question for every ordinary file edit,
 * which the session's asker answers by its mode (editModes.ts) or by asking
 * the editor with the diff. With nobody to ask, the edit is refused.
 */
import { Effect, Layer, Option } from "effect"
import { ApprovalLive } from "../../layers/approval/ApprovalLive.js"
import { Approval, CommandDenied } from "../../services/Approval.js"
import { ApprovalAudit } from "../../services/ApprovalAudit.js"
import { Approver } from "../../services/Approver.js"
import { Config } from "../../services/Config.js"
import { ACP_EDIT_KEY } from "./editModes.js"
import { displayText } from "../../lib/text.js"

export const EDIT_DENIED = "Edit approval denied by the editor; the file was not modified. Do not retry it unless the user asks."

export const ApprovalAcp = Layer.effect(
  Approval,
  Effect.gen(function*() {
    const usual = yield* Approval
    const approver = yield* Approver
    const config = yield* Config
    const audit = yield* ApprovalAudit
    return Approval.of({
      ...usual,
      checkFileWrite: (request) =>
        Effect.flatMap(usual.checkFileWrite(request), (granted) => {
          if (granted.decidedBy !== "not-dangerous") return Effect.succeed(granted)
          const command = displayText(`${request.tool} ${request.path}`)
          return Effect.gen(function*() {
            const seconds = (yield* config.current).approvals.timeout_seconds
            const answer = yield* approver
              .ask({ command, description: "file edit", key: ACP_EDIT_KEY, allowPermanent: false, context: request.context })
              .pipe(Effect.timeoutOption(seconds * 1000))
            const allowed = Option.isSome(answer) && answer.value.choice !== "deny" && answer.value.via !== "timeout"
            // Edits the mode let through are not audited; what the editor's user decided is.
            if (Option.isSome(answer) && answer.value.via === "policy" && allowed) return { decidedBy: "not-dangerous" as const }
            yield* audit.record({
              at: new Date().toISOString(),
              sessionId: request.context.sessionId ?? null,
              taskId: request.context.taskId,
              command,
              path: "file-write",
              backend: request.backend.kind,
              outcome: allowed ? "allowed" : "denied",
              decidedBy: Option.isNone(answer) || answer.value.via === "timeout" ? "timeout" : "human",
              key: ACP_EDIT_KEY
            })
            if (allowed) return { decidedBy: "human" as const, key: ACP_EDIT_KEY }
            return yield* new CommandDenied({ command, description: ACP_EDIT_KEY, hardline: false, decidedBy: "human", reason: EDIT_DENIED })
          })
        })
    })
  })
).pipe(Layer.provide(ApprovalLive))
