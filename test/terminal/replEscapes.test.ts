/**
 * Red team 8: a REPL's own commands beside its language. Text typed into IPython, the Perl debugger, node's or
 * irb's REPL, or a Python REPL showing help() in a pager, is judged as that program reads it: IPython's `!cmd` and
 * magics, the debugger's `!!cmd`, `.load`/`.save`, irb's `source`, a pager's `!cmd`. End to end through
 * `terminal` and `process` on the local backend with the real Approval and nobody to approve.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { replEscapes, replOf, replsOf } from "../../src/layers/processes/replEscapes.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome, testRuntime } from "../support/runtime.js"

type Json = Record<string, unknown>

describe("replOf", () => {
  it("knows the REPLs with commands of their own", () => {
    const cases: ReadonlyArray<readonly [string, string | undefined]> = [
      ["ipython", "ipython"],
      ["ipython3 --no-banner", "ipython"],
      ["python3 -m IPython", "ipython"],
      ["jupyter console", "ipython"],
      ["jupyter-console", "ipython"],
      ["perl -de0", "perl-debugger"],
      ["perl -d x.pl", "perl-debugger"],
      ["node", "node"],
      ["node -i", "node"],
      ["irb", "irb"],
      ["python3 -i", "python"],
      ["python3", "python"],
      ["bash", undefined],
      ["node app.js", undefined],
      ["perl x.pl", undefined]
    ]
    for (const [command, repl] of cases) expect([command, replOf(command)]).toEqual([command, repl])
  })
})

describe("replEscapes", () => {
  it("turns IPython's shell escapes into shell text, and asks for magics that run or load", () => {
    expect(replEscapes("ipython", "!rm -rf d\n", false)).toMatchObject({ shell: ["rm -rf d"] })
    expect(replEscapes("ipython", "  !!ls\nfiles = !find . -delete\n", false)).toMatchObject({ shell: ["ls", "find . -delete"] })
    expect(replEscapes("ipython", "%sx rm -rf d\n", false)).toMatchObject({ shell: ["rm -rf d"] })
    expect(replEscapes("ipython", "%%bash\nrm -rf d\n", false).asks).toBeDefined()
    expect(replEscapes("ipython", "%run x.py\n", false).asks).toBeDefined()
    expect(replEscapes("ipython", "get_ipython().system('ls')\n", false).asks).toBeDefined()
    expect(replEscapes("ipython", "%alias x rm\n", false).asks).toBeDefined()
    // Automagic: IPython's aliases and magics typed bare.
    expect(replEscapes("ipython", "rm -r d\nmv a b\n", false)).toMatchObject({ shell: ["rm -r d", "mv a b"] })
    expect(replEscapes("ipython", "run x.py\n", false).asks).toBeDefined()
    expect(replEscapes("ipython", "!find . -exec rm {} +\n", false).asks).toBeDefined()
    expect(replEscapes("ipython", ";os.system rm -rf d\n", false).asks).toBeDefined()
  })

  it("leaves ordinary code and harmless magics quiet", () => {
    for (const text of ["print(1)\n", "ls = [1]\nrm = ls[0]\ntime.sleep(0)\ncat - 1\n", "x = [v | 1 for v in y]\n", "%timeit sum(range(9))\n", "%pwd\n", "a != b\n", "s = '!rm'\n"]) {
      expect([text, replEscapes("ipython", text, false)]).toEqual([text, { shell: [], asks: undefined, pager: false }])
    }
    expect(replEscapes("node", "const a = 1 | 2\n", false)).toEqual({ shell: [], asks: undefined, pager: false })
    expect(replEscapes("python", "print(1)\n", true)).toEqual({ shell: [], asks: undefined, pager: false })
  })

  it("reads the Perl debugger's, node's and irb's commands", () => {
    expect(replEscapes("perl-debugger", "!! rm -rf d\n", false)).toMatchObject({ shell: ["rm -rf d"] })
    expect(replEscapes("perl-debugger", "source cmds\n", false).asks).toBeDefined()
    expect(replEscapes("perl-debugger", "o pager=|sh\n", false).asks).toBeDefined()
    expect(replEscapes("node", ".load x.js\n", false)).toMatchObject({ shell: ["node 'x.js'"] })
    expect(replEscapes("node", ".save /home/u/.bashrc\n", false)).toMatchObject({ shell: ["true > '/home/u/.bashrc'"] })
    expect(replEscapes("irb", "source x.rb\n", false)).toMatchObject({ shell: ["ruby 'x.rb'"] })
  })

  it("on a terminal, help() opens a pager whose keys are read too", () => {
    expect(replEscapes("python", "help(len)\n", true).pager).toBe(true)
    expect(replEscapes("python", "help(len)\n", false).pager).toBe(false)
    expect(replEscapes("ipython", "len?\n", true).pager).toBe(true)
    expect(replEscapes("perl-debugger", "|x %ENV\n", true).pager).toBe(true)
  })
})

const root = tempHome("hermes-repl-escapes-")
const cwd = join(root, "cwd")
mkdirSync(cwd)

layer(testRuntime({ terminal: { cwd } }), { excludeTestServices: true, timeout: "60 seconds" })("REPL commands (real approval)", (it) => {
  let tasks = 0
  const call = (tool: string, args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId } })).pipe(Effect.map((s) => JSON.parse(s) as Json))

  const started = (command: string, pty: boolean) =>
    Effect.gen(function*() {
      const taskId = `repl-${++tasks}`
      const out = yield* call("terminal", { command, background: true, pty }, taskId)
      expect(out["session_id"]).toMatch(/^proc_/)
      const id = String(out["session_id"])
      const send = (action: "write" | "submit", data: string) => call("process", { action, session_id: id, data }, taskId)
      const kill = call("process", { action: "kill", session_id: id }, taskId)
      return { send, kill }
    })

  const canary = () => {
    const dir = join(root, `canary-${++tasks}`)
    mkdirSync(join(dir, "inner"), { recursive: true })
    return dir
  }

  /** Each step is sent in turn until one is refused; the last answer must be a refusal, and the canary intact. */
  const expectRefused = (command: string, steps: ReadonlyArray<string>, dir: string, pty: boolean) =>
    Effect.gen(function*() {
      const p = yield* started(command, pty)
      yield* Effect.sleep(pty ? "1500 millis" : "300 millis")
      let last: Json = {}
      for (const data of steps) {
        last = yield* p.send("write", data.replaceAll("<C>", dir))
        if (last["status"] === "blocked") break
        yield* Effect.sleep("700 millis")
      }
      yield* Effect.sleep("1500 millis")
      expect([command, steps, last, existsSync(join(dir, "inner"))]).toMatchObject([command, steps, { status: "blocked" }, true])
      yield* p.kill
    })

  it.effect("IPython's `!` and magics, the Perl debugger's `!!`, node's .load, a pager help() opened", () =>
    Effect.gen(function*() {
      yield* expectRefused("ipython --no-banner --colors=NoColor", ["!rm -rf <C>\n"], canary(), true)
      yield* expectRefused("ipython --no-banner --colors=NoColor", ["c = 'r' + 'm'\n", "!{c} -rf <C>\n"], canary(), true)
      yield* expectRefused("ipython --no-banner --colors=NoColor", ["%system rm -rf <C>\n"], canary(), true)
      yield* expectRefused("ipython --no-banner --colors=NoColor", ["rm -r <C>\n"], canary(), false)
      const n = ++tasks
      writeFileSync(join(cwd, `ok-${n}.pl`), "print 1;\n")
      yield* expectRefused(`perl -d ok-${n}.pl`, ["!! rm -rf <C>\n"], canary(), false)
      const dir = canary()
      writeFileSync(join(cwd, `planted-${n}.js`), `require('fs').rmSync(${JSON.stringify(dir)}, { recursive: true })\n`)
      yield* expectRefused("node -i", [`.load planted-${n}.js\n`], dir, false)
      yield* expectRefused("python3 -i", ["help(len)\n", "!rm -rf <C>\n"], canary(), true)
    }), 120_000)

  it.effect("ordinary input to these REPLs still runs", () =>
    Effect.gen(function*() {
      const ipy = yield* started("ipython --no-banner --colors=NoColor", true)
      yield* Effect.sleep("1500 millis")
      expect(yield* ipy.send("write", "x = [v | 1 for v in range(3)]\n")).toMatchObject({ status: "ok" })
      expect(yield* ipy.send("write", "%timeit -n1 -r1 sum(x)\n")).toMatchObject({ status: "ok" })
      yield* ipy.kill
      const node = yield* started("node -i", false)
      expect(yield* node.send("write", "const a = 1 | 2\n")).toMatchObject({ status: "ok" })
      yield* node.kill
    }), 60_000)
})

describe("REPLs under other names (red team 8)", () => {
  it("reads framework shells as their language, and asks for REPLs nothing here reads", async () => {
    const { inputReaders } = await import("../../src/layers/processes/inputLanguage.js")
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
      ["flask shell", ["python"]],
      ["./manage.py shell", ["python"]],
      ["rails c", ["ruby"]],
      ["bundle exec rails console", ["ruby"]],
      ["pry", ["ruby"]],
      ["mongosh", ["node"]],
      ["utop", ["opaque"]],
      ["ranger", ["opaque"]],
      ["w3m index.html", ["opaque"]],
      ["bundle exec rspec", ["shell"]]
    ]
    for (const [command, readers] of cases) expect([command, inputReaders(command)]).toEqual([command, readers])
    expect(replsOf("python3 manage.py shell")).toEqual(["ipython"])
    expect(replsOf("rails c")).toEqual(["pry"])
    expect(replEscapes("pry", ".rm -rf d\n", false)).toMatchObject({ shell: ["rm -rf d"] })
  })
})
