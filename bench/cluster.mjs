// Prompt batches on @effect/cluster: 300 scripted prompts through the built CLI on a throwaway PostgreSQL, on 1
// and on 3 runner processes (each --concurrency 4), against a local `batch` of the same prompts (--concurrency 4,
// the same-run baseline). Reports wall time per batch, throughput, the coordination overhead per prompt (cluster
// minus local, per prompt) and the Postgres transactions per prompt (pg_stat_database), the number that bounds how
// far more machines scale. Skipped (one line on stderr) without postgres. Times are the batch's own summary line
// ("… N ms"), so process start-up is not counted on either side.
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { median } from "./_stats.mjs"

const BIN = fileURLToPath(new URL("../dist/bin.mjs", import.meta.url))
const PROMPTS = 300
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3)
const MODEL_MS = Number(process.env.BENCH_CLUSTER_MODEL_MS ?? 0)

const pgBin = () => {
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" })
  if (onPath.status === 0 && onPath.stdout.trim()) return join(onPath.stdout.trim(), "..")
  const base = "/usr/lib/postgresql"
  if (!existsSync(base)) return undefined
  const v = readdirSync(base).filter((x) => existsSync(join(base, x, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a))[0]
  return v === undefined ? undefined : join(base, v, "bin")
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = s.address().port
      s.close(() => resolve(port))
    })
  })

