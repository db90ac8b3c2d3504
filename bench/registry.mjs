// Registry and dispatch: per-call overhead, definitions for hermes-cli, cold CLI start.
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Exit, Layer, ManagedRuntime, Schema } from "effect"
import { ConfigTest, HermesRuntime, ToolExecutor, ToolRegistry, Toolsets, defineTool, registerTool } from "../dist/index.js"
import { median, perOpMicros } from "./_stats.mjs"

const trivial = defineTool({
  name: "bench_echo",
  toolset: "bench",
  description: "Echo one value.",
  parameters: Schema.Struct({ value: Schema.Number, label: Schema.optional(Schema.String) }),
  handler: (args) => Effect.succeed(`value ${args.value}`)
})

/** The same tool with an `Effect.gen` handler, which dispatch runs in a fiber of its own. */
const trivialGen = defineTool({
  ...trivial,
  name: "bench_echo_gen",
  handler: (args) =>
    Effect.gen(function*() {
      return `value ${args.value}`
    })
})

/** The same tool answering through a Promise (as MCP, web and file tools do): dispatch runs it in its own fiber under a timer. */
const trivialAsync = defineTool({
  ...trivial,
  name: "bench_echo_async",
  handler: (args) => Effect.promise(() => Promise.resolve(`value ${args.value}`))
})

/** A stand-in for each hermes-cli tool, with a schema of typical size. */
const stub = (name) =>
  defineTool({
    name,
    toolset: "bench-core",
    description: `The ${name} tool. `.repeat(6),
    parameters: Schema.Struct({
      path: Schema.String.annotations({ description: "Target path" }),
      limit: Schema.optional(Schema.Int.annotations({ description: "Most items" })),
      mode: Schema.optional(Schema.Literal("a", "b", "c")),
      items: Schema.optional(Schema.Array(Schema.Struct({ id: Schema.String, note: Schema.String })))
    }),
    handler: () => Effect.succeed("ok")
  })

