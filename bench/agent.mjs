// Agent loop: overhead per turn without model time (scripted provider, trivial tool), and a batch of
// 1 000 scripted prompts at concurrency 8. Real SQLite session store in a temp home.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { AgentLoop, ConfigTest, HermesRuntime, Model, ToolExecutor, ToolRegistry, defineTool, makeScriptedModel, parsePromptBatch, registerTool, runPromptBatch } from "../dist/index.js"
import { parseBatch, runBatch } from "../dist/programs/batchRunner.js"
import { median } from "./_stats.mjs"

const trivial = defineTool({
  name: "bench_echo",
  toolset: "bench",
  description: "Echo one value.",
  parameters: Schema.Struct({ value: Schema.Number }),
  parallel: "safe",
  handler: (args) => Effect.succeed(`value ${args.value}`)
})

/** The scripted model, with the time spent inside it counted, so it can be taken out of the loop's time. */
const timedModel = (turns, clock) =>
  Layer.effect(
    Model,
    Effect.map(makeScriptedModel({ turns }), (model) => ({
      ...model,
      complete: (request) =>
        Effect.suspend(() => {
          const t = performance.now()
          return Effect.ensuring(model.complete(request), Effect.sync(() => void (clock.modelMs += performance.now() - t)))
        })
    }))
  )

const runtimeWith = (turns, clock) => {
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-agent-"))
  const layer = HermesRuntime.layer({
    config: ConfigTest({}, { root: home, workspaceDir: join(home, "ws") }),
    plugins: false,
    mcp: false,
    model: timedModel(turns, clock)
  })
  return ManagedRuntime.make(Layer.effectDiscard(Effect.orDie(registerTool(trivial))).pipe(Layer.provideMerge(layer)))
}

const TURNS = 100
const CALL = { name: "bench_echo", arguments: { value: 1 } }

