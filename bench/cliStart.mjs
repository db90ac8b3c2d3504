// CLI start-up: cold `tools list --json` and `call todo` (a fresh node process each, on an existing home),
// each beside `node -e 0` run alternately in the same loop, so the ratio is what our start costs over Node's own.
// A third row times the smallest @effect/cli program bundled and loaded the way ours is (one CommonJS file run
// through the same V8 code cache): the floor of the stack itself.
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { median } from "./_stats.mjs"

const bin = fileURLToPath(new URL("../dist/bin.mjs", import.meta.url))
const codeCache = fileURLToPath(new URL("../dist/cli/.cache", import.meta.url))
const codeCacheModule = new URL("../dist/programs/codeCache.js", import.meta.url).href
const RUNS = 10

/**
 * bench/fixtures/minimalCli.mjs bundled as ours is (one minified CommonJS file for node20) and started as ours is:
 * a small ES module entry runs it through `runCached` (src/programs/codeCache.ts), so it gets a code cache too.
 */
const bundleMinimalCli = async (dir) => {
  const bundle = join(dir, "main.cjs")
  await build({
    entryPoints: [fileURLToPath(new URL("./fixtures/minimalCli.mjs", import.meta.url))],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    logLevel: "warning",
    outfile: bundle
  })
  const entry = join(dir, "bin.mjs")
  writeFileSync(entry, `import { runCached } from ${JSON.stringify(codeCacheModule)}\nrunCached(${JSON.stringify(bundle)})\n`)
  return entry
}

const timed = (args, env) => {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] })
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`)
  return ms
}

export const run = async () => {
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-cli-"))
  const env = { ...process.env, HERMES_EFFECT_HOME: home }
  const todo = JSON.stringify({ todos: [{ id: "1", content: "bench", status: "pending" }] })
  const noCache = { ...env, HERMES_EFFECT_CODE_CACHE: "0" }
  const commands = [
    { name: "cold `tools list --json`", args: [bin, "tools", "list", "--json"], target: "≤ 0.15 s" },
    // The same without the V8 code cache (dist/cli/.cache, src/programs/codeCache.ts): every start parses the bundle.
    { name: "cold `tools list --json`, code cache off", args: [bin, "tools", "list", "--json"], env: noCache },
    // The first start after a build or install: it parses the bundle and writes the cache at exit.
    { name: "cold `tools list --json`, first start (writes the code cache)", args: [bin, "tools", "list", "--json"], before: () => rmSync(codeCache, { recursive: true, force: true }) },
    { name: "cold `call todo`", args: [bin, "call", "todo", todo], target: "≤ 0.2 s" },
    { name: "cold minimal @effect/cli program, same bundling and code cache (stack floor)", args: [await bundleMinimalCli(mkdtempSync(join(tmpdir(), "hermes-effect-bench-floor-"))), "tools", "list", "--json"] }
  ]
  // The first run creates the home (state.db, skills); the measured ones start on an existing home.
  for (const c of commands) timed(c.args, c.env ?? env)
  const rows = []
  for (const c of commands) {
    const ours = []
    const node = []
    for (let i = 0; i < RUNS; i++) {
      node.push(timed(["-e", "0"], env))
      c.before?.()
      ours.push(timed(c.args, c.env ?? env))
    }
    rows.push({
      name: `cli: ${c.name} (median of ${RUNS})`,
      value: median(ours) / 1000,
      unit: "s",
      baseline: median(node) / 1000,
      baselineName: "node -e 0",
      ratio: median(ours) / median(node),
      target: c.target
    })
  }
  return rows
}
