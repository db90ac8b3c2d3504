// Terminal: `echo hi` through the terminal tool against a raw spawn, background processes through
// the process tool, and memory while a command prints 1 GB.
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { ConfigTest, HermesRuntime, ToolExecutor } from "../dist/index.js"
import { parseBatch, runBatch } from "../dist/programs/batchRunner.js"
import { median } from "./_stats.mjs"

/** What the issue compares against: a bare spawn of the same command, awaited to its end. */
const rawSpawn = (command = "echo hi") =>
  new Promise((resolve, reject) => {
    const t = performance.now()
    const child = spawn("bash", ["-c", command])
    child.stdout.on("data", () => {})
    child.once("error", reject)
    child.once("close", () => resolve(performance.now() - t))
  })

const parse = (s) => JSON.parse(s)

export const run = async () => {
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-terminal-"))
  const cwd = join(home, "cwd")
  mkdirSync(cwd)
  // BENCH_NO_PROTECT=1 measures without terminal.protect_home (no bubblewrap around each local command).
  const layer = HermesRuntime.layer({
    config: ConfigTest({ terminal: { backend: "local", cwd, ...(process.env.BENCH_NO_PROTECT ? { protect_home: false } : {}) } }, { root: home, workspaceDir: join(home, "ws") }),
    plugins: false
  })
  const runtime = ManagedRuntime.make(layer)
  const executor = await runtime.runPromise(ToolExecutor)
  const call = (tool, args, taskId = "bench") => runtime.runPromise(executor.dispatch({ tool, args }, { context: { taskId } })).then(parse)
  const rows = []

  // 1. echo hi: tool and raw spawn interleaved, so both see the same machine load.
  const echo = { command: "echo hi" }
  const first = await call("terminal", echo)
  if (first.output !== "hi") throw new Error(`unexpected terminal result: ${JSON.stringify(first)}`)
  for (let i = 0; i < 20; i++) {
    await rawSpawn()
    await call("terminal", echo)
  }
  const tool = []
  const raw = []
  for (let i = 0; i < 200; i++) {
    raw.push(await rawSpawn())
    const t = performance.now()
    await call("terminal", echo)
    tool.push(performance.now() - t)
  }
  const toolMs = median(tool)
  const rawMs = median(raw)
  rows.push({
    name: "terminal `echo hi` (local, median)",
    value: toolMs,
    unit: "ms",
    baseline: rawMs,
    baselineName: "raw spawn bash -c",
    ratio: toolMs / rawMs,
    target: "≤ 2× raw spawn"
  })

  // 1b. The same with a persistent shell (terminal.local_persistent): `echo hi`, then 400 `echo` lines of one
  // task through the batch runner (executor, approval, environment) against a raw spawn per command.
  const persistentLayer = HermesRuntime.layer({
    config: ConfigTest(
      { terminal: { backend: "local", cwd, local_persistent: true, ...(process.env.BENCH_NO_PROTECT ? { protect_home: false } : {}) } },
      { root: join(home, "persistent"), workspaceDir: join(home, "ws-persistent") }
    ),
    plugins: false
  })
  const persistent = ManagedRuntime.make(persistentLayer)
  const pexec = await persistent.runPromise(ToolExecutor)
  const pcall = (args, taskId = "bench") => persistent.runPromise(pexec.dispatch({ tool: "terminal", args }, { context: { taskId } })).then(parse)
  const pfirst = await pcall(echo)
  if (pfirst.output !== "hi") throw new Error(`unexpected persistent terminal result: ${JSON.stringify(pfirst)}`)
  const praw = []
  for (let i = 0; i < 20; i++) await pcall(echo)
  /** 200 timed `echo hi` calls, each after `before` (untimed): their times and the minor page faults per call. */
  const echoes = async (before) => {
    const times = []
    let faults = 0
    for (let i = 0; i < 200; i++) {
      await before()
      const f = process.resourceUsage().minorPageFault
      const t = performance.now()
      await pcall(echo)
      times.push(performance.now() - t)
      faults += process.resourceUsage().minorPageFault - f
    }
    return { times, faults: faults / 200 }
  }
  const interleaved = await echoes(async () => void praw.push(await rawSpawn()))
  const ptool = interleaved.times
  rows.push({
    name: "terminal `echo hi` (local, persistent shell, median)",
    value: median(ptool),
    unit: "ms",
    baseline: median(praw),
    baselineName: "raw spawn bash -c",
    ratio: median(ptool) / median(praw),
    target: "≤ 1 ms"
  })
  // Back to back, as an agent runs commands in a persistent shell. Interleaved, every call above pays for the spawn
  // before it: spawning forks this process, so afterwards each heap page the call writes faults once (copy on write).
  const backToBack = await echoes(async () => undefined)
  const b2b = backToBack.times
  rows.push({
    name: "terminal `echo hi` (local, persistent shell, back to back, median)",
    value: median(b2b),
    unit: "ms",
    baseline: median(praw),
    baselineName: "raw spawn bash -c, interleaved run above",
    ratio: median(b2b) / median(praw),
    target: "≤ 1 ms"
  })
  // The same in the steady state of a long-lived runtime: the rows above time calls 22–421 of a fresh one, while V8
  // is still optimising code that runs once per command (the detector's rules, the frame, the engine). Median of
  // 500 calls after 2 500 more.
  const SETTLE = 2500
  for (let i = 0; i < SETTLE; i++) await pcall(echo)
  const steady = []
  for (let i = 0; i < 500; i++) {
    const t = performance.now()
    await pcall(echo)
    steady.push(performance.now() - t)
  }
  rows.push({
    name: `terminal \`echo hi\` (local, persistent shell, back to back, after ${421 + SETTLE} calls, median)`,
    value: median(steady),
    unit: "ms",
    baseline: median(b2b),
    baselineName: "calls 222–421 of the same runtime (row above)",
    ratio: median(steady) / median(b2b),
    target: "≤ 1 ms"
  })
  rows.push({
    name: "minor page faults per persistent `echo hi`, interleaved with spawns",
    value: interleaved.faults,
    unit: "faults",
    baseline: backToBack.faults,
    baselineName: "back to back",
    ratio: interleaved.faults / Math.max(1, backToBack.faults),
    target: "reported"
  })
  // A 4 KB command (a heredoc, builtins only): the frame's body is read in one `read -N`, not byte by byte.
  const script = `: <<'EOF'\n${Array.from({ length: 64 }, (_, i) => `line ${i} ${"x".repeat(56)}`).join("\n")}\nEOF\necho done`
  for (let i = 0; i < 20; i++) await pcall({ command: script })
  const pscript = []
  const rscript = []
  for (let i = 0; i < 100; i++) {
    rscript.push(await rawSpawn(script))
    const t = performance.now()
    await pcall({ command: script })
    pscript.push(performance.now() - t)
  }
  rows.push({
    name: "terminal, a 4 KB command (heredoc) (local, persistent shell, median)",
    value: median(pscript),
    unit: "ms",
    baseline: median(rscript),
    baselineName: "raw spawn bash -c of the same command",
    ratio: median(pscript) / median(rscript),
    target: "reported"
  })
  const LINES = 400
  const lines = (taskId) =>
    parseBatch(Array.from({ length: LINES }, (_, i) => JSON.stringify({ id: i, tool: "terminal", args: { command: `echo ${i}` }, task_id: taskId })).join("\n"))
  const batchMs = async (rt, taskId) => {
    await rt.runPromise(runBatch(lines(`${taskId}-warm`), { concurrency: 1 }))
    const t = performance.now()
    const results = await rt.runPromise(runBatch(lines(taskId), { concurrency: 1 }))
    const elapsed = performance.now() - t
    if (results.some((r) => r.status !== "ok")) throw new Error(`batch line failed: ${JSON.stringify(results.find((r) => r.status !== "ok"))}`)
    return elapsed
  }
  const spawnsMs = async () => {
    const t = performance.now()
    for (let i = 0; i < LINES; i++) await rawSpawn()
    return performance.now() - t
  }
  // Interleaved rounds, medians: batch (persistent), raw spawns, batch (a process per command).
  const pb = []
  const rs = []
  const sb = []
  for (let round = 0; round < 3; round++) {
    pb.push(await batchMs(persistent, `batch-p${round}`))
    rs.push(await spawnsMs())
    sb.push(await batchMs(runtime, `batch-s${round}`))
  }
  rows.push({
    name: `${LINES} \`echo\` lines of one task through the batch runner (persistent shell, per line)`,
    value: median(pb) / LINES,
    unit: "ms",
    baseline: median(rs) / LINES,
    baselineName: "raw spawn bash -c per command",
    ratio: median(pb) / median(rs),
    target: "≤ 0.5× raw spawn"
  })
  rows.push({
    name: `${LINES} \`echo\` lines of one task through the batch runner (a process per command, per line)`,
    value: median(sb) / LINES,
    unit: "ms",
    baseline: median(rs) / LINES,
    baselineName: "raw spawn bash -c per command",
    ratio: median(sb) / median(rs),
    target: "reported next to the persistent shell"
  })
  await persistent.dispose()

  // 2. Eight background `sleep 1`, started with terminal(background) and awaited with process(wait).
  const t0 = performance.now()
  const ids = []
  for (let i = 0; i < 8; i++) {
    const started = await call("terminal", { command: "sleep 1", background: true, notify_on_complete: true }, "bench-bg")
    if (started.session_id === undefined) throw new Error(`background start failed: ${JSON.stringify(started)}`)
    ids.push(started.session_id)
  }
  for (const id of ids) {
    const waited = await call("process", { action: "wait", session_id: id, timeout: 30 }, "bench-bg")
    if (waited.status !== "exited" || waited.exit_code !== 0) throw new Error(`wait failed: ${JSON.stringify(waited)}`)
  }
  rows.push({ name: "8 background `sleep 1` started + awaited", value: (performance.now() - t0) / 1000, unit: "s", target: "≤ 1.5 s" })

  // 3. RSS while a command prints 1 GB: sampled throughout, against the RSS just before.
  globalThis.gc?.()
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 10)
  const big = await call("terminal", { command: "head -c 1073741824 /dev/zero | tr '\\0' x; echo; echo done", timeout: 300 }, "bench-big")
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  if (big.exit_code !== 0 || !big.output.endsWith("done") || !big.output.includes("OUTPUT TRUNCATED")) {
    throw new Error(`1 GB command failed: exit ${big.exit_code}`)
  }
  rows.push({ name: "RSS growth while a command prints 1 GB", value: (peak - before) / (1024 * 1024), unit: "MB", target: "< 100 MB" })

  await runtime.dispose()
  return rows
}
