/**
 * Approver that hands the question to a program (an editor over ACP, an embedding app).
 */
import { Effect, Layer } from "effect"
import { Approver } from "../../../services/Approver.js"
import type { ApprovalChoice, ApprovalPrompt, ApproverAnswer } from "../../../services/Approver.js"

/**
 * A program decides (an editor over ACP, an embedding app): the callback may
 * return a choice, a Promise of one, or an Effect. Failures count as deny.
 */
export const ApproverCallback = (
  decide: (prompt: ApprovalPrompt) => ApprovalChoice | PromiseLike<ApprovalChoice> | Effect.Effect<ApprovalChoice, unknown>
) =>
  Layer.succeed(
    Approver,
    Approver.of({
      interactive: true,
      ask: (prompt) =>
        Effect.suspend(() => {
          const out = decide(prompt)
          const effect: Effect.Effect<ApprovalChoice, unknown> = Effect.isEffect(out)
            ? out
            : typeof out === "string"
            ? Effect.succeed(out)
            : Effect.tryPromise(() => Promise.resolve(out))
          return effect.pipe(
            Effect.map((choice): ApproverAnswer => ({ choice, via: "callback" })),
            Effect.catchAllCause(() => Effect.succeed<ApproverAnswer>({ choice: "deny", via: "callback", reason: "the approval callback failed" }))
          )
        })
    })
  )
