/**
 * image_generate through the CLI, against loopback stand-ins that answer in
 * each provider's documented format (OpenAI images: data[0].b64_json; FAL:
 * images[0].url to fetch); request shape and auth header asserted.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { runCliAsync } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64")

interface Seen {
  readonly method: string
  readonly path: string
  readonly auth: string | undefined
  readonly body: unknown
}

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()))
})

const standIn = async (answer: (req: IncomingMessage, res: ServerResponse, base: string) => void) => {
  const seen: Array<Seen> = []
  let base = ""
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (d: Buffer) => void (body += d.toString()))
    req.on("end", () => {
      seen.push({ method: req.method ?? "", path: req.url ?? "", auth: req.headers.authorization, body: body.length > 0 ? JSON.parse(body) : null })
      answer(req, res, base)
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  closers.push(() => new Promise((r) => server.close(() => r())))
  return { seen, base }
}

const homeWith = (config: string) => {
  const home = tempHome("hermes-imagegen-")
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, "config.yaml"), config)
  return home
}

const call = async (home: string, args: object, env: Record<string, string>) =>
  JSON.parse((await runCliAsync(["call", "image_generate", JSON.stringify(args)], { home, env })).stdout) as Record<string, unknown>

describe("image_generate", () => {
  it("openai: posts model, prompt and the aspect ratio's size; saves the returned PNG under the cache", async () => {
    const { seen, base } = await standIn((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ created: 1, data: [{ b64_json: PNG.toString("base64") }] }))
    })
    const home = homeWith(`image_gen:\n  provider: openai\n  base_url: ${base}/v1\n`)
    const result = await call(home, { prompt: "a lighthouse at dusk", aspect_ratio: "portrait" }, { OPENAI_API_KEY: "sk-image-test" })
    expect(result).toMatchObject({ success: true, modality: "image" })
    const path = String(result["image"])
    expect(path.startsWith(join(home, "cache", "images", "openai_"))).toBe(true)
    expect(readFileSync(path).equals(PNG)).toBe(true)
    expect(seen).toEqual([{ method: "POST", path: "/v1/images/generations", auth: "Bearer sk-image-test", body: { model: "gpt-image-1", prompt: "a lighthouse at dusk", size: "1024x1536", n: 1 } }])
  })

  it("fal: posts to the model's path with a Key header; fetches the image from the URL it answers; an unknown ratio is landscape", async () => {
    const { seen, base } = await standIn((req, res, root) => {
      if (req.method === "GET") {
        res.writeHead(200, { "content-type": "image/png" })
        res.end(PNG)
        return
      }
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ images: [{ url: `${root}/files/out.png`, width: 1024, height: 576 }], seed: 7 }))
    })
    const home = homeWith(`image_gen:\n  provider: fal\n  base_url: ${base}\n  model: fal-ai/flux/dev\n`)
    const result = await call(home, { prompt: "a red bicycle", aspect_ratio: "panorama" }, { FAL_KEY: "fal-test-key" })
    expect(result).toMatchObject({ success: true, modality: "image", url: `${base}/files/out.png` })
    expect(readFileSync(String(result["file_path"])).equals(PNG)).toBe(true)
    expect(seen[0]).toEqual({ method: "POST", path: "/fal-ai/flux/dev", auth: "Key fal-test-key", body: { prompt: "a red bicycle", image_size: "landscape_16_9", num_images: 1 } })
    expect(seen[1]).toMatchObject({ method: "GET", path: "/files/out.png" })
  })

  it("a provider URL elsewhere over plain http is not fetched; provider errors and editing requests fold into error_type", async () => {
    const { base } = await standIn((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ images: [{ url: "http://169.254.169.254/latest/meta-data" }] }))
    })
    const home = homeWith(`image_gen:\n  provider: fal\n  base_url: ${base}\n`)
    expect(await call(home, { prompt: "x" }, { FAL_KEY: "k" })).toMatchObject({ success: false, image: null, error_type: "provider_contract" })
    expect(await call(home, { prompt: "x", image_url: "/tmp/a.png" }, { FAL_KEY: "k" })).toMatchObject({ success: false, error_type: "modality_unsupported" })

    const failing = await standIn((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { message: "bad key" } }))
    })
    const other = homeWith(`image_gen:\n  provider: openai\n  base_url: ${failing.base}/v1\n`)
    const result = await call(other, { prompt: "x" }, { OPENAI_API_KEY: "sk-wrong" })
    expect(result).toMatchObject({ success: false, image: null, error_type: "provider_exception" })
    expect(String(result["error"])).toContain("HTTP 401")
  })

  it("is offered only with a provider and its key", async () => {
    const names = async (config: string, env: Record<string, string | undefined>) => {
      const r = await runCliAsync(["tools", "list", "--json"], { home: homeWith(config), env })
      return (JSON.parse(r.stdout) as ReadonlyArray<{ function: { name: string } }>).map((t) => t.function.name)
    }
    expect(await names("", { OPENAI_API_KEY: "sk" })).not.toContain("image_generate")
    expect(await names("image_gen:\n  provider: fal\n", { FAL_KEY: undefined })).not.toContain("image_generate")
    expect(await names("image_gen:\n  provider: fal\n", { FAL_KEY: "k" })).toContain("image_generate")
  })
})
