/**
 * `hermes-effect run` with a background delegation, through the built binary
 * on the scripted provider (run `npm run build` first; `npm test` does): the
 * run waits for the child's report, answers after it, and the child is a
 * session under the run's.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli } from "../support/cli.js"
import { liveProcesses, uniqueSleep } from "../support/processes.js"
import { tempHome } from "../support/runtime.js"

describe("hermes-effect run with delegate_task", () => {
  it("does not exit before the background child reports; the report starts the next turn", () => {
    const home = tempHome("hermes-effect-deleg-cli-")
    const sleep = uniqueSleep()
    const script = join(home, "script.jsonl")
    const turns = [
      { when: { first_user_contains: "Count the files", message_count: 2 }, tool_calls: [{ name: "delegate_task", arguments: { goal: "List the files and report" } }] },
      { when: { system_contains: "You are a subagent" }, tool_calls: [{ name: "terminal", arguments: { command: sleep.command, background: true } }] },
      { when: { system_contains: "You are a subagent" }, delay_ms: 300, content: "There are 3 files." },
      { when: { first_user_contains: "Count the files", last_role: "tool" }, content: "A subagent is on it." },
      { when: { first_user_contains: "Count the files" }, expect: { last_contains: "There are 3 files." }, content: "The subagent counted 3 files." }
    ]
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`)
    const r = runCli(["run", "Count the files", "--script", script, "--toolsets", "delegation,terminal"], { home })
    expect(r.stderr).toContain("→ delegate_task")
    expect(r.stderr).toContain("🔀 [ASYNC DELEGATION COMPLETE — deleg_")
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("The subagent counted 3 files.")
    const session = /session (\S+) · 3 model calls/.exec(r.stderr)?.[1]
    expect(session).toBeDefined()
    const exported = runCli(["sessions", "export", session!, "--format", "messages"], { home })
    const messages = exported.stdout.trim().split("\n").map((l) => JSON.parse(l) as { role: string; content: string | null })
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user", "assistant"])
    expect(messages[5]!.content).toMatch(/^\[ASYNC DELEGATION COMPLETE — deleg_[0-9a-f]{8}\]\n/)
    const listed = runCli(["sessions", "list", "--json"], { home })
    expect(listed.code).toBe(0)
    const sessions = (JSON.parse(listed.stdout) as { sessions: Array<{ id: string; source: string; parentSessionId: string | null }> }).sessions
    expect(sessions.filter((s) => s.source === "subagent").map((s) => s.parentSessionId)).toEqual([session])
    // The child's background process went with the child.
    expect(liveProcesses(sleep.marker)).toEqual([])
  })
})