const startPostgres = async (bin) => {
  const root = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), "hermes-effect-bench-pg-"))
  chmodSync(dir, 0o755)
  if (root) chownSync(dir, 65534, 65534)
  const as = (p, args) => execFileSync(root ? "runuser" : join(bin, p), root ? ["-u", "nobody", "--", join(bin, p), ...args] : args, { stdio: "pipe", cwd: dir })
  as("initdb", ["-D", join(dir, "data"), "-A", "trust", "-U", "postgres", "--no-sync"])
  const port = await freePort()
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200`
  as("pg_ctl", ["-D", join(dir, "data"), "-o", opts, "-l", join(dir, "log"), "-w", "start"])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    postmaster: Number(readFileSync(join(dir, "data", "postmaster.pid"), "utf8").split("\n")[0]),
    stop: () => {
      try {
        as("pg_ctl", ["-D", join(dir, "data"), "-m", "immediate", "-w", "stop"])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}

const query = (url, text) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      return yield* sql.unsafe(text)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.scoped)
  )

const commits = async (url) => Number((await query(url, "SELECT xact_commit FROM pg_stat_database WHERE datname = 'postgres'"))[0].xact_commit)

const TICK_MS = 10 // /proc clock ticks (USER_HZ 100)

/** CPU ms of a live process; with `children`, also of its reaped children (Postgres backends that exited). */
const cpuMs = (pid, children = false) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    const [ut, st, cut, cst] = [f[11], f[12], f[13], f[14]].map(Number)
    return (ut + st + (children ? cut + cst : 0)) * TICK_MS
  } catch {
    return 0
  }
}

/** CPU ms of the Postgres server: the postmaster with its reaped backends, plus the live backends. */
const postgresCpuMs = (postmaster) => {
  let total = cpuMs(postmaster, true)
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
      if (Number(f[1]) === postmaster) total += cpuMs(Number(pid))
    } catch {}
  }
  return total
}

/** A CLI run; its CPU time comes from bash's `times` (children's user and system time). */
const cli = (args, home, cwd) =>
  new Promise((resolve) => {
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ")
    const child = spawn("bash", ["-c", `${quoted}; code=$?; times >&3; exit $code`], {
      env: { ...process.env, HERMES_EFFECT_HOME: home },
      cwd,
      stdio: ["ignore", "pipe", "pipe", "pipe"]
    })
    let stderr = ""
    let times = ""
    child.stderr.on("data", (d) => void (stderr += d.toString()))
    child.stdio[3].on("data", (d) => void (times += d.toString()))
    child.on("close", (code) => {
      const line = times.trim().split("\n")[1] ?? ""
      const secs = [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((a, m) => a + Number(m[1]) * 60 + Number(m[2]), 0)
      resolve({ code, stderr, cpuMs: secs * 1000 })
    })
  })

/** The batch's own time, from its summary line. */
const batchMs = (stderr) => {
  const m = /batch: \d+ prompts, .*?, (\d+) ms/.exec(stderr)
  if (!m) throw new Error(`no summary line in:\n${stderr}`)
  return Number(m[1])
}

const waitFor = async (check, ms) => {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error("timed out")
}

export const run = async () => {
  const bin = pgBin()
  if (bin === undefined || !existsSync(BIN)) {
    process.stderr.write(`bench cluster: skipped (${bin === undefined ? "postgresql is not installed" : "run npm run build first"})\n`)
    return []
  }
  const pg = await startPostgres(bin)
  const dir = mkdtempSync(join(tmpdir(), "hermes-effect-bench-cluster-"))
  const script = join(dir, "script.jsonl")
  writeFileSync(script, `${JSON.stringify({ ...(MODEL_MS > 0 ? { delay_ms: MODEL_MS } : {}), content: "answered" })}\n`)
  let n = 0
  const promptsFile = () => {
    // A fresh comment line makes a fresh batch id: every round is a new batch, never a resumed one.
    const file = join(dir, `prompts-${++n}.jsonl`)
    writeFileSync(file, `# round ${n}\n${Array.from({ length: PROMPTS }, (_, i) => JSON.stringify({ id: i, prompt: `question ${i}`, toolsets: [] })).join("\n")}\n`)
    return file
  }
  const home = (name) => {
    const h = join(dir, name)
    mkdirSync(h, { recursive: true })
    return h
  }
  const children = []
  try {
    const local = []
    const localCpu = []
    // CPU of a one-prompt batch: process start-up and the runtime, taken out of both sides.
    const one = join(dir, "one.jsonl")
    writeFileSync(one, `${JSON.stringify({ id: 0, prompt: "question", toolsets: [] })}\n`)
    const startup = (await cli(["batch", one, "--script", script, "--out", join(dir, "one-out.jsonl")], home("one"), dir)).cpuMs
    for (let r = 0; r < ROUNDS; r++) {
      const res = await cli(["batch", promptsFile(), "--script", script, "--out", join(dir, `local-${r}.jsonl`), "--concurrency", "4"], home(`local-${r}`), dir)
      local.push(batchMs(res.stderr))
      localCpu.push(res.cpuMs - startup)
    }
    const cluster = {}
    const txPerPrompt = {}
    const cpuPerPrompt = {}
    for (const runners of [1, 3]) {
      await query(pg.url, "DELETE FROM hermes_cluster_runners").catch(() => {})
      for (let i = 0; i < runners; i++) {
        const child = spawn(process.execPath, [BIN, "runner", "--cluster", pg.url, "--script", script, "--concurrency", "4"], {
          env: { ...process.env, HERMES_EFFECT_HOME: home(`runner-${runners}-${i}`) },
          cwd: dir,
          stdio: "ignore"
        })
        children.push(child)
      }
      await waitFor(async () => {
        const rows = await query(pg.url, "SELECT count(*) AS n FROM hermes_cluster_runners WHERE updated_at > now() - interval '3 seconds'").catch(() => [{ n: 0 }])
        return Number(rows[0].n) >= runners
      }, 120_000)
      await new Promise((r) => setTimeout(r, 3000)) // let the shards settle across the runners
      const times = []
      const tx = []
      const cpu = []
      const mine = children.slice(-runners)
      for (let r = 0; r < ROUNDS; r++) {
        const before = await commits(pg.url)
        const cpuBefore = mine.reduce((a, c) => a + cpuMs(c.pid), 0) + postgresCpuMs(pg.postmaster)
        const res = await cli(["batch", promptsFile(), "--cluster", pg.url, "--out", join(dir, `cluster-${runners}-${r}.jsonl`)], home(`submit-${runners}-${r}`), dir)
        const ms = batchMs(res.stderr)
        const cpuAfter = mine.reduce((a, c) => a + cpuMs(c.pid), 0) + postgresCpuMs(pg.postmaster)
        tx.push((await commits(pg.url) - before) / PROMPTS)
        // Runners and Postgres during the batch, plus the submitter beyond its start-up.
        cpu.push((cpuAfter - cpuBefore + res.cpuMs - startup) / PROMPTS)
        times.push(ms)
      }
      cluster[runners] = median(times)
      txPerPrompt[runners] = median(tx)
      cpuPerPrompt[runners] = median(cpu)
      for (const c of children.splice(0)) c.kill("SIGTERM")
      await new Promise((r) => setTimeout(r, 2000))
    }
    const localMs = median(local)
    const rows = [
      { name: `cluster: local batch, ${PROMPTS} prompts (conc 4)`, value: (PROMPTS * 1000) / localMs, unit: "prompts/s" },
      ...[1, 3].map((k) => ({
        name: `cluster: ${k} runner${k > 1 ? "s" : ""} × conc 4, ${PROMPTS} prompts`,
        value: (PROMPTS * 1000) / cluster[k],
        unit: "prompts/s",
        baseline: (PROMPTS * 1000) / localMs,
        baselineName: "local batch",
        ratio: localMs / cluster[k]
      })),
      ...[1, 3].map((k) => ({
        name: `cluster: coordination per prompt, ${k} runner${k > 1 ? "s" : ""}`,
        value: (cluster[k] - localMs) / PROMPTS,
        unit: "ms (wall, vs local)"
      })),
      ...[1, 3].map((k) => ({ name: `cluster: Postgres commits per prompt, ${k} runner${k > 1 ? "s" : ""}`, value: txPerPrompt[k], unit: "tx" })),
      ...[1, 3].map((k) => ({
        name: `cluster: CPU per prompt, ${k} runner${k > 1 ? "s" : ""} (runners+pg+submitter)`,
        value: cpuPerPrompt[k],
        unit: "ms",
        baseline: median(localCpu) / PROMPTS,
        baselineName: "local batch CPU per prompt",
        ratio: cpuPerPrompt[k] / (median(localCpu) / PROMPTS)
      }))
    ]
    return rows
  } finally {
    for (const c of children) c.kill("SIGKILL")
    pg.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await run()) process.stdout.write(`${JSON.stringify(row)}\n`)
}
