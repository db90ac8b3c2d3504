/**
 * The ssh backend against a real sshd on loopback (test/support/sshd.ts): the
 * shared backend suite, then what is particular to ssh — one connection for
 * every call, the remote home, clear failures, approval without an isolation
 * skip, more sessions than sshd allows, and nothing left behind on close.
 */
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import type { Context } from "effect"
import { ConfigTest } from "../../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../../src/layers/HermesRuntime.js"
import { approveCommand } from "../../../src/layers/terminal/commandGate.js"
import { TerminalBackendSsh } from "../../../src/layers/terminal/ssh/TerminalBackendSsh.js"
import { Approval } from "../../../src/services/Approval.js"
import type { HermesConfigInput } from "../../../src/services/Config.js"
import { Environments } from "../../../src/services/Environments.js"
import { TerminalBackend } from "../../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../../src/services/ToolExecutor.js"
import { RecordingApproval } from "../../support/approval.js"
import { runCli } from "../../support/cli.js"
import { eventually, liveProcesses, uniqueSleep } from "../../support/processes.js"
import { tempHome } from "../../support/runtime.js"
import { sshdProblem, sshTerminalYaml, startSshd } from "../../support/sshd.js"
import type { TestSshd } from "../../support/sshd.js"
import { terminalSuite } from "../suite.js"

type Json = Record<string, unknown>
type Terminal = NonNullable<HermesConfigInput["terminal"]>
type Services = Layer.Layer.Success<ReturnType<typeof hermesRuntime>>

const problem = sshdProblem()

/** A runtime on the ssh backend, built in `scope` so a test can close it and look at what is left. */
const openRuntime = (scope: Scope.Scope, terminal: Terminal, recording = true) => {
  const root = tempHome("hermes-ssh-")
  const config = ConfigTest({ terminal: { backend: "ssh", ...terminal } }, { root, workspaceDir: join(root, "workspace") })
  const layer = recording
    ? hermesRuntime({ plugins: false, approval: RecordingApproval, terminalBackend: TerminalBackendSsh, config })
    : hermesRuntime({ plugins: false, terminalBackend: TerminalBackendSsh, config })
  return Layer.buildWithScope(layer, scope)
}

const withRuntime = <A, E>(
  terminal: Terminal,
  use: (call: (tool: string, args: Json, taskId?: string) => Effect.Effect<Json>, context: Context.Context<Services>) => Effect.Effect<A, E>,
  recording = true
) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* openRuntime(scope, terminal, recording)
    const call = (tool: string, args: Json, taskId = "t1") =>
      Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId, sessionId: `s-${taskId}` } })).pipe(
        Effect.map((s) => JSON.parse(s) as Json),
        Effect.provide(context)
      )
    return yield* Effect.ensuring(use(call, context), Scope.close(scope, Exit.void))
  })

