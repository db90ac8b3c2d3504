/**
 * Prompt batches on @effect/cluster with a real PostgreSQL: three runner
 * processes on the scripted provider, 300 prompts. The submitter is killed
 * (-9) early and started again (it resumes the same batch); one runner is
 * killed (-9) halfway, mid-prompt (its shards move to the others). Every
 * prompt ends up with exactly one result line, in input order; the prompt
 * whose script fails is recorded as failed once. A second test marks two
 * messages as read, as a runner letting go of its shard under load can leave
 * them, and checks the owner's sweep still runs them. On failure both print
 * what Postgres and every process say (and keep their stderr in the temp dir).
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it, onTestFailed } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { BIN, cliEnv } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"
import { describeNeeding } from "../support/systemPrograms.js"
import { SHARDS } from "../../src/layers/cluster/shardingLayer.js"
import { postgresProblem, startPostgres } from "./postgres.js"
import type { Postgres } from "./postgres.js"

const PROMPTS = 300
const FAILING = 137

interface Proc {
  readonly name: string
  readonly child: ChildProcess
  /** Everything it wrote to stderr so far (also appended to <dir>/<name>.stderr, kept after the test). */
  readonly stderr: () => string
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

const start = (name: string, args: ReadonlyArray<string>, home: string, cwd: string): Proc => {
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv({ home }), cwd, stdio: ["ignore", "pipe", "pipe"] })
  const log = join(cwd, `${name}.stderr`)
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (d: Buffer) => void (stdout += d.toString()))
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString()
    appendFileSync(log, d)
  })
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }))
  )
  return { name, child, stderr: () => stderr, done }
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

/** Thrown by `within` when the test's own deadline passes first (so the failure comes with diagnostics, not a bare vitest timeout). */
class Overdue extends Error {}

/** `promise`, or `Overdue` once `deadline` (epoch ms) has passed. */
const within = <A>(what: string, promise: Promise<A>, deadline: number): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Overdue(`timed out waiting for ${what}`)), Math.max(0, deadline - Date.now()))
  })
  return Promise.race([promise, overdue]).finally(() => clearTimeout(timer))
}

const waitFor = async (what: string, check: () => Promise<boolean>, deadline: number) => {
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Overdue(`timed out waiting for ${what}`)
}

/** Which expected ids are missing from the output, which come twice, and the first position out of order. */
const orderProblems = (expected: ReadonlyArray<string>, got: ReadonlyArray<unknown>): string => {
  const counts = new Map<string, number>()
  for (const id of got) counts.set(String(id), (counts.get(String(id)) ?? 0) + 1)
  const missing = expected.map((id, i) => [id, i] as const).filter(([id]) => !counts.has(id)).map(([, i]) => i)
  const doubled = [...counts].filter(([, n]) => n > 1).map(([id, n]) => `${id}×${n}`)
  const known = new Set(expected)
  const unknown = [...counts.keys()].filter((id) => !known.has(id))
  const firstOff = got.findIndex((id, i) => String(id) !== expected[i])
  const parts = [
    missing.length > 0 ? `missing indexes ${missing.join(",")}` : "",
    doubled.length > 0 ? `duplicated ${doubled.join(",")}` : "",
    unknown.length > 0 ? `unexpected ${unknown.join(",")}` : "",
    firstOff >= 0 ? `first out of place at line ${firstOff} (${String(got[firstOff])})` : "",
    got.length !== expected.length ? `${got.length} lines for ${expected.length} prompts` : ""
  ]
  return parts.filter((p) => p.length > 0).join("; ")
}

const tail = (text: string, lines: number) => text.split("\n").filter((l) => l.length > 0).slice(-lines).join("\n")

/**
 * What Postgres and the processes say, for a failure message: the prompts without a result and where their
 * cluster messages stand (read? answered? on which shard, held by which backend), the runners' registry and
 * advisory locks, and the tail of every process's stderr.
 */
