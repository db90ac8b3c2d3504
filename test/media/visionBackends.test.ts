/**
 * vision_analyze reads local images through the task's environment: the same
 * relative path, written by `terminal` in the environment's folder, reaches
 * the vision model on the local backend and on ssh (a real sshd on loopback).
 */
import { join } from "node:path"
import { afterAll, expect, layer as withLayer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { TerminalBackendLocal } from "../../src/layers/terminal/local/TerminalBackendLocal.js"
import { TerminalBackendSsh } from "../../src/layers/terminal/ssh/TerminalBackendSsh.js"
import type { Config, HermesConfigInput } from "../../src/services/Config.js"
import type { TerminalBackend } from "../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { startOpenAiServer } from "../support/openaiServer.js"
import { tempHome } from "../support/runtime.js"
import { sshdProblem, startSshd } from "../support/sshd.js"
import { describeNeeding } from "../support/systemPrograms.js"

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

const server = await startOpenAiServer()
afterAll(() => server.close())

const suite = (kind: string, backend: Layer.Layer<TerminalBackend, never, Config>, terminal: NonNullable<HermesConfigInput["terminal"]>) => {
  const root = tempHome(`hermes-vision-${kind}-`)
  const runtime = hermesRuntime({
    plugins: false,
    terminalBackend: backend,
    config: ConfigTest(
      { terminal, auxiliary: { vision: { provider: "local-vl", name: `vl-${kind}`, base_url: server.baseUrl, max_retries: 0 } } },
      { root, workspaceDir: join(root, "workspace") }
    )
  })
  withLayer(runtime, { excludeTestServices: true, timeout: "120 seconds" })(`vision_analyze on ${kind}`, (it) => {
    it.effect("a PNG written in the task's folder is read through the environment and sent as a data URL", () =>
      Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const context = { context: { taskId: `vision-${kind}` } }
        const wrote = JSON.parse(yield* executor.dispatch({ tool: "terminal", args: { command: `printf '%s' '${PIXEL}' | base64 -d > shot-${kind}.png && echo ok` } }, context)) as { output: string }
        expect(wrote.output).toContain("ok")
        server.enqueue({ kind: "completion", content: `seen on ${kind}` })
        const result = JSON.parse(yield* executor.dispatch({ tool: "vision_analyze", args: { image_url: `shot-${kind}.png`, question: "what is it?" } }, context))
        expect(result).toEqual({ success: true, analysis: `seen on ${kind}` })
        const request = server.requests.at(-1)!.body
        expect(request["model"]).toBe(`vl-${kind}`)
        expect(JSON.stringify(request["messages"])).toContain(`data:image/png;base64,${PIXEL}`)
      }))
  })
}

suite("local", TerminalBackendLocal, { cwd: tempHome("hermes-vision-local-cwd-") })

const problem = sshdProblem()
const sshd = problem === undefined ? await startSshd() : undefined
if (sshd !== undefined) afterAll(() => sshd.stop())
describeNeeding(problem, "vision_analyze: ssh backend", () => {
  if (sshd !== undefined) suite("ssh", TerminalBackendSsh, { backend: "ssh", ...sshd.terminal })
})
