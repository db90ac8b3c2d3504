// Benchmark runner: `npm run bench` prints a table; `npm run bench -- --json` prints one JSON object per line:
// {"name","value","unit","baseline"?,"ratio"?,"target"?}. Each suite measures its own baseline in the same run,
// so ratios stay meaningful on any machine. `--markdown` prints the README's table (machine, date, verdicts) at the
// end instead. Suites: bench/*.mjs modules exporting `run()` (except this file and `_` helpers).
//
// Each suite runs in a Node process of its own (`--suite=FILE`, rows back as JSON on stdout), as a user's program
// runs one job: in one shared process, the JIT feedback, heap and leftover handles of the suites before (a browser,
// a cluster, MCP servers) weighed on the next — the bare `runPromise` baseline read 2.9 µs there against 2.1 µs
// alone. `--in-process` runs them all in this process, as before.
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { markdownTable } from "./_table.mjs"

const json = process.argv.includes("--json")
const markdown = process.argv.includes("--markdown")
const startedAt = new Date()
const all = []
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length)
const suite = process.argv.find((a) => a.startsWith("--suite="))?.slice("--suite=".length)
const inProcess = process.argv.includes("--in-process") || suite !== undefined
const dir = fileURLToPath(new URL(".", import.meta.url))
const suites = readdirSync(dir).filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && !f.startsWith("_")).sort()

const fmt = (n) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(3))
let failed = false
/** A suite's rows, run here or in a child process (its stderr passes through; its exit code fails the run). */
const runSuite = async (file) => {
  if (inProcess) {
    const mod = await import(new URL(file, import.meta.url).href)
    return typeof mod.run === "function" ? await mod.run() : []
  }
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), `--suite=${file}`, "--json"], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  })
  if (child.error !== undefined) throw child.error
  if (child.status !== 0) throw new Error(`exited with ${child.status ?? child.signal}`)
  return child.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
}

for (const file of suites) {
  if (suite !== undefined ? file !== suite : only && !file.includes(only)) continue
  let rows
  try {
    rows = await runSuite(file)
  } catch (e) {
    failed = true
    process.stderr.write(`bench ${file} failed: ${e instanceof Error ? e.stack : String(e)}\n`)
    continue
  }
  for (const row of rows) {
    all.push(row)
    if (markdown) {
      process.stderr.write(`${row.name}: ${fmt(row.value)} ${row.unit}\n`)
    } else if (json) {
      process.stdout.write(`${JSON.stringify(row)}\n`)
    } else {
      const base = row.baseline === undefined ? "" : `  baseline ${fmt(row.baseline)} ${row.baselineUnit ?? row.unit} (${row.baselineName ?? "baseline"})`
      const ratio = row.ratio === undefined ? "" : `  ratio ${row.ratio.toFixed(2)}`
      const target = row.target === undefined ? "" : `  target ${row.target}`
      process.stdout.write(`${row.name.padEnd(52)} ${fmt(row.value).padStart(10)} ${row.unit}${base}${ratio}${target}\n`)
    }
  }
}
if (markdown) process.stdout.write(`${markdownTable(all, startedAt)}\n`)
if (failed) process.exitCode = 1