const diagnostics = async (url: string, procs: ReadonlyArray<Proc>, out: string, ids: ReadonlyArray<string>): Promise<string> => {
  const sections: Array<string> = []
  const safely = async (title: string, f: () => Promise<string>) => {
    try {
      sections.push(`--- ${title}\n${await f()}`)
    } catch (e) {
      sections.push(`--- ${title}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  await safely("output file", async () =>
    existsSync(out) ? orderProblems(ids, lines(out).map((r) => r["id"])) || "complete, in order" : "not written")
  await safely("results in Postgres", async () => {
    const rows = await query<{ runner: string; status: string; n: string }>(url,
      "SELECT runner, status, count(*) AS n FROM hermes_batch_results GROUP BY runner, status ORDER BY runner, status")
    return rows.map((r) => `${r.runner} ${r.status}: ${r.n}`).join("\n") || "none"
  })
  await safely("prompts without a result (first 20)", async () => {
    const rows = await query<Record<string, unknown>>(url, `
      WITH b AS (SELECT batch_id, total FROM hermes_batches ORDER BY created_at DESC LIMIT 1),
      missing AS (
        SELECT b.batch_id, i AS idx FROM b, generate_series(0, b.total - 1) AS i
        WHERE NOT EXISTS (SELECT 1 FROM hermes_batch_results r WHERE r.batch_id = b.batch_id AND r.idx = i)
      )
      SELECT m.idx, g.runner AS claimed_by, g.started_at, c.shard_id, c.processed, c.last_read, c.last_reply_id,
             (SELECT string_agg(kind::text, ',') FROM cluster_replies p WHERE p.request_id = c.id) AS reply_kinds
      FROM missing m
      LEFT JOIN hermes_batch_running g ON g.batch_id = m.batch_id AND g.idx = m.idx
      LEFT JOIN cluster_messages c ON c.entity_type = 'Prompt' AND c.entity_id = m.batch_id || '/' || m.idx
      ORDER BY m.idx LIMIT 20`)
    return rows.map((r) => JSON.stringify(r)).join("\n") || "none"
  })
  await safely("cluster runners", async () => {
    const rows = await query<Record<string, unknown>>(url, "SELECT address, healthy, last_heartbeat, now() AS now FROM cluster_runners ORDER BY address")
    return rows.map((r) => JSON.stringify(r)).join("\n")
  })
  await safely("advisory locks (shard locks) per backend", async () => {
    const rows = await query<Record<string, unknown>>(url, `
      SELECT a.pid, a.client_port, a.state, a.backend_start, count(*) AS locks, min(l.objid) AS first, max(l.objid) AS last
      FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted GROUP BY a.pid, a.client_port, a.state, a.backend_start ORDER BY a.pid`)
    return rows.map((r) => JSON.stringify(r)).join("\n") || "none"
  })
  for (const p of procs) {
    const state = p.child.exitCode !== null ? `exit ${p.child.exitCode}` : p.child.signalCode !== null ? `killed ${p.child.signalCode}` : "running"
    sections.push(`--- ${p.name} (pid ${p.child.pid ?? "?"}, ${state}) stderr tail\n${tail(p.stderr(), 25)}`)
  }
  return sections.join("\n")
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

    // Fail on our own deadline, before vitest's, so a hang is reported with what Postgres and the processes say.
    const deadline = Date.now() + 210_000
    const procs: Array<Proc> = []
    const track = (p: Proc) => {
      procs.push(p)
      return p
    }
    onTestFailed(async (context) => {
      const report = await diagnostics(url, procs, out, ids)
      process.stderr.write(`\n=== cluster batch test failed (${context.task.result?.errors?.[0]?.message ?? "?"}); files in ${dir}\n${report}\n`)
    })

    for (const name of ["r1", "r2", "r3"]) {
      runners.push(track(start(name, ["runner", "--cluster", url, "--script", script, "--concurrency", "4"], home(name), dir)))
    }

    // The submitter dies early; run again with the same file, it resumes the same batch.
    const first = track(start("s1", submitArgs, home("s1"), dir))
    await waitFor("the first results", async () => (await resultCount(url)) >= 30, deadline)
    first.child.kill("SIGKILL")
    await within("the first submitter to die", first.done, deadline)
    const second = track(start("s2", submitArgs, home("s2"), dir))

    // Halfway, a runner dies mid-prompt (4 prompts of 150 ms each in flight).
    await waitFor("half of the results", async () => (await resultCount(url)) >= PROMPTS / 2, deadline)
    const victim = runners[1]!
    victim.child.kill("SIGKILL")
    await within("the runner to die", victim.done, deadline)

    const submitted = await within("the resumed submitter to finish", second.done, deadline)
    expect(submitted.stderr).toMatch(/batch: resuming cluster batch [0-9a-f]+, \d+ prompts already done/)
    expect(submitted.stderr).toMatch(new RegExp(`batch: ${PROMPTS} prompts, ${PROMPTS - 1} completed, 0 stopped early, 1 failed, 0 invalid lines`))
    expect(submitted.code).toBe(1)

    const results = lines(out)
    expect(orderProblems(ids, results.map((r) => r["id"]))).toBe("")
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
    const status = track(start("status", ["cluster", "status", "--cluster", url, "--json"], home("st"), dir))
    const shown = await within("cluster status", status.done, deadline)
    expect(shown.code).toBe(0)
    const parsed = JSON.parse(shown.stdout) as { runners: Array<{ address: string; done: number }>; batches: Array<{ total: number; done: number; failed: number }> }
    expect(parsed.runners).toHaveLength(3)
    expect(parsed.batches[0]).toMatchObject({ total: PROMPTS, done: PROMPTS - 1, failed: 1 })

    // Once more with the same file: nothing is sent, the same lines come back.
    const again = track(start("s3", submitArgs.map((a) => (a === out ? `${out}.2` : a)), home("s3"), dir))
    const third = await within("the third submitter", again.done, deadline)
    expect(third.stderr).toMatch(new RegExp(`resuming cluster batch [0-9a-f]+, ${PROMPTS} prompts already done`))
    expect(readFileSync(`${out}.2`, "utf8")).toBe(readFileSync(out, "utf8"))
  })

  it("runs a prompt whose message another runner read and let go of", { timeout: 120_000 }, async () => {
    // @effect/cluster marks a message it reads as taken for ten minutes and clears the marks of a shard only when a
    // runner acquires it. A message read by a runner that then gave up its shard after the new owner had acquired it
    // looks exactly like this: marked, unanswered, on a shard its owner took long ago. A trigger marks two messages
    // as they are stored, after the only runner holds every shard; the batch must still finish in seconds.
    await query(pg!.url, "CREATE DATABASE let_go")
    const url = pg!.url.replace(/\/postgres$/, "/let_go")
    const dir = tempHome("hermes-effect-cluster-")
    const script = join(dir, "script.jsonl")
    writeFileSync(script, `${JSON.stringify({ content: "answered" })}\n`)
    const prompts = join(dir, "prompts.jsonl")
    const ids = Array.from({ length: 10 }, (_, i) => `q${i}`)
    writeFileSync(prompts, ids.map((id, i) => JSON.stringify({ id, prompt: `question ${i}`, toolsets: [] })).join("\n") + "\n")
    const out = join(dir, "out.jsonl")
    const home = (name: string) => {
      const h = join(dir, name)
      mkdirSync(h)
      return h
    }
    const deadline = Date.now() + 100_000
    const procs: Array<Proc> = []
    onTestFailed(async () => {
      process.stderr.write(`\n=== let-go test failed; files in ${dir}\n${await diagnostics(url, procs, out, ids)}\n`)
    })

    const runner = start("r", ["runner", "--cluster", url, "--script", script, "--concurrency", "4"], home("r"), dir)
    runners.push(runner)
    procs.push(runner)
    await waitFor("the runner to hold every shard", async () => {
      const rows = await query<{ shards: number }>(url, "SELECT shards FROM hermes_cluster_runners").catch(() => [])
      return rows[0]?.shards === SHARDS
    }, deadline)
    await query(url, `
      CREATE FUNCTION read_and_let_go() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.entity_id LIKE '%/3' OR NEW.entity_id LIKE '%/7' THEN NEW.last_read := now(); END IF;
        RETURN NEW;
      END $$`)
    await query(url, "CREATE TRIGGER read_and_let_go BEFORE INSERT ON cluster_messages FOR EACH ROW EXECUTE FUNCTION read_and_let_go()")

    const submitter = start("s", ["batch", prompts, "--cluster", url, "--out", out], home("s"), dir)
    procs.push(submitter)
    const submitted = await within("the batch to finish", submitter.done, deadline)
    expect(submitted.code).toBe(0)
    expect(orderProblems(ids, lines(out).map((r) => r["id"]))).toBe("")
    const marked = await query<{ n: string }>(url, "SELECT count(*) AS n FROM cluster_messages WHERE entity_id LIKE '%/3' OR entity_id LIKE '%/7'")
    expect(Number(marked[0]!.n)).toBe(2)
  })
})
