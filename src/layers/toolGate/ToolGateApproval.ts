/**
 * The ToolGate backed by the Approver: a plugin's `{"action": "approve"}` is
 * asked like a dangerous command, keyed `plugin_rule:<rule>` as in Hermes,
 * remembered per session or permanently, and denied when nobody answers.
 */
import { Effect, Layer, Option } from "effect"
import { ApprovalAudit } from "../../services/ApprovalAudit.js"
import { Approver } from "../../services/Approver.js"
import { Config } from "../../services/Config.js"
import { ToolApprovalDenied, ToolGate } from "../../services/ToolGate.js"

export const ToolGateApproval = Layer.effect(
  ToolGate,
  Effect.gen(function*() {
    const approver = yield* Approver
    const config = yield* Config
    const audit = yield* ApprovalAudit
    const sessions = new Map<string, Set<string>>()
    return ToolGate.of({
      requestToolApproval: (request) =>
        Effect.gen(function*() {
          const key = `plugin_rule:${request.ruleKey}`
          const sessionKey = request.context.sessionId ?? request.context.taskId
          const cfg = yield* config.current
          const record = (outcome: "allowed" | "denied", decidedBy: "allowlist" | "session" | "human" | "non-interactive" | "timeout") =>
            audit.record({
              at: new Date().toISOString(),
              sessionId: request.context.sessionId ?? null,
              taskId: request.context.taskId,
              command: `${request.tool}: ${request.message}`,
              path: "tool",
              backend: "-",
              outcome,
              decidedBy,
              key
            })
          if (cfg.command_allowlist.includes(key)) return yield* record("allowed", "allowlist")
          if (sessions.get(sessionKey)?.has(key) === true) return yield* record("allowed", "session")
          const seconds = cfg.approvals.timeout_seconds
          const answer = yield* approver
            .ask({ command: request.tool, description: `${request.tool} (plugin approval rule): ${request.message}`, key, allowPermanent: true, context: request.context })
            .pipe(Effect.timeoutOption(seconds * 1000))
          const denied = (decidedBy: "human" | "non-interactive" | "timeout", reason: string) =>
            Effect.zipRight(record("denied", decidedBy), Effect.fail(new ToolApprovalDenied({ tool: request.tool, ruleKey: key, reason })))
          if (Option.isNone(answer) || answer.value.via === "timeout") {
            return yield* denied("timeout", `Approval for '${request.tool}' timed out without a response; it was not run. Silence is not consent; do not retry.`)
          }
          const { choice, via } = answer.value
          if (choice === "deny") {
            return yield* denied(
              via === "non-interactive" ? "non-interactive" : "human",
              via === "non-interactive"
                ? `Approval required for '${request.tool}' (${request.message}) but nobody is present to approve it, so it was denied. Do not retry.`
                : `The user denied '${request.tool}' (${request.message}). Do not retry.`
            )
          }
          if (choice !== "once") sessions.set(sessionKey, (sessions.get(sessionKey) ?? new Set()).add(key))
          if (choice === "always") {
            yield* config.set(["command_allowlist"], [...cfg.command_allowlist, key]).pipe(Effect.catchAll((e) => Effect.logWarning(e.oneLine)))
          }
          yield* record("allowed", via === "non-interactive" || via === "policy" ? "non-interactive" : "human")
        })
    })
  })
)
