/**
 * The container backend on podman (runc) with a tiny local image
 * (test/support/container.ts): the shared backend suite, then what is
 * particular to containers — hardening, label-based reuse, volumes and
 * variables from config, isolation for approval, a missing CLI, and no
 * container left behind.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import type { Context } from "effect"
import { homeLabel } from "../../../src/layers/terminal/container/containerCli.js"
import { containerSettings as settingsOf } from "../../../src/layers/terminal/container/containerSettings.js"
import { globalArgs, mountsHostPath, runArgs } from "../../../src/layers/terminal/container/runArgs.js"
import { ConfigTest } from "../../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../../src/layers/HermesRuntime.js"
import { TerminalBackendContainer } from "../../../src/layers/terminal/container/TerminalBackendContainer.js"
import type { HermesConfigInput } from "../../../src/services/Config.js"
import { Environments } from "../../../src/services/Environments.js"
import { TerminalBackend } from "../../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../../src/services/ToolExecutor.js"
import { RecordingApproval } from "../../support/approval.js"
import { containersOfHome, inspect, podmanTerminal, preparePodman } from "../../support/container.js"
import { liveProcesses } from "../../support/processes.js"
import { tempHome } from "../../support/runtime.js"
import { terminalSuite } from "../suite.js"
import { resolveConfig } from "../../support/config.js"

/** Container settings from config as a file would hold it. */
const containerSettings = (input: HermesConfigInput) => settingsOf(resolveConfig(input))

type Json = Record<string, unknown>
type Terminal = NonNullable<HermesConfigInput["terminal"]>
type Services = Layer.Layer.Success<ReturnType<typeof hermesRuntime>>
type Call = (tool: string, args: Json, taskId?: string) => Effect.Effect<Json>

const problem = preparePodman()

/** A runtime on the container backend in its own scope; `root` is the Hermes home (containers are labelled with it). */
const withRuntime = <A, E>(
  options: { readonly terminal?: Terminal; readonly root?: string; readonly recording?: boolean },
  use: (call: Call, context: Context.Context<Services>) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const root = options.root ?? tempHome("hermes-container-")
    const config = ConfigTest({ terminal: { backend: "container", ...podmanTerminal, ...options.terminal } }, { root, workspaceDir: join(root, "workspace") })
    const layer = options.recording === false
      ? hermesRuntime({ plugins: false, terminalBackend: TerminalBackendContainer, config })
      : hermesRuntime({ plugins: false, approval: RecordingApproval, terminalBackend: TerminalBackendContainer, config })
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(layer, scope)
    const call: Call = (tool, args, taskId = "t1") =>
      Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId, sessionId: `s-${taskId}` } })).pipe(
        Effect.map((s) => JSON.parse(s) as Json),
        Effect.provide(context)
      )
    return yield* Effect.ensuring(use(call, context), Scope.close(scope, Exit.void))
  })

/** `use` on a runtime with a persistent shell per task, then on one with a session per command. */
const inBothShellModes = (use: (call: Call) => Effect.Effect<void>) =>
  Effect.forEach([true, false], (persistent) => withRuntime({ recording: false, terminal: { persistent_shell: persistent } }, use), { discard: true })

const envOf = (context: Context.Context<Services>, taskId: string) =>
  Effect.provide(Effect.flatMap(Environments, (e) => e.get(taskId)), context)

