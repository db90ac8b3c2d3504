import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { NodeFileSystem } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, Layer, Ref, TestClock } from "effect"
import { ApprovalAuditMemory } from "../../src/layers/approval/audit/ApprovalAuditMemory.js"
import { ApprovalLive } from "../../src/layers/approval/ApprovalLive.js"
import { ApproverCallback } from "../../src/layers/approval/approvers/ApproverCallback.js"
import { ApproverNonInteractive } from "../../src/layers/approval/approvers/ApproverNonInteractive.js"
import { ConfigLive } from "../../src/layers/ConfigLive.js"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { Approval } from "../../src/services/Approval.js"
import type { CommandApprovalRequest } from "../../src/services/Approval.js"
import { ApprovalAudit } from "../../src/services/ApprovalAudit.js"
import type { Approver } from "../../src/services/Approver.js"
import { Config } from "../../src/services/Config.js"
import type { HermesConfigInput } from "../../src/services/Config.js"
import { human, scriptedApprover } from "../support/approvers.js"
import { tempHome } from "../support/runtime.js"

const local = { kind: "local", isolated: false } as const
const request = (command: string, session = "s1", backend: CommandApprovalRequest["backend"] = local): CommandApprovalRequest => ({
  command,
  context: { taskId: "task", sessionId: session },
  backend,
  path: "foreground"
})

const flow = (approver: Layer.Layer<Approver, never, Config>, config: HermesConfigInput = {}) =>
  ApprovalLive.pipe(Layer.provideMerge(Layer.mergeAll(approver, ApprovalAuditMemory)), Layer.provideMerge(ConfigTest(config)))

const decide = (command: string, session?: string, backend?: CommandApprovalRequest["backend"]) =>
  Effect.flatMap(Approval, (a) => Effect.either(a.check(request(command, session, backend))))

const denialOf = (result: Either.Either<unknown, { readonly reason: string; readonly decidedBy: string }>) =>
  Either.isLeft(result) ? { decidedBy: result.left.decidedBy, reason: result.left.reason } : undefined

