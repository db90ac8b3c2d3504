import { join } from "node:path"
import { expect, layer as withLayer } from "@effect/vitest"
import { Effect } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { TerminalBackendSandbox } from "../../src/layers/terminal/sandbox/TerminalBackendSandbox.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome } from "../support/runtime.js"
import { bwrapProblem, describeNeeding, programProblem } from "../support/systemPrograms.js"
import { codeSuite } from "./suite.js"

// The socket lives under the sandbox's home, bound at the same path inside.
describeNeeding(bwrapProblem() ?? programProblem("python3"), "execute_code: sandbox backend", () => {
  codeSuite({ backend: TerminalBackendSandbox, kind: "sandbox", isolated: true })

  const root = tempHome("hermes-code-sandbox-long-")
  const runtime = hermesRuntime({
    plugins: false,
    terminalBackend: TerminalBackendSandbox,
    config: ConfigTest({}, { root, workspaceDir: join(root, "workspace") })
  })
  withLayer(runtime, { excludeTestServices: true, timeout: "60 seconds" })("execute_code on sandbox, deep home", (it) => {
    it.effect("a home too deep for a socket path: the calls travel as files instead", () =>
      Effect.gen(function*() {
        const taskId = `task-${"x".repeat(90)}`
        const out = yield* Effect.flatMap(ToolExecutor, (x) =>
          x.dispatch({
            tool: "execute_code",
            args: { code: "import os\nfrom hermes_tools import terminal\nprint(terminal('echo deep')['output'], 'HERMES_RPC_DIR' in os.environ)" }
          }, { context: { taskId } }))
        expect(JSON.parse(out)).toMatchObject({ status: "success", output: "deep True\n", tool_calls_made: 1 })
      }))
  })
})
