/**
 * The persistent shell (`terminal.local_persistent` on the local backend; the
 * same code serves ssh and containers): what is particular to running every
 * foreground command of a task in one long-lived bash. The shared suite
 * (`suite.ts`) covers the rest in both modes.
 */
import { join } from "node:path"

import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { approveCommand } from "../../src/layers/terminal/commandGate.js"
import { makeFrameReader } from "../../src/layers/terminal/persistent/shellFrame.js"
import { TerminalBackendLocal } from "../../src/layers/terminal/local/TerminalBackendLocal.js"
import { Approval } from "../../src/services/Approval.js"
import { Environments } from "../../src/services/Environments.js"
import type { RunOptions } from "../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { ApprovalLog, HUMAN_APPROVED_MARKER, RecordingApproval } from "../support/approval.js"
import { eventually, liveProcesses, uniqueSleep } from "../support/processes.js"
import { tempHome } from "../support/runtime.js"
import { describeNeeding, programProblem } from "../support/systemPrograms.js"

type Json = Record<string, unknown>

describe("frame reader", () => {
  it("passes output on, holds back what may start a mark, and reads the sealed report", () => {
    const mark = "__HERMES_abc_1__"
    const seal = "__HERMES_abc_1_5eal__"
    const out: Array<string> = []
    const reader = makeFrameReader(mark, seal, (chunk) => out.push(chunk.toString("utf8")))
    const stream = `hello\n\n${seal}R\ndeclare -x A="1"\n\n${seal}C/tmp/x\n\n${seal}F\ndeclare -f __hermes_report\ndeclare -fx greet\n\n${seal}I\ndeclare -i OPTIND="1"\ndeclare -ir PPID="1"\ndeclare -ix n="2"\ndeclare -ai a=([0]="1")\ndeclare -l low="x"\ndeclare -n ref="PATH"\n\n${seal}X7\n`
    // One byte at a time: the seal is split across every possible boundary.
    let report
    for (const byte of Buffer.from(stream)) report ??= reader.push(Buffer.from([byte]))
    expect(out.join("")).toBe("hello\n")
    expect(report).toEqual({
      end: "X",
      code: 7,
      cwd: "/tmp/x",
      exports: "declare -x A=\"1\"\n",
      leftovers: false,
      functions: ["greet"],
      // Bash's own integers are left as they are; the command's integer, case and nameref attributes are dropped.
      attributed: ["n", "a", "low", "ref"]
    })
  })

  it("a read-only variable or function of the command's makes the shell be replaced after the frame", () => {
    const mark = "__HERMES_abc_2__"
    const seal = "__HERMES_abc_2_5eal__"
    const report = (records: string) => {
      const reader = makeFrameReader(mark, seal, () => undefined)
      return reader.push(Buffer.from(`\n${seal}R\n\n${seal}C/tmp\n${records}\n${seal}X0\n`))
    }
    const own = `\n${seal}F\ndeclare -fr __hermes_report\n\n${seal}I\ndeclare -ir PPID="1"\ndeclare -r SHELLOPTS="x"\n`
    expect(report(own)?.leftovers).toBe(false)
    expect(report(`\n${seal}F\n\n${seal}I\ndeclare -r x="rm"\n`)?.leftovers).toBe(true)
    expect(report(`\n${seal}F\ndeclare -fr greet\n\n${seal}I\n`)?.leftovers).toBe(true)
  })

  it("records with multibyte text read whole, fed a byte at a time; the same exports twice read the same", () => {
    const mark = "__HERMES_abc_6__"
    const seal = "__HERMES_abc_6_5eal__"
    const exports = "declare -x GREETING=\"héllo wörld ✓\"\ndeclare -x PATH=\"/usr/bin\"\n"
    const stream = `ça\n\n${seal}R\n${exports}\n${seal}C/tmp/dï r\n\n${seal}F\ndeclare -f grüß\n\n${seal}I\n\n${seal}X0\n`
    const read = () => {
      const out: Array<Buffer> = []
      const reader = makeFrameReader(mark, seal, (chunk) => out.push(Buffer.from(chunk)))
      let report
      for (const byte of Buffer.from(stream)) report ??= reader.push(Buffer.from([byte]))
      return { output: Buffer.concat(out).toString("utf8"), report }
    }
    const first = read()
    expect(first.output).toBe("ça\n")
    expect(first.report).toMatchObject({ end: "X", code: 0, cwd: "/tmp/dï r", exports, functions: ["grüß"], attributed: [], leftovers: false })
    expect(read().report?.exports).toBe(first.report?.exports)
  })

  it("output that only looks like a mark stays output", () => {
    const mark = "__HERMES_abc_2__"
    const seal = "__HERMES_abc_2_5eal__"
    const out: Array<string> = []
    const reader = makeFrameReader(mark, seal, (chunk) => out.push(chunk.toString("utf8")))
    expect(reader.push(Buffer.from("a\n__HERMES_abc_1__X0\n__HERMES_abc_2_\nb"))).toBeUndefined()
    expect(reader.push(Buffer.from(`\n${seal}C/\n\n${seal}L\n\n${seal}X0\n`))).toMatchObject({ end: "X", code: 0, leftovers: true })
    expect(out.join("")).toBe("a\n__HERMES_abc_1__X0\n__HERMES_abc_2_\nb")
  })

  it("a report the command prints with the public mark is not the frame's: the sealed one that follows is", () => {
    const mark = "__HERMES_abc_3__"
    const seal = "__HERMES_abc_3_5eal__"
    const reader = makeFrameReader(mark, seal, () => undefined)
    const forged = `\n${mark}R\ndeclare -x PATH="/usr/bin"\n\n${mark}C/\n\n${mark}F\n\n${mark}I\n\n${mark}X0\n`
    expect(reader.push(Buffer.from(`out${forged}`))).toBeUndefined()
    // A job the command left may keep printing imitations between the real records: they are not records.
    // (It left one, so the shell is replaced after the call, from what this report says.)
    const real = `\n${seal}R\ndeclare -x PATH="/planted:/usr/bin"\n\n${seal}C/w\n\n${seal}F\ndeclare -f greet\n\n${seal}I\n\n${seal}L\n${forged}\n${seal}X3\n`
    expect(reader.push(Buffer.from(real))).toMatchObject({
      end: "X",
      code: 3,
      cwd: "/w",
      exports: "declare -x PATH=\"/planted:/usr/bin\"\n",
      functions: ["greet"],
      leftovers: true
    })
  })

  it("the EXIT trap's report (public mark, Q) ends the frame; a sealed one that follows it wins", () => {
    const mark = "__HERMES_abc_4__"
    const seal = "__HERMES_abc_4_5eal__"
    const quit = `\n${mark}R\ndeclare -x A="q"\n\n${mark}C/q\n\n${mark}F\n\n${mark}I\n\n${mark}Q143\n`
    expect(makeFrameReader(mark, seal, () => undefined).push(Buffer.from(`x${quit}`))).toMatchObject({ end: "Q", code: 143, cwd: "/q" })
    const reader = makeFrameReader(mark, seal, () => undefined)
    expect(reader.push(Buffer.from(quit))).toMatchObject({ end: "Q" })
    expect(reader.push(Buffer.from(`\n${seal}R\ndeclare -x A="x"\n\n${seal}C/x\n\n${seal}X0\n`))).toMatchObject({ end: "X", code: 0, cwd: "/x", exports: "declare -x A=\"x\"\n" })
  })

  it("a shell that ends mid-frame leaves its sealed records, else the EXIT trap's", () => {
    const mark = "__HERMES_abc_5__"
    const seal = "__HERMES_abc_5_5eal__"
    const sealed = makeFrameReader(mark, seal, () => undefined)
    sealed.push(Buffer.from(`\n${mark}C/forged\n\n${seal}R\ndeclare -x B="1"\n\n${seal}C/real\n`))
    expect(sealed.flush()).toMatchObject({ cwd: "/real", exports: "declare -x B=\"1\"\n" })
    const quitting = makeFrameReader(mark, seal, () => undefined)
    quitting.push(Buffer.from(`\n${mark}R\ndeclare -x B="2"\n\n${mark}C/q\n`))
    expect(quitting.flush()).toMatchObject({ cwd: "/q", exports: "declare -x B=\"2\"\n" })
  })
})

