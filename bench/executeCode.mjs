// execute_code: one tool call made from inside a Python script (hermes_tools → Unix socket → ToolExecutor → back),
// timed by the script, against the same call made bare through ToolExecutor.dispatch in the same run. Both read the
// same kind of small file (write_file: read_file would be answered by its dedup and loop guard); medians. Skips (no rows) when python3 is missing.
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { ConfigTest, HermesRuntime, ToolExecutor } from "../dist/index.js"
import { median } from "./_stats.mjs"

const CALLS = 300
const WARMUP = 100

export const run = async () => {
  if (spawnSync("python3", ["--version"]).status !== 0) {
    process.stderr.write("bench executeCode: python3 is missing, skipped\n")
    return []
  }
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-exec-"))
  const cwd = mkdtempSync(join(tmpdir(), "hermes-effect-bench-exec-cwd-"))
  const runtime = ManagedRuntime.make(HermesRuntime.layer({
    config: ConfigTest({ terminal: { cwd } }, { root: home, workspaceDir: join(home, "ws") }),
    plugins: false,
    mcp: false
  }))
  const dispatch = (tool, args, taskId) =>
    runtime.runPromise(Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId } })))

  // Bare: the same write_file calls, each timed around dispatch.
  const bare = []
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const t = performance.now()
    await dispatch("write_file", { path: join(cwd, `bare${i % 10}.txt`), content: `value ${i}\n` }, "bench-bare")
    if (i >= WARMUP) bare.push(performance.now() - t)
  }

  // Inside a script: each script makes 50 calls (the per-script cap) and times each one itself.
  const code = [
    "import json, time",
    "from hermes_tools import write_file",
    "samples = []",
    "for i in range(50):",
    "    t = time.perf_counter()",
    `    r = write_file(${JSON.stringify(cwd)} + '/inner%d.txt' % (i % 10), 'value %d\\n' % i)`,
    "    samples.append((time.perf_counter() - t) * 1000)",
    "    assert isinstance(r, dict) and 'error' not in r, r",
    "print(json.dumps(samples[5:]))"
  ].join("\n")
  const script = async () => {
    const result = JSON.parse(await dispatch("execute_code", { code }, "bench-script"))
    if (result.status !== "success") throw new Error(`execute_code failed: ${JSON.stringify(result)}`)
    return JSON.parse(result.output)
  }
  for (let i = 0; i < WARMUP / 50; i++) await script()
  const inner = []
  while (inner.length < CALLS) inner.push(...(await script()))
  await runtime.dispose()

  const innerMs = median(inner)
  const bareMs = median(bare)
  return [{
    name: "execute_code: one tool call from a script, added",
    value: innerMs - bareMs,
    unit: "ms",
    baseline: bareMs,
    baselineName: "same write_file through ToolExecutor.dispatch",
    ratio: innerMs / bareMs,
    target: "≤ 2 ms"
  }]
}