describe("container run arguments", () => {
  it("docker and podman differ only in where the runtime goes; volumes replace tmpfs; network off by default", () => {
    const settings = containerSettings({
      terminal: { container_image: "img", container_runtime: "runc", container_volumes: ["/srv/data:/workspace:ro", "cache:/cache"] }
    })
    const docker = runArgs(settings, "docker", "n", { a: "1" })
    const podman = runArgs(settings, "podman", "n", { a: "1" })
    expect(docker.filter((arg) => !podman.includes(arg))).toEqual(["--runtime", "runc"])
    expect(podman.filter((arg) => !docker.includes(arg))).toEqual([])
    expect(docker.join(" ")).toContain("--runtime runc img sleep infinity")
    expect(globalArgs(settings, "podman")).toEqual(["--runtime", "runc"])
    expect(globalArgs(settings, "docker")).toEqual([])
    expect(podman.join(" ")).toMatch(/^run -d --name n --label a=1 --init --cap-drop ALL .*--security-opt no-new-privileges --pids-limit 256 --network none /)
    expect(podman).not.toContain("/workspace:rw,exec,size=10g")
    expect(podman).toEqual(expect.arrayContaining(["-v", "/srv/data:/workspace:ro", "/tmp:rw,nosuid,size=512m"]))
    expect(mountsHostPath(settings)).toBe(true)
    expect(mountsHostPath(containerSettings({ terminal: { container_volumes: ["cache:/cache"] } }))).toBe(false)
    expect(mountsHostPath(containerSettings({ terminal: { container_extra_args: ["--mount", "type=bind,src=/x,dst=/y"] } }))).toBe(true)
    const networked = runArgs(containerSettings({ terminal: { container_network: true } }), "podman", "n", {})
    expect(networked).not.toContain("none")
    const own = runArgs(containerSettings({ terminal: { container_extra_args: ["--network=slirp4netns"] } }), "podman", "n", {})
    expect(own.filter((arg) => arg.startsWith("--network"))).toEqual(["--network=slirp4netns"])
  })

  it("Hermes' docker_* keys are read when the container_* ones are absent", () => {
    const settings = containerSettings({
      terminal: {
        docker_image: "hermes/img",
        docker_volumes: ["/a:/b"],
        docker_env: { N: 1 },
        docker_forward_env: ["TOKEN_X"],
        docker_network: true,
        env_passthrough: ["PASS"]
      }
    })
    expect(settings).toMatchObject({ image: "hermes/img", volumes: ["/a:/b"], env: { N: "1" }, forwardEnv: ["TOKEN_X", "PASS"], network: true })
    expect(containerSettings({}).image).toBe("nikolaik/python-nodejs:python3.11-nodejs20")
  })
})