describe("approval flow", () => {
  it.effect("harmless commands pass without asking anyone", () =>
    Effect.gen(function*() {
      const human = yield* scriptedApprover([])
      const result = yield* decide("ls -la").pipe(Effect.provide(flow(human.layer)))
      expect(result).toEqual(Either.right({ decidedBy: "not-dangerous", key: undefined }))
      expect(yield* Ref.get(human.prompts)).toEqual([])
    }))

  it.effect("hardline commands never run: not in mode off, not on an isolated backend", () =>
    Effect.gen(function*() {
      const approver = yield* scriptedApprover([human("always")])
      const result = yield* decide("rm -rf /", "s1", { kind: "sandbox", isolated: true }).pipe(
        Effect.provide(flow(approver.layer, { approvals: { mode: false } }))
      )
      const denial = denialOf(result)
      expect(denial?.decidedBy).toBe("hardline")
      expect(denial?.reason).toMatch(/^BLOCKED \(hardline\): recursive delete of root filesystem\. .*Do not retry/)
      expect(yield* Ref.get(approver.prompts)).toEqual([])
    }))

  it.effect("with nobody to ask, a dangerous command is denied; the model is told to ask the user, never handed a command", () =>
    Effect.gen(function*() {
      const denied = yield* decide("git reset --hard").pipe(Effect.provide(flow(ApproverNonInteractive)))
      expect(denialOf(denied)?.decidedBy).toBe("non-interactive")
      expect(denialOf(denied)?.reason).not.toMatch(/hermes-effect|approvals allow|command_allowlist/)
      expect(denialOf(denied)?.reason).toContain("ask the user")
      expect(denialOf(denied)?.reason).toContain("do not retry")
      const allowed = yield* decide("git reset --hard").pipe(
        Effect.provide(flow(ApproverNonInteractive, { approvals: { non_interactive: "allow" } }))
      )
      expect(Either.isRight(allowed) && allowed.right.decidedBy).toBe("non-interactive")
    }))

  it.effect("once asks every time; session remembers per session only", () =>
    Effect.gen(function*() {
      const approver = yield* scriptedApprover([human("once"), human("session"), human("deny", "not today")])
      const program = Effect.gen(function*() {
        expect(Either.isRight(yield* decide("git reset --hard", "a"))).toBe(true)
        expect(Either.isRight(yield* decide("git reset --hard", "a"))).toBe(true) // asked again: session
        expect(yield* decide("git reset --hard", "a")).toEqual(Either.right({ decidedBy: "session", key: "git reset --hard (destroys uncommitted changes)" }))
        const other = yield* decide("git reset --hard", "b")
        expect(denialOf(other)?.reason).toBe(
          "BLOCKED: User denied this command (git reset --hard (destroys uncommitted changes)). The user has NOT consented; do not retry it or work around it. Reason given by the user: \"not today\"."
        )
      })
      yield* program.pipe(Effect.provide(flow(approver.layer)))
      expect((yield* Ref.get(approver.prompts)).length).toBe(3)
    }))

  it.effect("silence is not consent: the prompt times out as a denial", () =>
    Effect.gen(function*() {
      const approver = yield* scriptedApprover(["never"])
      const fiber = yield* Effect.fork(decide("git clean -fdx").pipe(Effect.provide(flow(approver.layer, { approvals: { timeout_seconds: 30 } }))))
      yield* TestClock.adjust("31 seconds")
      const denial = denialOf(yield* Fiber.join(fiber))
      expect(denial?.decidedBy).toBe("timeout")
      expect(denial?.reason).toMatch(/^BLOCKED: Command timed out without user response .*Silence is not consent/)
    }))

  it.effect("mode off and isolated backends skip prompts; isolated_skip: false keeps them", () =>
    Effect.gen(function*() {
      const approver = yield* scriptedApprover([])
      const off = yield* decide("git reset --hard").pipe(Effect.provide(flow(approver.layer, { approvals: { mode: "off" } })))
      expect(Either.isRight(off) && off.right.decidedBy).toBe("mode-off")
      const sandbox = { kind: "sandbox", isolated: true } as const
      const isolated = yield* decide("git reset --hard", "s", sandbox).pipe(Effect.provide(flow(approver.layer)))
      expect(Either.isRight(isolated) && isolated.right.decidedBy).toBe("isolation")
      const strict = yield* decide("git reset --hard", "s", sandbox).pipe(Effect.provide(flow(approver.layer, { approvals: { isolated_skip: false } })))
      expect(denialOf(strict)?.decidedBy).toBe("human")
      const unknownMode = yield* decide("git reset --hard").pipe(Effect.provide(flow(ApproverNonInteractive, { approvals: { mode: "auto" } })))
      expect(denialOf(unknownMode)?.decidedBy).toBe("non-interactive")
    }))

  it.effect("rules: strictest wins; allow rules never cover compound commands; ask rules make safe commands ask", () =>
    Effect.gen(function*() {
      const rules = [
        { action: "allow" as const, prefix: "git reset --hard" },
        { action: "deny" as const, glob: "*--force-with-lease*", reason: "no force pushes" },
        { action: "allow" as const, prefix: "git push" },
        { action: "ask" as const, regex: "^npm publish\\b" }
      ]
      const run = (command: string) => decide(command).pipe(Effect.provide(flow(ApproverNonInteractive, { approvals: { rules } })))
      const allowed = yield* run("git reset --hard HEAD~1")
      expect(Either.isRight(allowed) && allowed.right).toEqual({ decidedBy: "rule", key: "prefix:git reset --hard" })
      expect(denialOf(yield* run("git push --force-with-lease origin main"))?.reason).toBe(
        "BLOCKED: this command matches the deny rule glob:*--force-with-lease* (no force pushes). Do not retry it."
      )
      expect(denialOf(yield* run("git reset --hard && git clean -fdx"))?.decidedBy).toBe("non-interactive")
      expect(denialOf(yield* run("npm publish --access public"))?.decidedBy).toBe("non-interactive")
    }))

  it.effect("user deny globs and the sudo -S guard block on every backend", () =>
    Effect.gen(function*() {
      const sandbox = { kind: "sandbox", isolated: true } as const
      const run = (command: string) => decide(command, "s", sandbox).pipe(Effect.provide(flow(ApproverNonInteractive, { approvals: { deny: ["*prod-db*"] } })))
      expect(denialOf(yield* run("psql PROD-DB -c 'select 1'"))?.reason).toBe("BLOCKED: this command matches the user-defined deny rule '*prod-db*'. Do not retry it.")
      expect(denialOf(yield* run("echo hunter2 | sudo -S apt install x"))?.decidedBy).toBe("sudo-guard")
    }))

  it.effect("every decision is audited with the command redacted", () =>
    Effect.gen(function*() {
      yield* decide("OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx git reset --hard")
      yield* decide("echo ok")
      const records = yield* Effect.flatMap(ApprovalAudit, (a) => a.recent(10))
      expect(records.map((r) => [r.outcome, r.decidedBy])).toEqual([["allowed", "not-dangerous"], ["denied", "non-interactive"]])
      expect(records[1]?.command).toBe("OPENAI_API_KEY=[REDACTED] git reset --hard")
      expect(records[1]?.key).toBe("git reset --hard (destroys uncommitted changes)")
    }).pipe(Effect.provide(flow(ApproverNonInteractive))))

  it.effect("the person asked sees the command as it would run: nothing in it can redraw or reorder the prompt", () =>
    Effect.gen(function*() {
      const shown = yield* Ref.make<ReadonlyArray<string>>([])
      const approver = ApproverCallback((prompt) => Effect.as(Ref.update(shown, (xs) => [...xs, prompt.command]), "deny" as const))
      const spoofs = [
        "git reset --hard\r\u001b[2Kls -la",
        "git reset --hard #\u202e dl- sl",
        "git reset --hard\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\becho ok",
        `git reset --hard ${" ".repeat(400)}# echo ok`
      ]
      yield* Effect.forEach(spoofs, (command) => decide(command)).pipe(Effect.provide(flow(approver)))
      expect(yield* Ref.get(shown)).toEqual([
        "git reset --hard\\r\\x1b[2Kls -la",
        "git reset --hard #\\u202e dl- sl",
        `git reset --hard${"\\x08".repeat(17)}echo ok`,
        "git reset --hard ⟨401 blanks⟩ # echo ok"
      ])
      // Ordinary commands are shown as they are, lines and tabs kept.
      yield* Ref.set(shown, [])
      yield* decide("git reset --hard &&\n\tgit clean -fd").pipe(Effect.provide(flow(approver)))
      expect(yield* Ref.get(shown)).toEqual(["git reset --hard &&\n\tgit clean -fd"])
    }))

  it.effect("concurrent approvals in two sessions are independent", () =>
    Effect.gen(function*() {
      const gates = { a: yield* Deferred.make<"session">(), b: yield* Deferred.make<"deny">() }
      const asked = yield* Ref.make<ReadonlyArray<string>>([])
      const approver = ApproverCallback((prompt) =>
        Effect.zipRight(
          Ref.update(asked, (xs) => [...xs, prompt.context.sessionId ?? "?"]),
          prompt.context.sessionId === "a" ? Deferred.await(gates.a) : Deferred.await(gates.b)
        )
      )
      const program = Effect.gen(function*() {
        const fa = yield* Effect.fork(decide("git reset --hard", "a"))
        const fb = yield* Effect.fork(decide("git reset --hard", "b"))
        yield* Effect.yieldNow()
        yield* Deferred.succeed(gates.b, "deny")
        expect(denialOf(yield* Fiber.join(fb))?.decidedBy).toBe("human")
        yield* Deferred.succeed(gates.a, "session")
        expect(Either.isRight(yield* Fiber.join(fa))).toBe(true)
        expect(yield* decide("git reset --hard", "a")).toEqual(Either.right({ decidedBy: "session", key: "git reset --hard (destroys uncommitted changes)" }))
      })
      yield* program.pipe(Effect.provide(flow(approver)))
      expect([...(yield* Ref.get(asked))].sort()).toEqual(["a", "b"])
    }))
})

