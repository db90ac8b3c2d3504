// Model layer: round-trip overhead of the scripted provider per assistant turn (median µs), excluding model time.
// Baselines in the same run: handing back a prebuilt response (`Effect.succeed`) the same way, so the ratio is the
// cost the provider adds (turn selection, conditions, response building, stream deltas and their assembly).
import { Chunk, Effect, Stream } from "effect"
import { collectResponse, makeScriptedModel } from "../dist/index.js"
import { perOpMicros } from "./_stats.mjs"

const tools = Array.from({ length: 20 }, (_, i) => ({
  type: "function",
  function: { name: `tool_${i}`, description: "A tool.", parameters: { type: "object", properties: { path: { type: "string" } } } }
}))

// A conversation of typical length: system, user, then tool-call / tool-result pairs.
const messages = [
  { role: "system", content: "You are a helpful agent. ".repeat(40) },
  { role: "user", content: "Read the three files and summarise them." },
  ...Array.from({ length: 4 }, (_, i) => [
    { role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "tool_1", arguments: "{\"path\":\"a\"}" } }] },
    { role: "tool", tool_call_id: `c${i}`, content: "file contents ".repeat(20) }
  ]).flat()
]
const request = { messages, tools, context: { sessionId: "bench" } }

export const run = async () => {
  const model = await Effect.runPromise(makeScriptedModel({
    turns: [{
      content: "Reading the next file.",
      tool_calls: [{ name: "tool_1", arguments: { path: "notes/todo.md" } }, { name: "tool_2", arguments: { path: "README.md" } }],
      usage: { prompt_tokens: 900, completion_tokens: 40 },
      expect: { last_role: "tool", tools_include: ["tool_1", "tool_2"] },
      repeat: true
    }]
  }))
  const prebuilt = await Effect.runPromise(model.complete(request))
  const deltas = Chunk.toReadonlyArray(await Effect.runPromise(Stream.runCollect(model.stream(request))))

  const completeUs = await perOpMicros(() => Effect.runPromise(model.complete(request)))
  const succeedUs = await perOpMicros(() => Effect.runPromise(Effect.succeed(prebuilt)))

  const N = 1000
  const loop = (turn) => Effect.runPromise(Effect.forEach(Array.from({ length: N }), turn, { discard: true }))
  const inFiberUs = (await perOpMicros(() => loop(() => model.complete(request)), { rounds: 15, perRound: 1 })) / N
  const inFiberBaseUs = (await perOpMicros(() => loop(() => Effect.succeed(prebuilt)), { rounds: 15, perRound: 1 })) / N
  const streamUs = (await perOpMicros(() => loop(() => collectResponse(model.stream(request))), { rounds: 15, perRound: 1 })) / N
  const streamBaseUs = (await perOpMicros(() => loop(() => collectResponse(Stream.fromIterable(deltas))), { rounds: 15, perRound: 1 })) / N

  return [
    { name: "scripted model: complete per turn (runPromise)", value: completeUs, unit: "µs", baseline: succeedUs, baselineName: "prebuilt response via runPromise", ratio: completeUs / succeedUs },
    { name: "scripted model: complete per turn (in one fiber)", value: inFiberUs, unit: "µs", baseline: inFiberBaseUs, baselineName: "Effect.succeed(prebuilt) in one fiber", ratio: inFiberUs / inFiberBaseUs },
    { name: "scripted model: stream + assemble per turn (in one fiber)", value: streamUs, unit: "µs", baseline: streamBaseUs, baselineName: "same deltas from a prebuilt stream", ratio: streamUs / streamBaseUs }
  ]
}
