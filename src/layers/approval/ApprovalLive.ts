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
import { Approval, CommandDenied } from "../../services/Approval.js"
import type {
  ApprovalGranted,
  CommandApprovalRequest,
  DecidedBy,
  FileWriteApprovalRequest
} from "../../services/Approval.js"
import { ApprovalAudit } from "../../services/ApprovalAudit.js"
import type { ApprovalRecord } from "../../services/ApprovalAudit.js"
import { Approver } from "../../services/Approver.js"
import { Config } from "../../services/Config.js"
import { displayText, redactAuditText } from "../../lib/text.js"
import { codePathLiterals, detectCode } from "./detect/code/detectCode.js"
import { localImportCandidates, searchPathCandidates } from "./detect/code/localImports.js"
import { detectCommand, inspectCommand, normalizeCommand } from "./detect/detect.js"
import { implicitlyExecuted } from "./detect/implicitExec.js"
import type { Verdict } from "./policy/judge.js"
import { judgeRequest, trustedPathDirs } from "./policy/judge.js"
import { installedPythonMemo } from "./policy/installedPython.js"
import { allowlistCovers, matchingDenyGlob, strictestRule } from "./policy/allowlistMatch.js"
import {
  hardlineMessage,
  nonInteractiveMessage,
  ruleDenyMessage,
  sudoGuardMessage,
  timeoutMessage,
  userDeniedMessage,
  userDenyMessage
} from "./policy/denialMessages.js"
import { normalizeMode } from "./policy/approvalMode.js"
import { commandReachesRuntimeHome, isRuntimeHomeKey } from "./policy/runtimeHomeGrants.js"
import { compiledRunVerdict } from "./policy/compiledRunners.js"
import { observedFn } from "../../lib/effect/observedFn.js"

