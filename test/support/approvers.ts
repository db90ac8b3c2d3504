/** Test doubles for the human: scripted answers, and a record of every prompt. */
import { Effect, Layer, Ref } from "effect"
import { Approver } from "../../src/services/Approver.js"
import type { ApprovalPrompt, ApproverAnswer } from "../../src/services/Approver.js"

export interface ScriptedApprover {
  readonly layer: Layer.Layer<Approver>
  readonly prompts: Ref.Ref<ReadonlyArray<ApprovalPrompt>>
}

/** Answers in order; `never` leaves the human silent (the flow's timeout then decides). */
export const scriptedApprover = (answers: ReadonlyArray<ApproverAnswer | "never">): Effect.Effect<ScriptedApprover> =>
  Effect.gen(function*() {
    const prompts = yield* Ref.make<ReadonlyArray<ApprovalPrompt>>([])
    const queue = yield* Ref.make(answers)
    const layer = Layer.succeed(
      Approver,
      Approver.of({
        interactive: true,
        ask: (prompt) =>
          Effect.gen(function*() {
            yield* Ref.update(prompts, (p) => [...p, prompt])
            const next = yield* Ref.modify(queue, (q) => [q[0], q.slice(1)] as const)
            if (next === undefined) return { choice: "deny", via: "human", reason: "script exhausted" } satisfies ApproverAnswer
            if (next === "never") return yield* Effect.never
            return next
          })
      })
    )
    return { layer, prompts }
  })

export const human = (choice: ApproverAnswer["choice"], reason?: string): ApproverAnswer =>
  reason === undefined ? { choice, via: "human" } : { choice, via: "human", reason }