export const run = async () => {
  const rows = []

  // 1. One run of TURNS tool turns plus the final answer; per turn: wall time minus time inside the model.
  const clock = { modelMs: 0 }
  const runtime = runtimeWith([{ tool_calls: [CALL], repeat: TURNS }, { content: "done" }], clock)
  const selection = { enabled: ["bench"] }
  const agentRun = Effect.flatMap(AgentLoop, (agent) => agent.run({ prompt: "go", toolsets: selection, maxIterations: 10 * TURNS }))
  const loopSample = async () => {
    clock.modelMs = 0
    const t = performance.now()
    const result = await runtime.runPromise(agentRun)
    if (result.status !== "completed" || result.iterations !== TURNS + 1) throw new Error(`unexpected run: ${result.status} after ${result.iterations}`)
    return ((performance.now() - t - clock.modelMs) * 1000) / result.iterations
  }
  // Baseline, same run: the bare minimum a loop does per turn (model call + batch dispatch), no store, no events.
  const bare = Effect.gen(function*() {
    const model = yield* Model
    const registry = yield* ToolRegistry
    const executor = yield* ToolExecutor
    const tools = yield* registry.definitions(selection)
    const messages = [{ role: "user", content: "go" }]
    const context = { taskId: "bare", sessionId: `bare-${Math.random()}` }
    for (let i = 0; i < TURNS + 1; i++) {
      const response = yield* model.complete({ messages, tools, context })
      const calls = response.message.tool_calls ?? []
      messages.push(response.message)
      if (calls.length === 0) break
      const outcomes = yield* executor.executeBatch(calls.map((c) => ({ tool: c.function.name, args: c.function.arguments, toolCallId: c.id })), { context })
      outcomes.forEach((o, j) => messages.push({ role: "tool", tool_call_id: calls[j].id, content: o.result }))
    }
  })
  const bareSample = async () => {
    clock.modelMs = 0
    const t = performance.now()
    await runtime.runPromise(bare)
    return ((performance.now() - t - clock.modelMs) * 1000) / (TURNS + 1)
  }
  // Warm both up (JIT), then alternate the samples so load on the machine hits them alike.
  for (let i = 0; i < 8; i++) {
    await loopSample()
    await bareSample()
  }
  const loopSamples = []
  const bareSamples = []
  for (let i = 0; i < 21; i++) {
    loopSamples.push(await loopSample())
    bareSamples.push(await bareSample())
  }
  const loopUs = median(loopSamples)
  const bareUs = median(bareSamples)
  rows.push({
    name: "agent loop overhead per turn (excl. model)",
    value: loopUs / 1000,
    unit: "ms",
    baseline: bareUs / 1000,
    baselineName: "bare model+executeBatch loop, no store",
    ratio: loopUs / bareUs,
    target: "≤ 0.5 ms"
  })
  await runtime.dispose()

  // 2. 1 000 prompts, each a two-turn run in its own session, 8 at a time.
  const batchClock = { modelMs: 0 }
  const batchRuntime = runtimeWith([{ tool_calls: [CALL] }, { content: "done" }], batchClock)
  const N = 1000
  const prompts = parsePromptBatch(Array.from({ length: N }, (_, i) => JSON.stringify({ id: i, prompt: `prompt ${i}`, toolsets: ["bench"] })).join("\n"))
  // Baseline, same run: 1 000 tool-call lines (one call each, distinct tasks) through the tool batch, 8 at a time.
  const calls = parseBatch(Array.from({ length: N }, (_, i) => JSON.stringify({ id: i, tool: "bench_echo", args: { value: i }, task_id: `t${i}` })).join("\n"))
  // CPU time too: on a loaded machine the wall rate says more about the other processes than about the loop.
  let promptCpuUs = []
  let callCpuUs = []
  const cpuSince = (c0) => {
    const c = process.cpuUsage(c0)
    return c.user + c.system
  }
  const promptBatch = async (batch = prompts, cpuUs = promptCpuUs) => {
    const c0 = process.cpuUsage()
    const t = performance.now()
    const results = await batchRuntime.runPromise(runPromptBatch(batch, { concurrency: 8 }))
    const seconds = (performance.now() - t) / 1000
    cpuUs.push(cpuSince(c0) / N)
    const unfinished = results.filter((r) => r.status !== "completed")
    if (results.length !== N || unfinished.length > 0) {
      await batchRuntime.dispose()
      throw new Error(`batch did not complete every prompt: ${JSON.stringify(unfinished.slice(0, 3))}`)
    }
    return seconds
  }
  const callBatch = async () => {
    const c0 = process.cpuUsage()
    const t = performance.now()
    await batchRuntime.runPromise(runBatch(calls, { concurrency: 8 }))
    callCpuUs.push(cpuSince(c0) / N)
    return (performance.now() - t) / 1000
  }
  // The first batch of a process mostly measures JIT warm-up: it is reported apart, the steady rate is the
  // median of the batches after it (every batch opens N new sessions), alternated with the baseline's.
  const coldSeconds = await promptBatch()
  await callBatch()
  promptCpuUs = []
  callCpuUs = []
  const promptRuns = []
  const callRuns = []
  for (let i = 0; i < 3; i++) {
    promptRuns.push(await promptBatch())
    callRuns.push(await callBatch())
  }
  const promptSeconds = median(promptRuns)
  const callSeconds = median(callRuns)
  rows.push({
    name: "first batch of 1000 scripted prompts (cold JIT)",
    value: N / coldSeconds,
    unit: "prompts/s"
  })
  rows.push({
    name: "batch of 1000 scripted prompts, concurrency 8",
    value: N / promptSeconds,
    unit: "prompts/s",
    baseline: N / callSeconds,
    baselineUnit: "lines/s",
    baselineName: "1000 tool-call lines, concurrency 8",
    ratio: callSeconds / promptSeconds,
    target: "≥ 4000 prompts/s"
  })
  /** A row of median CPU per prompt (µs samples) against a baseline's. */
  const cpuRow = (name, samples, baselineSamples, baselineName, target) => ({
    name,
    value: median(samples) / 1000,
    unit: "ms",
    baseline: median(baselineSamples) / 1000,
    baselineName,
    ratio: median(samples) / median(baselineSamples),
    ...(target === undefined ? {} : { target })
  })
  rows.push(cpuRow("CPU per scripted prompt in those batches", promptCpuUs, callCpuUs, "CPU per tool-call line", "≤ 0.25 ms (4 000 prompts/s on one core)"))

  // 3. The same batch with the default toolsets offered too (what a real batch sends the model: ~20 tools, most
  // with availability checks), against the bench-only prompts above: what the per-prompt tool offer costs.
  const offeredPrompts = parsePromptBatch(
    Array.from({ length: N }, (_, i) => JSON.stringify({ id: i, prompt: `prompt ${i}`, toolsets: ["hermes-cli", "bench"] })).join("\n")
  )
  const offeredCpuUs = []
  const benchOnlyCpuUs = []
  await promptBatch(offeredPrompts, [])
  for (let i = 0; i < 3; i++) {
    await promptBatch(offeredPrompts, offeredCpuUs)
    await promptBatch(prompts, benchOnlyCpuUs)
  }
  rows.push(cpuRow("CPU per scripted prompt, hermes-cli toolsets offered", offeredCpuUs, benchOnlyCpuUs, "one tool offered"))
  await batchRuntime.dispose()
  return rows
}
