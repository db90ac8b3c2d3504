/**
 * The approval flow for one command, fail-closed:
 *
 *   hardline → sudo -S guard → user deny globs → deny rules      (every backend, every mode)
 *   → isolated backend skip → mode off → not dangerous
 *   → permanent allowlist → allow rules → session approvals
 *   → smart (no auxiliary model yet: escalates) → ask the Approver
 *
 * Every decision is recorded in the audit log with the redacted command.
 */
import { homedir } from "node:os"
import { Effect, Layer, Option } from "effect"
import { Approval, CommandDenied } from "../services/Approval.js"
import type { ApprovalGranted, CommandApprovalRequest, DecidedBy } from "../services/Approval.js"
import { ApprovalAudit } from "../services/ApprovalAudit.js"
import type { ApprovalRecord } from "../services/ApprovalAudit.js"
import { Approver } from "../services/Approver.js"
import { Config } from "../services/Config.js"
import { detectCommand, normalizeCommand } from "./approval/detect.js"
import { allowlistCovers, matchingDenyGlob, strictestRule } from "./approvalPolicy/match.js"
import {
  hardlineMessage,
  nonInteractiveMessage,
  ruleDenyMessage,
  sudoGuardMessage,
  timeoutMessage,
  userDeniedMessage,
  userDenyMessage
} from "./approvalPolicy/messages.js"
import { normalizeMode } from "./approvalPolicy/mode.js"
import { redactSecrets } from "./approvalPolicy/redact.js"

export const APPROVAL_TIMEOUT_SECONDS = 60

const SUDO_STDIN = /(?:^|[;&|`\n]|&&|\|\||\$\()\s*sudo\s+-s\b/i

export const ApprovalLive = Layer.effect(
  Approval,
  Effect.gen(function*() {
    const config = yield* Config
    const approver = yield* Approver
    const audit = yield* ApprovalAudit
    const detectionEnv = { home: homedir(), hermesHome: config.home.root }
    const detect = (command: string) => detectCommand(command, detectionEnv)
    /** session key → approved keys */
    const sessions = new Map<string, Set<string>>()
    let warnedMode = false
    let warnedSmart = false

    const check = Effect.fn("Approval.check")(function*(request: CommandApprovalRequest) {
      const { command, context } = request
      const cfg = yield* config.current
      const approvals = cfg.approvals ?? {}
      const detection = detect(command)
      const sessionKey = context.sessionId ?? context.taskId
      const record = (outcome: ApprovalRecord["outcome"], decidedBy: ApprovalRecord["decidedBy"], key: string | null) =>
        audit.record({
          at: new Date().toISOString(),
          sessionId: context.sessionId ?? null,
          taskId: context.taskId,
          command: redactSecrets(command),
          path: request.path,
          backend: request.backend.kind,
          outcome,
          decidedBy,
          key
        })
      const allow = (decidedBy: DecidedBy, key: string | null) =>
        Effect.as(record("allowed", decidedBy, key), { decidedBy, key: key ?? undefined } satisfies ApprovalGranted)
      const deny = (decidedBy: ApprovalRecord["decidedBy"], key: string | null, reason: string, hardline = false) =>
        Effect.zipRight(
          record("denied", decidedBy, key),
          Effect.fail(new CommandDenied({ command, description: key, hardline, decidedBy, reason }))
        )

      // 1. What never runs, on any backend and in any mode.
      if (detection.hardline) {
        const description = detection.hardline_description ?? "hardline command"
        return yield* deny("hardline", description, hardlineMessage(description), true)
      }
      const normalized = normalizeCommand(command, detectionEnv)
      if (SUDO_STDIN.test(normalized) && !process.env["SUDO_PASSWORD"]) {
        return yield* deny("sudo-guard", "sudo password guessing via stdin", sudoGuardMessage())
      }
      const denyGlob = matchingDenyGlob(approvals.deny ?? [], [command, normalized])
      if (denyGlob !== undefined) return yield* deny("user-deny", denyGlob, userDenyMessage(denyGlob))
      const rule = strictestRule(approvals.rules ?? [], command)
      if (rule?.action === "deny") return yield* deny("deny-rule", rule.pattern, ruleDenyMessage(rule.pattern, rule.reason))

      // 2. Where nothing needs asking.
      if (request.backend.isolated && approvals.isolated_skip !== false) return yield* allow("isolation", null)
      const { mode, warning } = normalizeMode(approvals.mode)
      if (warning !== undefined && !warnedMode) {
        warnedMode = true
        yield* Effect.logWarning(warning)
      }
      if (mode === "off") return yield* allow("mode-off", null)
      const needsApproval = detection.dangerous || rule?.action === "ask"
      if (!needsApproval) return yield* allow("not-dangerous", null)

      // 3. Approvals already given.
      const key = detection.description ?? `rule:${rule?.pattern ?? "ask"}`
      const description = detection.description ?? rule?.reason ?? `matches the ask rule ${rule?.pattern ?? ""}`
      const allowlist = cfg.command_allowlist ?? []
      if (allowlist.includes(key) || allowlist.some((entry) => allowlistCovers(entry, command))) {
        return yield* allow("allowlist", key)
      }
      if (rule?.action === "allow") return yield* allow("rule", rule.pattern)
      if (sessions.get(sessionKey)?.has(key) === true) return yield* allow("session", key)

      // 4. Ask. Smart mode needs an auxiliary model, which this runtime does not have yet: escalate.
      if (mode === "smart" && !warnedSmart) {
        warnedSmart = true
        yield* Effect.logWarning("approvals.mode smart: no auxiliary model is configured, so approvals go to the approver")
      }
      const seconds = approvals.timeout_seconds ?? APPROVAL_TIMEOUT_SECONDS
      const answer = yield* approver
        .ask({ command: redactSecrets(command), description, key, allowPermanent: true, context })
        .pipe(Effect.timeoutOption(seconds * 1000))
      if (Option.isNone(answer) || answer.value.via === "timeout") return yield* deny("timeout", key, timeoutMessage(description))
      const { choice, reason, via } = answer.value
      if (choice === "deny") {
        return via === "non-interactive"
          ? yield* deny("non-interactive", key, nonInteractiveMessage(description, key))
          : yield* deny("human", key, userDeniedMessage(description, reason))
      }
      if (choice === "session" || choice === "always") {
        const set = sessions.get(sessionKey) ?? new Set<string>()
        set.add(key)
        sessions.set(sessionKey, set)
      }
      if (choice === "always" && !allowlist.includes(key)) {
        const latest = (yield* config.current).command_allowlist ?? []
        yield* config.set(["command_allowlist"], [...latest.filter((k) => k !== key), key]).pipe(
          Effect.catchAll((e) => Effect.logWarning(`could not save '${key}' to command_allowlist: ${e.oneLine}`))
        )
      }
      return yield* allow(via === "non-interactive" || via === "policy" ? "non-interactive" : "human", key)
    })

    return Approval.of({ detect, check })
  })
)
