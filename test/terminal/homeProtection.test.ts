/**
 * The runtime's home against the terminal (issue 13 items 3, 14, 15): read-only
 * for local commands under bubblewrap (`terminal.protect_home`), per-run state
 * under the home swept when the run is gone, and the sandbox hiding the host's
 * homes. Real processes, canary files in temp directories.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { protectHomeMounts } from "../../src/layers/terminal/container/homeMounts.js"
import { containerSettings as settingsOf } from "../../src/layers/terminal/container/containerSettings.js"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { approveCommand } from "../../src/layers/terminal/commandGate.js"
import { processStart } from "../../src/layers/terminal/runState.js"
import { snapshotScript } from "../../src/layers/terminal/shellScript.js"
import { TerminalBackendLocal } from "../../src/layers/terminal/local/TerminalBackendLocal.js"
import { TerminalBackendSandbox } from "../../src/layers/terminal/sandbox/TerminalBackendSandbox.js"
import { Approval } from "../../src/services/Approval.js"
import type { Config, HermesConfigInput } from "../../src/services/Config.js"
import { Environments } from "../../src/services/Environments.js"
import type { TerminalBackend } from "../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { RecordingApproval } from "../support/approval.js"
import { tempHome } from "../support/runtime.js"
import { resolveConfig } from "../support/config.js"

/** Container settings from config as a file would hold it. */
const containerSettings = (input: HermesConfigInput) => settingsOf(resolveConfig(input))

const bwrapWorks = spawnSync("bwrap", ["--dev-bind", "/", "/", "true"]).status === 0
const sandboxWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "true"]).status === 0

type Terminal = NonNullable<HermesConfigInput["terminal"]>
type Json = Record<string, unknown>

/** A runtime whose home is `home`, on `backend`. */
const runtimeAt = (home: string, backend: Layer.Layer<TerminalBackend, never, Config>, terminal: Terminal) =>
  hermesRuntime({
    plugins: false,
    approval: RecordingApproval,
    terminalBackend: backend,
    config: ConfigTest({ terminal }, { root: home, workspaceDir: join(home, "workspace"), pluginsDir: join(home, "plugins") })
  }).pipe(Layer.provideMerge(RecordingApproval))

const terminal = (args: Json, taskId = "home-t") =>
  Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool: "terminal", args }, { context: { taskId, sessionId: `s-${taskId}` } })).pipe(
    Effect.map((s) => JSON.parse(s) as Json)
  )

const CONFIG = "approvals:\n  mode: manual\n"

/** A home with a config.yaml canary, a scratch directory outside it, and an evil replacement there. */
const canaries = () => {
  const home = tempHome("hermes-protect-home-")
  const scratch = tempHome("hermes-protect-scratch-")
  writeFileSync(join(home, "config.yaml"), CONFIG)
  writeFileSync(join(scratch, "evil.yaml"), "approvals:\n  mode: off\n")
  return { home, scratch }
}

/** Ways to replace a file at `target` (dir/config.yaml) with `evil`, computed paths included. */
const attacks = (dir: string, evil: string): ReadonlyArray<string> => [
  `echo 'approvals: {mode: off}' > ${dir}/config.yaml`,
  `cp ${evil} ${dir}/config.yaml`,
  `d=${dir}; cp ${evil} "$d"/conf*.yaml`,
  `ln -sf ${evil} ${dir}/config.yaml`,
  `cp ${evil} ${evil}.2 && mv -f ${evil}.2 ${dir}/config.yaml`,
  `rm -f ${dir}/config.yaml`,
  `mkdir -p ${dir}/skills/planted`
]

const intact = (home: string) => readFileSync(join(home, "config.yaml"), "utf8") === CONFIG && !existsSync(join(home, "skills", "planted"))

