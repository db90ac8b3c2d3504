/** The terminal tools as the default runtime wires them: registry, fail-closed approval, backend chosen by config. */
import { existsSync, mkdirSync } from "node:fs"
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApprovalAuditMemory } from "../../src/layers/approval/audit/ApprovalAuditMemory.js"
import { ApproverCallback } from "../../src/layers/approval/approvers/ApproverCallback.js"
import { ApprovalAudit } from "../../src/services/ApprovalAudit.js"
import { Environments } from "../../src/services/Environments.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome, testRuntime } from "../support/runtime.js"
import { bwrapProblem, describeNeeding } from "../support/systemPrograms.js"

const parse = (s: string) => JSON.parse(s) as Record<string, unknown>

const cwd = join(tempHome("hermes-terminal-registry-"), "cwd")
mkdirSync(cwd)

describe("terminal tools in the default runtime", () => {
  it.live("echo hi through dispatch is Hermes' result", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      expect(JSON.parse(yield* executor.dispatch({ tool: "terminal", args: { command: "echo hi" } }))).toEqual({ output: "hi", exit_code: 0, error: null })
      // The model's argument strings are coerced like any tool's.
      const out = parse(yield* executor.dispatch({ tool: "terminal", args: "{\"command\": \"exit 2\", \"timeout\": \"5\"}" }))
      expect(out).toEqual({ output: "", exit_code: 2, error: null })
    }).pipe(Effect.provide(testRuntime({ terminal: { cwd } }))))

  it.live("with nobody to approve, dangerous commands are refused on every path and nothing runs", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const marker = join(cwd, "must-not-exist")
      for (const args of [
        { command: `git reset --hard && touch ${marker}` },
        { command: `git reset --hard && touch ${marker}`, background: true },
        { command: `git reset --hard && touch ${marker}`, pty: true }
      ]) {
        const out = parse(yield* executor.dispatch({ tool: "terminal", args }))
        expect(out).toMatchObject({ output: "", exit_code: -1, status: "blocked" })
        expect(String(out["error"])).toMatch(/^BLOCKED: git reset --hard \(destroys uncommitted changes\)\. This needs approval and nobody is present/)
      }
      const hardline = parse(yield* executor.dispatch({ tool: "terminal", args: { command: "rm -rf /" } }))
      expect(String(hardline["error"])).toMatch(/^BLOCKED \(hardline\)/)
      expect(existsSync(marker)).toBe(false)
    }).pipe(Effect.provide(testRuntime({ terminal: { cwd } }))))

  it.live("an approver that allows lets the command run, and the decision is audited", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const out = parse(yield* executor.dispatch({ tool: "terminal", args: { command: "git reset --hard 2>/dev/null; echo ran" } }))
      expect(out["output"]).toBe("ran")
      const audit = yield* Effect.flatMap(ApprovalAudit, (a) => a.recent(5))
      expect(audit[0]).toMatchObject({ outcome: "allowed", decidedBy: "human", key: "git reset --hard (destroys uncommitted changes)" })
    }).pipe(Effect.provide(testRuntime({ terminal: { cwd } }, { approver: ApproverCallback(() => "once"), approvalAudit: ApprovalAuditMemory }))))

  it.live("definitions carry Hermes' parameters", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const defs = yield* registry.definitions({ enabled: ["terminal"] })
      // read_terminal / close_terminal: Hermes offers them only in its desktop app; here always (docs/compatibility.md).
      expect(defs.map((d) => d.function.name)).toEqual(["close_terminal", "process", "read_terminal", "terminal"])
      const terminal = defs.find((d) => d.function.name === "terminal")!.function.parameters
      expect(Object.keys(terminal["properties"] as object).sort()).toEqual(
        ["background", "command", "notify_on_complete", "pty", "timeout", "watch_patterns", "workdir"]
      )
      expect(terminal["required"]).toEqual(["command"])
      expect((terminal["properties"] as Record<string, Record<string, unknown>>)["timeout"]).toMatchObject({ type: "integer", minimum: 1 })
      const proc = defs.find((d) => d.function.name === "process")!.function.parameters
      expect((proc["properties"] as Record<string, Record<string, unknown>>)["action"]).toMatchObject({
        type: "string",
        enum: ["list", "poll", "log", "wait", "kill", "write", "submit", "close"]
      })
      expect((proc["properties"] as Record<string, Record<string, unknown>>)["session_id"]).toMatchObject({ type: "string" })
      expect(proc["required"]).toEqual(["action"])
    }).pipe(Effect.provide(testRuntime({ terminal: { cwd } }))))

  it.live("a numeric session_id is accepted", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      expect(parse(yield* executor.dispatch({ tool: "process", args: { action: "poll", session_id: 42 } }))).toEqual({
        status: "not_found",
        error: "No process with ID 42"
      })
    }).pipe(Effect.provide(testRuntime({ terminal: { cwd } }))))

  it.live("an unknown backend makes the terminal tool unavailable", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const out = parse(yield* executor.dispatch({ tool: "terminal", args: { command: "echo hi" } }))
      expect(out["error"]).toBe("Tool 'terminal' is not available right now: its availability check failed")
    }).pipe(Effect.provide(testRuntime({ terminal: { backend: "docker" } }))))
})

describeNeeding(bwrapProblem(), "terminal tools in the default runtime on the sandbox backend", () => {
  it.live("terminal.backend selects the sandbox", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const envs = yield* Environments
      expect(envs.backend).toEqual({ kind: "sandbox", isolated: true })
      const out = parse(yield* executor.dispatch({ tool: "terminal", args: { command: "echo $$; touch /usr/x 2>&1 | grep -c Read-only" } }))
      // PID 1 or 2 in its own namespace; the host's root is read-only.
      expect(String(out["output"]).split("\n")).toEqual([expect.stringMatching(/^[12]$/), "1"])
    }).pipe(Effect.provide(testRuntime({ terminal: { backend: "sandbox" } }))))

  it.live("terminal.sandbox_network lets the sandbox reach the network", () =>
    Effect.gen(function*() {
      const server = createServer((socket) => socket.end("pong\n"))
      yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
      const port = (server.address() as AddressInfo).port
      const executor = yield* ToolExecutor
      const out = yield* executor.dispatch({ tool: "terminal", args: { command: `exec 3<>/dev/tcp/127.0.0.1/${port} && head -n1 <&3` } }).pipe(
        Effect.ensuring(Effect.sync(() => server.close()))
      )
      expect(parse(out)).toEqual({ output: "pong", exit_code: 0, error: null })
    }).pipe(Effect.provide(testRuntime({ terminal: { backend: "sandbox", sandbox_network: true } }))))
})
