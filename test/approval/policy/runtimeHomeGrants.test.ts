/**
 * Red team 8: a grant never reaches the runtime's home. A session or "always" answer for one command covers every
 * command under the same rule description; a command or file write that reaches the home (config, allowlist, rules)
 * is asked every time instead, and its answer is not remembered.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Ref } from "effect"
import { ApprovalAuditMemory } from "../../../src/layers/approval/audit/ApprovalAuditMemory.js"
import { ApprovalLive } from "../../../src/layers/approval/ApprovalLive.js"
import { commandReachesRuntimeHome } from "../../../src/layers/approval/policy/runtimeHomeGrants.js"
import { ConfigTest } from "../../../src/layers/ConfigTest.js"
import { Approval } from "../../../src/services/Approval.js"
import type { Approver } from "../../../src/services/Approver.js"
import { Config } from "../../../src/services/Config.js"
import type { HermesConfigInput } from "../../../src/services/Config.js"
import { human, scriptedApprover } from "../../support/approvers.js"

const env = { home: "/home/u", hermesHome: "/home/u/.hermes-effect" }

describe("commandReachesRuntimeHome", () => {
  it("finds the home whatever rule the verdict came from", () => {
    for (
      const command of [
        "cp evil.yaml /home/u/.hermes-effect/config.yaml",
        "cp evil.yaml ~/.hermes-effect/config.yaml",
        "tee /home/u/.hermes-effect/config.yaml < evil.yaml",
        "cd /home/u/.hermes-effect && cp /tmp/evil.yaml config.yaml",
        "mv /tmp/x /home/u/.hermes-effect/config.yaml",
        "bash /home/u/.hermes-effect/skills/x/scripts/run.sh"
      ]
    ) expect([command, commandReachesRuntimeHome(command, env)]).toEqual([command, true])
    for (const command of ["cp config.example.yaml config.yaml", "cp .env.example .env", "rm -rf build", "git reset --hard"]) {
      expect([command, commandReachesRuntimeHome(command, env)]).toEqual([command, false])
    }
  })
})

const local = { kind: "local", isolated: false } as const
const flow = (approver: Layer.Layer<Approver>, config: HermesConfigInput = {}) =>
  ApprovalLive.pipe(Layer.provideMerge(Layer.mergeAll(approver, ApprovalAuditMemory)), Layer.provideMerge(ConfigTest(config)))
const context = { taskId: "task", sessionId: "s1" }
const HOME_KEY = "touches the runtime's home (config, approvals, skills)"

describe("grants stop at the runtime's home", () => {
  it.effect("a session grant for copying a project config does not cover the runtime's config", () =>
    Effect.gen(function*() {
      const approver = yield* scriptedApprover([human("session"), human("deny")])
      const program = Effect.gen(function*() {
        const approval = yield* Approval
        const root = (yield* Config).home.root
        const check = (command: string) => Effect.either(approval.check({ command, context, backend: local, path: "foreground" }))
        expect(Either.isRight(yield* check("cp config.example.yaml config.yaml"))).toBe(true)
        // The same rule, in the same session: remembered.
        expect(yield* check("cp config.example.yaml config.yaml")).toMatchObject(Either.right({ decidedBy: "session" }))
        // The same rule aimed at the runtime's config: asked (and refused).
        const home = yield* check(`cp evil.yaml ${root}/config.yaml`)
        expect(Either.isLeft(home) && home.left.decidedBy).toBe("human")
        const prompts = yield* Ref.get(approver.prompts)
        expect(prompts.length).toBe(2)
        expect(prompts[1]?.allowPermanent).toBe(false)
      })
      yield* program.pipe(Effect.provide(flow(approver.layer)))
    }))

  it.effect("an allowlist key or a session grant for a write into the home covers no later write there", () =>
    Effect.gen(function*() {
      const approver = yield* scriptedApprover([human("always"), human("deny"), human("deny")])
      const program = Effect.gen(function*() {
        const approval = yield* Approval
        const config = yield* Config
        const root = config.home.root
        const write = (path: string) => Effect.either(approval.checkFileWrite({ path, tool: "write_file", context, backend: local }))
        expect(Either.isRight(yield* write(`${root}/skills/x/references/notes.md`))).toBe(true)
        // "always" was not saved, nor remembered for the session.
        expect((yield* config.current).command_allowlist).toEqual([HOME_KEY])
        expect(Either.isLeft(yield* write(`${root}/config.yaml`))).toBe(true)
        // A key already on the allowlist (say, from an earlier version) does not cover it either.
        const run = yield* Effect.either(approval.check({ command: `ls ${root}/skills`, context, backend: local, path: "foreground" }))
        expect(Either.isLeft(run)).toBe(true)
        expect((yield* Ref.get(approver.prompts)).length).toBe(3)
      })
      yield* program.pipe(Effect.provide(flow(approver.layer, { command_allowlist: [HOME_KEY] })))
    }))

  it.effect("ordinary grants are still remembered", () =>
    Effect.gen(function*() {
      const approver = yield* scriptedApprover([human("session")])
      const program = Effect.gen(function*() {
        const approval = yield* Approval
        const check = (command: string) => Effect.either(approval.check({ command, context, backend: local, path: "foreground" }))
        expect(Either.isRight(yield* check("git reset --hard"))).toBe(true)
        expect(yield* check("git reset --hard")).toMatchObject(Either.right({ decidedBy: "session" }))
      })
      yield* program.pipe(Effect.provide(flow(approver.layer)))
    }))
})
