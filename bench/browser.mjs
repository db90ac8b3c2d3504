// browser_navigate (navigation + compact snapshot, through the whole tool dispatch and the policy proxy) of a
// small local page on a warm browser, beside the same work done directly with playwright-core: page.goto +
// ariaSnapshot({ mode: "ai" }) on its own Chromium. Interleaved so both see the same load; medians.
// Skipped (no rows) when no Chromium is installed.
import { createServer } from "node:http"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ManagedRuntime } from "effect"
import { chromium } from "playwright-core"
import { ConfigTest, HermesRuntime, ToolExecutor } from "../dist/index.js"
import { findOnPath } from "../dist/layers/browser/locate.js"
import { median } from "./_stats.mjs"

const ROUNDS = 20

const page = (n) => `<!doctype html><html><head><title>Bench page ${n}</title></head><body><h1>Bench page ${n}</h1>` +
  `<nav>${Array.from({ length: 10 }, (_, i) => `<a href="/p${i}">link ${i}</a>`).join(" ")}</nav>` +
  `<form><label>Name <input name="n"></label><button>Send</button></form>` +
  `${Array.from({ length: 20 }, (_, i) => `<p>Paragraph ${i} of the bench page, with some text to read.</p>`).join("")}</body></html>`

export const run = async () => {
  const executable = findOnPath()
  if (executable === undefined) {
    process.stderr.write("bench browser skipped: no chromium on PATH\n")
    return []
  }
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(page(req.url))
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${server.address().port}`
  const home = mkdtempSync(join(tmpdir(), "hermes-bench-browser-"))
  const runtime = ManagedRuntime.make(HermesRuntime.layer({
    config: ConfigTest({ web: { allow_private: true } }, { root: home, workspaceDir: join(home, "ws") }),
    plugins: false
  }))
  const browser = await chromium.launch({ executablePath: executable, headless: true })
  try {
    const executor = await runtime.runPromise(ToolExecutor)
    let n = 0
    const tool = async () => {
      const out = JSON.parse(await runtime.runPromise(executor.dispatch({ tool: "browser_navigate", args: { url: `${base}/t${n++}` } }, { context: { taskId: "bench" } })))
      if (out.success !== true || out.element_count < 5) throw new Error(`browser_navigate failed: ${JSON.stringify(out).slice(0, 300)}`)
    }
    const direct = await (await browser.newContext()).newPage()
    const plain = async () => {
      await direct.goto(`${base}/d${n++}`, { waitUntil: "domcontentloaded" })
      await direct.ariaSnapshot({ mode: "ai" })
    }
    // Warm both: browser launched, context and page open.
    for (let i = 0; i < 3; i++) {
      await tool()
      await plain()
    }
    const toolMs = []
    const directMs = []
    for (let i = 0; i < ROUNDS; i++) {
      let t = performance.now()
      await tool()
      toolMs.push(performance.now() - t)
      t = performance.now()
      await plain()
      directMs.push(performance.now() - t)
    }
    const value = median(toolMs)
    const baseline = median(directMs)
    return [{
      name: "browser_navigate + snapshot, local page, warm", value, unit: "ms",
      baseline, baselineName: "playwright goto + ariaSnapshot directly", ratio: value / baseline, target: "≤ 150 ms"
    }]
  } finally {
    await browser.close()
    await runtime.dispose()
    server.close()
  }
}
