/**
 * Approver for runs with nobody to ask (batch, subagents, CI).
 */
import { Effect, Layer } from "effect"
import { Approver } from "../../../services/Approver.js"
import type { ApproverAnswer } from "../../../services/Approver.js"
import { Config } from "../../../services/Config.js"

/**
 * Nobody to ask (batch, subagents, CI): deny, unless the operator explicitly
 * set `approvals.non_interactive: allow`.
 */
export const ApproverNonInteractive = Layer.effect(
  Approver,
  Effect.map(Config, (config) =>
    Approver.of({
      interactive: false,
      ask: () =>
        Effect.map(config.current, (c): ApproverAnswer =>
          c.approvals.non_interactive.trim().toLowerCase() === "allow"
            ? { choice: "once", via: "policy" }
            : { choice: "deny", via: "non-interactive" })
    }))
)