if (problem === undefined || process.env["CI"] !== undefined) {
  // The shared suite with one persistent shell per task (the default) and with an `exec` per command.
  for (const persistent of [true, false]) {
    terminalSuite({
      backend: TerminalBackendContainer,
      kind: "container",
      isolated: true,
      ttyPattern: /^\/dev\/pts\/\d+$/,
      terminal: podmanTerminal,
      inheritsEnv: false,
      ownFilesystem: true,
      persistent
    })
  }

  describe("container backend", () => {
    it.live("one hardened container per task, removed when the runtime closes", () =>
      Effect.gen(function*() {
        const root = tempHome("hermes-container-")
        let id = ""
        yield* withRuntime({ root }, (call) =>
          Effect.gen(function*() {
            expect((yield* call("terminal", { command: "pwd" }))["output"]).toBe("/workspace")
            const ids = containersOfHome(homeLabel(root))
            expect(ids).toHaveLength(1)
            id = ids[0] ?? ""
            const info = inspect(id) as { HostConfig: Record<string, unknown>; Config: { Labels: Record<string, string> } }
            expect(info.HostConfig["CapDrop"]).toEqual(expect.arrayContaining(["CAP_NET_RAW", "CAP_KILL", "CAP_MKNOD", "CAP_NET_BIND_SERVICE"]))
            expect(info.HostConfig["SecurityOpt"]).toEqual(expect.arrayContaining(["no-new-privileges"]))
            expect(info.HostConfig["PidsLimit"]).toBe(256)
            expect(info.HostConfig["NetworkMode"]).toBe("none")
            expect(Object.keys(info.HostConfig["Tmpfs"] as object)).toEqual(expect.arrayContaining(["/workspace", "/tmp", "/root"]))
            expect(info.Config.Labels).toMatchObject({ "hermes-effect": "1", "hermes-effect.task-id": "t1" })
            // From inside: only the five capabilities Hermes keeps, no way to gain more, 256 processes at most.
            const inside = yield* call("terminal", {
              command: "grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status; cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max"
            })
            // CHOWN(0) DAC_OVERRIDE(1) FOWNER(3) SETGID(6) SETUID(7): 0b11001011 = 0xcb.
            expect(inside["output"]).toBe("CapEff:\t00000000000000cb\nCapBnd:\t00000000000000cb\nNoNewPrivs:\t1\n256")
            // A second task gets a container of its own.
            expect((yield* call("terminal", { command: "echo two" }, "t2"))["output"]).toBe("two")
            expect(containersOfHome(homeLabel(root))).toHaveLength(2)
          }))
        expect(containersOfHome(homeLabel(root))).toEqual([])
        expect(liveProcesses(id.slice(0, 12))).toEqual([])
      }), 120_000)

    it.live("a running container with the task's labels is reused; another configuration replaces it", () =>
      Effect.gen(function*() {
        const root = tempHome("hermes-container-")
        yield* withRuntime({ root }, (first) =>
          Effect.gen(function*() {
            yield* first("terminal", { command: "echo from-first > /workspace/mark" }, "shared")
            const [original] = containersOfHome(homeLabel(root))
            // A second runtime on the same home (a restart after a crash, say) adopts the container.
            yield* withRuntime({ root }, (second) =>
              Effect.gen(function*() {
                expect((yield* second("terminal", { command: "cat /workspace/mark" }, "shared"))["output"]).toBe("from-first")
                expect(containersOfHome(homeLabel(root))).toEqual([original])
              }))
            expect(containersOfHome(homeLabel(root))).toEqual([])
          }))
        yield* withRuntime({ root }, (first) =>
          Effect.gen(function*() {
            yield* first("terminal", { command: "echo x > /workspace/mark" }, "shared")
            const [original] = containersOfHome(homeLabel(root))
            yield* withRuntime({ root, terminal: { container_env: { CHANGED: "1" } } }, (changed) =>
              Effect.gen(function*() {
                const out = yield* changed("terminal", { command: "echo $CHANGED; ls /workspace" }, "shared")
                expect(out["output"]).toBe("1")
                const now = containersOfHome(homeLabel(root))
                expect(now).toHaveLength(1)
                expect(now[0]).not.toBe(original)
              }))
          }))
        expect(containersOfHome(homeLabel(root))).toEqual([])
      }), 120_000)

    it.live("volumes, variables and forwarded variables from config; a host mount ends isolation", () =>
      Effect.gen(function*() {
        const data = mkdtempSync(join(tmpdir(), "hermes-volume-"))
        writeFileSync(join(data, "input.txt"), "from the host\n")
        process.env["HERMES_CT_FORWARDED"] = "forwarded-value"
        process.env["HERMES_CT_NOT_FORWARDED"] = "hidden"
        const terminal: Terminal = {
          container_volumes: [`${data}:/data:ro`],
          container_env: { GREETING: "hello" },
          container_forward_env: ["HERMES_CT_FORWARDED"]
        }
        yield* withRuntime({ terminal }, (call, context) =>
          Effect.gen(function*() {
            const out = yield* call("terminal", { command: "cat /data/input.txt; echo \"$GREETING/$HERMES_CT_FORWARDED/[$HERMES_CT_NOT_FORWARDED]\"" })
            expect(out["output"]).toBe("from the host\nhello/forwarded-value/[]")
            const write = yield* call("terminal", { command: "touch /data/new" })
            expect(write["exit_code"]).not.toBe(0)
            expect(String(write["output"])).toContain("Read-only file system")
            const env = yield* envOf(context, "t1")
            expect({ kind: env.kind, isolated: env.isolated }).toEqual({ kind: "container", isolated: false })
          }))
      }), 120_000)

    it.live("approval: the isolation skip applies without host mounts, never to hardline commands", () =>
      Effect.gen(function*() {
        yield* withRuntime({ recording: false }, (call) =>
          Effect.gen(function*() {
            // Dangerous but not hardline, nobody to ask: allowed only because the container is isolated.
            const dangerous = yield* call("terminal", { command: "mkdir -p /tmp/x && rm -rf /tmp/x && echo removed" })
            expect(dangerous).toMatchObject({ output: "removed", exit_code: 0 })
            const hardline = yield* call("terminal", { command: "rm -rf /" })
            expect(hardline).toMatchObject({ exit_code: -1, status: "blocked" })
            expect(String(hardline["error"])).toContain("hardline")
          }))
        const data = mkdtempSync(join(tmpdir(), "hermes-volume-"))
        yield* withRuntime({ recording: false, terminal: { container_volumes: [`${data}:/data`] } }, (call) =>
          Effect.gen(function*() {
            const dangerous = yield* call("terminal", { command: "mkdir -p /tmp/x && rm -rf /tmp/x && echo removed" })
            expect(dangerous).toMatchObject({ exit_code: -1, status: "blocked" })
          }))
      }), 120_000)

    it.live("a line planted in the container's state files never runs (hardline commands included)", () =>
      inBothShellModes((call) =>
        Effect.gen(function*() {
          const stateDir = String((yield* call("terminal", { command: "export KEEP=kept; echo \"$__hermes_state\"" }))["output"])
          expect(stateDir).toMatch(/^\//)
          // A process the task left (allowed here: the container is isolated) appends to every state file as it
          // appears; what it appends would be hardline as a command.
          const files = [...Array.from({ length: 12 }, (_, i) => `${stateDir}/r${i}.env`), `${stateDir}/s0.env`].join(" ")
          const planter = `while sleep 0.02; do for f in ${files}; do [ -f "$f" ] && ! grep -q planted "$f" && echo 'touch /tmp/planted; kill -9 -1 # planted' >> "$f"; done; done`
          expect(yield* call("terminal", { command: planter, background: true })).toMatchObject({ exit_code: 0 })
          yield* Effect.sleep("200 millis")
          yield* call("terminal", { command: "exit 3" })
          yield* Effect.sleep("200 millis")
          expect((yield* call("terminal", { command: "echo \"$KEEP\"" }))["output"]).toBe("kept")
          yield* Effect.sleep("200 millis")
          expect((yield* call("terminal", { command: "echo \"$KEEP\"", pty: true }))["output"]).toBe("kept")
          expect((yield* call("terminal", { command: "test -e /tmp/planted && echo ran || echo clean" }))["output"]).toBe("clean")
          // The planter did reach the files: the lines are there, unsourced.
          expect((yield* call("terminal", { command: `cat ${stateDir}/*.env 2>/dev/null | grep -c planted` }))["output"]).not.toBe("0")
        })), 120_000)

    it.live("a pid file rewritten by the command stops nothing else: a timeout never becomes kill -1", () =>
      inBothShellModes((call) =>
        Effect.gen(function*() {
          const stateDir = String((yield* call("terminal", { command: "echo \"$__hermes_state\"" }))["output"])
          const bystander = yield* call("terminal", { command: "sleep 300", background: true })
          // The pid files name the process group a timeout stops: the command points them at `kill -1`'s target.
          const timedOut = yield* call("terminal", { command: `for f in ${stateDir}/*.pid; do echo 1 > "$f"; done; sleep 60`, timeout: 2 })
          expect(timedOut["exit_code"]).toBe(124)
          // The container, its other processes and the task's shell are all still there.
          expect((yield* call("terminal", { command: "echo alive" }))["output"]).toBe("alive")
          expect(yield* call("process", { action: "poll", session_id: bystander["session_id"] })).toMatchObject({ status: "running" })
        })), 120_000)

    it.live("a CLI that does not work: unavailable, with the reason", () =>
      withRuntime({ terminal: { container_cli: "/nonexistent/docker" } }, (call, context) =>
        Effect.gen(function*() {
          const backend = yield* Effect.provide(TerminalBackend, context)
          expect(yield* backend.available).toBe(false)
          const failure = yield* Effect.flip(envOf(context, "t1"))
          expect(failure.message).toMatch(/no working container CLI \(\/nonexistent\/docker: cannot start \/nonexistent\/docker/)
          expect(String((yield* call("terminal", { command: "echo hi" }))["error"])).toContain("terminal")
        })))

    it.live("an image that does not exist: a clear error and no container left", () =>
      Effect.gen(function*() {
        const root = tempHome("hermes-container-")
        yield* withRuntime({ root, terminal: { container_image: "localhost/hermes-effect-test:missing" } }, (_call, context) =>
          Effect.gen(function*() {
            const failure = yield* Effect.flip(envOf(context, "t1"))
            expect(failure.message).toMatch(/cannot start a container from localhost\/hermes-effect-test:missing with podman: /)
            expect(containersOfHome(homeLabel(root))).toEqual([])
          }))
      }), 60_000)
  })
} else {
  describe.skip(`terminal backend: container (${problem})`, () => {
    it("skipped", () => {})
  })
}
