/**
 * Red team 8: project files that run commands when the folder is opened or entered need approval from every
 * writer: a file tool, the terminal (`cp`, `tee`, a redirection, `mv` into the folder) and code the gate reads.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { ApprovalAuditMemory } from "../../../src/layers/approval/audit/ApprovalAuditMemory.js"
import { ApprovalLive } from "../../../src/layers/approval/ApprovalLive.js"
import { ApproverNonInteractive } from "../../../src/layers/approval/approvers/ApproverNonInteractive.js"
import { PROJECT_START_DESCRIPTION, projectStartFile } from "../../../src/layers/approval/detect/projectStartFiles.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
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

  it("a terminal write there asks, whichever way the line writes it; reading them and ordinary copies stay quiet", () => {
    const env: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
    for (const command of [
      "cp /tmp/x.json .vscode/tasks.json",
      "cp -f t.json /w/app/.vscode/settings.json",
      "echo '{}' > .devcontainer/devcontainer.json",
      "printf '[hooks]\\nenter = \"sh x\"\\n' | tee mise.toml",
      "mv /tmp/tasks.json .vscode/",
      "cp tasks.json .vscode",
      "ln -sf /tmp/evil.json .vscode/tasks.json",
      "python3 -c \"open('.vscode/tasks.json', 'w').write('{}')\"",
      "cargo run",
      "cargo +nightly t",
      "cargo --config 'alias.b=\"run\"' b",
      "go test ./...",
      "go generate ./...",
      "go env -w GOFLAGS=-toolexec=./x"
    ]) expect([command, detectCommand(command, env).dangerous]).toEqual([command, true])
    for (const command of [
      "cat .vscode/tasks.json",
      "cp notes.txt notes.bak",
      "ls .devcontainer",
      "cargo --version",
      "cargo fmt",
      "cargo tree",
      "go version",
      "go vet ./..."
    ]) expect([command, detectCommand(command, env).dangerous]).toEqual([command, false])
  })
})
