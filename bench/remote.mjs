// Remote terminal backends: `echo hi` through the terminal tool over ssh (a real sshd on loopback, after the first
// call) against a raw ssh round trip on a multiplexed connection, and in a podman container against a raw
// `podman exec`, with the local backend measured in the same run. Backends this machine cannot run are skipped
// (reported on stderr), so the bench still runs where sshd or podman is missing.
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { transform } from "esbuild"
import { ManagedRuntime } from "effect"
import { ConfigTest, HermesRuntime, ToolExecutor } from "../dist/index.js"
import { median } from "./_stats.mjs"

/** The test helpers that start sshd and prepare podman are TypeScript with only node imports: compile them here. */
const loadSupport = async (name, scratch) => {
  const source = readFileSync(fileURLToPath(new URL(`../test/support/${name}.ts`, import.meta.url)), "utf8")
  const { code } = await transform(source, { loader: "ts", format: "esm", platform: "node", target: "node20" })
  const file = join(scratch, `${name}.mjs`)
  writeFileSync(file, code)
  return import(pathToFileURL(file).href)
}

const timed = (file, args) =>
  new Promise((resolve, reject) => {
    const t = performance.now()
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.once("error", reject)
    child.once("close", (code) => (code === 0 && out.trim() === "hi" ? resolve(performance.now() - t) : reject(new Error(`${file} exited ${code}: ${out}`))))
  })

const parse = (s) => JSON.parse(s)

/** A runtime on `terminal` config; `call` dispatches one tool call and parses the result. */
const open = (home, terminal) => {
  mkdirSync(join(home, "cwd"), { recursive: true })
  const runtime = ManagedRuntime.make(HermesRuntime.layer({
    config: ConfigTest({ terminal: { cwd: join(home, "cwd"), ...terminal } }, { root: home, workspaceDir: join(home, "ws") }),
    plugins: false
  }))
  const call = async (args, taskId = "bench") => {
    const executor = await runtime.runPromise(ToolExecutor)
    return parse(await runtime.runPromise(executor.dispatch({ tool: "terminal", args }, { context: { taskId } })))
  }
  return { runtime, call }
}

/** Median of the tool and of the baseline, interleaved so both see the same machine load. */
const compare = async (call, baseline, rounds, warmup) => {
  const echo = { command: "echo hi" }
  const first = await call(echo)
  if (first.output !== "hi") throw new Error(`unexpected terminal result: ${JSON.stringify(first)}`)
  for (let i = 0; i < warmup; i++) {
    await baseline()
    await call(echo)
  }
  const tool = []
  const raw = []
  for (let i = 0; i < rounds; i++) {
    raw.push(await baseline())
    const t = performance.now()
    await call(echo)
    tool.push(performance.now() - t)
  }
  return { tool: median(tool), raw: median(raw) }
}

/** Median round trip of `echo hi` written to a `bash` on one open ssh channel (the floor for a persistent shell). */
const channelRoundTrips = async (base, host, rounds) => {
  const child = spawn("ssh", [...base, "-T", host, "bash"], { stdio: ["pipe", "pipe", "ignore"] })
  let waiting
  let out = ""
  child.stdout.on("data", (d) => {
    out += d
    if (out.endsWith("hi\n") && waiting !== undefined) {
      out = ""
      const done = waiting
      waiting = undefined
      done()
    }
  })
  const once = () => new Promise((resolve) => {
    waiting = resolve
    child.stdin.write("echo hi\n")
  })
  for (let i = 0; i < 20; i++) await once()
  const times = []
  for (let i = 0; i < rounds; i++) {
    const t = performance.now()
    await once()
    times.push(performance.now() - t)
  }
  child.stdin.end()
  await new Promise((resolve) => child.once("close", resolve))
  return median(times)
}