/** Established TCP connections from this machine to `port` (IPv4, as the test sshd listens on 127.0.0.1). */
const connectionsTo = (port: number) => {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`
  return readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[2]?.endsWith(hex) === true && fields[3] === "01").length
}

/** ssh clients (masters and sessions) talking to this server. */
const sshClients = (sshd: TestSshd) => liveProcesses(`-p ${sshd.port} `).filter((line) => line.includes("ssh "))

const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

if (problem === undefined || process.env["CI"] !== undefined) {
  const sshd = await startSshd()
  afterAll(() => sshd.stop())

  // The shared suite with one persistent shell per task (the default) and with a session per command.
  for (const persistent of [true, false]) {
    terminalSuite({
      backend: TerminalBackendSsh,
      kind: "ssh",
      isolated: false,
      ttyPattern: /^\/dev\/pts\/\d+$/,
      terminal: sshd.terminal,
      inheritsEnv: false,
      persistent
    })
  }

  describe("ssh backend", () => {
    it.live("starts in the remote home and runs every call over one connection", () =>
      withRuntime(sshd.terminal, (call) =>
        Effect.gen(function*() {
          const first = yield* call("terminal", { command: "pwd; echo \"$HOME\"" })
          expect(first).toMatchObject({ output: `${sshd.home}\n${sshd.home}`, exit_code: 0 })
          const logins = yield* eventually(() => sshd.logins(), (n) => n > 0)
          for (let i = 0; i < 10; i++) {
            expect(yield* call("terminal", { command: `echo call-${i}` })).toMatchObject({ output: `call-${i}` })
          }
          // Ten more calls, another task and a background process: still the same connection.
          expect((yield* call("terminal", { command: "echo other" }, "t2"))["output"]).toBe("other")
          const bg = yield* call("terminal", { command: "echo bg", background: true }, "t2")
          const waited = yield* call("process", { action: "wait", session_id: bg["session_id"], timeout: 30 }, "t2")
          expect(waited).toMatchObject({ status: "exited", output: "bg\n" })
          expect(sshd.logins()).toBe(logins)
          const masters = sshClients(sshd).filter((line) => line.includes("ControlMaster=yes"))
          expect(masters).toHaveLength(1)
        })))

    it.live("persistent_shell: a task's calls share one remote bash; off, each call has its own", () =>
      Effect.gen(function*() {
        for (const persistent of [true, false]) {
          yield* withRuntime({ ...sshd.terminal, persistent_shell: persistent }, (call) =>
            Effect.gen(function*() {
              const first = yield* call("terminal", { command: "cd /tmp && echo $$" })
              const second = yield* call("terminal", { command: "echo $$; pwd" })
              const [pid, cwd] = String(second["output"]).split("\n")
              expect(cwd).toBe("/tmp")
              expect(pid === first["output"]).toBe(persistent)
            }))
        }
      }))

    it.live("code planted in the target's state files never runs: a respawned shell, the next session and a PTY all start from the exports approval read", () =>
      Effect.gen(function*() {
        for (const persistent of [true, false]) {
          yield* withRuntime({ ...sshd.terminal, persistent_shell: persistent }, (call) =>
            Effect.gen(function*() {
              const stateDir = String((yield* call("terminal", { command: "export KEEP=kept; echo \"$__hermes_state\"" }))["output"])
              expect(stateDir).toMatch(/^\//)
              const markers = [0, 1, 2].map((i) => join(sshd.home, `planted-${persistent}-${i}-${process.pid}`))
              // What anything else running as the user on the target can do between two calls: append code to every
              // state file (sourced snapshots were once run as they stood), as plain lines and inside a value.
              const plant = () => {
                for (const name of readdirSync(stateDir)) {
                  if (!name.endsWith(".env")) continue
                  appendFileSync(join(stateDir, name), `touch ${markers[0]}\ndeclare -x EVIL="$(touch ${markers[1]})"\nexport LATE=1; touch ${markers[2]}\n`)
                }
              }
              plant()
              // A persistent shell that ends is replaced by one that starts from the last snapshot.
              yield* call("terminal", { command: "exit 3" })
              plant()
              // A planted line that reads as an export can change that variable's value (as `export` could, and approval
              // reads the same values); it runs nothing.
              expect(yield* call("terminal", { command: "echo \"$KEEP\"" })).toMatchObject({ output: "kept", exit_code: 0 })
              plant()
              expect(yield* call("terminal", { command: "echo \"$KEEP\"", pty: true })).toMatchObject({ output: "kept", exit_code: 0 })
              plant()
              expect((yield* call("terminal", { command: "echo \"$KEEP\"" }))["output"]).toBe("kept")
              for (const marker of markers) expect(existsSync(marker)).toBe(false)
            }))
        }
      }))

    it.live("ssh_cwd: relative to the remote home, and a clear error when it does not exist", () =>
      Effect.gen(function*() {
        mkdirSync(join(sshd.home, "project"), { recursive: true })
        for (const cwd of ["project", "~/project"]) {
          yield* withRuntime({ ...sshd.terminal, ssh_cwd: cwd }, (call) =>
            Effect.map(call("terminal", { command: "pwd" }), (out) => expect(out["output"]).toBe(join(sshd.home, "project"))))
        }
        yield* withRuntime({ ...sshd.terminal, ssh_cwd: "/nonexistent/dir" }, (call) =>
          Effect.map(call("terminal", { command: "pwd" }), (out) => {
            expect(out).toMatchObject({ exit_code: -1, status: "disabled" })
            expect(String(out["error"])).toContain("the starting directory /nonexistent/dir does not exist on the target")
          }))
      }))

    it.live("closing the runtime leaves no ssh process, remote process or remote state behind", () =>
      Effect.gen(function*() {
        const sleep = uniqueSleep()
        let stateDir = ""
        yield* withRuntime(sshd.terminal, (call) =>
          Effect.gen(function*() {
            stateDir = String((yield* call("terminal", { command: "echo \"$__hermes_state\"" }))["output"])
            expect(stateDir).toMatch(/hermes-env\./)
            expect(existsSync(stateDir)).toBe(true)
            const started = yield* call("terminal", { command: `bash -c '${sleep.command}; true'`, background: true })
            expect(started["session_id"]).toEqual(expect.any(String))
            yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)
            expect(sshClients(sshd).length).toBeGreaterThan(0)
          }))
        expect(liveProcesses(sleep.marker)).toEqual([])
        expect(existsSync(stateDir)).toBe(false)
        // The master exits with the backend; sessions died with their commands.
        expect(yield* eventually(() => sshClients(sshd), (p) => p.length === 0)).toEqual([])
      }))

    it.live("an unreachable host, a refused key and an unknown host key: unavailable, with ssh's reason", () =>
      Effect.gen(function*() {
        const port = yield* Effect.promise(closedPort)
        const emptyKnownHosts = join(sshd.dir, "empty_known_hosts")
        writeFileSync(emptyKnownHosts, "")
        const cases: ReadonlyArray<readonly [Terminal, RegExp]> = [
          [{ ...sshd.terminal, ssh_port: port }, new RegExp(`ssh to ${sshd.user}@127\\.0\\.0\\.1:${port} failed: .*Connection refused`)],
          [{ ...sshd.terminal, ssh_key: sshd.strangerKey }, /failed: .*Permission denied \(publickey\).*the key was refused/],
          [
            { ...sshd.terminal, ssh_options: [`UserKnownHostsFile=${emptyKnownHosts}`, "GlobalKnownHostsFile=/dev/null", "StrictHostKeyChecking=yes"] },
            /failed: .*Host key verification failed/
          ],
          [{ ssh_port: sshd.port }, /terminal\.ssh_host is not set/]
        ]
        for (const [terminal, reason] of cases) {
          yield* withRuntime(terminal, (call, context) =>
            Effect.gen(function*() {
              const backend = yield* Effect.provide(TerminalBackend, context)
              expect(yield* backend.available).toBe(false)
              const failure = yield* Effect.flip(Effect.provide(Effect.flatMap(Environments, (e) => e.get("t1")), context))
              expect(failure.message).toMatch(reason)
              // The model sees the terminal tool as unavailable rather than a hang or a crash.
              const out = yield* call("terminal", { command: "echo hi" })
              expect(String(out["error"])).toContain("terminal")
            }))
        }
      }), 60_000)

    it.live("approval: hardline and dangerous commands are refused (no isolation skip on a real host)", () =>
      withRuntime(sshd.terminal, (call) =>
        Effect.gen(function*() {
          const name = join(sshd.home, `approval-probe-${process.pid}`)
          mkdirSync(name, { recursive: true })
          const hardline = yield* call("terminal", { command: "rm -rf /" })
          expect(hardline).toMatchObject({ exit_code: -1, status: "blocked" })
          expect(String(hardline["error"])).toContain("hardline")
          // Dangerous but not hardline: nobody to ask, so no (an isolated backend could skip the prompt).
          const dangerous = yield* call("terminal", { command: `rm -rf ${name}` })
          expect(dangerous).toMatchObject({ exit_code: -1, status: "blocked" })
          expect(existsSync(name)).toBe(true)
          expect((yield* call("terminal", { command: "echo fine" }))["output"]).toBe("fine")
        }), false))

    it.live("more sessions than sshd allows (MaxSessions 10) get a connection of their own", () =>
      withRuntime(sshd.terminal, (call) =>
        Effect.gen(function*() {
          const sleeps = Array.from({ length: 12 }, () => uniqueSleep())
          for (const sleep of sleeps) {
            const started = yield* call("terminal", { command: sleep.command, background: true })
            expect(started["session_id"]).toEqual(expect.any(String))
          }
          for (const sleep of sleeps) expect((yield* eventually(() => liveProcesses(sleep.marker), (p) => p.length > 0)).length).toBe(1)
          expect((yield* call("terminal", { command: "echo still-fine" }))["output"]).toBe("still-fine")
          const list = (yield* call("process", { action: "list" }))["processes"] as ReadonlyArray<Json>
          expect(list.filter((p) => p["status"] === "running")).toHaveLength(12)
        })))

    it.live("sessions past MaxSessions open one more shared connection, not a connection each", () =>
      withRuntime(sshd.terminal, (call) =>
        Effect.gen(function*() {
          // Each task's persistent shell holds a session for the task's lifetime: 14 of them need two connections.
          for (let t = 0; t < 14; t++) expect((yield* call("terminal", { command: `echo task-${t}` }, `mux-${t}`))["output"]).toBe(`task-${t}`)
          for (let t = 0; t < 14; t++) expect((yield* call("terminal", { command: "echo $PPID >/dev/null; echo again" }, `mux-${t}`))["output"]).toBe("again")
          expect(connectionsTo(sshd.port)).toBe(2)
        })))

    it.live("file operations: listing, links, ranges, atomic writes, rename and delete", () =>
      withRuntime(sshd.terminal, (_call, context) =>
        Effect.gen(function*() {
          const env = yield* Effect.provide(Effect.flatMap(Environments, (e) => e.get("files")), context)
          const dir = join(sshd.home, `files-${process.pid}`)
          mkdirSync(join(dir, "sub"), { recursive: true })
          writeFileSync(join(dir, "a.txt"), "0123456789")
          symlinkSync("a.txt", join(dir, "link"))
          const entries = [...(yield* env.readDir(dir))].sort((x, y) => x.name.localeCompare(y.name))
          expect(entries).toEqual([
            { name: "a.txt", type: "file" },
            { name: "link", type: "symlink" },
            { name: "sub", type: "directory" }
          ])
          expect(yield* env.readLink(join(dir, "link"))).toBe("a.txt")
          expect(yield* env.readLink(join(dir, "a.txt"))).toBeUndefined()
          expect(yield* env.realPath(join(dir, "link"))).toBe(join(dir, "a.txt"))
          expect(yield* env.realPath(join(dir, "sub/../missing/x"))).toBe(join(dir, "missing/x"))
          expect(new TextDecoder().decode(yield* env.readFile(join(dir, "a.txt"), { offset: 2, length: 3 }))).toBe("234")
          expect(new TextDecoder().decode(yield* env.readFile(join(dir, "a.txt"), { offset: 7 }))).toBe("789")
          const stat = yield* env.stat(join(dir, "a.txt"))
          expect(stat).toMatchObject({ type: "file", size: 10 })
          expect(Math.abs(stat.mtimeMs - statSync(join(dir, "a.txt")).mtimeMs)).toBeLessThan(1)

          // An atomic write goes through the link and keeps the mode.
          writeFileSync(join(dir, "script.sh"), "old", { mode: 0o750 })
          yield* env.writeFile(join(dir, "script.sh"), "new", { atomic: true })
          expect(readFileSync(join(dir, "script.sh"), "utf8")).toBe("new")
          expect(statSync(join(dir, "script.sh")).mode & 0o777).toBe(0o750)
          yield* env.writeFile(join(dir, "link"), "through", { atomic: true })
          expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("through")
          expect(yield* env.readLink(join(dir, "link"))).toBe("a.txt")

          yield* env.rename(join(dir, "a.txt"), join(dir, "moved/b.txt"))
          expect(readFileSync(join(dir, "moved/b.txt"), "utf8")).toBe("through")
          yield* env.remove(join(dir, "moved/b.txt"))
          expect(existsSync(join(dir, "moved/b.txt"))).toBe(false)
          expect((yield* Effect.flip(env.remove(join(dir, "sub")))).reason).toBe("IsDirectory")
          expect((yield* Effect.flip(env.remove(join(dir, "nope")))).reason).toBe("NotFound")
          expect((yield* Effect.flip(env.readDir(join(dir, "nope")))).reason).toBe("NotFound")
          expect((yield* Effect.flip(env.readFile(join(dir, "sub")))).reason).toBe("IsDirectory")
        })))

    it.live("the CLI runs a call over ssh from config.yaml and leaves no connection behind", () =>
      Effect.gen(function*() {
        const home = tempHome("hermes-ssh-cli-")
        writeFileSync(join(home, "config.yaml"), [...sshTerminalYaml(sshd), ""].join("\n"))
        const result = runCli(["call", "terminal", "{\"command\": \"echo \\\"$HOME\\\"\"}"], { home })
        expect(result.code).toBe(0)
        expect(JSON.parse(result.stdout)).toEqual({ output: sshd.home, exit_code: 0, error: null })
        expect(yield* eventually(() => sshClients(sshd), (p) => p.length === 0)).toEqual([])
      }))

    it.live("a child that ignores SIGTERM and holds the output open does not hold the call", () =>
      withRuntime(sshd.terminal, (_call, context) =>
        Effect.gen(function*() {
          const env = yield* Effect.provide(Effect.flatMap(Environments, (e) => e.get("held")), context)
          const approval = yield* Effect.provide(Approval, context)
          const sleep = uniqueSleep()
          const command = `bash -c "trap '' TERM; exec ${sleep.command}" & echo started`
          const result = yield* env.run(yield* approveCommand(approval, env, { taskId: "held" }, command, "foreground"))
          expect(result).toMatchObject({ exitCode: 0, timedOut: false, output: { head: "started\n" } })
          expect(liveProcesses(sleep.marker)).toEqual([])
        })))

    it.live("commands are approved for the ssh backend, not isolated", () =>
      withRuntime(sshd.terminal, (_call, context) =>
        Effect.gen(function*() {
          const env = yield* Effect.provide(Effect.flatMap(Environments, (e) => e.get("info")), context)
          expect({ kind: env.kind, isolated: env.isolated }).toEqual({ kind: "ssh", isolated: false })
          const approval = yield* Effect.provide(Approval, context)
          const result = yield* env.run(yield* approveCommand(approval, env, { taskId: "info" }, "echo $((6 * 7))", "foreground"))
          expect(result).toMatchObject({ exitCode: 0, output: { head: "42\n" } })
        })))
  })
} else {
  describe.skip(`terminal backend: ssh (${problem})`, () => {
    it("skipped", () => {})
  })
}
