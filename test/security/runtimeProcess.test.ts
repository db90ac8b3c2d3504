/**
 * Red team 10, end to end on the local backend (a process per command, and the persistent shell): commands aimed at
 * the runtime's own process. The runtime here is this test process. It holds a pipe open (a FIFO, as an editor's
 * messages arrive on an ACP adapter's standard input); a command that reached `/proc/<pid>/fd/<n>` could put bytes
 * on it that the runtime would take for its editor's answers (an approval among them). Debuggers and tracers
 * attached to it could run code inside it; signals could stop it. Each class has several members, and after them
 * nothing has arrived on the pipe. Signals are SIGCONT and the debugger's call is harmless, so a gate that failed
 * would show in the result without stopping the test.
 */
import { spawnSync } from "node:child_process"
import { closeSync, constants, mkdirSync, openSync, readSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { tempHome } from "../support/runtime.js"

type Json = Record<string, unknown>

const root = tempHome("hermes-effect-own-process-")
const work = join(root, "work")
mkdirSync(work)
const inbox = join(root, "inbox")
spawnSync("mkfifo", [inbox])
// Read and write, non-blocking: the open needs no writer, and a read finds whatever a command put there.
const fd = openSync(inbox, constants.O_RDWR | constants.O_NONBLOCK)
afterAll(() => closeSync(fd))

/** Whatever reached the pipe since the last look. */
const arrived = (): string => {
  const buffer = Buffer.alloc(4096)
  try {
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, null)).toString("utf8")
  } catch {
    return ""
  }
}

const pid = String(process.pid)
const fill = (command: string) => command.replaceAll("<PID>", pid).replaceAll("<FD>", String(fd)).replaceAll("<W>", work).replaceAll("<INBOX>", inbox)

/** Each class: calls of one task, the last of which must be refused; the ones before it set the scene. */
const CLASSES: Readonly<Record<string, ReadonlyArray<ReadonlyArray<string>>>> = {
  "writes into the runtime's descriptors": [
    ["cd /proc/<PID>/fd && echo '{\"id\":1,\"result\":{}}' > <FD>"],
    ["cd /proc/<PID>/fd", "echo '{\"id\":2}' > <FD>"],
    ["cd /proc/<PID>", "printf x | tee -a fd/<FD>"],
    ["echo '{\"id\":3}' > /proc/<PID>/task/<PID>/fd/<FD>"],
    ["cd /proc/<PID>/task && echo x >> <PID>/fd/<FD>"],
    ["ln -sf /proc/<PID>/fd/<FD> <W>/reply; echo x > <W>/reply"],
    ["ln -s /proc/<PID>/fd <W>/fds"],
    ["echo x > /proc/$PPID/fd/<FD>"]
  ],
  "a debugger or tracer attached to the runtime": [
    ["gdb -p <PID> -batch -ex 'call (int)getpid()'"],
    ["gdb -batch -ex 'attach <PID>' -ex detach"],
    ["strace -fp <PID> -o /dev/null"],
    ["timeout 1 strace --attach=<PID> -o /dev/null"],
    ["gcore -o <W>/core <PID>"],
    ["echo $PPID", "ltrace -p <PID>"]
  ],
  "reads of what the runtime keeps to itself (its API keys are in its environment)": [
    ["cat /proc/<PID>/environ"],
    ["tr '\\0' '\\n' < /proc/$PPID/environ | base64 -w0"],
    ["cd /proc/<PID>", "strings environ | rev"],
    ["ps eww -p <PID>"]
  ],
  "signals aimed at the runtime": [
    ["kill -CONT <PID>"],
    ["kill -s CONT $PPID"],
    ["echo <PID> > <W>/pid", "kill -CONT <PID>"],
    ["pkill -CONT -f vitest"],
    ["killall -CONT node"]
  ]
}

/**
 * Ordinary work beside these classes: it still runs (what it prints, where that does not depend on how the backend
 * captures output: a command's stdout may be a socket, which `/proc/self/fd/1` cannot open).
 */
const ORDINARY: ReadonlyArray<readonly [string, string | null]> = [
  ["ls /proc/<PID>/fd >/dev/null && echo listed", "listed"],
  ["{ echo own > /proc/self/fd/1; } 2>/dev/null; echo own", "own"],
  ["{ echo err > /dev/stderr; } 2>/dev/null; echo err", "err"],
  ["kill -0 1 2>/dev/null; echo probed", "probed"],
  ["kill -0 $$ && echo alive", "alive"],
  ["head -c 5 /proc/<PID>/status", "Name:"],
  ["echo via-path > <INBOX>", ""]
]

const blocked = (result: Json) => String(result["error"] ?? "").startsWith("BLOCKED")

for (const persistent of [false, true]) {
  const runtime = hermesRuntime({
    plugins: false,
    mcp: false,
    config: ConfigTest({ terminal: { cwd: work, local_persistent: persistent } }, { root: join(root, persistent ? "home-p" : "home"), workspaceDir: work })
  })
  layer(runtime, { excludeTestServices: true, timeout: "120 seconds" })(`the runtime's own process (${persistent ? "persistent shell" : "a process per command"})`, (it) => {
    let tasks = 0
    const terminal = (command: string, taskId: string) =>
      Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool: "terminal", args: { command: fill(command) } }, { context: { taskId } })).pipe(
        Effect.map((s) => JSON.parse(s) as Json)
      )

    for (const [group, cases] of Object.entries(CLASSES)) {
      describe(group, () => {
        cases.forEach((calls, n) => {
          it.effect(`${n}: ${calls.at(-1)}`, () =>
            Effect.gen(function*() {
              const task = `own-${persistent ? "p" : "s"}-${++tasks}`
              let last: Json = {}
              for (const command of calls) last = yield* terminal(command, task)
              expect(blocked(last), JSON.stringify(last)).toBe(true)
              expect(arrived()).toBe("")
            }))
        })
      })
    }

    it.effect("ordinary work on processes and /proc still runs, and the pipe is reached by its own path", () =>
      Effect.gen(function*() {
        const results = yield* Effect.forEach(ORDINARY, ([command]) => terminal(command, `own-ordinary-${persistent}`))
        expect(arrived()).toBe("via-path\n")
        for (const r of results) expect(r["error"] ?? null, JSON.stringify(r)).toBeNull()
        expect(results.map((r) => r["output"])).toEqual(ORDINARY.map(([, output]) => output))
      }))
  })
}