const sshRows = async (support, scratch) => {
  const problem = support.sshdProblem()
  if (problem !== undefined) {
    process.stderr.write(`bench remote: ssh skipped (${problem})\n`)
    return []
  }
  const sshd = await support.startSshd()
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-ssh-"))
  const { runtime, call } = open(home, { backend: "ssh", ...sshd.terminal })
  // Same run: a session per command (terminal.persistent_shell: false), as before persistent shells.
  const perCommand = open(join(home, "per-command"), { backend: "ssh", ...sshd.terminal, persistent_shell: false })
  // The baseline: the same round trip on a multiplexed connection of its own, without the runtime.
  const control = join(scratch, "raw-master")
  const base = [
    "-o", `ControlPath=${control}`, ...sshd.terminal.ssh_options.flatMap((o) => ["-o", o]),
    "-o", "BatchMode=yes", "-p", String(sshd.port), "-i", sshd.key, "-l", sshd.user
  ]
  try {
    await new Promise((resolve, reject) => {
      const master = spawn("ssh", [...base, "-o", "ControlMaster=yes", "-o", "ControlPersist=60", "-N", sshd.host], { stdio: "ignore" })
      master.once("error", reject)
      master.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`ssh master exited ${code}`))))
    })
    const { tool, raw } = await compare(call, () => timed("ssh", [...base, "-T", sshd.host, "echo hi"]), 200, 20)
    const session = await compare(perCommand.call, () => timed("ssh", [...base, "-T", sshd.host, "echo hi"]), 100, 10)
    // Back to back, against the floor of one round trip on an open channel: a raw `bash` over the same kind of
    // multiplexed connection, sent `echo hi` lines. (Interleaved with 30 ms spawns, every call also pays to wake the
    // vCPUs that went idle in between.)
    const floor = await channelRoundTrips(base, sshd.host, 200)
    const backToBack = []
    for (let i = 0; i < 200; i++) {
      const t = performance.now()
      await call({ command: "echo hi" })
      backToBack.push(performance.now() - t)
    }
    return [
      {
        name: "terminal `echo hi` (ssh on loopback, persistent shell, back to back, median)",
        value: median(backToBack),
        unit: "ms",
        baseline: floor,
        baselineName: "raw `echo hi` round trip on an open ssh channel to bash",
        ratio: median(backToBack) / floor,
        target: "≤ 3 ms"
      },
      {
        name: "terminal `echo hi` (ssh on loopback, persistent shell, median)",
        value: tool,
        unit: "ms",
        baseline: raw,
        baselineName: "raw ssh on a multiplexed connection",
        ratio: tool / raw,
        target: "≤ 3 ms"
      },
      {
        name: "terminal `echo hi` (ssh on loopback, a session per command, median)",
        value: session.tool,
        unit: "ms",
        baseline: session.raw,
        baselineName: "raw ssh on a multiplexed connection",
        ratio: session.tool / session.raw,
        target: "≤ 15 ms"
      }
    ]
  } finally {
    await perCommand.runtime.dispose()
    await runtime.dispose()
    await new Promise((resolve) => spawn("ssh", ["-o", `ControlPath=${control}`, "-O", "exit", sshd.host], { stdio: "ignore" }).once("close", resolve))
    await sshd.stop()
    rmSync(home, { recursive: true, force: true })
  }
}

const containerRows = async (support) => {
  const problem = support.preparePodman()
  if (problem !== undefined) {
    process.stderr.write(`bench remote: container skipped (${problem})\n`)
    return []
  }
  const home = mkdtempSync(join(tmpdir(), "hermes-effect-bench-container-"))
  const local = open(join(home, "local"), { backend: "local" })
  const container = open(join(home, "container"), { backend: "container", ...support.podmanTerminal })
  try {
    const localMs = await compare(local.call, () => timed("bash", ["-c", "echo hi"]), 100, 10)
    // podman names the container's host after its short id.
    const id = (await container.call({ command: "hostname" })).output
    const { tool, raw } = await compare(container.call, () => timed("podman", ["exec", id, "bash", "-c", "echo hi"]), 40, 5)
    return [
      {
        name: "terminal `echo hi` (container, podman exec, median)",
        value: tool,
        unit: "ms",
        baseline: raw,
        baselineName: "raw podman exec",
        ratio: tool / raw,
        target: "reported next to local"
      },
      {
        name: "terminal `echo hi` (local, same run as the container)",
        value: localMs.tool,
        unit: "ms",
        baseline: localMs.raw,
        baselineName: "raw spawn bash -c",
        ratio: localMs.tool / localMs.raw
      }
    ]
  } finally {
    await container.runtime.dispose()
    await local.runtime.dispose()
    rmSync(home, { recursive: true, force: true })
  }
}

export const run = async () => {
  const scratch = mkdtempSync(join(tmpdir(), "hes-bench-"))
  try {
    const rows = [...await sshRows(await loadSupport("sshd", scratch), scratch)]
    rows.push(...await containerRows(await loadSupport("container", scratch)))
    return rows
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