describe("terminal.protect_home on the local backend", () => {
  if (!bwrapWorks) {
    it.skip("skipped: bwrap (bubblewrap) is not installed or not permitted here", () => {})
    return
  }

  it.effect("commands cannot write the runtime's home (foreground, background, PTY); the same writes elsewhere work", () => {
    const { home, scratch } = canaries()
    return Effect.gen(function*() {
      for (const command of attacks(home, join(scratch, "evil.yaml"))) {
        const out = yield* terminal({ command, workdir: scratch })
        expect(out["exit_code"], command).not.toBe(0)
        expect(String(out["output"]), command).toMatch(/Read-only file system/)
        expect(intact(home), command).toBe(true)
      }
      // Same commands on a directory outside the home.
      const elsewhere = join(scratch, "target")
      mkdirSync(elsewhere)
      for (const command of attacks(elsewhere, join(scratch, "evil.yaml"))) {
        writeFileSync(join(elsewhere, "config.yaml"), CONFIG)
        const out = yield* terminal({ command, workdir: scratch })
        expect(out["exit_code"], command).toBe(0)
      }
      // Under a PTY, and in the background.
      const pty = yield* terminal({ command: `tty; echo x > ${home}/config.yaml`, pty: true })
      expect(String(pty["output"])).toMatch(/^\/dev\/pts\/\d+[\s\S]*Read-only file system/)
      const bg = yield* terminal({ command: `echo x > ${home}/config.yaml; echo done`, background: true })
      const waited = JSON.parse(yield* Effect.flatMap(ToolExecutor, (r) =>
        r.dispatch({ tool: "process", args: { action: "wait", session_id: bg["session_id"], timeout: 10 } }, { context: { taskId: "home-t", sessionId: "s" } }))) as Json
      expect(String(waited["output"])).toMatch(/Read-only file system[\s\S]*done/)
      expect(intact(home)).toBe(true)
      // Per-run state lives under the home (not /tmp), in the one directory left writable.
      const state = String((yield* terminal({ command: "echo \"$__hermes_state\"; touch \"$__hermes_state/probe\" && echo writable" }))["output"])
      expect(state.split("\n")[0]?.startsWith(join(home, "run") + "/")).toBe(true)
      expect(state).toContain("writable")
    }).pipe(Effect.provide(runtimeAt(home, TerminalBackendLocal, { cwd: scratch })))
  }, 60_000)

  it.effect("the snapshot commands source cannot be rewritten by a command", () => {
    const { home, scratch } = canaries()
    return Effect.gen(function*() {
      yield* terminal({ command: "export CARRIED=yes" })
      expect((yield* terminal({ command: `ls ${home}/run/*/e*/ | grep -c '[.]sh$'` }))["output"]).toBe("1")
      const plant = yield* terminal({ command: `for f in ${home}/run/*/e*/*; do echo 'touch ${scratch}/planted' >> "$f"; done` })
      expect(String(plant["output"])).toMatch(/Read-only file system/)
      expect((yield* terminal({ command: "echo $CARRIED" }))["output"]).toBe("yes")
      expect(existsSync(join(scratch, "planted"))).toBe(false)
    }).pipe(Effect.provide(runtimeAt(home, TerminalBackendLocal, { cwd: scratch })))
  }, 60_000)

  it.live("signals reach the command itself: Ctrl-C under a PTY and SIGTERM run its traps", () => {
    const { home, scratch } = canaries()
    return Effect.gen(function*() {
      const env = yield* Effect.flatMap(Environments, (e) => e.get("home-sig"))
      const approval = yield* Approval
      const approve = (command: string) => approveCommand(approval, env, { taskId: "home-sig" }, command, "background")
      const interrupted = yield* env.spawn(yield* approve("trap 'echo caught; exit 7' INT; echo ready; sleep 30 & wait"), { pty: true })
      const output = yield* Effect.fork(Stream.runCollect(interrupted.output).pipe(Effect.map((c) => [...c].join(""))))
      yield* Effect.sleep("300 millis")
      yield* interrupted.write(yield* approve("\x03"))
      expect(yield* interrupted.exitCode).toBe(7)
      expect(yield* output.await.pipe(Effect.flatMap((e) => e))).toContain("caught")
      const terminated = yield* env.spawn(yield* approve("trap 'exit 5' TERM; sleep 30 & wait"))
      yield* Effect.sleep("300 millis")
      yield* terminated.kill
      expect(yield* terminated.exitCode).toBe(5)
    }).pipe(Effect.scoped, Effect.provide(runtimeAt(home, TerminalBackendLocal, { cwd: scratch })))
  }, 60_000)

  it.effect("protect_home: false leaves the home writable", () => {
    const { home, scratch } = canaries()
    return Effect.gen(function*() {
      const out = yield* terminal({ command: `echo changed > ${home}/config.yaml` })
      expect(out["exit_code"]).toBe(0)
      expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe("changed\n")
    }).pipe(Effect.provide(runtimeAt(home, TerminalBackendLocal, { cwd: scratch, protect_home: false })))
  }, 60_000)
})

