/**
 * The ACP server's Approver: each prompt installs an asker for its session
 * (a `session/request_permission` to that session's client, or the session
 * mode's answer for an ordinary edit) and removes it when the prompt ends,
 * so concurrent sessions never see each other's questions. The turn marks
 * its fibers with its session id (`AcpTurnSession`), so a subagent's asks
 * reach the editor session it works for. With no asker the answer is no.
 */
import { Effect, FiberRef, Layer } from "effect"
import { Approver } from "../../services/Approver.js"
import type { ApprovalPrompt, ApproverAnswer } from "../../services/Approver.js"

export type PermissionAsker = (prompt: ApprovalPrompt) => Effect.Effect<ApproverAnswer>
export type Askers = Map<string, PermissionAsker>

/** The ACP session whose turn this fiber (and every fiber it forks: tools, subagents) belongs to. */
export const AcpTurnSession: FiberRef.FiberRef<string | undefined> = FiberRef.unsafeMake<string | undefined>(undefined)

const NOBODY: ApproverAnswer = { choice: "deny", via: "non-interactive", reason: "no editor session is there to ask" }

export const ApproverAcp = (askers: Askers) =>
  Layer.succeed(
    Approver,
    Approver.of({
      interactive: true,
      ask: (prompt) =>
        Effect.flatMap(FiberRef.get(AcpTurnSession), (turn) => {
          const id = turn ?? prompt.context.sessionId
          const ask = id === undefined ? undefined : askers.get(id)
          return ask === undefined ? Effect.succeed(NOBODY) : ask(prompt)
        })
    })
  )
