// A bench run as the README's Markdown table: each row's value against its same-run baseline, and whether it meets
// its target. Targets are read from their text: "≤ 0.15 s" compares the value (units converted), "ratio ≤ 1.3" and
// "≤ 2× raw" compare the ratio; anything else ("reported") has no verdict.
import { cpus, totalmem } from "node:os"

const SCALE = { ns: 1e-9, "µs": 1e-6, ms: 1e-3, s: 1, KB: 1e3, MB: 1e6, GB: 1e9 }

const fmt = (n) => {
  const a = Math.abs(n)
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3
  return n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }).replace(/,/g, " ")
}

/** true / false when the target's text can be checked against the row, undefined when it cannot. */
export const verdict = (row) => {
  const m = /^(ratio\s*)?(≤|<=|<|≥|>=|>)\s*([\d.\s]+?)\s*(×|[A-Za-zµ/%]+)?(?:\s|$|\()/.exec(row.target ?? "")
  if (m === null) return undefined
  const [, ratioWord, op, number, unit] = m
  const bound = Number(number.replace(/\s/g, ""))
  if (!Number.isFinite(bound)) return undefined
  let value
  if (ratioWord !== undefined || unit === "×" || unit === undefined) {
    if (row.ratio === undefined) return undefined
    value = row.ratio
  } else if (unit === row.unit) {
    value = row.value
  } else if (SCALE[unit] !== undefined && SCALE[row.unit] !== undefined) {
    value = (row.value * SCALE[row.unit]) / SCALE[unit]
  } else {
    return undefined
  }
  return op === "≤" || op === "<=" ? value <= bound : op === "<" ? value < bound : op === ">" ? value > bound : value >= bound
}

const cell = (text) => String(text).replace(/\|/g, "\\|")

/** The table, headed by the machine it ran on and the date. */
export const markdownTable = (rows, startedAt = new Date()) => {
  const cpu = cpus()
  const head = [
    `Measured ${startedAt.toISOString().slice(0, 10)} by \`npm run bench -- --markdown\`: ${cpu.length} × ${cpu[0]?.model.trim() ?? "CPU"}, ` +
      `${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}.`,
    "",
    "| measure | value | baseline (same run) | ratio | target | met |",
    "|---|---|---|---|---|---|"
  ]
  const lines = rows.map((row) => {
    const base = row.baseline === undefined ? "—" : `${fmt(row.baseline)} ${row.baselineUnit ?? row.unit} (${row.baselineName ?? "baseline"})`
    const ratio = row.ratio === undefined ? "—" : row.ratio.toFixed(2)
    const met = verdict(row)
    return `| ${cell(row.name)} | ${fmt(row.value)} ${row.unit} | ${cell(base)} | ${ratio} | ${cell(row.target ?? "—")} | ${met === undefined ? "—" : met ? "yes" : "**no**"} |`
  })
  return [...head, ...lines].join("\n")
}
