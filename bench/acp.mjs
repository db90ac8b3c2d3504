// ACP server: overhead per scripted turn with one tool call (`todo`), through `session/prompt` on an in-process client,
// against the same turn through AgentLoop.run directly; and cold start of `hermes-effect acp` to the initialize response.
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk/unstable"
import { Effect, Layer, ManagedRuntime } from "effect"
import { AgentLoop, ConfigTest, HermesRuntime, Model, makeScriptedModel } from "../dist/index.js"
import { ApproverAcp } from "../dist/programs/acp/approver.js"
import { makeAcpServer } from "../dist/programs/acp/server.js"
import { median } from "./_stats.mjs"

const SAMPLES = 60
// The SDK path needs a few hundred messages before the JIT has settled.
const WARMUP = 150
const PROMPTS = 2 * (WARMUP + SAMPLES + 1) + 1
// Each prompt takes two turns of the session's script: a `todo` read, then the answer.
const turns = Array.from({ length: PROMPTS }, () => [{ tool_calls: [{ name: "todo", arguments: {} }] }, { content: "done" }]).flat()

const runtimeFor = (askers) => {
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-acp-"))
  return ManagedRuntime.make(HermesRuntime.layer({
    config: ConfigTest({}, { root: home, workspaceDir: join(home, "ws") }),
    plugins: false,
    mcp: false,
    approver: ApproverAcp(askers),
    model: Layer.effect(Model, makeScriptedModel({ turns }))
  }))
}

const coldStart = () =>
  new Promise((resolve, reject) => {
    const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-acp-home-"))
    const bin = fileURLToPath(new URL("../dist/bin.mjs", import.meta.url))
    const t = performance.now()
    const child = spawn(process.execPath, [bin, "acp"], { env: { ...process.env, HERMES_EFFECT_HOME: home }, stdio: ["pipe", "pipe", "ignore"] })
    child.stdout.once("data", () => {
      const ms = performance.now() - t
      child.stdin.end()
      child.once("exit", () => resolve(ms))
    })
    child.once("error", reject)
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } })}\n`)
  })

/**
 * A bare JSON-RPC client on newline-delimited JSON, as an editor's transport sees the server: its own cost is one
 * JSON.parse per line, so what it measures is the server's (the SDK's client validates every update with zod, which
 * in an editor runs in the editor's process, not ours).
 */
const rawClient = (app) => {
  const toServer = new TransformStream()
  const fromServer = new TransformStream()
  app.connect(ndJsonStream(fromServer.writable, toServer.readable))
  const writer = toServer.writable.getWriter()
  const encoder = new TextEncoder()
  const waiting = new Map()
  let nextId = 1
  let buffered = ""
  void (async () => {
    const decoder = new TextDecoder()
    for await (const bytes of fromServer.readable) {
      buffered += decoder.decode(bytes, { stream: true })
      let newline
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline)
        buffered = buffered.slice(newline + 1)
        const message = JSON.parse(line)
        if (message.id !== undefined && message.method === undefined) waiting.get(message.id)?.(message)
      }
    }
  })()
  return {
    request: (method, params) =>
      new Promise((resolve) => {
        const id = nextId++
        waiting.set(id, (message) => {
          waiting.delete(id)
          resolve(message.result ?? message.error)
        })
        void writer.write(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`))
      }),
    close: () => writer.close()
  }
}

export const run = async () => {
  const rows = []
  const askers = new Map()
  const runtime = runtimeFor(askers)
  const app = await runtime.runPromise(Effect.scoped(makeAcpServer({ name: "bench", version: "0", askers, approvalTimeoutSeconds: 60 })))
  const connection = client().onNotification(methods.client.session.update, () => undefined).connect(app)
  await connection.agent.request(methods.agent.initialize, { protocolVersion: 1 })
  const cwd = mkdtempSync(join(tmpdir(), "hermes-effect-bench-acp-cwd-"))
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
  // Each ACP session is paired with its own direct session, so both histories grow in step.
  let direct = `direct-${Date.now()}`
  const loopRun = Effect.suspend(() => Effect.flatMap(AgentLoop, (agent) =>
    agent.run({ prompt: "go", sessionId: direct, source: "acp", cwd, stream: true, toolsets: { enabled: ["hermes-acp"] }, onEvent: () => Effect.void })))
  const acpSample = async () => {
    const t = performance.now()
    const answer = await connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] })
    if (answer.stopReason !== "end_turn") throw new Error(`unexpected stop: ${answer.stopReason}`)
    return performance.now() - t
  }
  const loopSample = async () => {
    const t = performance.now()
    await runtime.runPromise(loopRun)
    return performance.now() - t
  }
  // The first prompt also enters the session's cwd (one shell command): not part of a turn's overhead.
  await acpSample()
  await loopSample()
  for (let i = 0; i < WARMUP; i++) {
    await acpSample()
    await loopSample()
  }
  const acp = []
  const loop = []
  for (let i = 0; i < SAMPLES; i++) {
    acp.push(await acpSample())
    loop.push(await loopSample())
  }
  const acpMs = median(acp)
  const loopMs = median(loop)
  rows.push({
    name: "acp added per scripted turn (1 tool call)",
    value: acpMs - loopMs,
    unit: "ms",
    baseline: loopMs,
    baselineName: "same turn through AgentLoop.run",
    ratio: acpMs / loopMs,
    target: "≤ 1 ms"
  })
  connection.close()
  // Same turns through a bare newline-delimited JSON-RPC client: the server's own cost.
  const raw = rawClient(app)
  await raw.request(methods.agent.initialize, { protocolVersion: 1 })
  const rawSession = (await raw.request(methods.agent.session.new, { cwd, mcpServers: [] })).sessionId
  const rawSample = async () => {
    const t = performance.now()
    const answer = await raw.request(methods.agent.session.prompt, { sessionId: rawSession, prompt: [{ type: "text", text: "go" }] })
    if (answer.stopReason !== "end_turn") throw new Error(`unexpected stop: ${JSON.stringify(answer)}`)
    return performance.now() - t
  }
  direct = `direct-raw-${Date.now()}`
  await rawSample()
  await loopSample()
  for (let i = 0; i < WARMUP; i++) {
    await rawSample()
    await loopSample()
  }
  const rawMs = []
  const loop2 = []
  for (let i = 0; i < SAMPLES; i++) {
    rawMs.push(await rawSample())
    loop2.push(await loopSample())
  }
  rows.push({
    name: "acp added per scripted turn, server side (bare ndjson client)",
    value: median(rawMs) - median(loop2),
    unit: "ms",
    baseline: median(loop2),
    baselineName: "same turn through AgentLoop.run",
    ratio: median(rawMs) / median(loop2),
    target: "≤ 1 ms"
  })
  raw.close()
  await runtime.dispose()
  const starts = []
  for (let i = 0; i < 3; i++) starts.push(await coldStart())
  rows.push({ name: "acp cold start to initialize response", value: median(starts) / 1000, unit: "s", target: "≤ 0.3 s" })
  return rows
}
