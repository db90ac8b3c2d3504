// File tools: read_file of a region of a 10 000-line file beside plain fs doing the same work, and
// search_files over a tree of 5 000 files beside plain ripgrep (and the builtin engine beside a plain
// fs walk). Tool call and baseline are interleaved so both see the same machine load; medians.
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { Config, ConfigTest, HermesRuntime, readFileTool, ToolContext, ToolExecutor } from "../dist/index.js"
import { median } from "./_stats.mjs"

const LINES = 10_000
const REGION = 500
const FILES = 5_000

const makeTree = (root) => {
  for (let d = 0; d < 100; d++) {
    const dir = join(root, `pkg${String(d).padStart(3, "0")}`, "src")
    mkdirSync(dir, { recursive: true })
    for (let f = 0; f < FILES / 100; f++) {
      const lines = Array.from({ length: 30 }, (_, i) => `export const value${i} = compute(${d}, ${f}, ${i}) // filler text for realism`)
      if ((d * 50 + f) % 40 === 0) lines[12] = `const marker = findNeedleHere(${d}, ${f})`
      writeFileSync(join(dir, `mod${f}.ts`), lines.join("\n") + "\n")
    }
  }
}

/** The same read done plainly: read, page, number, cut long lines, JSON. */
const plainRead = (file, offset) => {
  const lines = readFileSync(file, "utf8").split("\n")
  if (lines[lines.length - 1] === "") lines.pop()
  const page = lines.slice(offset - 1, offset - 1 + REGION).map((l, i) => `${offset + i}|${l.length > 2000 ? `${l.slice(0, 2000)}... [truncated]` : l}`)
  return JSON.stringify({ content: page.join("\n"), total_lines: lines.length, truncated: true })
}

/** The same search done with ripgrep directly (same flags, no shell, no approval). */
const plainRg = (cwd, args) =>
  new Promise((resolve, reject) => {
    const child = spawn("rg", args, { cwd })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.once("error", reject)
    child.once("close", () => resolve(out))
  })

const plainBash = (cwd, script) =>
  new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.once("error", reject)
    child.once("close", () => resolve(out))
  })

/** The builtin engine's work done plainly: sorted walk, skip hidden and binary, match by line. */
const plainWalk = (dir, regex, found = []) => {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith(".")) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) plainWalk(path, regex, found)
    else if (entry.isFile()) {
      const text = readFileSync(path)
      if (text.includes(0)) continue
      text.toString("utf8").split("\n").forEach((line, i) => {
        if (regex.test(line)) found.push([path, i + 1, line])
      })
    }
    if (found.length > 51) break
  }
  return found
}

const timeIt = async (fn) => {
  const t = performance.now()
  await fn()
  return performance.now() - t
}

