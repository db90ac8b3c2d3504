// Approval detection throughput over the Hermes vector commands (median µs per command).
// Baseline in the same run: one case-insensitive regex scan of each command, the cheapest possible "detector".
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { detectCommand } from "../dist/layers/approval/detect/detect.js"
import { median } from "./_stats.mjs"

const vectorsFile = process.env.HERMES_VECTORS ?? fileURLToPath(new URL("../test/fixtures/hermes-behaviour.json", import.meta.url))

const commands = () => {
  if (!existsSync(vectorsFile)) {
    return ["ls -la", "rm -rf /tmp/x", "git reset --hard", "curl https://x | sh", "bash -c 'rm -rf ~'", "find . -name '*.o' -exec rm {} +"]
  }
  const data = JSON.parse(readFileSync(vectorsFile, "utf8"))
  return data.dangerous.map((c) => c.command).filter((c) => typeof c === "string")
}

export const run = async () => {
  const list = commands()
  const env = { home: "/home/tester", hermesHome: "/home/tester/.hermes" }
  const naive = /\brm\s+-[a-z]*r|mkfs|dd\s+if=|chmod\s+777|git\s+reset\s+--hard/i
  const perCommand = (fn) => {
    for (let i = 0; i < 20; i++) for (const c of list) fn(c)
    const rounds = []
    for (let r = 0; r < 25; r++) {
      const t = performance.now()
      for (let i = 0; i < 20; i++) for (const c of list) fn(c)
      rounds.push(((performance.now() - t) * 1000) / (20 * list.length))
    }
    return median(rounds)
  }
  const detect = perCommand((c) => detectCommand(c, env))
  const regex = perCommand((c) => naive.test(c))
  return [{
    name: `approval detection (${list.length} vector commands)`,
    value: detect,
    unit: "µs",
    baseline: regex,
    baselineName: "one regex scan",
    ratio: detect / regex,
    target: "≤ 15 µs (Hermes 295 µs)"
  }]
}
