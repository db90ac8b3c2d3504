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
import { inputReaders } from "../../src/layers/processes/inputLanguage.js"
import { codeRebindsKeys, readerSetup, shellRebindsKeys } from "../../src/layers/processes/readerSetup.js"
import { MAX_INPUT_HISTORY, planInput, statementBoundary } from "../../src/layers/processes/typedInput.js"
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
      ["ed -s notes.txt", "ed-commands"],
      ["ex -s notes.txt", "ex-commands"],
      ["vim -es notes.txt", "ex-commands"],
      ["vi -e", "ex-commands"],
      ["vim notes.txt", "vim-keys"],
      ["timeout 60 nvim", "vim-keys"],
      ["tclsh", "opaque"],
      ["lua", "opaque"],
      ["go run main.go", "shell"],
      ["python3 -m pdb x.py", "python"],
      ["python3 -i &", "python"],
      ["python3", "python"],
      ["python3 -u", "python"],
      ["python3 -ui", "python"],
      ["python3 -i script.py", "python"],
      ["python3 -W ignore", "python"],
      ["node", "node"],
      ["node -i -e 'x'", "node"],
      ["deno", "node"],
      ["bun repl", "node"],
      ["perl", "perl"],
      ["ruby", "ruby"],
      ["php", "php"],
      ["", "shell"]
    ]
    for (const [command, language] of cases) expect([command, inputReaders(command)]).toEqual([command, [language]])
  })
})

describe("inputReaders: every program that may read what is typed", () => {
  it("a list, a subshell, a function or a command line inside a word: each program counts, not the last", () => {
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
      ["bash; python3", ["shell", "python"]],
      ["bash && python3", ["shell", "python"]],
      ["bash || node", ["shell", "node"]],
      ["bash\npython3", ["shell", "python"]],
      ["python3 -i; bash", ["python", "shell"]],
      ["(bash; python3 -i) | tee log", ["shell", "python"]],
      ["{ python3; } && perl", ["python", "perl"]],
      ["f() { python3 -i; }; f", ["python", "shell"]],
      ["echo $(cat); python3", ["shell", "python"]],
      ["bash -c 'bash; python3'", ["shell", "python"]],
      ["script -qc 'bash; python3 -i' /dev/null", ["shell", "python"]],
      ["cd x && export A=1 && python3 -i", ["python"]],
      ["read -r a; python3", ["shell", "python"]],
      // A script reads data unless it starts a REPL or debugger of its own (`code.interact()`, `breakpoint()`): both.
      ["python3 script.py", ["shell", "python"]],
      ["python3 -c 'import os; os.system(input())'", ["shell", "python"]],
      ["python3 -m http.server", ["shell", "python"]],
      ["node server.js", ["shell", "node"]],
      ["node -e 'x'", ["shell", "node"]],
      ["deno run x.ts", ["shell", "node"]],
      ["perl script.pl", ["shell", "perl"]],
      ["ruby x.rb", ["shell", "ruby"]],
      ["php x.php", ["shell", "php"]],
      // A pager runs `!cmd` and `|m cmd` (the file name put in for `%`), and opens vi on `v` (red team 6).
      ["less rm", ["pager-keys", "vim-keys"]],
      ["man ls", ["pager-keys", "vim-keys"]],
      ["more notes.txt", ["pager-keys", "vim-keys"]]
    ]
    for (const [command, readers] of cases) expect([command, inputReaders(command)]).toEqual([command, readers])
  })
})

describe("inputReaders on a terminal", () => {
  it("every element of a pipeline may read the keys (vim, less and ssh open /dev/tty)", () => {
    expect(inputReaders("echo hi | vim -", 0, true)).toEqual(["vim-keys"])
    expect(inputReaders("git log | less", 0, true)).toEqual(["shell", "pager-keys", "vim-keys"])
    expect(inputReaders("python3 -i | tee log", 0, true)).toEqual(["python", "shell"])
    expect(inputReaders("echo hi | vim -")).toEqual(["shell"])
  })
})