export const run = async () => {
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-files-"))
  const cwd = join(home, "cwd")
  mkdirSync(cwd)
  const big = join(cwd, "big.txt")
  writeFileSync(big, Array.from({ length: LINES }, (_, i) => `line ${i + 1}: ${"lorem ipsum dolor sit amet ".repeat(3)}`).join("\n") + "\n")
  const tree = join(cwd, "tree")
  makeTree(tree)

  const layer = HermesRuntime.layer({ config: ConfigTest({ terminal: { backend: "local", cwd } }, { root: home, workspaceDir: join(home, "ws") }), plugins: false })
  const runtime = ManagedRuntime.make(layer)
  const executor = await runtime.runPromise(ToolExecutor)
  const config = await runtime.runPromise(Config)
  const call = (tool, args) => runtime.runPromise(executor.dispatch({ tool, args }, { context: { taskId: "bench" } }))
  const rows = []

  // 1. read_file: a different 500-line region each call (identical reads would get the dedup stub).
  const check = JSON.parse(await call("read_file", { path: "big.txt", offset: 4001, limit: REGION }))
  if (!String(check.content).startsWith("4001|line 4001")) throw new Error(`unexpected read_file result: ${String(check.content).slice(0, 80)}`)
  // Warm both paths up (JIT) before timing.
  for (let i = 0; i < 200; i++) {
    plainRead(big, 1 + i)
    await call("read_file", { path: "big.txt", offset: 1 + i, limit: REGION - 1 })
  }
  // The handler alone (what the file tool adds), and the whole dispatch (what the model's call costs).
  const handler = (offset) =>
    runtime.runPromise(Effect.provideService(readFileTool.handler({ path: "big.txt", offset, limit: REGION }), ToolContext, { taskId: "bench-handler" }))
  const tool = []
  const direct = []
  const plain = []
  for (let i = 0; i < 300; i++) {
    const offset = 1 + ((i * 31) % (LINES - REGION))
    // Alternate the order, so neither side keeps paying for the other's garbage.
    if (i % 2 === 0) {
      plain.push(await timeIt(() => plainRead(big, offset)))
      direct.push(await timeIt(() => handler(offset)))
      tool.push(await timeIt(() => call("read_file", { path: "big.txt", offset, limit: REGION })))
    } else {
      tool.push(await timeIt(() => call("read_file", { path: "big.txt", offset, limit: REGION })))
      direct.push(await timeIt(() => handler(offset)))
      plain.push(await timeIt(() => plainRead(big, offset)))
    }
  }
  const readMs = median(tool)
  const directMs = median(direct)
  const plainReadMs = median(plain)
  rows.push({ name: `read_file ${REGION}-line region of a ${LINES}-line file (local)`, value: readMs, unit: "ms", baseline: plainReadMs, baselineName: "plain fs read+page+JSON", ratio: readMs / plainReadMs, target: "≤ 1.5×" })
  rows.push({ name: "  the read_file handler alone (no dispatch)", value: directMs, unit: "ms", baseline: plainReadMs, baselineName: "plain fs read+page+JSON", ratio: directMs / plainReadMs })

  // 2. search_files over 5 000 files with ripgrep: alternate two limits so the loop guard never sees a repeat.
  const hasRg = await plainRg(cwd, ["--version"]).then((o) => o.startsWith("ripgrep"), () => false)
  if (hasRg) {
    const args = ["--no-config", "--no-ignore-global", "--sort", "path", "--color", "never", "--line-number", "--no-heading", "--with-filename", "--null", "--max-columns", "2000", "--max-columns-preview", "-e", "findNeedle", "--", "tree"]
    const first = JSON.parse((await call("search_files", { pattern: "findNeedle", path: "tree", limit: 50 })).split("\n\n[Hint:")[0])
    if (first.total_count < 50) throw new Error(`unexpected search result: ${JSON.stringify(first).slice(0, 200)}`)
    const toolS = []
    const rgS = []
    for (let i = 0; i < 40; i++) {
      rgS.push(await timeIt(() => plainRg(cwd, args)))
      toolS.push(await timeIt(() => call("search_files", { pattern: "findNeedle", path: "tree", limit: 50 + (i % 2) })))
    }
    const searchMs = median(toolS.slice(5))
    const rgMs = median(rgS.slice(5))
    rows.push({ name: `search_files content, ${FILES} files (local, ripgrep)`, value: searchMs, unit: "ms", baseline: rgMs, baselineName: "plain rg, same flags", ratio: searchMs / rgMs, target: "≤ 1.5×" })

    // Files newest first: the same list-stat-sort pipeline, run by a plain bash.
    const pipeline = "rg --no-config --no-ignore-global --sort path --files -0 -g '*.ts' -- tree | xargs -0 -r stat -c '%Y %n' | LC_ALL=C sort -k1,1nr -k2 | head -n 52"
    const toolF = []
    const rgF = []
    for (let i = 0; i < 30; i++) {
      rgF.push(await timeIt(() => plainBash(cwd, pipeline)))
      toolF.push(await timeIt(() => call("search_files", { pattern: "*.ts", target: "files", path: "tree", limit: 50 + (i % 2) })))
    }
    const filesMs = median(toolF.slice(5))
    const rgFilesMs = median(rgF.slice(5))
    rows.push({ name: `search_files files by mtime, ${FILES} files (local, ripgrep)`, value: filesMs, unit: "ms", baseline: rgFilesMs, baselineName: "plain bash, same rg|stat|sort pipeline", ratio: filesMs / rgFilesMs, target: "≤ 1.5×" })
  }

  // 3. The builtin engine (no ripgrep) beside a plain synchronous fs walk doing the same matching.
  await runtime.runPromise(config.set(["files", "search_engine"], "builtin"))
  const toolB = []
  const walkB = []
  for (let i = 0; i < 20; i++) {
    walkB.push(await timeIt(() => plainWalk(tree, /findNeedle/)))
    toolB.push(await timeIt(() => call("search_files", { pattern: "findNeedle", path: "tree", limit: 50 + (i % 2) })))
  }
  const builtinMs = median(toolB.slice(3))
  const walkMs = median(walkB.slice(3))
  rows.push({ name: `search_files content, ${FILES} files (local, builtin engine)`, value: builtinMs, unit: "ms", baseline: walkMs, baselineName: "plain sync fs walk + regex", ratio: builtinMs / walkMs })

  await runtime.dispose()
  return rows
}
