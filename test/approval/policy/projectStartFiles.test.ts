/** Red team 8: project files that run commands when the folder is opened or entered ask when a file tool writes them. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { ApprovalAuditMemory } from "../../../src/layers/approval/audit/ApprovalAuditMemory.js"
import { ApprovalLive } from "../../../src/layers/approval/ApprovalLive.js"
import { ApproverNonInteractive } from "../../../src/layers/approval/approvers/ApproverNonInteractive.js"
import { PROJECT_START_DESCRIPTION, projectStartFile } from "../../../src/layers/approval/policy/projectStartFiles.js"
import { ConfigTest } from "../../../src/layers/ConfigTest.js"
import { Approval } from "../../../src/services/Approval.js"

describe("projectStartFile", () => {
  it("knows the files IDEs, dev containers, mise, rvm and autoenv run on open or cd", () => {
    for (
      const path of [
        "/w/app/.vscode/tasks.json",
        "/w/app/.vscode/settings.json",
        "/w/app/app.code-workspace",
        "/w/app/.devcontainer/devcontainer.json",
        "/w/app/.devcontainer/python/devcontainer.json",
        "/w/app/.devcontainer.json",
        "/w/app/mise.toml",
        "/w/app/.mise.toml",
        "/w/app/.config/mise.toml",
        "/w/app/.mise/config.toml",
        "/w/app/.rvmrc",
        "/w/app/.autoenv.zsh",
        "/w/app/.nvim.lua"
      ]
    ) expect([path, projectStartFile(path)]).toEqual([path, PROJECT_START_DESCRIPTION])
    for (const path of ["/w/app/src/tasks.json", "/w/app/settings.json", "/w/app/.vscode/extensions.json", "/w/app/README.md", "/w/app/.env"]) {
      expect([path, projectStartFile(path)]).toEqual([path, null])
    }
  })

  it.effect("a file tool's write there needs approval", () =>
    Effect.gen(function*() {
      const approval = yield* Approval
      const write = (path: string) =>
        Effect.either(approval.checkFileWrite({ path, tool: "write_file", context: { taskId: "t" }, backend: { kind: "local", isolated: false } }))
      expect(Either.isLeft(yield* write("/w/app/.vscode/tasks.json"))).toBe(true)
      expect(Either.isRight(yield* write("/w/app/src/main.py"))).toBe(true)
    }).pipe(Effect.provide(ApprovalLive.pipe(Layer.provideMerge(Layer.mergeAll(ApproverNonInteractive, ApprovalAuditMemory)), Layer.provideMerge(ConfigTest({}))))))
})