describe("readerSetup: what the starting command hands the reader", () => {
  it("a program started as is reads the task's own state", () => {
    for (const command of ["bash", "bash -i --norc", "python3 -i", "sh", "npm run dev"]) {
      expect([command, readerSetup(command)]).toEqual([command, { variablesUnknown: false, pathUnknown: false, dirs: ["."], keysChanged: false }])
    }
  })

  it("variables: assignments, export, declare, env, set --, a script's own", () => {
    for (
      const command of [
        "x=rm bash",
        "export x=rm; bash",
        "declare -x x=rm; bash",
        "env x=rm bash",
        "x=rm; export x; exec bash",
        "set -- rm; bash",
        "bash x.sh",
        "nohup env x=rm bash"
      ]
    ) {
      expect([command, readerSetup(command).variablesUnknown]).toEqual([command, true])
    }
  })

  it("PATH: set, sourced, a function, hash, a computed name, a wrapper that changes the environment", () => {
    for (
      const command of [
        "PATH=$PWD/bin:$PATH bash",
        "export PATH=bin:$PATH; bash",
        "source venv/bin/activate && bash",
        ". ./env.sh; bash",
        "eval \"$(cat env)\"; bash",
        "ls() { rm -rf x; }; export -f ls; bash",
        "hash -p ./x ls; bash",
        "declare -n r=P; bash",
        "read -r \"$n\" <f; bash",
        "printf -v \"$n\" %s x; bash",
        "env -i bash",
        "sudo bash",
        "BASH_ENV=./x bash",
        "$c; bash"
      ]
    ) {
      expect([command, readerSetup(command).pathUnknown]).toEqual([command, true])
    }
  })

  it("directories: each literal cd is a place the reader may stand; any other change is unknown", () => {
    expect(readerSetup("cd sub && bash").dirs).toEqual([".", "sub"])
    expect(readerSetup("cd sub; bash").dirs).toEqual([".", "sub"])
    expect(readerSetup("cd /srv && cd app && bash").dirs).toEqual([".", "/srv", "app", "/srv/app"])
    expect(readerSetup("sh -c 'cd sub && exec bash'").dirs).toEqual([".", "sub"])
    for (
      const command of [
        "cd \"$d\" && bash",
        "cd - && bash",
        "cd && bash",
        "cd ~/x && bash",
        "cd ../x && bash",
        "pushd sub; bash",
        "env -C sub bash",
        "CDPATH=/x; cd sub && bash",
        "cd a; cd b; cd c; bash"
      ]
    ) {
      expect([command, readerSetup(command).dirs]).toEqual([command, null])
    }
  })

  it("keys: stty settings, readline bindings, INPUTRC", () => {
    for (const command of ["stty -isig; sh", "stty intr undef && bash -i", "stty erase x; sh", "INPUTRC=./k bash -i", "bind -f ./k; bash -i", "bash -c 'stty raw; sh'"]) {
      expect([command, readerSetup(command).keysChanged]).toEqual([command, true])
    }
    for (const command of ["stty -a; bash", "bash -i", "bind -p | head"]) expect([command, readerSetup(command).keysChanged]).toEqual([command, false])
  })

  it("typed text that rebinds keys", () => {
    for (
      const text of [
        "bind '\"%%\": \"\\162m -rf v\\n\"'",
        "bind -x '\"\\C-t\": rm -rf v'",
        "bind -f ./keys",
        "bind -m vi -x '\"x\": y'",
        "stty -isig",
        "stty intr undef",
        "export INPUTRC=./k",
        "builtin bind '\"a\": \"b\"'",
        "bindkey -s '%%' 'rm -rf v\\n'",
        "x=$(bind -x '\"y\": z')"
      ]
    ) {
      expect([text, shellRebindsKeys(text)]).toEqual([text, true])
    }
    for (const text of ["ls", "bind -p", "bind -l", "stty -a", "echo binding", "grep stty notes.txt", "bindkey -L", "cat ~/.inputrc"]) expect([text, shellRebindsKeys(text)]).toEqual([text, false])
    expect(codeRebindsKeys("import readline; readline.parse_and_bind('\"x\": \"y\"')")).toBe(true)
    expect(codeRebindsKeys("import tty; tty.setraw(0)")).toBe(true)
    expect(codeRebindsKeys("print(1)")).toBe(false)
  })
})