const SUDO_STDIN = /(?:^|[;&|`\n]|&&|\|\||\$\()\s*sudo\s+-s\b/i

export const ApprovalLive = Layer.effect(
  Approval,
  Effect.gen(function*() {
    const config = yield* Config
    const approver = yield* Approver
    const audit = yield* ApprovalAudit
    const detectionEnv = { home: homedir(), hermesHome: config.home.root }
    const detect = (command: string) => detectCommand(command, detectionEnv)
    const detectors = {
      inspect: inspectCommand,
      detectCode,
      codePaths: codePathLiterals,
      localImports: localImportCandidates,
      searchPathModules: searchPathCandidates,
      trustedPathDirs: trustedPathDirs(process.env["PATH"])
    }
    // The installed Python packages each environment was last seen with (listing them again is a round trip a folder).
    const pythonPackages = installedPythonMemo()
    /** session key → approved keys */
    const sessions = new Map<string, Set<string>>()
    let warnedMode = false
    let warnedSmart = false

    /**
     * The verdict for one request: what the command (or the code typed into an
     * interpreter) would do, looking into the task's environment for what the
     * text alone cannot tell (exports, scripts it runs, where its paths lead).
     */
    const judge = (request: CommandApprovalRequest): Effect.Effect<Verdict> =>
      judgeRequest(request, detectionEnv, detectors, pythonPackages)

    interface Subject {
      readonly command: string
      readonly context: CommandApprovalRequest["context"]
      readonly backend: CommandApprovalRequest["backend"]
      readonly path: ApprovalRecord["path"]
    }

    const recorder = (subject: Subject) =>
      (outcome: ApprovalRecord["outcome"], decidedBy: ApprovalRecord["decidedBy"], key: string | null) =>
        audit.record({
          at: new Date().toISOString(),
          sessionId: subject.context.sessionId ?? null,
          taskId: subject.context.taskId,
          command: redactAuditText(subject.command),
          path: subject.path,
          backend: subject.backend.kind,
          outcome,
          decidedBy,
          key
        })

    const denial = (subject: Subject) =>
      (decidedBy: ApprovalRecord["decidedBy"], key: string | null, reason: string, hardline = false) =>
        Effect.zipRight(
          recorder(subject)("denied", decidedBy, key),
          Effect.fail(new CommandDenied({ command: subject.command, description: key, hardline, decidedBy, reason }))
        )

    /**
     * Steps 2-4, shared by commands and file writes: isolation, mode, the
     * approvals already given, then the approver.
     */
    const decide = Effect.fnUntraced(function*(
      subject: Subject,
      needs: { readonly dangerous: boolean; readonly key: string; readonly description: string },
      rule: { readonly action: string; readonly pattern: string } | undefined,
      /** It reaches the runtime's home: no earlier grant covers it, and the answer is not remembered (runtimeHomeGrants.ts). */
      pinned = false
    ) {
      const cfg = yield* config.current
      const approvals = cfg.approvals
      const record = recorder(subject)
      const deny = denial(subject)
      const allow = (decidedBy: DecidedBy, key: string | null) =>
        Effect.as(record("allowed", decidedBy, key), { decidedBy, key: key ?? undefined } satisfies ApprovalGranted)
      const sessionKey = subject.context.sessionId ?? subject.context.taskId

      if (subject.backend.isolated && approvals.isolated_skip) return yield* allow("isolation", null)
      const { mode, warning } = normalizeMode(approvals.mode)
      if (warning !== undefined && !warnedMode) {
        warnedMode = true
        yield* Effect.logWarning(warning)
      }
      if (mode === "off") return yield* allow("mode-off", null)
      if (!needs.dangerous && rule?.action !== "ask") return yield* allow("not-dangerous", null)

      const { key, description } = needs
      const allowlist = cfg.command_allowlist
      if (!pinned && (allowlist.includes(key) || allowlist.some((entry) => allowlistCovers(entry, subject.command)))) {
        return yield* allow("allowlist", key)
      }
      if (!pinned && rule?.action === "allow") return yield* allow("rule", rule.pattern)
      if (!pinned && sessions.get(sessionKey)?.has(key) === true) return yield* allow("session", key)

      // Smart mode needs an auxiliary model, which this runtime does not have yet: escalate.
      if (mode === "smart" && !warnedSmart) {
        warnedSmart = true
        yield* Effect.logWarning("approvals.mode smart: no auxiliary model is configured, so approvals go to the approver")
      }
      const seconds = approvals.timeout_seconds
      const answer = yield* approver
        // What the person sees must be what would run: nothing in the text may redraw or reorder the prompt.
        .ask({ command: displayText(redactAuditText(subject.command)), description: displayText(description), key, allowPermanent: !pinned, context: subject.context })
        .pipe(Effect.timeoutOption(seconds * 1000))
      if (Option.isNone(answer) || answer.value.via === "timeout") return yield* deny("timeout", key, timeoutMessage(description))
      const { choice, reason, via } = answer.value
      if (choice === "deny") {
        return via === "non-interactive"
          ? yield* deny("non-interactive", key, nonInteractiveMessage(description))
          : yield* deny("human", key, userDeniedMessage(description, reason))
      }
      if (!pinned && (choice === "session" || choice === "always")) {
        const set = sessions.get(sessionKey) ?? new Set<string>()
        set.add(key)
        sessions.set(sessionKey, set)
      }
      if (!pinned && choice === "always" && !allowlist.includes(key)) {
        const latest = (yield* config.current).command_allowlist
        yield* config.set(["command_allowlist"], [...latest.filter((k) => k !== key), key]).pipe(
          Effect.catchAll((e) => Effect.logWarning(`could not save '${key}' to command_allowlist: ${e.oneLine}`))
        )
      }
      return yield* allow(via === "non-interactive" || via === "policy" ? "non-interactive" : "human", key)
    })

    const check = observedFn("Approval.check")(function*(request: CommandApprovalRequest) {
      const { command } = request
      const subject: Subject = { command, context: request.context, backend: request.backend, path: request.path }
      const deny = denial(subject)
      const approvals = (yield* config.current).approvals
      const judged = yield* judge(request)
      const { note } = judged
      // A build that runs the project's compiled code asks as a binary run by path does (compiledRunners.ts).
      const shellText = request.language === undefined || request.language === "shell"
      const compiled = judged.detection.dangerous || !shellText ? undefined : yield* compiledRunVerdict(command, request.surroundings)
      const detection = compiled === undefined ? judged.detection : { ...judged.detection, dangerous: true, description: compiled }

      // 1. What never runs, on any backend and in any mode.
      if (detection.hardline) {
        const description = detection.hardline_description ?? "hardline command"
        return yield* deny("hardline", description, hardlineMessage(description), true)
      }
      const normalized = normalizeCommand(command, detectionEnv)
      if (SUDO_STDIN.test(normalized) && !process.env["SUDO_PASSWORD"]) {
        return yield* deny("sudo-guard", "sudo password guessing via stdin", sudoGuardMessage())
      }
      const denyGlob = matchingDenyGlob(approvals.deny, [command, normalized])
      if (denyGlob !== undefined) return yield* deny("user-deny", denyGlob, userDenyMessage(denyGlob))
      const rule = strictestRule(approvals.rules, command)
      if (rule?.action === "deny") return yield* deny("deny-rule", rule.pattern, ruleDenyMessage(rule.pattern, rule.reason))

      // The note (which script, which link) helps the approver; the key stays the rule's description.
      const described = detection.description ?? rule?.reason ?? `matches the ask rule ${rule?.pattern ?? ""}`
      const key = detection.description ?? `rule:${rule?.pattern ?? "ask"}`
      // Only a dangerous shell command is looked at again (typed code reaches the home through its own rules).
      const pinned = isRuntimeHomeKey(key) || (detection.dangerous && shellText && commandReachesRuntimeHome(command, detectionEnv))
      return yield* decide(subject, {
        dangerous: detection.dangerous,
        key,
        description: note === undefined || detection.description === null ? described : `${described} (${note})`
      }, rule, pinned)
    })

    const checkFileWrite = observedFn("Approval.checkFileWrite")(function*(request: FileWriteApprovalRequest) {
      const description = implicitlyExecuted(request.path, detectionEnv)
      // Ordinary writes are not audited: only what needed a decision is.
      if (description === null) return { decidedBy: "not-dangerous" } satisfies ApprovalGranted
      const subject: Subject = {
        command: `${request.tool} ${request.path}`,
        context: request.context,
        backend: request.backend,
        path: "file-write"
      }
      return yield* decide(subject, { dangerous: true, key: description, description }, undefined, isRuntimeHomeKey(description))
    })

    return Approval.of({ detect, check, checkFileWrite })
  })
)
