/**
 * execute_code on the container backend (podman with the tiny busybox+bash
 * test image, which has no Python): the files reach the container through
 * the backend's file access, and a missing python3 is a clear error.
 */
import { join } from "node:path"
import { expect, layer as withLayer, vi } from "@effect/vitest"
import { Effect } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { TerminalBackendContainer } from "../../src/layers/terminal/container/TerminalBackendContainer.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { podmanTerminal, preparePodman } from "../support/container.js"
import { tempHome } from "../support/runtime.js"
import { describeNeeding } from "../support/systemPrograms.js"

// Every call is a round trip to the target (several for a script run): slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 })

describeNeeding(preparePodman(), "execute_code: container backend", () => {
  const root = tempHome("hermes-code-container-")
  const runtime = hermesRuntime({
    plugins: false,
    terminalBackend: TerminalBackendContainer,
    config: ConfigTest({ terminal: { backend: "container", ...podmanTerminal } }, { root, workspaceDir: join(root, "workspace") })
  })
  withLayer(runtime, { excludeTestServices: true, timeout: "120 seconds" })("execute_code on container", (it) => {
    it.effect("without python3 in the image: Hermes' error, and the run directory is gone", () =>
      Effect.gen(function*() {
        const call = (tool: string, args: Record<string, unknown>) =>
          Effect.map(Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId: "c1" } })), (s) => JSON.parse(s) as Record<string, unknown>)
        const result = yield* call("execute_code", { code: "print('hi')" })
        expect(result).toMatchObject({ status: "error", tool_calls_made: 0 })
        expect(String(result["error"])).toMatch(/^Python 3 is not available in the container terminal environment\./)
        const left = yield* call("terminal", { command: "ls -d /tmp/hermes_exec_* 2>/dev/null | wc -l" })
        expect(left).toMatchObject({ output: "0" })
      }))
  })
})