describe("planInput", () => {
  const shell = { pty: false, readers: ["shell"] } as const
  const pty = { pty: true, readers: ["shell"] } as const
  const judge = (typed: string, data: string, options: Parameters<typeof planInput>[2] = shell) => {
    const plan = planInput(typed, data, options)
    if (plan._tag === "Refused") throw new Error(plan.reason)
    return plan
  }
  const texts = (typed: string, data: string, options: Parameters<typeof planInput>[2] = shell) => judge(typed, data, options).judged.map((j) => j.text)

  it("judges new text with everything typed before it", () => {
    const first = judge("", "r")
    expect(first).toMatchObject({ judged: [{ language: "shell", text: "r" }], typed: "r" })
    expect(texts(first.typed, "m -rf x\n")).toEqual(["rm -rf x\n"])
    expect(texts("echo a\n", "ech")).toEqual(["echo a\nech"])
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
    for (const data of ["ech\to hi\n", "echo a\x08b", "rmx\x7f", "\x1b[A", "a\x17", "\x15", "\x14", "\u009b", "a\x1a", "a\x1c", "a\x16"]) {
      expect(planInput("", data, shell)._tag).toBe("Refused")
    }
    expect(planInput("", "\x03", shell)._tag).toBe("Refused")
    expect(judge("", "ls\r")).toMatchObject({ written: "ls\n", judged: [{ text: "ls\n" }] })
  })

  it("^C and ^D are read in every meaning they may have", () => {
    // The terminal drops the line; or with `stty -isig` the bytes stay in it; or the program ignores it.
    expect(texts("echo ", "\x03rm -rf x\n", pty)).toEqual(expect.arrayContaining(["rm -rf x\n", "echo \x03rm -rf x\n", "echo rm -rf x\n"]))
    expect(texts("x=rm; y=", "\x03 true; $x -rf v\n", pty)).toContain("x=rm; y=\x03 true; $x -rf v\n")
    // The program drops its whole unfinished statement (bash's PS2), not just the terminal line.
    expect(texts("echo '\n", "\x03rm -rf x\n", pty)).toContain("rm -rf x\n")
    // ^D: nothing on a non-empty line, a byte on a pipe or in raw mode, or the end of the first reader.
    expect(texts("", "r\x04m -rf x\n", pty)).toEqual(expect.arrayContaining(["rm -rf x\n", "r\x04m -rf x\n", "m -rf x\n"]))
    expect(texts("", "echo ok\n", pty)).toEqual(["echo ok\n"])
  })

  it("several readers: the text is judged as each", () => {
    const plan = judge("", "rm -rf x\n", { pty: false, readers: ["shell", "python"] })
    expect(plan.judged).toEqual([{ language: "shell", text: "rm -rf x\n" }, { language: "python", text: "rm -rf x\n" }])
  })

  it("keeps about MAX_INPUT_HISTORY, cut only where a statement ends", () => {
    // Cut inside the quote, the rest (`…a'`) would open a quote that hides what follows.
    const quoted = `echo '${"a".repeat(MAX_INPUT_HISTORY)}\n'\n`
    expect(judge(quoted, "ls\n").typed).toBe(`${quoted}ls\n`)
    const lines = "echo a\n".repeat(MAX_INPUT_HISTORY / 4)
    const kept = judge(lines, "ls\n").typed
    expect(kept.length).toBeLessThanOrEqual(MAX_INPUT_HISTORY + 8)
    expect(kept.startsWith("echo a\n") && kept.endsWith("echo a\nls\n")).toBe(true)
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

  it.effect("typed into an editor, its `!` commands are judged as ed or vim read them", () =>
    Effect.gen(function*() {
      const installed = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0
      const rm = join(root, "cwd", "rm")
      writeFileSync(rm, "")
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["ex -s " + join(root, "cwd", "ok.py"), "exe \"!r\".\"m -rf <C>\""],
        ["ed -s " + rm, "!% -rf <C>"],
        ["ed -s " + rm, "r !% -rf <C>"],
        ["vim -es -u NONE " + rm, "!% -rf <C>"],
        ["ed -s " + join(root, "cwd", "ok.py"), "!rm -rf <C>"]
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
      if (installed("ed")) {
        const p = yield* started("ed " + join(root, "cwd", "ok.py"))
        expect(yield* p.send("submit", "!echo hi-from-ed")).toMatchObject({ status: "ok" })
        expect(yield* outputContaining(p.log, "hi-from-ed")).toContain("hi-from-ed")
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

  /** Each step is sent in turn until one is refused; the last answer must be a refusal, and the canary intact. */
  const expectRefused = (command: string, steps: ReadonlyArray<readonly ["write" | "submit", string]>, dir: string, pty = false) =>
    Effect.gen(function*() {
      const p = yield* started(command, pty)
      // (A PTY program is ready for input once it has printed its prompt.)
      if (pty) yield* Effect.sleep("300 millis")
      let last: Json = {}
      for (const [action, data] of steps) {
        last = yield* p.send(action, data.replaceAll("<C>", dir))
        if (last["status"] === "blocked") break
      }
      expect([command, steps, last]).toMatchObject([command, steps, { status: "blocked" }])
      yield* expectIntact(dir)
      yield* p.kill
    })

  it.effect("a pager's `!` and vi, vim reading keys in a pipeline, a script's own REPL, a planted module typed into a REPL", () =>
    Effect.gen(function*() {
      const n = ++tasks
      writeFileSync(join(cwd, `notes-${n}.txt`), "hello\n")
      yield* expectRefused(`less notes-${n}.txt`, [["write", "!rm -rf <C>\n"]], canary(), true)
      yield* expectRefused(`less notes-${n}.txt`, [["write", "!r\"\"m -rf <C>\n"]], canary(), true)
      yield* expectRefused(`less notes-${n}.txt`, [["write", "v"], ["write", ":call system('rm -rf <C>')\n"]], canary(), true)
      // On a terminal vim reads the keys whatever its stdin is.
      yield* expectRefused("echo hi | vim -", [["write", ":call system('r'.'m -r'.'f <C>')\n"]], canary(), true)
      // A script that starts a console or debugger is asked about when it starts (round 9: what is typed into it may
      // be the console's own commands, IPython's `!cmd`).
      for (const [script, text] of [[`repl-${n}.py`, "import code\ncode.interact(local={})\n"], [`bp-${n}.py`, "x = 1\nbreakpoint()\n"]] as const) {
        writeFileSync(join(cwd, script), text)
        expect(yield* call("terminal", { command: `python3 ${script}`, background: true }, `input-${++tasks}`)).toMatchObject({ status: "blocked" })
      }
      // One that turns interactive at its end (PYTHONINSPECT) reads code: typed text is judged as python as well.
      const starts: ReadonlyArray<readonly [string, string]> = [[`inspect-${n}.py`, "import os\nos.environ['PYTHONINSPECT'] = '1'\n"]]
      for (const [index, [script, text]] of starts.entries()) {
        const dir = canary()
        writeFileSync(join(cwd, `planted${n}x${index}.py`), `import shutil\nshutil.rmtree('${dir}', ignore_errors=True)\n`)
        writeFileSync(join(cwd, script), text)
        yield* expectRefused(`python3 ${script}`, [["submit", `import planted${n}x${index}`]], dir)
      }
      for (const [index, program] of ["python3 -i", "python3"].entries()) {
        const dir = canary()
        writeFileSync(join(cwd, `planted${n}y${index}.py`), `import shutil\nshutil.rmtree('${dir}', ignore_errors=True)\n`)
        yield* expectRefused(program, [["submit", `import planted${n}y${index}`]], dir)
      }
      // Ordinary: a pager quit, a REPL importing a harmless module of its folder.
      writeFileSync(join(cwd, `helper${n}.py`), "VALUE = 42\n")
      const p = yield* started("python3 -i")
      expect(yield* p.send("submit", `import helper${n}; print(helper${n}.VALUE)`)).toMatchObject({ status: "ok" })
      expect(yield* outputContaining(p.log, "42")).toContain("42")
      yield* p.kill
      const pager = yield* started(`less notes-${n}.txt`, true)
      yield* Effect.sleep("300 millis")
      expect(yield* pager.send("write", "q")).toMatchObject({ status: "ok" })
      yield* pager.kill
    }), 120_000)

  it.effect("every program that may read the input judges it, not only the last", () =>
    Effect.gen(function*() {
      for (const command of ["bash; python3", "bash && python3 -i", "bash\npython3", "(bash; python3) | cat", "python3 -i; bash"]) {
        yield* expectRefused(command, [["submit", "rm -rf <C>"]], canary())
      }
    }), 60_000)

  it.effect("the starting command's variables are unknown to the typed text", () =>
    Effect.gen(function*() {
      for (
        const command of [
          "x=rm bash",
          "export x=rm; bash",
          "env x=rm bash",
          "x=rm; export x; exec bash",
          "declare -x x=rm; nohup bash"
        ]
      ) {
        yield* expectRefused(command, [["submit", "$x -rf <C>"]], canary())
      }
    }), 60_000)

  it.effect("a script typed by name is read where the shell stands, and a PATH the command set is unknown", () =>
    Effect.gen(function*() {
      const n = ++tasks
      const dir = canary()
      writeFileSync(join(cwd, `x-${n}.sh`), "echo harmless\n")
      mkdirSync(join(cwd, `sub-${n}`))
      writeFileSync(join(cwd, `sub-${n}`, `x-${n}.sh`), `rm -rf ${dir}\n`)
      for (const command of [`cd sub-${n} && bash`, `cd sub-${n}; bash`, `cd ${cwd}/sub-${n} && exec bash`]) {
        yield* expectRefused(command, [["submit", `bash x-${n}.sh`]], dir)
      }
      // A directory the line computes is not known: whatever is typed asks.
      yield* expectRefused(`cd "$(echo sub-${n})" && bash`, [["submit", "echo hi"]], dir)
      mkdirSync(join(cwd, `bin-${n}`))
      writeFileSync(join(cwd, `bin-${n}`, "ls"), `#!/bin/sh\nrm -rf ${dir}\n`, { mode: 0o755 })
      writeFileSync(join(cwd, `env-${n}.sh`), `PATH=${cwd}/bin-${n}:$PATH\n`)
      for (const command of [`PATH=$PWD/bin-${n}:$PATH bash`, `export PATH=$PWD/bin-${n}:$PATH; bash`, `source ./env-${n}.sh; bash`, `. ./env-${n}.sh && exec sh`]) {
        yield* expectRefused(command, [["submit", "ls"]], dir)
      }
    }), 90_000)

  it.effect("PTY: ^C may be an ordinary character, and keys the command rebinds are not judged as sent", () =>
    Effect.gen(function*() {
      const split: ReadonlyArray<readonly ["write" | "submit", string]> = [["write", "x=rm; y="], ["write", "\x03"], ["write", " true; $x -rf <C>\n"]]
      for (const command of ["stty -isig; sh", "stty intr undef; sh", "sh", "bash --norc"]) yield* expectRefused(command, split, canary(), true)
      yield* expectRefused("sh", [["write", "stty -isig\n"]], canary(), true)
      yield* expectRefused("stty erase m; sh", [["write", "echo ok\n"]], canary(), true)
    }), 90_000)

  it.effect("readline bindings typed into an interactive shell, or named by INPUTRC, need approval", () =>
    Effect.gen(function*() {
      for (
        const binding of [
          "bind '\"%%\": \"\\162m -rf <C>\\n\"'",
          "bind -x '\"%%\": rm -rf <C>'",
          "bind -m emacs -x '\"%%\": rm -rf <C>'",
          "bind -f ./keys"
        ]
      ) {
        yield* expectRefused("bash --norc -i", [["submit", binding], ["write", "%%"]], canary(), true)
      }
      const dir = canary()
      const keys = join(root, `keys-${++tasks}`)
      writeFileSync(keys, `"%%": "rm -rf ${dir}\\n"\n`)
      // INPUTRC names a file of key bindings that type commands: starting the shell with it asks already.
      expect(yield* call("terminal", { command: `INPUTRC=${keys} bash --norc -i`, background: true, pty: true }, `input-${++tasks}`)).toMatchObject({ status: "blocked" })
      yield* expectIntact(dir)
      yield* expectRefused("python3 -i", [["submit", "import readline; readline.parse_and_bind('\"%%\": \"x\"')"]], canary(), true)
    }), 90_000)

  it.effect("ordinary input still runs: a shell after cd, a prompt's answer, a program that is not a shell", () =>
    Effect.gen(function*() {
      const n = ++tasks
      mkdirSync(join(cwd, `work-${n}`))
      writeFileSync(join(cwd, `ask-${n}.py`), "print('got', input())\n")
      const cases: ReadonlyArray<readonly [string, string, string]> = [
        [`cd work-${n} && bash`, "echo typed-$((40+2))", "typed-42"],
        ["x=1 bash", "ls >/dev/null && echo listed-ok", "listed-ok"],
        ["bash; python3", "echo both-ok", "both-ok"],
        [`python3 ask-${n}.py`, "y", "got y"],
        ["read -r a; echo \"answer=$a\"", "y", "answer=y"],
        ["cat", "hello-cat", "hello-cat"],
        ["python3 -i", "print(6*7)", "42"]
      ]
      for (const [command, line, output] of cases) {
        const p = yield* started(command)
        expect([command, yield* p.send("submit", line)]).toMatchObject([command, { status: "ok" }])
        expect(yield* outputContaining(p.log, output)).toContain(output)
        yield* p.kill
      }
    }), 90_000)
})
