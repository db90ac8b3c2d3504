/**
 * `hermes-effect batch … | head`: when the reader of stdout goes away the
 * batch stops quietly with SIGPIPE's status, as Unix tools do, instead of
 * reporting an internal error.
 */
import { spawn, spawnSync } from "node:child_process"
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

/**
 * A reader that is slow, on a pipe whose file description is non-blocking (set by whoever shares it): writes take
 * part of a line, or fail with EAGAIN, until the reader catches up. The batch waits and writes everything; it died
 * of EAGAIN this way in a loaded CI run. The pipe is made and read by python (Node cannot set O_NONBLOCK).
 */
describe("a slow reader on a non-blocking pipe", () => {
  it("gets every line, whole, and the batch ends well", () => {
    const home = tempHome("hermes-effect-stdout-slow-")
    const calls = join(home, "calls.jsonl")
    // ~400 KB of results: far more than a pipe buffer holds.
    const big = { todos: Array.from({ length: 40 }, (_, k) => ({ id: `t${k}`, content: "x".repeat(80), status: "pending" })) }
    writeFileSync(calls, Array.from({ length: 100 }, (_, i) => JSON.stringify({ id: i, tool: "todo", args: big, task_id: `t${i}` })).join("\n"))
    const driver = [
      "import fcntl, os, subprocess, sys, time",
      "r, w = os.pipe()",
      "fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)",
      "p = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)",
      "os.close(w)",
      "time.sleep(1.5)",
      "out = b''",
      "while True:",
      "    chunk = os.read(r, 4096)",
      "    if not chunk: break",
      "    out += chunk",
      "    time.sleep(0.001)",
      "err = p.stderr.read()",
      "sys.stdout.write(str(p.wait()) + ' ' + str(len([l for l in out.split(b'\\n') if l.strip()])) + ' ' + str(sum(1 for l in out.split(b'\\n') if l.strip() and l.startswith(b'{') and l.endswith(b'}'))) + ' ' + err.decode()[-300:])"
    ].join("\n")
    const run = spawnSync("python3", ["-c", driver, process.execPath, BIN, "batch", calls, "--concurrency", "4"], { env: cliEnv({ home }), encoding: "utf8", timeout: 120_000 })
    expect(run.stdout).toMatch(/^0 100 100 /)
    expect(run.stdout).not.toMatch(/internal error/)
  }, 150_000)
})
