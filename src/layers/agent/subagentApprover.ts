/**
 * Approvals inside subagents go to nobody, whoever answers the parent: a
 * child runs unattended beside its parent, so a terminal prompt from it could
 * not be told apart (or would block the parent's own prompt). This wraps the
 * runtime's Approver: asks made from a fiber marked `NonInteractiveApprovals`
 * (every fiber of a delegated run) are answered by `ApproverNonInteractive`,
 * which denies unless `approvals.non_interactive: allow`.
 */
import { Effect, FiberRef, Layer } from "effect"
import { NonInteractiveApprovals } from "../../services/AgentLoop.js"
import { Approver } from "../../services/Approver.js"
import type { Config } from "../../services/Config.js"
import { ApproverNonInteractive } from "../approval/approvers/ApproverNonInteractive.js"

export const withSubagentApprover = <E>(inner: Layer.Layer<Approver, E, Config>): Layer.Layer<Approver, E, Config> =>
  Layer.effect(
    Approver,
    Effect.gen(function*() {
      const usual = yield* Approver
      const nobody = yield* Effect.provide(Approver, Layer.fresh(ApproverNonInteractive))
      return Approver.of({
        interactive: usual.interactive,
        ask: (prompt) => Effect.flatMap(FiberRef.get(NonInteractiveApprovals), (unattended) => (unattended ? nobody : usual).ask(prompt))
      })
    })
  ).pipe(Layer.provide(inner))
