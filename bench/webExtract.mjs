// web_extract of a ~200 KB local article through the whole tool dispatch (default char_limit: the full
// text is saved to the cache and cut head + tail), beside the same work done
// directly: node fetch + linkedom + Readability + Turndown. Interleaved so both see the same load; medians.
import { createServer } from "node:http"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Readability } from "@mozilla/readability"
import { parseHTML } from "linkedom"
import TurndownService from "turndown"
import { ManagedRuntime } from "effect"
import { ConfigTest, HermesRuntime, ToolExecutor } from "../dist/index.js"
import { median } from "./_stats.mjs"

const ROUNDS = 30

const article = () => {
  const sections = []
  for (let i = 0; sections.join("").length < 200_000; i++) {
    sections.push(`<h2>Section ${i}</h2><p>${"Fibers, scopes and layers make structured concurrency explicit. ".repeat(12)}` +
      `See <a href="/ref/${i}">reference ${i}</a>.</p><ul><li>point a</li><li>point b</li></ul>`)
  }
  return `<!doctype html><html><head><title>Bench article</title><script>var x = 1</script></head><body>` +
    `<nav><a href="/">home</a></nav><article><h1>Bench article</h1>${sections.join("\n")}</article><footer>f</footer></body></html>`
}

export const run = async () => {
  const body = article()
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(body)
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${server.address().port}/article`
  const home = mkdtempSync(join(tmpdir(), "hermes-bench-web-"))
  const runtime = ManagedRuntime.make(HermesRuntime.layer({
    config: ConfigTest({ web: { allow_private: true } }, { root: home, workspaceDir: join(home, "ws") }),
    plugins: false
  }))
  const executor = await runtime.runPromise(ToolExecutor)
  const tool = () => runtime.runPromise(executor.dispatch({ tool: "web_extract", args: { urls: [url] } }, { context: { taskId: "bench" } }))
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" })
  const direct = async () => {
    const html = await (await fetch(url)).text()
    const { document } = parseHTML(html)
    const parsed = new Readability(document).parse()
    return JSON.stringify({ results: [{ url, title: parsed.title, content: turndown.turndown(parsed.content), error: null }] })
  }
  try {
    const check = JSON.parse(await tool())
    if (!check.results?.[0]?.content?.includes("[TRUNCATED]")) throw new Error(`web_extract returned no article: ${JSON.stringify(check).slice(0, 300)}`)
    await direct()
    const toolMs = []
    const directMs = []
    for (let i = 0; i < ROUNDS; i++) {
      let t = performance.now()
      await tool()
      toolMs.push(performance.now() - t)
      t = performance.now()
      await direct()
      directMs.push(performance.now() - t)
    }
    const value = median(toolMs)
    const baseline = median(directMs)
    return [{
      name: `web_extract of a ${Math.round(body.length / 1000)} KB local article`, value, unit: "ms",
      baseline, baselineName: "fetch+readability+turndown directly", ratio: value / baseline, target: "ratio ≤ 1.5"
    }]
  } finally {
    await runtime.dispose()
    server.close()
  }
}
