/**
 * `hermes-effect run` and prompt batches through the built binary on the scripted provider
 * (run `npm run build` first; `npm test` does).
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { BIN, runCli } from "../support/cli.js"
import { liveProcesses, uniqueSleep } from "../support/processes.js"
import { tempHome } from "../support/runtime.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

const writeScript = (dir: string, name: string, lines: ReadonlyArray<unknown>) => {
  const file = join(dir, name)
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`)
  return file
}

const messagesOf = (home: string, session: string) => {
  const r = runCli(["sessions", "export", session, "--format", "messages"], { home })
  expect(r.code).toBe(0)
  return r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { role: string; content: string | null })
}

const waitFor = async (probe: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (!probe() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
  return probe()
}

const start = (args: ReadonlyArray<string>, home: string) => {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, HERMES_EFFECT_HOME: home }, cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] })
  let stderr = ""
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal === null ? null : -1))))
  return { child, exited, stderr: () => stderr }
}

describe("hermes-effect run", () => {
  it("streams the answer to stdout and tool progress to stderr, on the offline demo script", () => {
    const home = tempHome("hermes-effect-run-cli-")
    const r = runCli(["run", "What is in the examples directory?", "--script", "examples/demo-script.jsonl"], { home, cwd: ROOT })
    expect(r.stderr).toContain("→ terminal {\"command\":\"ls examples\"}")
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      "I'll list the examples directory first.\n" +
        "`examples/` holds the inputs of the README demos. `quickstart.jsonl` is a batch of plain tool calls, one JSON object per line " +
        "with a tool name and its arguments; `demo-script.jsonl` and `demo-prompts.jsonl` drive this offline agent demo.\n"
    )
    expect(r.stderr).toMatch(/✓ read_file \(\d+ ms\)/)
    const session = /session (\S+) · 3 model calls · 2 tool calls · 1200\+60 tokens/.exec(r.stderr)?.[1]
    expect(session).toBeDefined()
    const messages = messagesOf(home, session!)
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool", "assistant"])
    expect(messages[3]!.content).toContain("demo-prompts.jsonl")
  })

  it("--resume continues a session; an unknown session is an error", () => {
    const home = tempHome("hermes-effect-run-cli-")
    const script = writeScript(home, "script.jsonl", [
      // Each process replays the script from the top for the session: `when` picks the turn.
      { when: { last_contains: "hello" }, content: "First answer." },
      { when: { last_contains: "and then?" }, expect: { contains: "First answer." }, content: "Second answer." }
    ])
    const first = runCli(["run", "hello", "--script", script], { home })
    expect(first.stdout).toBe("First answer.\n")
    const session = /session (\S+)/.exec(first.stderr)![1]!
    const second = runCli(["run", "and then?", "--script", script, "--resume", session], { home })
    expect(second.stdout).toBe("Second answer.\n")
    expect(second.stderr).toContain(`↻ resuming session ${session}`)
    expect(messagesOf(home, session).map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant"])
    const missing = runCli(["run", "x", "--script", script, "--resume", "nope"], { home })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("session not found: nope")
  })

  it("Ctrl-C interrupts a running tool: the command dies, the turn is stored, the session can be resumed", async () => {
    const home = tempHome("hermes-effect-run-cli-")
    const sleep = uniqueSleep()
    const script = writeScript(home, "script.jsonl", [{ tool_calls: [{ name: "terminal", arguments: { command: sleep.command } }] }])
    const run = start(["run", "nap", "--script", script, "--toolsets", "terminal"], home)
    expect(await waitFor(() => liveProcesses(sleep.marker).length > 0, 20_000)).toBe(true)
    run.child.kill("SIGINT")
    // The program edge (NodeRuntime.runMain) exits 0 after an interruption; see the report.
    expect([0, 130]).toContain(await run.exited)
    expect(run.stderr()).toMatch(/⏹ interrupted: what ran so far is stored; continue with --resume \S+/)
    expect(await waitFor(() => liveProcesses(sleep.marker).length === 0, 5000)).toBe(true)
    const id = /--resume (\S+)/.exec(run.stderr())![1]!
    const messages = messagesOf(home, id)
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"])
    expect(messages[3]!.content).toContain("Interrupted")
  }, 40_000)
})

describe("hermes-effect batch with prompts", () => {
  it("runs the demo prompts, each in its own session, with ShareGPT trajectories", () => {
    const home = tempHome("hermes-effect-batch-cli-")
    const out = join(home, "out.jsonl")
    const trajectories = join(home, "trajectories.jsonl")
    const r = runCli(["batch", "examples/demo-prompts.jsonl", "--script", "examples/demo-script.jsonl", "--out", out, "--trajectories", trajectories], {
      home,
      cwd: ROOT
    })
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/batch: 3 prompts, 3 completed, 0 stopped early, 0 failed, 0 invalid lines/)
    const results = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(results.map((x) => x["id"]).sort()).toEqual(["disk", "examples", "plan"])
    expect(new Set(results.map((x) => x["session_id"])).size).toBe(3)
    const traj = readFileSync(trajectories, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { session_id: string; source: string; conversations: Array<{ from: string }> })
    expect(traj.map((t) => t.session_id).sort()).toEqual(results.map((x) => x["session_id"] as string).sort())
    expect(traj.every((t) => t.source === "batch" && t.conversations[0]!.from === "system")).toBe(true)
  })

  it("resumes after the process is killed half way: every id exactly once", async () => {
    const home = tempHome("hermes-effect-batch-cli-")
    const script = writeScript(home, "script.jsonl", [{ delay_ms: 120, tool_calls: [{ name: "todo" }] }, { delay_ms: 120, content: "done" }])
    const ids = Array.from({ length: 24 }, (_, i) => `p${i + 1}`)
    const prompts = join(home, "prompts.jsonl")
    writeFileSync(prompts, ids.map((id) => JSON.stringify({ id, prompt: `task ${id}`, toolsets: ["todo"] })).join("\n"))
    const out = join(home, "out.jsonl")
    const trajectories = join(home, "traj.jsonl")
    const args = ["batch", prompts, "--script", script, "--out", out, "--trajectories", trajectories, "--concurrency", "2"]
    const first = start(args, home)
    const lines = () => (existsSync(out) ? readFileSync(out, "utf8").split("\n").filter((l) => l.length > 0).length : 0)
    expect(await waitFor(() => lines() >= 6, 30_000)).toBe(true)
    first.child.kill("SIGKILL")
    await first.exited
    const before = lines()
    expect(before).toBeLessThan(ids.length)
    const second = runCli([...args, "--resume"], { home })
    expect(second.code).toBe(0)
    expect(second.stderr).toMatch(/batch: resuming, \d+ prompts already done/)
    const results = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(results.map((r) => r["id"]).sort()).toEqual([...ids].sort())
    expect(results.every((r) => r["status"] === "completed" && r["response"] === "done")).toBe(true)
    const traj = readFileSync(trajectories, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { session_id: string }).session_id)
    expect([...traj].sort()).toEqual(results.map((r) => r["session_id"] as string).sort())
  }, 60_000)
})
