// Scheduler: 10 000 jobs in a state.db file (mixed intervals and cron expressions), 100 of them due.
// Measures how long the scheduler takes to find the due jobs (`CronJobs.due`, the query every tick starts with,
// rows decoded into jobs) and to compute when to wake next (`nextWake`), through a ManagedRuntime.
// Baseline (same run, interleaved): the same SQL through raw better-sqlite3 prepared statements on the same file.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect, Layer, ManagedRuntime } from "effect"
import { stateDatabaseLayer } from "../dist/index.js"
import { CronJobsSql } from "../dist/layers/cron/CronJobsSql.js"
import { CronJobs } from "../dist/services/CronJobs.js"
import { median } from "./_stats.mjs"

const JOBS = 10_000
const DUE = 100
const ROUNDS = 300

const SCHEDULES = ["every 5m", "every 30m", "every 2h", "0 9 * * *", "*/15 * * * *", "0 8 * * MON-FRI", "every 1d"]

export const run = async () => {
  const file = join(mkdtempSync(join(tmpdir(), "hermes-bench-cron-")), "state.db")
  const runtime = ManagedRuntime.make(CronJobsSql.pipe(Layer.provideMerge(stateDatabaseLayer({ filename: file }))))
  const store = await runtime.runPromise(CronJobs)
  await runtime.runPromise(Effect.forEach(Array.from({ length: JOBS }, (_, i) => i), (i) =>
    store.create({ prompt: `Job ${i}: summarise what changed.`, schedule: SCHEDULES[i % SCHEDULES.length], tz: "UTC" }), { discard: true }))

  const raw = new Database(file)
  // A deterministic 1 % of the jobs are due: their next run was a minute ago.
  raw.prepare(`UPDATE cron_jobs SET next_run_at = ? WHERE rowid IN (SELECT rowid FROM cron_jobs ORDER BY id LIMIT ${DUE})`).run(Date.now() - 60_000)
  const rawDue = raw.prepare(`SELECT j.* FROM cron_jobs j WHERE j.enabled = 1 AND j.next_run_at <= ?
    AND NOT EXISTS (SELECT 1 FROM cron_leases l WHERE l.job_id = j.id AND l.expires_at > ?)
    ORDER BY j.next_run_at`)
  const rawWake = raw.prepare(`SELECT min(w) AS wake FROM (
      SELECT * FROM (SELECT next_run_at AS w FROM cron_jobs WHERE enabled = 1 AND next_run_at IS NOT NULL
        AND id NOT IN (SELECT job_id FROM cron_leases WHERE expires_at > @now) ORDER BY next_run_at LIMIT 1)
      UNION ALL
      SELECT max(j.next_run_at, l.expires_at) FROM cron_leases l CROSS JOIN cron_jobs j ON j.id = l.job_id
        WHERE l.expires_at > @now AND j.enabled = 1 AND j.next_run_at IS NOT NULL)`)

  const ours = []
  const base = []
  const oursWake = []
  const baseWake = []
  let found = 0
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now()
    found = (await runtime.runPromise(store.due)).length
    ours.push(performance.now() - t)
    t = performance.now()
    const now = Date.now()
    rawDue.all(now, now)
    base.push(performance.now() - t)
    t = performance.now()
    await runtime.runPromise(store.nextWake)
    oursWake.push(performance.now() - t)
    t = performance.now()
    rawWake.get({ now: Date.now() })
    baseWake.push(performance.now() - t)
  }
  raw.close()
  await runtime.dispose()
  if (found !== DUE) throw new Error(`expected ${DUE} due jobs, found ${found}`)
  return [
    {
      name: `cron: find the ${DUE} due jobs among ${JOBS} (median)`,
      value: median(ours),
      unit: "ms",
      baseline: median(base),
      baselineName: "raw better-sqlite3, same query",
      ratio: median(ours) / median(base),
      target: "≤ 5 ms"
    },
    {
      name: `cron: next wake-up over ${JOBS} jobs (median)`,
      value: median(oursWake),
      unit: "ms",
      baseline: median(baseWake),
      baselineName: "raw better-sqlite3, same query",
      ratio: median(oursWake) / median(baseWake)
    }
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(JSON.stringify(row))
}
