/**
 * `batch --resume` for tool calls: after a kill, lines already answered (in
 * the results file, or journaled because they finished ahead of an earlier
 * line) are not run again. Guarantee: every call whose answer was recorded
 * runs once; only calls running at the kill (at most --concurrency) may run
 * twice.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BIN, cliEnv, runCli } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

interface Row {
  readonly id: unknown
  readonly tool: unknown
  readonly result: string
}

const rows = (path: string): Array<Row> =>
  readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Row)

const completeLines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").length - 1 : 0)

/** How many times each number was appended to the counter file. */
const runs = (counter: string): Map<number, number> => {
  const seen = new Map<number, number>()
  if (!existsSync(counter)) return seen
  for (const line of readFileSync(counter, "utf8").split("\n")) {
    if (line.length > 0) seen.set(Number(line), (seen.get(Number(line)) ?? 0) + 1)
  }
  return seen
}

/** 100 calls that each append their number to `counter`, spread over 4 tasks with uneven durations (so some finish out of order). */
const counterBatch = (dir: string, counter: string) => {
  const file = join(dir, "calls.jsonl")
  const lines = Array.from({ length: 100 }, (_, i) => {
    const n = i + 1
    return JSON.stringify({ id: n, tool: "terminal", task_id: `t${n % 4}`, args: { command: `sleep 0.0${(n * 7) % 9}; echo ${n} >> ${counter}` } })
  })
  writeFileSync(file, `${lines.join("\n")}\n`)
  return file
}

/** Start the batch, SIGKILL it (and its process group) once `atLeast` answers are in the results file. */
const killAfter = (args: ReadonlyArray<string>, home: string, out: string, atLeast: number) =>
  Effect.async<number>((resume) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv({ home }), detached: true, stdio: "ignore" })
    const timer = setInterval(() => {
      if (completeLines(out) < atLeast || child.pid === undefined) return
      clearInterval(timer)
      process.kill(-child.pid, "SIGKILL")
    }, 5)
    child.on("exit", () => {
      clearInterval(timer)
      resume(Effect.succeed(completeLines(out)))
    })
  })

describe("batch --resume for tool calls", () => {
  it.live("after a SIGKILL at ~30 answers, a resumed run answers every line once and runs each call once", () =>
    Effect.gen(function*() {
      const home = tempHome("hermes-effect-resume-")
      // Outside the runtime's home: commands touching the home need approval.
      const counter = join(tempHome("hermes-effect-resume-work-"), "counter.txt")
      const file = counterBatch(home, counter)
      const out = join(home, "results.jsonl")
      const args = ["batch", file, "--out", out, "--concurrency", "4"]

      const answeredAtKill = yield* killAfter(args, home, out, 30)
      expect(answeredAtKill).toBeGreaterThanOrEqual(30)
      expect(answeredAtKill).toBeLessThan(100)

      const resumed = runCli([...args, "--resume"], { home })
      expect(resumed.code).toBe(0)
      expect(resumed.stderr).toMatch(/batch: resuming, \d+ lines already answered/)
      const answered = rows(out)
      expect(answered.map((r) => r.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
      for (const r of answered) expect(JSON.parse(r.result)).toMatchObject({ output: "", exit_code: 0 })
      expect(existsSync(`${out}.journal`)).toBe(false)

      // Each call ran; only those cut mid-run (at most one per concurrent task) ran twice.
      const counts = runs(counter)
      expect([...counts.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
      const twice = [...counts].filter(([, c]) => c > 1)
      expect(twice.every(([, c]) => c === 2)).toBe(true)
      expect(twice.length).toBeLessThanOrEqual(4)

      // Resuming a finished batch runs nothing.
      const text = readFileSync(out, "utf8")
      const again = runCli([...args, "--resume"], { home })
      expect(again.code).toBe(0)
      expect(again.stderr).toMatch(/100 answered before \(not run again\)/)
      expect(readFileSync(out, "utf8")).toBe(text)
      expect(runs(counter)).toEqual(counts)
    }), 120_000)

  it("reuses the in-order answers and the journal, drops a torn line, and runs only the rest", () => {
    const home = tempHome("hermes-effect-resume-journal-")
    const counter = join(tempHome("hermes-effect-resume-work-"), "counter.txt")
    const file = join(home, "calls.jsonl")
    const call = (n: number) => JSON.stringify({ id: `c${n}`, tool: "terminal", args: { command: `echo ${n} >> ${counter}` } })
    writeFileSync(file, `${[1, 2, 3, 4, 5, 6].map(call).join("\n")}\n`)
    const out = join(home, "results.jsonl")
    const answer = (n: number) => JSON.stringify({ id: `c${n}`, tool: "terminal", result: `{"output":"earlier ${n}","exit_code":0,"error":null}` })
    // Lines 1-2 answered in order, line 3 torn by the kill; line 5 finished early and was journaled.
    writeFileSync(out, `${answer(1)}\n${answer(2)}\n{"id":"c3","tool":"term`)
    writeFileSync(`${out}.journal`, `${JSON.stringify({ line: 5, id: "c5", tool: "terminal", status: "ok", result: "{\"output\":\"earlier 5\",\"exit_code\":0,\"error\":null}" })}\n{"line":6,"id":"c6"`)

    const r = runCli(["batch", file, "--out", out, "--resume"], { home })
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/batch: 6 lines, 6 ok, 0 tool errors, 0 invalid lines, 3 answered before \(not run again\)/)
    const answered = rows(out)
    expect(answered.map((x) => x.id)).toEqual(["c1", "c2", "c3", "c4", "c5", "c6"])
    expect(answered.map((x) => (JSON.parse(x.result) as { output: string }).output)).toEqual(["earlier 1", "earlier 2", "", "", "earlier 5", ""])
    expect(readFileSync(counter, "utf8")).toBe("3\n4\n6\n")
    expect(existsSync(`${out}.journal`)).toBe(false)
  })

  it("answers from a different input are not reused", () => {
    const home = tempHome("hermes-effect-resume-changed-")
    const file = join(home, "calls.jsonl")
    writeFileSync(file, `${JSON.stringify({ id: "a", tool: "todo", args: { todos: [] } })}\n${JSON.stringify({ id: "b", tool: "todo", args: {} })}\n`)
    const out = join(home, "results.jsonl")
    writeFileSync(out, `${JSON.stringify({ id: "a", tool: "todo", result: "{\"stale\":true}" })}\n${JSON.stringify({ id: "x", tool: "todo", result: "{\"stale\":true}" })}\n`)
    const r = runCli(["batch", file, "--out", out, "--resume"], { home })
    expect(r.code).toBe(0)
    const answered = rows(out)
    expect(answered.map((x) => x.id)).toEqual(["a", "b"])
    expect(JSON.parse(answered[0]!.result)).toEqual({ stale: true })
    expect(JSON.parse(answered[1]!.result)).toMatchObject({ summary: { total: 0 } })
  })

  it("--resume without --out is a usage error", () => {
    const home = tempHome("hermes-effect-resume-usage-")
    const file = join(home, "calls.jsonl")
    writeFileSync(file, `${JSON.stringify({ tool: "todo", args: {} })}\n`)
    const r = runCli(["batch", file, "--resume"], { home })
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toBe("hermes-effect: --resume needs --out FILE (the results to resume from)")
  })
})