describe("permanent approvals", () => {
  it.effect("always writes command_allowlist to config.yaml, keeping comments, and later runs honour it", () =>
    Effect.gen(function*() {
      const home = tempHome("hermes-effect-always-")
      const file = join(home, "config.yaml")
      writeFileSync(file, "# my settings\napprovals:\n  mode: manual # ask me\n")
      const live = (approver: Layer.Layer<Approver, never, Config>) =>
        ApprovalLive.pipe(
          Layer.provideMerge(Layer.mergeAll(approver, ApprovalAuditMemory)),
          Layer.provideMerge(ConfigLive({ home })),
          Layer.provide(NodeFileSystem.layer)
        )
      const approver = yield* scriptedApprover([human("always")])
      yield* decide("git reset --hard").pipe(Effect.provide(live(approver.layer)))
      expect(readFileSync(file, "utf8")).toBe(
        "# my settings\napprovals:\n  mode: manual # ask me\ncommand_allowlist:\n  - git reset --hard (destroys uncommitted changes)\n"
      )
      // A new runtime (no session memory) with nobody to ask still runs it.
      const again = yield* decide("git reset --hard", "fresh").pipe(Effect.provide(live(ApproverNonInteractive)))
      expect(Either.isRight(again) && again.right.decidedBy).toBe("allowlist")
      // Literal commands and globs in the allowlist cover simple commands only.
      const globbed = yield* decide("git clean -fdx", "x").pipe(
        Effect.provide(flow(ApproverNonInteractive, { command_allowlist: ["git clean -f*"] }))
      )
      expect(Either.isRight(globbed) && globbed.right.decidedBy).toBe("allowlist")
      const chained = yield* decide("git clean -fdx; rm -rf build", "x").pipe(
        Effect.provide(flow(ApproverNonInteractive, { command_allowlist: ["git clean -f*"] }))
      )
      expect(Either.isLeft(chained)).toBe(true)
    }))
})
