/**
 * Approvals inside subagents go to the parent's approver: a child works for
 * the same user, so when someone answers the parent (a terminal prompt, an
 * editor's callback) they answer the child too, told which asks come from a
 * subagent. With nobody to ask (batch, CI) the child's command is decided by
 * `ApproverNonInteractive`, which refuses unless
 * `approvals.non_interactive: allow`. Asks made from a fiber marked
 * `NonInteractiveApprovals` (every fiber of a delegated run) are the child's.
 */
import { Effect, FiberRef, Layer } from "effect"
import { NonInteractiveApprovals } from "../../services/AgentLoop.js"
import { Approver } from "../../services/Approver.js"
import type { ApprovalPrompt } from "../../services/Approver.js"
import type { Config } from "../../services/Config.js"
import { ApproverNonInteractive } from "../approval/approvers/ApproverNonInteractive.js"

const fromSubagent = (prompt: ApprovalPrompt): ApprovalPrompt => ({ ...prompt, description: `subagent: ${prompt.description}` })

export const withSubagentApprover = <E>(inner: Layer.Layer<Approver, E, Config>): Layer.Layer<Approver, E, Config> =>
  Layer.effect(
    Approver,
    Effect.gen(function*() {
      const usual = yield* Approver
      const nobody = yield* Effect.provide(Approver, Layer.fresh(ApproverNonInteractive))
      return Approver.of({
        interactive: usual.interactive,
        ask: (prompt) =>
          Effect.flatMap(FiberRef.get(NonInteractiveApprovals), (child) =>
            !child ? usual.ask(prompt) : usual.interactive ? usual.ask(fromSubagent(prompt)) : nobody.ask(prompt))
      })
    })
  ).pipe(Layer.provide(inner))
