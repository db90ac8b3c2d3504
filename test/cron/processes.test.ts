/**
 * Schedulers as separate processes (`node dist/bin.mjs cron …`) on one home and one
 * real state.db, with the scripted model: each due job runs once however many
 * schedulers look at it, and a job whose scheduler was killed mid-run runs again
 * once its lease has expired. Run `npm run build` first (`npm test` does).
 */
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { createRequire } from "node:module"
import { afterEach, describe, expect, it } from "vitest"
import { BIN, cliEnv, runCli } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

// better-sqlite3 ships no types; the test needs only these calls.
interface Db {
  prepare(sql: string): { all(...params: ReadonlyArray<unknown>): Array<unknown>; run(...params: ReadonlyArray<unknown>): unknown }
  close(): void
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new(file: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => Db

const homeWithScript = (turn: Record<string, unknown>) => {
  const home = tempHome("hermes-effect-cron-")
  const script = join(home, "script.jsonl")
  writeFileSync(script, `${JSON.stringify({ repeat: true, ...turn })}\n`)
  writeFileSync(join(home, "config.yaml"), `model: {provider: scripted, script: ${JSON.stringify(script)}}\n`)
  return home
}

const query = <T>(home: string, sql: string): Array<T> => {
  const db = new Database(join(home, "state.db"), { readonly: true, fileMustExist: true })
  try {
    return db.prepare(sql).all() as Array<T>
  } finally {
    db.close()
  }
}

const started: Array<ReturnType<typeof spawn>> = []
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
})

const start = (args: ReadonlyArray<string>, home: string) => {
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv({ home }), stdio: ["ignore", "ignore", "pipe"] })
  started.push(child)
  let stderr = ""
  child.stderr!.on("data", (d: Buffer) => void (stderr += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { child, exited, stderr: () => stderr }
}

const waitFor = async (probe: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (!probe() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  return probe()
}

const create = (home: string, schedule: string, prompt: string) => {
  const r = runCli(["cron", "create", schedule, prompt, "--json"], { home })
  expect(r.stderr).toBe("")
  expect(r.code).toBe(0)
  return (JSON.parse(r.stdout) as { job_id: string }).job_id
}

describe("cron schedulers as processes", () => {
  it("two schedulers on one home run each due job exactly once", async () => {
    const home = homeWithScript({ content: "Done.", delay_ms: 150 })
    const now = new Date().toISOString()
    const ids = [
      ...[1, 2, 3, 4].map((i) => create(home, now, `one-shot ${i}`)),
      ...[1, 2, 3, 4].map((i) => create(home, "every 1h", `hourly ${i}`))
    ]
    // The hourly jobs are made due now, as if their hour had come.
    const db = new Database(join(home, "state.db"))
    db.prepare("UPDATE cron_jobs SET next_run_at = ? WHERE next_run_at > ?").run(Date.now() - 1000, Date.now())
    db.close()

    const daemon = start(["cron", "run", "--poll-seconds", "1"], home)
    const ticks = [start(["cron", "tick"], home), start(["cron", "tick"], home)]
    expect(await Promise.all(ticks.map((t) => t.exited))).toEqual([0, 0])
    const counted = () => query<{ n: number }>(home, "SELECT count(DISTINCT job_id) AS n FROM cron_runs")[0]!.n
    expect(await waitFor(() => counted() === ids.length, 20_000), daemon.stderr() + ticks.map((t) => t.stderr()).join("")).toBe(true)
    // Another round finds nothing due: the one-shots are gone, the hourly jobs wait for their next hour.
    expect(runCli(["cron", "tick"], { home }).stderr).toContain("0 jobs run")
    daemon.child.kill("SIGTERM")
    await daemon.exited

    const perJob = query<{ job_id: string; n: number; ok: number }>(home, "SELECT job_id, count(*) AS n, sum(status = 'ok') AS ok FROM cron_runs GROUP BY job_id")
    expect(perJob.map((r) => r.job_id).sort()).toEqual([...ids].sort())
    expect(perJob.every((r) => r.n === 1 && r.ok === 1)).toBe(true)
    expect(query<{ n: number }>(home, "SELECT count(*) AS n FROM cron_jobs")[0]!.n).toBe(4)
    expect(query(home, "SELECT * FROM cron_leases")).toEqual([])
    const history = runCli(["cron", "history", "--json"], { home })
    expect((JSON.parse(history.stdout) as ReadonlyArray<unknown>).length).toBe(8)
  }, 60_000)

  it("a scheduler killed with SIGKILL mid-run leaves the job to be run again once the lease expires", async () => {
    const home = homeWithScript({ content: "Finally done.", delay_ms: 2500 })
    const id = create(home, new Date().toISOString(), "slow job")
    const first = start(["cron", "tick", "--lease-seconds", "2"], home)
    const leased = () => query<{ owner: string }>(home, "SELECT owner FROM cron_leases").length === 1
    expect(await waitFor(leased, 15_000)).toBe(true)
    first.child.kill("SIGKILL")
    await first.exited
    // Killed mid-run: no run recorded, the job is still there and its lease is left behind.
    expect(query(home, "SELECT * FROM cron_runs")).toEqual([])
    expect(query<{ id: string }>(home, "SELECT id FROM cron_jobs").map((r) => r.id)).toEqual([id])
    expect(leased()).toBe(true)

    await new Promise((resolve) => setTimeout(resolve, 2200))
    const second = runCli(["cron", "tick", "--lease-seconds", "2"], { home })
    expect(second.code).toBe(0)
    expect(second.stderr).toContain("1 job run")
    const runs = query<{ job_id: string; status: string; owner: string }>(home, "SELECT job_id, status, owner FROM cron_runs")
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ job_id: id, status: "ok" })
    expect(query(home, "SELECT * FROM cron_jobs")).toEqual([])
  }, 60_000)

  it("Ctrl-C on `cron run` gives a running job back at once: the next tick runs it", async () => {
    const home = homeWithScript({ content: "Done.", delay_ms: 1500 })
    create(home, new Date().toISOString(), "interrupted job")
    const daemon = start(["cron", "run", "--poll-seconds", "1"], home)
    expect(await waitFor(() => query(home, "SELECT * FROM cron_leases").length === 1, 15_000)).toBe(true)
    daemon.child.kill("SIGINT")
    expect(await daemon.exited).toBe(130)
    expect(query(home, "SELECT * FROM cron_leases")).toEqual([])
    expect(runCli(["cron", "tick"], { home }).stderr).toContain("1 job run")
    expect(query<{ status: string }>(home, "SELECT status FROM cron_runs")).toEqual([{ status: "ok" }])
  }, 60_000)

  it("a bad cron expression is refused by the CLI with the reason", () => {
    const home = homeWithScript({ content: "x" })
    const r = runCli(["cron", "create", "0 9 * * 8", "never"], { home })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("Invalid schedule '0 9 * * 8'")
  })
})
