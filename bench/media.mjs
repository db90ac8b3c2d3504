// Media tools: what each tool adds around its provider call, with a loopback provider that answers at once
// (vision_analyze, text_to_speech via OpenAI, image_generate via OpenAI, mixture_of_agents). Baseline in the same
// run: the same provider call made directly through the service the tool uses. Target: ≤ 2 ms added per tool.
import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { AuxiliaryModels, ConfigTest, HermesRuntime, ImageGeneration, Model, Speech, ToolExecutor } from "../dist/index.js"
import { median } from "./_stats.mjs"

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64")
const COMPLETION = JSON.stringify({
  id: "c", object: "chat.completion", model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "An answer." }, finish_reason: "stop" }]
})
const IMAGE = JSON.stringify({ created: 1, data: [{ b64_json: PNG.toString("base64") }] })
const AUDIO = Buffer.alloc(2048, 1)

const SAMPLES = 300

const timeEach = async (op) => {
  for (let i = 0; i < 50; i++) await op()
  const xs = []
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now()
    await op()
    xs.push(performance.now() - t)
  }
  return median(xs)
}

export const run = async () => {
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      if (req.url?.endsWith("/audio/speech")) {
        res.writeHead(200, { "content-type": "audio/mpeg" })
        res.end(AUDIO)
      } else if (req.url?.endsWith("/images/generations")) {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(IMAGE)
      } else {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(COMPLETION)
      }
    })
  })
  await new Promise((r) => server.listen(0, "127.0.0.1", r))
  const base = `http://127.0.0.1:${server.address().port}/v1`
  process.env["HERMES_BENCH_MEDIA_KEY"] = "sk-bench"
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-media-"))
  const image = join(home, "pixel.png")
  writeFileSync(image, PNG)
  const provider = { provider: "bench", name: "m", base_url: base, api_key_env: "HERMES_BENCH_MEDIA_KEY", max_retries: 0 }
  const runtime = ManagedRuntime.make(HermesRuntime.layer({
    config: ConfigTest({
      model: provider,
      auxiliary: { vision: provider },
      moa: { reference_models: ["ref-a", "ref-b"], aggregator: "agg" },
      tts: { provider: "openai", openai: { base_url: base, api_key_env: "HERMES_BENCH_MEDIA_KEY" } },
      image_gen: { provider: "openai", base_url: base, api_key_env: "HERMES_BENCH_MEDIA_KEY" }
    }, { root: home, workspaceDir: join(home, "ws") }),
    plugins: false,
    mcp: false
  }))
  const rows = []
  try {
    const executor = await runtime.runPromise(ToolExecutor)
    const dispatch = (tool, args) => () => runtime.runPromise(executor.dispatch({ tool, args: JSON.stringify(args) }, { context: { taskId: "bench" } }))
    const vision = (await runtime.runPromise(Effect.flatMap(AuxiliaryModels, (m) => m.forTask("vision")))).model
    const model = await runtime.runPromise(Model)
    const speech = await runtime.runPromise(Speech)
    const images = await runtime.runPromise(ImageGeneration)
    const dataUrl = `data:image/png;base64,${PNG.toString("base64")}`
    const cases = [
      {
        name: "vision_analyze (local PNG)",
        tool: dispatch("vision_analyze", { image_url: image, question: "what is it?" }),
        direct: () => runtime.runPromise(vision.complete({
          messages: [{ role: "user", content: "q", content_parts: [{ type: "text", text: "q" }, { type: "image_url", image_url: { url: dataUrl } }] }],
          temperature: 0.1,
          maxTokens: 2000
        }))
      },
      {
        name: "text_to_speech (OpenAI provider)",
        tool: dispatch("text_to_speech", { text: "Hello there.", output_path: join(home, "out.mp3") }),
        direct: () => runtime.runPromise(speech.synthesize({ text: "Hello there.", outputPath: join(home, "direct.mp3") }))
      },
      {
        name: "image_generate (OpenAI provider)",
        tool: dispatch("image_generate", { prompt: "a lighthouse" }),
        direct: () => runtime.runPromise(images.generate({ prompt: "a lighthouse", aspectRatio: "landscape" }))
      },
      {
        name: "mixture_of_agents (2 references + aggregator)",
        tool: dispatch("mixture_of_agents", { user_prompt: "Is 91 prime?" }),
        direct: () => runtime.runPromise(Effect.zipRight(
          Effect.all([model.complete({ model: "ref-a", messages: [{ role: "user", content: "Is 91 prime?" }] }), model.complete({ model: "ref-b", messages: [{ role: "user", content: "Is 91 prime?" }] })], { concurrency: "unbounded" }),
          model.complete({ model: "agg", messages: [{ role: "system", content: "fuse" }, { role: "user", content: "Is 91 prime?" }] })
        ))
      }
    ]
    for (const c of cases) {
      const first = JSON.parse(await c.tool())
      if (first.success !== true) throw new Error(`${c.name}: ${JSON.stringify(first)}`)
      const directMs = await timeEach(c.direct)
      const toolMs = await timeEach(c.tool)
      rows.push({ name: `${c.name}: added around the provider call`, value: toolMs - directMs, unit: "ms", baseline: directMs, baselineName: "the provider call through its service", ratio: toolMs / directMs, target: "≤ 2 ms" })
    }
  } finally {
    await runtime.dispose()
    await new Promise((r) => server.close(() => r()))
  }
  return rows
}
