/**
 * vision_analyze end to end through the CLI: the image reaches a real
 * OpenAI-compatible server on loopback as a data URL, the answer comes back;
 * secrets, non-images and missing configuration are refused.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { runCliAsync } from "../support/cli.js"
import { startOpenAiServer } from "../support/openaiServer.js"
import type { OpenAiTestServer } from "../support/openaiServer.js"
import { tempHome } from "../support/runtime.js"

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

const servers: Array<OpenAiTestServer> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const homeWith = (config: string) => {
  const home = tempHome("hermes-vision-")
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, "config.yaml"), config)
  return home
}

const server = async () => {
  const s = await startOpenAiServer()
  servers.push(s)
  return s
}

const call = async (home: string, args: object, cwd?: string) => {
  const r = await runCliAsync(["call", "vision_analyze", JSON.stringify(args)], { home, ...(cwd === undefined ? {} : { cwd }) })
  return { ...r, json: r.stdout.trim().length > 0 ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined }
}

const imageParts = (s: OpenAiTestServer) => {
  const messages = s.requests.at(-1)!.body["messages"] as ReadonlyArray<{ role: string; content: unknown }>
  return (messages.at(-1)!.content as ReadonlyArray<{ type: string; image_url?: { url: string }; text?: string }>)
}

describe("vision_analyze", () => {
  it("sends a local PNG to auxiliary.vision as a data URL and returns the analysis", async () => {
    const s = await server()
    s.enqueue({ kind: "completion", content: "A single white pixel." })
    const home = homeWith(`auxiliary:\n  vision:\n    provider: local-vl\n    name: vl-model\n    base_url: ${s.baseUrl}\n    max_retries: 0\n`)
    const dir = mkdtempSync(join(tmpdir(), "hermes-vision-img-"))
    writeFileSync(join(dir, "shot.png"), Buffer.from(PIXEL, "base64"))
    const r = await call(home, { image_url: join(dir, "shot.png"), question: "what colour is it?" })
    expect(r.json, r.stderr).toEqual({ success: true, analysis: "A single white pixel." })
    expect(s.requests.at(-1)!.body["model"]).toBe("vl-model")
    const parts = imageParts(s)
    expect(parts.find((p) => p.type === "image_url")?.image_url?.url).toBe(`data:image/png;base64,${PIXEL}`)
    expect(parts.find((p) => p.type === "text")?.text).toContain("what colour is it?")
  })

  it("falls back to the main model when it is marked vision: true; relative paths and file:// resolve in the task's folder", async () => {
    const s = await server()
    s.enqueue({ kind: "completion", content: "first" }, { kind: "completion", content: "second" })
    const home = homeWith(`model:\n  provider: main-llm\n  name: main-model\n  base_url: ${s.baseUrl}\n  vision: true\n  max_retries: 0\n`)
    const dir = mkdtempSync(join(tmpdir(), "hermes-vision-img-"))
    writeFileSync(join(dir, "a.png"), Buffer.from(PIXEL, "base64"))
    expect((await call(home, { image_url: `file://${join(dir, "a.png")}`, question: "q" })).json).toEqual({ success: true, analysis: "first" })
    expect(s.requests.at(-1)!.body["model"]).toBe("main-model")
    expect((await call(home, { image_url: "a.png", question: "q" }, dir)).json).toEqual({ success: true, analysis: "second" })
  })

  it("refuses secrets, non-images, private and metadata addresses, and other schemes, without calling the model", async () => {
    const s = await server()
    const home = homeWith(`auxiliary:\n  vision:\n    provider: local-vl\n    name: vl-model\n    base_url: ${s.baseUrl}\n`)
    const dir = mkdtempSync(join(tmpdir(), "hermes-vision-img-"))
    writeFileSync(join(dir, ".env"), "OPENAI_API_KEY=sk-secret\n")
    writeFileSync(join(dir, "notes.txt"), "just text")
    // 127.0.0.1 is private: refused without web.allow_private, before any request leaves.
    for (const image_url of [join(dir, ".env"), join(dir, "notes.txt"), join(dir, "missing.png"), "http://169.254.169.254/latest/meta-data", `${s.baseUrl}/x.png`, "ftp://x/y.png"]) {
      const r = await call(home, { image_url, question: "q" })
      expect(r.json?.["success"], image_url).toBe(false)
      expect(String(r.json?.["error"]), image_url).toMatch(/^Error analyzing image: /)
    }
    expect(s.requests).toHaveLength(0)
  })

  it("fetches an http image under the web address policy and sends it as a data URL", async () => {
    const s = await server()
    s.enqueue({ kind: "completion", content: "a pixel from the web" })
    const images = createServer((req, res) => {
      if (req.url === "/pixel.png") {
        res.writeHead(200, { "content-type": "image/png" })
        res.end(Buffer.from(PIXEL, "base64"))
      } else {
        res.writeHead(200, { "content-type": "text/html" })
        res.end("<html>not an image</html>")
      }
    })
    await new Promise<void>((r) => images.listen(0, "127.0.0.1", r))
    try {
      const base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
      const home = homeWith(`web:\n  allow_private: true\nauxiliary:\n  vision:\n    provider: local-vl\n    name: vl-model\n    base_url: ${s.baseUrl}\n    max_retries: 0\n`)
      expect((await call(home, { image_url: `${base}/pixel.png`, question: "q" })).json).toEqual({ success: true, analysis: "a pixel from the web" })
      expect(imageParts(s).find((p) => p.type === "image_url")?.image_url?.url).toBe(`data:image/png;base64,${PIXEL}`)
      const page = await call(home, { image_url: `${base}/page.html`, question: "q" })
      expect(String(page.json?.["error"])).toContain("did not answer with an image")
    } finally {
      await new Promise<void>((r) => images.close(() => r()))
    }
  })

  it("a provider failure is folded into success: false with a hint", async () => {
    const s = await server()
    s.enqueue({ kind: "status", status: 400, body: { error: { message: "this model does not support image_url content" } } })
    const home = homeWith(`auxiliary:\n  vision:\n    provider: local-vl\n    name: text-only\n    base_url: ${s.baseUrl}\n    max_retries: 0\n`)
    const dir = mkdtempSync(join(tmpdir(), "hermes-vision-img-"))
    writeFileSync(join(dir, "a.png"), Buffer.from(PIXEL, "base64"))
    const r = await call(home, { image_url: join(dir, "a.png"), question: "q" })
    expect(r.json?.["success"]).toBe(false)
    expect(String(r.json?.["analysis"])).toContain("auxiliary.vision")
  })

  it("is offered only when a vision-capable model is configured", async () => {
    const names = async (config: string) => {
      const r = await runCliAsync(["tools", "list", "--json"], { home: homeWith(config) })
      return (JSON.parse(r.stdout) as ReadonlyArray<{ function: { name: string } }>).map((t) => t.function.name)
    }
    expect(await names("model:\n  provider: scripted\n  script: /nonexistent.jsonl\n")).not.toContain("vision_analyze")
    expect(await names("model:\n  name: gpt-4o\n")).not.toContain("vision_analyze")
    expect(await names("model:\n  name: gpt-4o\n  vision: true\n")).toContain("vision_analyze")
    expect(await names("auxiliary:\n  vision: gpt-4o-mini\n")).toContain("vision_analyze")
  })
})
