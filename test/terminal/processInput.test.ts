/**
 * Text typed into a background process is judged as the program will read it:
 * the unfinished statement so far plus the new text, in the language of the
 * program. End to end through `terminal` and `process` on the local backend
 * with the real Approval and nobody to approve: every split of a dangerous
 * line is refused and the canary stays; ordinary input still works.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { inputLanguage } from "../../src/layers/processes/inputLanguage.js"
import { planInput, statementBoundary } from "../../src/layers/processes/typedInput.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome, testRuntime } from "../support/runtime.js"

type Json = Record<string, unknown>

describe("inputLanguage", () => {
  it("finds the program that reads stdin", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["bash", "shell"],
      ["bash -i", "shell"],
      ["/bin/sh", "shell"],
      ["python3 -i", "python"],
      ["/usr/bin/python3 -u -i", "python"],
      ["python3.11", "python"],
      ["ipython", "python"],
      ["exec python3 -i", "python"],
      ["env -i PATH=/usr/bin PYTHONSAFEPATH=1 python3 -i", "python"],
      ["FOO=1 nohup stdbuf -oL python3 -i", "python"],
      ["timeout 600 node", "node"],
      ["timeout -s KILL 60 deno repl", "node"],
      ["taskset -c 0 flock /tmp/l python3 -i", "python"],
      ["env -S 'python3 -i'", "python"],
      ["sudo -u app nice -n 5 ruby", "ruby"],
      ["command -v python3", "shell"],
      ["cd /tmp && python3 -i", "python"],
      ["python3 -i | tee log", "python"],
      ["bash -c 'cd x; python3 -i'", "python"],
      ["perl -de0", "perl"],
      ["irb", "ruby"],
      ["php -a", "php"],
      ["sqlite3 db.sqlite", "sqlite3"],
      ["sqlite3 db.sqlite 'select 1'", "shell"],
      ["gdb -q ./prog", "gdb"],
      ["psql -d app", "psql"],
      ["psql -c 'select 1'", "shell"],
      ["mariadb", "mysql"],
      ["tclsh", "opaque"],
      ["lua", "opaque"],
      ["go run main.go", "shell"],
      ["python3 -m pdb x.py", "python"],
      ["python3 -i &", "python"],
      ["python3", "python"],
      ["python3 -u", "python"],
      ["python3 -ui", "python"],
      ["python3 -i script.py", "python"],
      ["python3 script.py", "shell"],
      ["python3 -c 'import os; os.system(input())'", "shell"],
      ["python3 -m http.server", "shell"],
      ["python3 -W ignore", "python"],
      ["node", "node"],
      ["node server.js", "shell"],
      ["node -e 'x'", "shell"],
      ["node -i -e 'x'", "node"],
      ["deno", "node"],
      ["deno run x.ts", "shell"],
      ["bun repl", "node"],
      ["perl", "perl"],
      ["perl script.pl", "shell"],
      ["ruby", "ruby"],
      ["ruby x.rb", "shell"],
      ["php", "php"],
      ["php x.php", "shell"],
      ["", "shell"]
    ]
    for (const [command, language] of cases) expect([command, inputLanguage(command)]).toEqual([command, language])
  })
})

describe("planInput", () => {
  const shell = { pty: false, language: "shell" } as const
  const judge = (pending: string, data: string, options: Parameters<typeof planInput>[2] = shell) => {
    const plan = planInput(pending, data, options)
    if (plan._tag === "Refused") throw new Error(plan.reason)
    return plan
  }

  it("keeps the unfinished line and judges it with what follows", () => {
    const first = judge("", "r")
    expect(first).toMatchObject({ judged: "r", pending: "r" })
    expect(judge(first.pending, "m -rf x\n")).toMatchObject({ judged: "rm -rf x\n", pending: "" })
    expect(judge("", "echo a\nech")).toMatchObject({ judged: "echo a\nech", pending: "ech" })
  })

  it("a statement continues past a newline inside quotes, brackets or after a backslash", () => {
    expect(statementBoundary("r\\\n", "shell")).toBe(0)
    expect(statementBoundary("echo \"a\nb\"\n", "shell")).toBe(11)
    expect(statementBoundary("echo 'a\n", "shell")).toBe(0)
    expect(statementBoundary("x=$(echo a\n", "shell")).toBe(0)
    expect(statementBoundary("echo it's\nls\n", "shell")).toBe(0)
    expect(statementBoundary("ls # don't\nls\n", "shell")).toBe(14)
    expect(statementBoundary("shutil.rmtree(\n", "python")).toBe(0)
    expect(statementBoundary("s = '''a\n", "python")).toBe(0)
    expect(statementBoundary("x = 1  # it's\ny = 2\n", "python")).toBe(20)
    expect(statementBoundary("fs.rmSync(`a\n", "node")).toBe(0)
  })

  it("refuses keys a line editor acts on; carriage returns become newlines", () => {
    for (const data of ["ech\to hi\n", "echo a\x08b", "rmx\x7f", "\x1b[A", "a\x17", "\x15", "\x14", "\u009b"]) {
      expect(planInput("", data, shell)._tag).toBe("Refused")
    }
    expect(planInput("", "\x03", shell)._tag).toBe("Refused")
    expect(judge("", "ls\r")).toMatchObject({ written: "ls\n", judged: "ls\n" })
  })

  it("on a PTY, ^C drops the unfinished line and ^D adds nothing", () => {
    const pty = { pty: true, language: "shell" } as const
    expect(judge("echo ", "\x03rm -rf x\n", pty)).toMatchObject({ judged: "rm -rf x\n" })
    expect(judge("", "r\x04m -rf x\n", pty)).toMatchObject({ judged: "rm -rf x\n" })
  })
})

const root = tempHome("hermes-process-input-")
const cwd = join(root, "cwd")
mkdirSync(cwd)

layer(testRuntime({ terminal: { cwd } }), { excludeTestServices: true, timeout: "60 seconds" })("typing into processes (real approval)", (it) => {
  let tasks = 0
  const call = (tool: string, args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId } })).pipe(Effect.map((s) => JSON.parse(s) as Json))

  /** A fresh task with a background process running `command`. */
  const started = (command: string, pty = false) =>
    Effect.gen(function*() {
      const taskId = `input-${++tasks}`
      const out = yield* call("terminal", { command, background: true, pty }, taskId)
      expect(out["session_id"]).toMatch(/^proc_/)
      const id = String(out["session_id"])
      const send = (action: "write" | "submit", data: string) => call("process", { action, session_id: id, data }, taskId)
      const log = call("process", { action: "log", session_id: id }, taskId).pipe(Effect.map((r) => String(r["output"])))
      const kill = call("process", { action: "kill", session_id: id }, taskId)
      return { send, log, kill }
    })

  const canary = () => {
    const dir = join(root, `canary-${++tasks}`)
    mkdirSync(join(dir, "inner"), { recursive: true })
    return dir
  }

  const outputContaining = (log: Effect.Effect<string, unknown, ToolExecutor>, text: string) =>
    Effect.gen(function*() {
      const deadline = Date.now() + 10_000
      let output = yield* log
      while (!output.includes(text) && Date.now() < deadline) {
        yield* Effect.sleep("50 millis")
        output = yield* log
      }
      return output
    }).pipe(Effect.orDie)

  /** After the last refused write, let the process run what it has; the canary must still be there. */
  const expectIntact = (dir: string) =>
    Effect.gen(function*() {
      yield* Effect.sleep("300 millis")
      expect(existsSync(join(dir, "inner"))).toBe(true)
    })

  it.effect("a command split across writes to bash is judged whole", () =>
    Effect.gen(function*() {
      const splits: ReadonlyArray<(c: string) => ReadonlyArray<readonly ["write" | "submit", string]>> = [
        (c) => [["write", "r"], ["submit", `m -rf ${c}`]],
        (c) => [["write", "r"], ["write", "m"], ["submit", ` -rf ${c}`]],
        (c) => [["write", "\"r"], ["submit", `m" -rf ${c}`]],
        (c) => [["write", "r\\\n"], ["submit", `m -rf ${c}`]],
        (c) => [["write", "echo ok; r"], ["submit", `m -rf ${c}`]],
        (c) => [["submit", "echo 'first line"], ["submit", `'; rm -rf ${c}`]]
      ]
      for (const split of splits) {
        const dir = canary()
        const p = yield* started("bash")
        const steps = split(dir)
        const answers: Array<Json> = []
        for (const [action, data] of steps) answers.push(yield* p.send(action, data))
        expect([steps, answers.slice(0, -1).map((a) => a["status"])]).toEqual([steps, steps.slice(0, -1).map(() => "ok")])
        expect(answers[answers.length - 1]).toMatchObject({ status: "blocked" })
        yield* expectIntact(dir)
        yield* p.kill
      }
    }), 60_000)

  it.effect("on a PTY too, and ^C cannot hide the start of a line", () =>
    Effect.gen(function*() {
      for (const [first, second] of [["r", "m -rf <C>\n"], ["echo ", "\x03rm -rf <C>\n"], ["r\\\n", "m -rf <C>\r"]] as const) {
        const dir = canary()
        const p = yield* started("bash", true)
        expect(yield* p.send("write", first)).toMatchObject({ status: "ok" })
        expect(yield* p.send("write", second.replace("<C>", dir))).toMatchObject({ status: "blocked" })
        yield* expectIntact(dir)
        yield* p.kill
      }
      const p = yield* started("bash", true)
      expect(yield* p.send("submit", "echo pty-o\x03echo pty-ok")).toMatchObject({ status: "ok" })
      expect(yield* outputContaining(p.log, "\npty-ok")).toContain("pty-ok")
      yield* p.kill
    }), 30_000)

  it.effect("ordinary input to bash runs", () =>
    Effect.gen(function*() {
      const p = yield* started("bash")
      expect(yield* p.send("submit", "echo hi-from-bash")).toMatchObject({ status: "ok" })
      expect(yield* outputContaining(p.log, "hi-from-bash")).toContain("hi-from-bash")
      // Split benign input works too.
      yield* p.send("write", "echo spl")
      yield* p.send("submit", "it-ok")
      expect(yield* outputContaining(p.log, "split-ok")).toContain("split-ok")
      yield* p.kill
    }))

  it.effect("editing keys are refused and do not reach the program", () =>
    Effect.gen(function*() {
      const dir = canary()
      const p = yield* started("bash -i")
      expect(yield* p.send("write", `rmx\x7f -rf ${dir}`)).toMatchObject({ status: "blocked" })
      expect(yield* p.send("submit", "shr\t -u x")).toMatchObject({ status: "blocked" })
      yield* expectIntact(dir)
      yield* p.kill
    }))

  // Python input is judged with the code rules (language "python"): this needs ApprovalLive to route it there.
  it.effect("python typed into python3 -i is judged as python", () =>
    Effect.gen(function*() {
      const dir = canary()
      const p = yield* started("python3 -i")
      expect(yield* p.send("submit", "import shutil")).toMatchObject({ status: "ok" })
      expect(yield* p.send("submit", `shutil.rmtree('${dir}')`)).toMatchObject({ status: "blocked" })
      yield* expectIntact(dir)
      yield* p.kill
    }))

  it.effect("names bound by earlier input are known when later input uses them", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
        ["python3 -i", ["import shutil as s", "s.rmtree('<C>')"]],
        ["python3 -i", ["from shutil import rmtree as tidy", "tidy('<C>')"]],
        ["python3 -i", ["import os", "go = os.system", "go('rm -rf <C>')"]],
        ["node -i", ["const f = require('fs')", "f.rmSync('<C>', { recursive: true })"]],
        ["bash -i", ["alias tidy='rm -rf'", "tidy <C>"]]
      ]
      for (const [program, lines] of cases) {
        const dir = canary()
        const p = yield* started(program)
        const answers: Array<Json> = []
        for (const line of lines) {
          const answer = yield* p.send("submit", line.replace("<C>", dir))
          answers.push(answer)
          if (answer["status"] === "blocked") break
        }
        expect([program, lines, answers[answers.length - 1]]).toMatchObject([program, lines, { status: "blocked" }])
        yield* expectIntact(dir)
        yield* p.kill
      }
    }), 60_000)

  it.effect("a bash session's integers and positional parameters carry a planted a[$(…)] from one input to the next", () =>
    Effect.gen(function*() {
      for (const lines of [
        ["declare -i n", "n=$(cat <F>)"],
        ["set -- \"$(cat <F>)\"", "echo $(( $1 ))"],
        ["read -r v < <F>", "[[ \"$v\" -eq 0 ]]"]
      ]) {
        const dir = canary()
        const planted = join(dir, "..", `${dir.split("/").pop() ?? ""}.txt`)
        writeFileSync(planted, `a[$(rm -rf ${dir})]\n`)
        const p = yield* started("bash")
        const answers: Array<Json> = []
        for (const line of lines) {
          const answer = yield* p.send("submit", line.replace("<F>", planted))
          answers.push(answer)
          if (answer["status"] === "blocked") break
        }
        expect([lines, answers[answers.length - 1]]).toMatchObject([lines, { status: "blocked" }])
        yield* expectIntact(dir)
        yield* p.kill
      }
    }), 60_000)

  // (Starting a language nothing reads, `tclsh`, already needs approval; what is then typed into it needs it again.)
  it.effect("typed into a console, its shell escapes need approval", () =>
    Effect.gen(function*() {
      const installed = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["sqlite3 :memory:", ".system $(echo cm0= | base64 -d) -rf <C>"],
        ["sqlite3 :memory:", ".once '|sh'\nselect 'rm -rf <C>';"],
        ["gdb -q -nx", "shell r\"m\" -rf <C>"],
        ["gdb -q -nx", "python import shutil; shutil.rmtree('<C>')"],
        ["python3 -m pdb " + join(root, "cwd", "ok.py"), "!__import__('shutil').rmtree('<C>')"]
      ]
      writeFileSync(join(root, "cwd", "ok.py"), "print(1)\n")
      for (const [program, line] of cases) {
        if (!installed(program.split(" ")[0] ?? "")) continue
        const dir = canary()
        const p = yield* started(program)
        const answer = yield* p.send("submit", line.replaceAll("<C>", dir))
        expect([program, line, answer]).toMatchObject([program, line, { status: "blocked" }])
        yield* expectIntact(dir)
        yield* p.kill
      }
      if (installed("sqlite3")) {
        const p = yield* started("sqlite3 :memory:")
        expect(yield* p.send("submit", "select 40 + 2;")).toMatchObject({ status: "ok" })
        expect(yield* outputContaining(p.log, "42")).toContain("42")
        yield* p.kill
      }
    }), 60_000)

  it.effect("ordinary input to python3 -i runs", () =>
    Effect.gen(function*() {
      const p = yield* started("python3 -i")
      expect(yield* p.send("submit", "print(1+1)")).toMatchObject({ status: "ok" })
      expect(yield* outputContaining(p.log, ">>> 2\n")).toContain(">>> 2\n")
      yield* p.kill
    }))
})