const root = tempHome("hermes-persistent-")
const cwd = tempHome("hermes-persistent-cwd-")

const runtime = hermesRuntime({
  plugins: false,
  approval: RecordingApproval,
  terminalBackend: TerminalBackendLocal,
  config: ConfigTest({ terminal: { cwd, local_persistent: true } }, { root, workspaceDir: join(root, "workspace") })
}).pipe(Layer.provideMerge(RecordingApproval))

layer(runtime, { excludeTestServices: true, timeout: "60 seconds" })("persistent shell (local)", (it) => {
  let tasks = 0
  const task = () => `p${++tasks}`
  const terminal = (args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool: "terminal", args }, { context: { taskId } })).pipe(Effect.map((s) => JSON.parse(s) as Json))
  /** Run through the environment (approved first), for timeouts and interrupts. */
  const run = (taskId: string, command: string, options?: RunOptions) =>
    Effect.gen(function*() {
      const env = yield* Effect.flatMap(Environments, (e) => e.get(taskId))
      const approved = yield* approveCommand(yield* Approval, env, { taskId }, command, "foreground")
      return yield* env.run(approved, options)
    })
  const text = (result: { readonly output: { readonly head: string; readonly tail: string } }) => result.output.head + result.output.tail

  it.effect("one shell runs every call: cd, export, even plain variables stay", () =>
    Effect.gen(function*() {
      const t = task()
      const first = yield* terminal({ command: "mkdir -p d && cd d && export KEPT=1; echo $$" }, t)
      const second = yield* terminal({ command: "echo $$; basename \"$PWD\"; echo $KEPT" }, t)
      const [pid, dir, kept] = String(second["output"]).split("\n")
      expect(pid).toBe(first["output"])
      expect([dir, kept]).toEqual(["d", "1"])
    }))

  it.effect("a timeout kills the command; the next call runs with the same cwd and exports", () =>
    Effect.gen(function*() {
      const t = task()
      const sleep = uniqueSleep()
      const timed = yield* run(t, `mkdir -p slow && cd slow && export AFTER=yes; ${sleep.command}`, { timeoutMs: 500 })
      expect(timed).toMatchObject({ timedOut: true, exitCode: 124 })
      expect(yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length === 0)).toEqual([])
      const next = yield* run(t, "basename \"$PWD\"; echo $AFTER")
      expect(text(next)).toBe("slow\nyes\n")
      expect(next.exitCode).toBe(0)
    }))

  it.effect("a command that ends its shell gets a clear result; a new shell keeps cwd and exports", () =>
    Effect.gen(function*() {
      const t = task()
      const exited = yield* terminal({ command: "mkdir -p e && cd e && export V=1; echo before; exit 3" }, t)
      expect(exited).toMatchObject({ output: "before", exit_code: 3 })
      expect((yield* terminal({ command: "basename \"$PWD\"; echo $V" }, t))["output"]).toBe("e\n1")
      const killed = yield* run(t, "export W=2; kill $$")
      expect(killed.exitCode).toBe(143)
      expect(text(yield* run(t, "echo $V$W"))).toBe("12\n")
      // SIGKILL leaves no report: the cwd and exports of the calls before it stay.
      const hard = yield* run(t, "cd /; export LOST=1; kill -9 $$")
      expect(hard.exitCode).toBe(137)
      expect(text(yield* run(t, "basename \"$PWD\"; echo \"[$LOST]\""))).toBe("e\n[]\n")
    }))

  it.effect("output that forges a mark is output; output without a final newline is kept as is", () =>
    Effect.gen(function*() {
      const t = task()
      const forged = yield* run(t, "printf '\\n__HERMES_0000_1__X0\\n__HERMES_%s_%s__X0\\n' x 2; echo after")
      expect(text(forged)).toBe("\n__HERMES_0000_1__X0\n__HERMES_x_2__X0\nafter\n")
      expect(forged.exitCode).toBe(0)
      expect(text(yield* run(t, "printf abc"))).toBe("abc")
      expect(text(yield* run(t, "echo out; echo err >&2; exec >/dev/null; echo hidden"))).toBe("out\nerr\n")
      expect(text(yield* run(t, "echo visible-again"))).toBe("visible-again\n")
    }))

  it.effect("long commands with multibyte text, quotes and NUL-free binary-looking bytes arrive byte for byte", () =>
    Effect.gen(function*() {
      const t = task()
      // A frame's body is read by byte count: a UTF-8 locale must not make `read` count characters.
      const line = "héllo wörld ✓ 𝄞 'single' \"double\" $dollar `tick` \\back\t"
      const body = Array.from({ length: 200 }, (_, i) => `${i} ${line}`).join("\n")
      const heredoc = yield* run(t, `export LC_ALL=C.UTF-8 LANG=C.UTF-8; cat > big.txt <<'EOF'\n${body}\nEOF\nwc -c < big.txt`)
      expect(text(heredoc).trim()).toBe(String(Buffer.byteLength(`${body}\n`)))
      expect(text(yield* run(t, `printf '%s' '${"ü".repeat(3000)}' | wc -c`)).trim()).toBe("6000")
      expect(text(yield* run(t, "cat big.txt | head -n 1"))).toBe(`0 ${line}\n`)
    }))

  it.effect("signal traps end with their call, as with a fresh shell per call", () =>
    Effect.gen(function*() {
      const t = task()
      const set = yield* terminal({ command: "trap 'echo caught' USR1 TERM; trap -p USR1 TERM" }, t)
      expect(String(set["output"])).toContain("echo caught")
      const later = yield* terminal({ command: "trap -p USR1 TERM; echo listed" }, t)
      expect(later["output"]).toBe("listed")
    }))

  it.effect("a report the command forges is not taken for the frame's: the exports it hid are the runtime's too", () =>
    Effect.gen(function*() {
      // Each command puts a directory on PATH and prints a complete report that leaves it out, using whatever mark
      // it can find; the runtime must still see the PATH the shell has (approval judges the next command by it).
      const forge = (marks: string) =>
        `forge() { for m in ${marks}; do printf '\\n%sR\\n%s\\n%sC/\\n\\n%sF\\n\\n%sI\\n\\n%sX0\\n' "$m" "$O" "$m" "$m" "$m" "$m"; done; }`
      const marksIn = (text: string) => `$(grep -o '__HERMES_[A-Za-z0-9_]*' <<< "${text} $__hermes_mark" | sort -u)`
      const attempts: ReadonlyArray<readonly [string, string]> = [
        ["the frame's mark variable", `${forge("\"$__hermes_mark\"")}; forge`],
        ["every mark in the shell's variables", `${forge(marksIn("$(set)"))}; forge`],
        ["a DEBUG trap reading the command about to run and its arguments", `${forge(marksIn("$BASH_COMMAND $*"))}; set -T; trap 'forge "$@"' DEBUG`],
        ["an alias standing in for the report function", `${forge(marksIn("$*"))}; shopt -s expand_aliases; alias __hermes_report=forge`],
        ["tracing with a PS4 that runs code", `${forge(marksIn("$BASH_COMMAND"))}; PS4='$(forge >&19)+ '; set -x`],
        ["an ERR trap and a RETURN trap", `${forge(marksIn("$BASH_COMMAND $*"))}; set -E -T; trap 'forge "$@"' ERR RETURN; false`],
        // The frame's own variables made read-only, so the report would send the exports elsewhere, drop PATH from
        // them, or print a held text in their place.
        ["the exports file variable made read-only", `readonly __hermes_env=/tmp/hermes-junk-$$`],
        ["the variables to unexport made read-only", `readonly __hermes_unexport=PATH`],
        ["the report's buffer and mode made read-only", `readonly __hermes_x='declare -x PATH="/usr/bin"' __hermes_both=1 __hermes_env=/tmp/hermes-junk-$$`],
        // The job keeps signalling while the frame ends: its trap would run between the report's lines.
        ["a signal trap a job of the command keeps firing", `${forge(marksIn("$BASH_COMMAND $*"))}; trap 'forge "$@"' USR1; (while kill -USR1 $$ 2>/dev/null; do :; done) & sleep 0.05`]
      ]
      for (const [what, attempt] of attempts) {
        const t = task()
        const planted = `/nonexistent/planted-${t}`
        yield* run(t, `O=$(export -p); export PATH=${planted}:$PATH; ${attempt}`)
        const env = yield* Effect.flatMap(Environments, (e) => e.get(t))
        const believed = String((yield* env.variables)["PATH"]).split(":")[0]
        // What the next command's shell really has (the same shell, or a new one started from what was believed).
        const actual = text(yield* run(t, "builtin printf '%s' \"${PATH%%:*}\""))
        expect(believed, what).toBe(actual)
        // A job's signals may also kill the shell mid-report (the frame's end restores their default action): its
        // exports are then lost with it. Every other attempt leaves the shell, and its PATH, as they were.
        if (!what.startsWith("a signal")) expect(believed, what).toBe(planted)
      }
    }))

  it.effect("a command runs at the shell's top level: `$1` is unset, `return` is refused, the frame's own names can be clobbered", () =>
    Effect.gen(function*() {
      const t = task()
      expect(text(yield* run(t, "echo \"[$1][$#]\""))).toBe("[][0]\n")
      const returned = yield* run(t, "return 3; echo after")
      expect(returned.exitCode).not.toBe(3)
      expect(text(returned)).toContain("after")
      // A command that clobbers the frame's own variables, or tries to replace its (read-only) report function, still
      // gets its result, and so does the next.
      const clobbered = yield* run(t, "__hf=x; unset __hermes_mark __hermes_env; { unset -f __hermes_report; __hermes_report() { :; }; } 2>/dev/null; echo ok; false")
      expect([text(clobbered), clobbered.exitCode]).toEqual(["ok\n", 1])
      const next = yield* run(t, "echo still-framed; echo $$")
      expect(text(next).split("\n")[0]).toBe("still-framed")
      expect(text(yield* run(t, "echo $$"))).toBe(text(next).split("\n")[1] + "\n")
    }))

  it.effect("commands cannot read the shell's command stream", () =>
    Effect.gen(function*() {
      const t = task()
      const read = yield* run(t, "cat; read -r line; echo \"[$line]\"")
      expect(text(read)).toBe("[]\n")
      expect(text(yield* run(t, "echo still-framed"))).toBe("still-framed\n")
    }))

  it.effect("a program a command planted in the shell's hash table is gone by the next call", () =>
    Effect.gen(function*() {
      const t = task()
      // Within the call the planted name works (as in any bash); the next call looks every name up afresh.
      const planted = yield* run(t, "hash -p /bin/echo hermes-planted-a; BASH_CMDS[hermes-planted-b]=/bin/echo; hermes-planted-a one; hermes-planted-b two")
      expect(text(planted)).toBe("one\ntwo\n")
      for (const name of ["hermes-planted-a", "hermes-planted-b"]) {
        const later = yield* run(t, `${name} x`)
        expect([name, later.exitCode]).toEqual([name, 127])
      }
      expect(text(yield* run(t, "hash -l 2>&1 | grep -c planted; true"))).toBe("0\n")
    }))

  it.effect("a variable's integer attribute ends with its call (as with a fresh shell per call); its value stays", () =>
    Effect.gen(function*() {
      const t = task()
      // Within the call, integer arithmetic as in any bash.
      expect(text(yield* run(t, "declare -i n=2 m; declare -ai a=(1); n+=3; echo $n"))).toBe("5\n")
      // The next call assigns text: it stays text, nothing is evaluated (a value a[$(cmd)] would run cmd).
      const later = yield* run(t, "n='1+1'; a[0]='2*3'; m='a[$(echo ran >&2)]' 2>&1; echo \"$n ${a[0]} $m\"")
      expect(text(later)).toBe("1+1 2*3 a[$(echo ran >&2)]\n")
      // Positional parameters end with their call too.
      expect(text(yield* run(t, "set -- one two; echo $#"))).toBe("2\n")
      expect(text(yield* run(t, "echo \"$#[$1]\""))).toBe("0[]\n")
      // So do an unexported IFS and CDPATH (approval judges `$x` and `cd name` by the exports); exported ones stay.
      yield* run(t, "IFS=_; CDPATH=/; kept=yes")
      expect(text(yield* run(t, "echo \"[${IFS+set}][${CDPATH+set}][$kept]\""))).toBe("[][][yes]\n")
      yield* run(t, "export CDPATH=/tmp")
      expect(text(yield* run(t, "echo \"$CDPATH\""))).toBe("/tmp\n")
      // Bash's own integers stay integers.
      expect(text(yield* run(t, "OPTIND=1+1; echo $OPTIND"))).toBe("2\n")
    }))

  it.effect("case and nameref attributes, shell options and read-only names end with their call; values stay", () =>
    Effect.gen(function*() {
      const t = task()
      // Within the call, as in any bash.
      expect(text(yield* run(t, "declare -l low; declare -u up; low=ABC; up=def; declare -n ref=target; target=t0; echo $low $up $ref"))).toBe("abc DEF t0\n")
      // The next call's assignments store what they say: no case folding, and `ref=x` sets ref itself, not target.
      expect(text(yield* run(t, "low=RM; up=ls; ref=PATH; echo $low $up $ref $target"))).toBe("RM ls PATH t0\n")
      // So does the capitalising one (round 9: `declare -c x`, then `x=/BIN/RM; $x -rf d` ran /bin/rm).
      expect(text(yield* run(t, "declare -c cap; cap=/BIN/ECHO; echo $cap"))).toBe("/bin/echo\n")
      expect(text(yield* run(t, "cap=/BIN/ECHO; echo $cap"))).toBe("/BIN/ECHO\n")
      // Options a call sets are a fresh shell's again in the next one (approval reads every line as one would).
      yield* run(t, "shopt -s nocasematch extglob; set -o pipefail -k; kept=yes")
      expect(text(yield* run(t, "shopt -q nocasematch || shopt -q extglob || echo off; [[ -o pipefail || -o keyword ]] || echo off; echo $kept")))
        .toBe("off\noff\nyes\n")
      // A read-only variable or function cannot be changed back: the shell is replaced, from the exports.
      yield* run(t, "export keep=1; fixed=rm; readonly fixed; greet() { echo old; }; readonly -f greet")
      expect(text(yield* run(t, "fixed=ls; echo $fixed $keep; greet() { echo new; }; greet"))).toBe("ls 1\nnew\n")
    }))

  it.effect("after a dangerous command a person approved, the shell is replaced from what it reported", () =>
    Effect.gen(function*() {
      const t = task()
      const pid = text(yield* run(t, "kept=yes; echo $$")).trim()
      // Approved, it may have left hooks that rewrite its own report: nothing but what it reported carries over.
      const approved = yield* run(t, `export OUT=1; plain=1; f() { :; }; echo ${HUMAN_APPROVED_MARKER} $$`)
      expect(text(approved).trim()).toBe(`${HUMAN_APPROVED_MARKER} ${pid}`)
      const after = text(yield* run(t, "echo $$ \"[$OUT][$plain][$kept]\"; type -t f || echo none")).trim().split("\n")
      expect(after[0]?.startsWith(pid)).toBe(false)
      expect(after[0]?.endsWith("[1][][]")).toBe(true)
      expect(after[1]).toBe("none")
    }))

  it.effect("functions stay and approval is told their names; aliases and DEBUG/ERR traps end with their call", () =>
    Effect.gen(function*() {
      const t = task()
      const env = yield* Effect.flatMap(Environments, (e) => e.get(t))
      const functions = () => Effect.flatMap(Effect.fromNullable(env.shellFunctions), (f) => f).pipe(Effect.orDie)
      // Before any command has run in the shell, there is none holding anything.
      expect(yield* functions()).toBeUndefined()
      yield* run(t, "greet() { echo \"hi $1\"; }; other_fn() { :; }")
      expect([...((yield* functions()) ?? [])].sort()).toEqual(["greet", "other_fn"])
      expect(text(yield* run(t, "greet you"))).toBe("hi you\n")
      yield* run(t, "unset -f other_fn")
      expect(yield* functions()).toEqual(["greet"])
      // Within its call an alias or trap works as in any bash; the next call starts without them.
      const within = yield* run(t, "shopt -s expand_aliases; alias hermes_alias='echo aliased'\nhermes_alias; trap 'echo trapped' ERR; false")
      expect(text(within)).toContain("aliased\n")
      const later = yield* run(t, "shopt -s expand_aliases\nhermes_alias; false; echo after")
      expect(text(later)).not.toContain("aliased")
      expect(text(later)).not.toContain("trapped")
      expect(text(later)).toContain("after")
      // A new shell (this one exits) holds no functions.
      yield* run(t, "exit 0")
      expect(yield* functions()).toEqual([])
      expect((yield* run(t, "greet x")).exitCode).toBe(127)
    }))

  it.effect("interrupting the fiber stops the command; the next call works", () =>
    Effect.gen(function*() {
      const t = task()
      const sleep = uniqueSleep()
      const fiber = yield* Effect.fork(run(t, `export I=1; ${sleep.command}`))
      yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
      yield* Fiber.interrupt(fiber)
      expect(yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length === 0)).toEqual([])
      expect(text(yield* run(t, "echo $I"))).toBe("1\n")
    }))

  it.effect("a background job left by a command dies with the call", () =>
    Effect.gen(function*() {
      const t = task()
      const sleep = uniqueSleep()
      const left = yield* run(t, `${sleep.command} & echo started`)
      expect(text(left)).toBe("started\n")
      expect(liveProcesses(sleep.marker)).toEqual([])
      expect(text(yield* run(t, "echo next"))).toBe("next\n")
    }))

  it.effect("concurrent calls of one task still run side by side", () =>
    Effect.gen(function*() {
      const t = task()
      // The first waits for what the second does: run one after the other, the first would time out.
      const results = yield* Effect.all([
        run(t, "while [ ! -e flag ]; do sleep 0.05; done; echo a", { timeoutMs: 20_000 }),
        Effect.zipRight(Effect.sleep("200 millis"), run(t, "touch flag; echo b"))
      ], { concurrency: "unbounded" })
      expect(results.map((r) => [text(r), r.timedOut])).toEqual([["a\n", false], ["b\n", false]])
    }))

  it.effect("every framed command is still approved; a denied one never runs", () =>
    Effect.gen(function*() {
      const t = task()
      const denied = yield* terminal({ command: "rm -rf ./x; touch ran" }, t)
      expect(denied).toMatchObject({ exit_code: -1, status: "blocked" })
      expect((yield* terminal({ command: "test -e ran && echo ran || echo not-run" }, t))["output"]).toBe("not-run")
      const log = yield* ApprovalLog
      const mine = (yield* log.requests).filter((r) => r.context.taskId === t)
      expect(mine.map((r) => [r.path, r.command])).toEqual([
        ["foreground", "rm -rf ./x; touch ran"],
        ["foreground", "test -e ran && echo ran || echo not-run"]
      ])
    }))
})

describeNeeding(programProblem("bwrap", ["--dev-bind", "/", "/", "true"]) ?? programProblem("nsenter"), "persistent shell under protect_home", () => {
  it.live("the one shell is started inside the protected namespace: the runtime's home stays read-only", () =>
    Effect.gen(function*() {
      const executor = yield* ToolExecutor
      const call = (command: string) =>
        Effect.map(executor.dispatch({ tool: "terminal", args: { command } }, { context: { taskId: "guarded" } }), (s) => JSON.parse(s) as Json)
      const denied = yield* call(`touch ${root}/written 2>&1; echo $$`)
      expect(String(denied["output"])).toContain("Read-only file system")
      const again = yield* call("echo $$")
      expect(String(denied["output"]).endsWith(String(again["output"]))).toBe(true)
    }).pipe(Effect.provide(runtime)))
})
