/**
 * Prompt batches on @effect/cluster with a real PostgreSQL: three runner
 * processes on the scripted provider, 300 prompts. The submitter is killed
 * (-9) early and started again (it resumes the same batch); one runner is
 * killed (-9) halfway, mid-prompt (its shards move to the others). Every
 * prompt ends up with exactly one result line, in input order; the prompt
 * whose script fails is recorded as failed once.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { BIN, cliEnv } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"
import { describeNeeding } from "../support/systemPrograms.js"
import { postgresProblem, startPostgres } from "./postgres.js"
import type { Postgres } from "./postgres.js"

const PROMPTS = 300
const FAILING = 137

interface Proc {
  readonly child: ChildProcess
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

const start = (args: ReadonlyArray<string>, home: string, cwd: string): Proc => {
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv({ home }), cwd, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (d: Buffer) => void (stdout += d.toString()))
  child.stderr?.on("data", (d: Buffer) => void (stderr += d.toString()))
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }))
  )
  return { child, done }
}

const query = <A extends object>(url: string, text: string) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      return yield* sql.unsafe<A>(text)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.scoped)
  )

const resultCount = async (url: string) => {
  const rows = await query<{ n: string }>(url, "SELECT count(*) AS n FROM hermes_batch_results").catch(() => [{ n: "0" }])
  return Number(rows[0]?.n ?? 0)
}

const waitFor = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Record<string, unknown>)

describeNeeding(postgresProblem(), "batch --cluster on three runners and a real Postgres", () => {
  let pg: Postgres | undefined
  const runners: Array<Proc> = []
  beforeAll(async () => {
    pg = await startPostgres()
  }, 90_000)
  afterAll(() => {
    for (const r of runners) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill("SIGKILL")
    pg?.stop()
  })

  it("runs every prompt exactly once through a submitter kill and a runner kill, in input order", { timeout: 240_000 }, async () => {
    const url = pg!.url
    const dir = tempHome("hermes-effect-cluster-")
    const script = join(dir, "script.jsonl")
    writeFileSync(script, [
      JSON.stringify({ when: { first_user_contains: "FAIL" }, error: { type: "auth", message: "scripted failure" } }),
      JSON.stringify({ delay_ms: 150, content: "answered" })
    ].join("\n") + "\n")
    const prompts = join(dir, "prompts.jsonl")
    const ids = Array.from({ length: PROMPTS }, (_, i) => `p${i}`)
    writeFileSync(prompts, ids.map((id, i) => JSON.stringify({ id, prompt: `${i === FAILING ? "FAIL " : ""}question ${i}`, toolsets: [] })).join("\n") + "\n")
    const out = join(dir, "out.jsonl")
    const trajectories = join(dir, "trajectories.jsonl")
    const submitArgs = ["batch", prompts, "--cluster", url, "--out", out, "--trajectories", trajectories]
    const home = (name: string) => {
      const h = join(dir, name)
      mkdirSync(h)
      return h
    }

    for (const name of ["r1", "r2", "r3"]) runners.push(start(["runner", "--cluster", url, "--script", script, "--concurrency", "4"], home(name), dir))

    // The submitter dies early; run again with the same file, it resumes the same batch.
    const first = start(submitArgs, home("s1"), dir)
    await waitFor("the first results", async () => (await resultCount(url)) >= 30, 120_000)
    first.child.kill("SIGKILL")
    await first.done
    const second = start(submitArgs, home("s2"), dir)

    // Halfway, a runner dies mid-prompt (4 prompts of 150 ms each in flight).
    await waitFor("half of the results", async () => (await resultCount(url)) >= PROMPTS / 2, 120_000)
    const victim = runners[1]!
    victim.child.kill("SIGKILL")
    await victim.done

    const submitted = await second.done
    expect(submitted.stderr).toMatch(/batch: resuming cluster batch [0-9a-f]+, \d+ prompts already done/)
    expect(submitted.stderr).toMatch(new RegExp(`batch: ${PROMPTS} prompts, ${PROMPTS - 1} completed, 0 stopped early, 1 failed, 0 invalid lines`))
    expect(submitted.code).toBe(1)

    const results = lines(out)
    expect(results.map((r) => r["id"])).toEqual(ids)
    expect(results.filter((r) => r["status"] === "completed").every((r) => r["response"] === "answered")).toBe(true)
    expect(results[FAILING]).toMatchObject({ id: `p${FAILING}`, status: "failed" })
    expect(String(results[FAILING]!["error"])).toContain("scripted failure")
    const traj = lines(trajectories)
    expect(traj).toHaveLength(PROMPTS - 1)
    expect(new Set(traj.map((t) => t["session_id"])).size).toBe(PROMPTS - 1)

    // Postgres holds one result, one session and its messages per prompt; the killed runner's half-done runs left nothing.
    const [stored] = await query<{ results: string; sessions: string; distinct_sessions: string; messages: string }>(url, `
      SELECT (SELECT count(*) FROM hermes_batch_results) AS results,
             (SELECT count(*) FROM sessions) AS sessions,
             (SELECT count(DISTINCT session_id) FROM hermes_batch_results) AS distinct_sessions,
             (SELECT count(*) FROM messages m JOIN hermes_batch_results r ON r.session_id = m.session_id) AS messages`)
    expect(Number(stored!.results)).toBe(PROMPTS)
    expect(Number(stored!.sessions)).toBe(PROMPTS)
    expect(Number(stored!.distinct_sessions)).toBe(PROMPTS)
    expect(Number(stored!.messages)).toBeGreaterThanOrEqual(2 * PROMPTS)
    const byRunner = await query<{ runner: string; n: string }>(url, "SELECT runner, count(*) AS n FROM hermes_batch_results GROUP BY runner")
    expect(byRunner.length).toBeGreaterThanOrEqual(2)

    // Status: three runners were seen, the batch is complete.
    const status = start(["cluster", "status", "--cluster", url, "--json"], home("st"), dir)
    const shown = await status.done
    expect(shown.code).toBe(0)
    const parsed = JSON.parse(shown.stdout) as { runners: Array<{ address: string; done: number }>; batches: Array<{ total: number; done: number; failed: number }> }
    expect(parsed.runners).toHaveLength(3)
    expect(parsed.batches[0]).toMatchObject({ total: PROMPTS, done: PROMPTS - 1, failed: 1 })

    // Once more with the same file: nothing is sent, the same lines come back.
    const again = start(submitArgs.map((a) => (a === out ? `${out}.2` : a)), home("s3"), dir)
    const third = await again.done
    expect(third.stderr).toMatch(new RegExp(`resuming cluster batch [0-9a-f]+, ${PROMPTS} prompts already done`))
    expect(readFileSync(`${out}.2`, "utf8")).toBe(readFileSync(out, "utf8"))
  })
})
