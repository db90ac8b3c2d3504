// MCP calls over stdio: sequential `echo` calls to the demo server (test/support/mcpServers) through the
// executor, against the SDK's own Client.callTool in a loop on a second copy of the same server, same run.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Schedule } from "effect"
import { ConfigTest, HermesRuntime, Mcp, ToolExecutor } from "../dist/index.js"
import { median } from "./_stats.mjs"

const SERVER = fileURLToPath(new URL("../test/support/mcpServers/stdio-server.mjs", import.meta.url))
const CALLS = 400
const ROUNDS = 15

/** Median µs per call over rounds of CALLS sequential calls; the two sides alternate rounds, so both see the same load. */
const perCall = async (sides) => {
  const samples = sides.map(() => [])
  for (const side of sides) await side(20)
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, side] of sides.entries()) {
      const t = performance.now()
      await side(CALLS)
      samples[i].push(((performance.now() - t) * 1000) / CALLS)
    }
  }
  return samples.map(median)
}

export const run = async () => {
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-mcp-"))
  const servers = { demo: { command: process.execPath, args: [SERVER] } }
  const layer = HermesRuntime.layer({ config: ConfigTest({ mcp_servers: servers }, { root: home, workspaceDir: join(home, "ws") }), plugins: false })
  // The demo server's deliberately suspicious tool is warned about at connect: keep the table clean.
  const runtime = ManagedRuntime.make(Layer.provide(layer, Logger.minimumLogLevel(LogLevel.Error)))
  const client = new Client({ name: "bench", version: "1" }, { capabilities: {} })
  try {
    const mcp = await runtime.runPromise(Mcp)
    const executor = await runtime.runPromise(ToolExecutor)
    await runtime.runPromise(Effect.repeat(Effect.map(mcp.status, (all) => all.find((s) => s.name === "demo")?.state), {
      until: (state) => state === "connected",
      schedule: Schedule.spaced("20 millis")
    }).pipe(Effect.timeout("20 seconds")))
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: "ignore" }))

    const args = { text: "hello" }
    const expectText = (text) => {
      if (!text.includes("hello")) throw new Error(`unexpected echo answer: ${text}`)
    }
    const sdkLoop = async (n) => {
      for (let i = 0; i < n; i++) {
        const result = await client.callTool({ name: "echo", arguments: args })
        expectText(result.content[0].text)
      }
    }
    const call = { tool: "mcp__demo__echo", args: JSON.stringify(args) }
    const dispatchLoop = (n) =>
      runtime.runPromise(Effect.forEach(Array.from({ length: n }), () => Effect.map(executor.dispatch(call), expectText), { discard: true }))
    const batchOnce = (n) =>
      runtime.runPromise(Effect.map(executor.executeBatch(Array.from({ length: n }, (_, i) => ({ ...call, toolCallId: `c${i}` }))), (outs) => outs.forEach((o) => expectText(o.result))))

    const [sdkUs, dispatchUs, batchUs] = await perCall([sdkLoop, dispatchLoop, batchOnce])
    return [
      { name: `MCP echo over stdio, ${CALLS} sequential dispatches`, value: dispatchUs / 1000, unit: "ms", baseline: sdkUs / 1000, baselineName: "SDK Client.callTool loop", ratio: dispatchUs / sdkUs, target: "ratio ≤ 1.3" },
      { name: `MCP echo over stdio, one batch of ${CALLS}`, value: batchUs / 1000, unit: "ms", baseline: sdkUs / 1000, baselineName: "SDK Client.callTool loop", ratio: batchUs / sdkUs, target: "ratio ≤ 1.3" }
    ]
  } finally {
    await client.close()
    await runtime.dispose()
  }
}