export const run = async () => {
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-"))
  const layer = HermesRuntime.layer({ config: ConfigTest({}, { root: home, workspaceDir: join(home, "ws") }), plugins: false })
  const runtime = ManagedRuntime.make(layer)
  const registry = await runtime.runPromise(ToolRegistry)
  const executor = await runtime.runPromise(ToolExecutor)
  await runtime.runPromise(registerTool(trivial))
  const rows = []

  // 1. Full dispatch of a trivial tool: parse, coerce, decode, hooks, handler under timeout, fold. Two handlers:
  // `Effect.succeed` (already finished: read without a fiber) and `Effect.gen` (runs in its own fiber).
  await runtime.runPromise(registerTool(trivialGen))
  await runtime.runPromise(registerTool(trivialAsync))
  const call = { tool: "bench_echo", args: "{\"value\": \"7\", \"label\": \"x\"}" }
  const genCall = { ...call, tool: "bench_echo_gen" }
  const inFiber = (effect) => Effect.forEach(Array.from({ length: 1000 }), () => effect, { discard: true })
  const perOpInFiber = async (effect) => await perOpMicros(() => runtime.runPromise(inFiber(effect)), { rounds: 15, perRound: 1 }) / 1000
  const bare = trivial.handler({ value: 7 })
  const bareGen = trivialGen.handler({ value: 7 })
  // 15 rounds of 10 000 after as many to warm up: shorter rounds measured the JIT and GC of the layer build.
  const perRunPromise = { rounds: 15, perRound: 10_000 }
  const dispatchUs = await perOpMicros(() => runtime.runPromise(executor.dispatch(call)), perRunPromise)
  const bareUs = await perOpMicros(() => runtime.runPromise(bare), perRunPromise)
  const inFiberUs = await perOpInFiber(executor.dispatch(call))
  const bareInFiberUs = await perOpInFiber(bare)
  const genInFiberUs = await perOpInFiber(executor.dispatch(genCall))
  const bareGenInFiberUs = await perOpInFiber(bareGen)
  const asyncInFiberUs = await perOpInFiber(executor.dispatch({ ...call, tool: "bench_echo_async" }))
  const bareAsyncInFiberUs = await perOpInFiber(trivialAsync.handler({ value: 7 }))
  // The same Promise answered through `promiseHandler` (as MCP tools are): awaited in the caller's fiber.
  const registered = registry.get("bench_echo_async")
  await runtime.runPromise(registry.register({
    ...registered,
    name: "bench_echo_promise",
    promiseHandler: (args) => Promise.resolve(Exit.succeed(`value ${args.value}`))
  }))
  const promiseInFiberUs = await perOpInFiber(executor.dispatch({ ...call, tool: "bench_echo_promise" }))
  rows.push({ name: "dispatch trivial tool (runPromise per call)", value: dispatchUs, unit: "µs", baseline: bareUs, baselineName: "bare handler via runPromise", ratio: dispatchUs / bareUs, target: "≤ 4 µs" })
  rows.push({ name: "dispatch trivial tool (inside one fiber)", value: inFiberUs, unit: "µs", baseline: bareInFiberUs, baselineName: "bare handler in the fiber", ratio: inFiberUs / bareInFiberUs, target: "≤ 3 µs" })
  rows.push({ name: "dispatch trivial Effect.gen tool (inside one fiber)", value: genInFiberUs, unit: "µs", baseline: bareGenInFiberUs, baselineName: "bare handler in the fiber", ratio: genInFiberUs / bareGenInFiberUs })
  rows.push({ name: "dispatch trivial Promise tool (inside one fiber)", value: asyncInFiberUs, unit: "µs", baseline: bareAsyncInFiberUs, baselineName: "bare handler in the fiber", ratio: asyncInFiberUs / bareAsyncInFiberUs })
  rows.push({ name: "dispatch trivial promiseHandler tool (inside one fiber)", value: promiseInFiberUs, unit: "µs", baseline: bareAsyncInFiberUs, baselineName: "bare Promise handler in the fiber", ratio: promiseInFiberUs / bareAsyncInFiberUs })

  // 2. Definitions for hermes-cli, uncached: each round bumps the registry generation first.
  const core = Toolsets.HERMES_CORE_TOOLS
  const missing = core.filter((n) => registry.get(n) === undefined)
  await runtime.runPromise(Effect.forEach(missing, (n) => registerTool({ ...stub(n), toolset: "bench-core-" + n }), { discard: true }))
  const select = { enabled: ["hermes-cli"] }
  let k = 0
  const uncached = Effect.zipRight(Effect.suspend(() => registry.registerAlias(`bench-alias-${k++ % 4}`, "bench")), registry.definitions(select))
  const defsCount = (await runtime.runPromise(registry.definitions(select))).length
  const uncachedUs = await perOpMicros(() => runtime.runPromise(uncached), { rounds: 25, perRound: 50 })
  const cachedUs = await perOpMicros(() => runtime.runPromise(registry.definitions(select)), { rounds: 25, perRound: 200 })
  rows.push({ name: `definitions hermes-cli uncached (${defsCount} tools)`, value: uncachedUs / 1000, unit: "ms", baseline: cachedUs / 1000, baselineName: "memoized", ratio: uncachedUs / cachedUs, target: "≤ 0.5 ms" })
  await runtime.dispose()

  // 3. Cold `hermes-effect tools list --json`, whole process, against a bare `node -e 0`.
  const bin = fileURLToPath(new URL("../dist/bin.mjs", import.meta.url))
  const env = { ...process.env, HERMES_EFFECT_HOME: mkdtempSync(join(tmpdir(), "hermes-effect-bench-cold-")) }
  const time = (args) => {
    const t = performance.now()
    const r = spawnSync(process.execPath, args, { env, encoding: "utf8" })
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`)
    return (performance.now() - t) / 1000
  }
  const cold = median(Array.from({ length: 7 }, () => time([bin, "tools", "list", "--json"])))
  const node = median(Array.from({ length: 7 }, () => time(["-e", "0"])))
  rows.push({ name: "cold `hermes-effect tools list --json`", value: cold, unit: "s", baseline: node, baselineName: "node -e 0", ratio: cold / node, target: "≤ 0.4 s" })
  return rows
}
