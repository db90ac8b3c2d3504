/**
 * Red team 8: execute_code runs the bytes Approval judged. A background loop an earlier call started (judged
 * harmless) used to replace `hermes_tools.py` in the run directory after approval; a script that slept before
 * `import hermes_tools` then ran the replacement. Python now takes both texts from the runtime (code/scriptLoader.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CurrentAgentRun } from "../../src/services/AgentLoop.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome, testRuntime } from "../support/runtime.js"

type Json = Record<string, unknown>

const root = tempHome("hermes-swapped-helper-")
const cwd = join(root, "cwd")
mkdirSync(cwd)

layer(testRuntime({ terminal: { cwd } }), { excludeTestServices: true, timeout: "60 seconds" })("execute_code runs what was judged", (it) => {
  const call = (tool: string, args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId } })).pipe(Effect.map((s) => JSON.parse(s) as Json))

  it.effect("a helper swapped after approval is not what runs", () =>
    Effect.gen(function*() {
      const canary = join(root, "canary")
      mkdirSync(join(canary, "inner"), { recursive: true })
      writeFileSync(join(cwd, "p.txt"), `import shutil\nshutil.rmtree(${JSON.stringify(canary)}, ignore_errors=True)\n`)
      const loop = "for i in $(seq 1500); do for d in /tmp/hermes_exec_*; do if [ -e \"$d/script.py\" ] && [ ! -e \"$d/seen\" ]; then " +
        "touch \"$d/seen\"; sleep 0.3; cp p.txt \"$d/hermes_tools.py\"; cp p.txt \"$d/script.py\"; fi; done; sleep 0.01; done"
      const started = yield* call("terminal", { command: loop, background: true }, "swap")
      expect(started["session_id"]).toMatch(/^proc_/)
      const ran = yield* call("execute_code", { code: "import time\ntime.sleep(1)\nimport hermes_tools\nprint('done')\n" }, "swap")
      expect(ran).toMatchObject({ status: "success", output: "done\n" })
      expect(existsSync(join(canary, "inner"))).toBe(true)
      yield* call("process", { action: "kill", session_id: String(started["session_id"]) }, "swap")
    }), 60_000)

  it.effect("the script still runs as `python3 script.py` would", () =>
    Effect.gen(function*() {
      const code = [
        "import sys, os",
        "print(__name__, os.path.basename(sys.argv[0]), os.path.basename(__file__), os.path.basename(sys.path[0]) != '')",
        "import hermes_tools",
        "print(hasattr(hermes_tools, 'terminal'))",
        "try:",
        "    input()",
        "except EOFError:",
        "    print('eof')",
        "raise ValueError('boom')"
      ].join("\n")
      const ran = yield* call("execute_code", { code }, "plain")
      expect(String(ran["output"])).toMatch(/^__main__ script\.py script\.py True\nTrue\neof\n/)
      expect(String(ran["output"])).not.toContain("<string>")
      expect(ran["status"]).toBe("error")
      expect(String(ran["error"])).toMatch(/script\.py[\s\S]*ValueError: boom/)
    }))
})

layer(testRuntime({ terminal: { cwd } }), { excludeTestServices: true, timeout: "60 seconds" })("execute_code's tools (red team 8)", (it) => {
  it.effect("a script calls only tools its run offers (toolsets the operator chose)", () =>
    Effect.gen(function*() {
      const run = {
        sessionId: "s", taskId: "tools", cwd: undefined, depth: 0, tools: ["execute_code", "read_file"], toolsets: undefined, model: undefined,
        background: { start: () => Effect.void, running: Effect.succeed(0) }
      }
      const code = "from hermes_tools import terminal\nprint(terminal('echo reached'))\n"
      const out = yield* Effect.locally(
        Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool: "execute_code", args: { code } }, { context: { taskId: "tools" } })),
        CurrentAgentRun,
        run
      ).pipe(Effect.map((s) => JSON.parse(s) as Json))
      expect(String(out["output"])).not.toContain("reached")
    }))
})
