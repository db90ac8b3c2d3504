/**
 * `hermes-effect batch … | head`: when the reader of stdout goes away the
 * batch stops quietly with SIGPIPE's status, as Unix tools do, instead of
 * reporting an internal error.
 */
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { BIN, cliEnv } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

/** Run the CLI, read stdout until the first line arrives, then close our end of the pipe. */
const readFirstLineThenClose = (args: ReadonlyArray<string>, home: string) =>
  new Promise<{ readonly code: number | null; readonly first: string; readonly stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv({ home }), stdio: ["ignore", "pipe", "pipe"] })
    let first = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => {
      if (first.includes("\n")) return
      first += d.toString()
      if (first.includes("\n")) child.stdout.destroy()
    })
    child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, first: first.split("\n")[0] ?? "", stderr })
    })
  })

describe("a reader of stdout that goes away", () => {
  it("tool-call and prompt batches stop quietly with status 141", async () => {
    const home = tempHome("hermes-effect-stdout-closed-")
    const calls = join(home, "calls.jsonl")
    // Enough lines that results are still being written when the reader has gone.
    writeFileSync(calls, Array.from({ length: 400 }, (_, i) => JSON.stringify({ id: i, tool: "todo", args: { todos: [] }, task_id: `t${i}` })).join("\n"))
    const callRun = await readFirstLineThenClose(["batch", calls, "--concurrency", "1"], home)
    expect(JSON.parse(callRun.first)).toMatchObject({ id: 0, tool: "todo" })
    expect(callRun.stderr).not.toMatch(/internal error|EPIPE/)
    expect(callRun.code).toBe(141)

    const script = join(home, "script.jsonl")
    writeFileSync(script, JSON.stringify({ content: "done", repeat: 1000 }))
    writeFileSync(join(home, "config.yaml"), `model:\n  provider: scripted\n  script: ${script}\n`)
    const prompts = join(home, "prompts.jsonl")
    writeFileSync(prompts, Array.from({ length: 400 }, (_, i) => JSON.stringify({ id: i, prompt: `p${i}` })).join("\n"))
    const promptRun = await readFirstLineThenClose(["batch", prompts, "--concurrency", "1"], home)
    expect(JSON.parse(promptRun.first)).toMatchObject({ status: "completed" })
    expect(promptRun.stderr).not.toMatch(/internal error|EPIPE/)
    expect(promptRun.code).toBe(141)
  }, 120_000)
})