describe("export snapshots", () => {
  it("a report with code in it becomes assignments only", () => {
    const scratch = tempHome("hermes-snapshot-")
    const report = [
      `declare -x A="1"`,
      `touch ${scratch}/one`,
      `declare -x B="$(touch ${scratch}/two)"`,
      `declare -x C='x'; touch ${scratch}/three`,
      `declare -ax ARR=([0]="a")`,
      `declare -x D="multi`,
      `line \\\"q\\\""`,
      ""
    ].join("\n")
    const { script, variables } = snapshotScript(report)
    expect(Object.keys(variables)).not.toContain("ARR")
    expect(script.startsWith("export A='1'\n")).toBe(true)
    const out = spawnSync("bash", ["-c", `${script}\nprintf '%s|' "$A" "$B" "$D"`], { encoding: "utf8" })
    expect(readdirSync(scratch)).toEqual([])
    expect(out.stdout.startsWith("1|$(touch ")).toBe(true)
    expect(out.stdout).toContain("multi\nline")
  })
})

describe("per-run state folders", () => {
  it.effect("folders of dead runs are swept at start, live ones kept; ours goes at close; nothing in /tmp", () => {
    const home = tempHome("hermes-runs-")
    const scratch = tempHome("hermes-runs-scratch-")
    const runs = join(home, "run")
    mkdirSync(runs)
    const dead = join(runs, "999999999-12345-aa")
    const reused = join(runs, `${process.pid}-1-bb`) // our pid, another start time: not ours
    const live = join(runs, `${process.pid}-${processStart(process.pid)}-cc`)
    for (const dir of [dead, reused, live]) mkdirSync(join(dir, "out", "e1"), { recursive: true })
    writeFileSync(join(runs, "unrelated.txt"), "kept")
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith("hermes-env-")))
    return Effect.gen(function*() {
      yield* terminal({ command: "echo hi" })
      expect(existsSync(dead)).toBe(false)
      expect(existsSync(reused)).toBe(false)
      expect(existsSync(live)).toBe(true)
      expect(existsSync(join(runs, "unrelated.txt"))).toBe(true)
      expect(readdirSync(runs).length).toBe(3)
      expect(readdirSync(tmpdir()).filter((n) => n.startsWith("hermes-env-") && !before.has(n))).toEqual([])
    }).pipe(
      Effect.provide(runtimeAt(home, TerminalBackendLocal, { cwd: scratch })),
      Effect.tap(() => Effect.sync(() => expect(readdirSync(runs).sort()).toEqual([live.split("/").pop(), "unrelated.txt"])))
    )
  }, 60_000)
})

describe("the sandbox hides the host's homes", () => {
  if (!sandboxWorks) {
    it.skip("skipped: bwrap (bubblewrap) is not installed or not permitted here", () => {})
    return
  }

  /** A fake user home and runtime home outside /tmp (the sandbox's /tmp is private anyway). */
  const fakeHomes = () => {
    const base = mkdtempSync("/var/tmp/hermes-sandbox-homes-")
    const user = join(base, "user")
    const runtime = join(base, "runtime")
    mkdirSync(join(user, "shared"), { recursive: true })
    mkdirSync(runtime)
    writeFileSync(join(user, "secret.txt"), "secret")
    writeFileSync(join(user, "shared", "note.txt"), "shared")
    writeFileSync(join(runtime, "config.yaml"), CONFIG)
    return { base, user, runtime }
  }

  const withHome = <A, E, R>(user: string, effect: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        const saved = process.env["HOME"]
        process.env["HOME"] = user
        return saved
      }),
      () => effect,
      (saved) => Effect.sync(() => {
        if (saved === undefined) delete process.env["HOME"]
        else process.env["HOME"] = saved
      })
    )

  it.effect("homes and the runtime's home are invisible; sandbox_home_binds come back read-only; the workspace works", () => {
    const { base, user, runtime } = fakeHomes()
    return withHome(user, Effect.gen(function*() {
      const secret = yield* terminal({ command: `cat ${user}/secret.txt` })
      expect(secret["exit_code"]).not.toBe(0)
      expect(String(secret["output"])).toMatch(/No such file or directory/)
      expect((yield* terminal({ command: `cat ${user}/shared/note.txt` }))["output"]).toBe("shared")
      const write = yield* terminal({ command: `echo x > ${user}/shared/note.txt` })
      expect(String(write["output"])).toMatch(/Read-only file system/)
      expect(readFileSync(join(user, "shared", "note.txt"), "utf8")).toBe("shared")
      expect(String((yield* terminal({ command: `cat ${runtime}/config.yaml` }))["output"])).toMatch(/No such file or directory/)
      expect((yield* terminal({ command: "ls -A /root /home | grep -v ':$' | grep -c . || true" }))["output"]).toBe("0")
      expect((yield* terminal({ command: "echo kept > kept.txt && cat kept.txt" }))["output"]).toBe("kept")
      // The file tools see the same view.
      const env = yield* Effect.flatMap(Environments, (e) => e.get("home-t"))
      expect((yield* Effect.flip(env.readFile(`${user}/secret.txt`))).reason).toBe("NotFound")
      expect(new TextDecoder().decode(yield* env.readFile(`${user}/shared/note.txt`))).toBe("shared")
    })).pipe(
      Effect.provide(runtimeAt(runtime, TerminalBackendSandbox, { sandbox_home_binds: [join(user, "shared")] })),
      Effect.ensuring(Effect.sync(() => rmSync(base, { recursive: true, force: true })))
    )
  }, 60_000)

  it.effect("without binds nothing under a home is visible", () => {
    const { base, user, runtime } = fakeHomes()
    return withHome(user, Effect.gen(function*() {
      expect(String((yield* terminal({ command: `cat ${user}/shared/note.txt` }))["output"])).toMatch(/No such file or directory/)
    })).pipe(
      Effect.provide(runtimeAt(runtime, TerminalBackendSandbox, {})),
      Effect.ensuring(Effect.sync(() => rmSync(base, { recursive: true, force: true })))
    )
  }, 60_000)
})

describe("terminal.protect_home on the container backend", () => {
  it("host mounts of the home become read-only; mounts over it get a read-only home on top", () => {
    const home = "/root/.hermes-effect"
    const settings = protectHomeMounts(containerSettings({
      terminal: {
        container_volumes: [`${home}/skills:/skills`, "/root:/host", "data:/data", "/srv:/srv:rw", `${home}:/h:rw,z`],
        container_extra_args: ["-v", `${home}:/again`, "--mount=type=bind,source=/root,target=/r", "--mount", `type=bind,src=${home}/x,dst=/x`, "--rm"]
      }
    }), home)
    expect(settings.volumes).toEqual([
      `${home}/skills:/skills:ro`,
      "/root:/host",
      "data:/data",
      "/srv:/srv:rw",
      `${home}:/h:ro,z`,
      `${home}:/host/.hermes-effect:ro`,
      `${home}:/r/.hermes-effect:ro`
    ])
    expect(settings.extraArgs).toEqual([
      "-v", `${home}:/again:ro`,
      "--mount=type=bind,source=/root,target=/r",
      "--mount", `type=bind,src=${home}/x,dst=/x,readonly`,
      "--rm"
    ])
  })
})
