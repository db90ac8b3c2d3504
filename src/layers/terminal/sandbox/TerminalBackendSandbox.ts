/**
 * The sandbox backend: each command runs under bubblewrap with the host's
 * root read-only, a per-task writable workspace and home, a per-task private
 * /tmp, its own PID namespace, no network unless `terminal.sandbox_network`
 * is true, and `--die-with-parent`. It declares itself isolated.
 *
 * The host's homes (/root, /home, $HOME) are empty read-only tmpfs inside,
 * except host paths listed in `terminal.sandbox_home_binds` (bound back
 * read-only); the runtime's home is hidden too (`terminal.protect_home`),
 * bar the task's own workspace and state when they live in it. The file
 * tools see the same view.
 *
 * /tmp is a per-task directory rather than a tmpfs: every command is a fresh
 * bwrap, and a tmpfs would lose what the previous command left in /tmp.
 *
 * A PTY inside the sandbox is bwrap's console (/dev/console): the host's
 * /dev/pts is not exposed, so a sandboxed command cannot reach other terminals.
 */
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { Effect, Layer } from "effect"
import { Config } from "../../../services/Config.js"
import { TerminalBackend, TerminalError } from "../../../services/TerminalBackend.js"
import { childEnv } from "../childEnv.js"
import { makeRunFolder, sweepRuns } from "../runState.js"
import type { RunFolder } from "../runState.js"
import { makeEnvironment } from "../engine.js"
import { makeSandboxTransport, sandboxView } from "./sandboxTransport.js"
import type { SandboxLayout } from "./sandboxTransport.js"

/** A directory name for a task id: readable prefix plus a hash, never a path. */
const taskDirName = (taskId: string): string => {
  const readable = taskId.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 40).replace(/^\.+/, "_")
  return `${readable}-${createHash("sha256").update(taskId).digest("hex").slice(0, 10)}`
}

/** Whether bwrap can build a sandbox here (installed, and namespaces permitted). */
const probeBwrap: Effect.Effect<boolean> = Effect.async<boolean>((resume) => {
  execFile(
    "bwrap",
    ["--die-with-parent", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"],
    { timeout: 10_000 },
    (error) => resume(Effect.succeed(error === null))
  )
})

export const TerminalBackendSandbox: Layer.Layer<TerminalBackend, never, Config> = Layer.scoped(
  TerminalBackend,
  Effect.gen(function*() {
    const config = yield* Config
    const available = yield* Effect.cached(probeBwrap)
    yield* Effect.sync(() => sweepRuns(config.home.root))
    let folder: RunFolder | undefined
    yield* Effect.addFinalizer(() => Effect.sync(() => folder?.remove()))
    return TerminalBackend.of({
      kind: "sandbox",
      isolated: true,
      available,
      makeEnvironment: (spec) =>
        Effect.gen(function*() {
          const settings = (yield* config.current).terminal
          const root = resolve(settings.sandbox_dir ?? config.home.workspaceDir, taskDirName(spec.taskId))
          const dirs = yield* Effect.try({
            try: () => (folder ??= makeRunFolder(config.home.root)).environment(),
            catch: (e) => new TerminalError({ message: `cannot create environment state: ${e instanceof Error ? e.message : String(e)}` })
          })
          const layout: SandboxLayout = {
            workspace: join(root, "workspace"),
            home: join(root, "home"),
            tmp: join(root, "tmp"),
            state: dirs.state,
            out: dirs.out
          }
          yield* Effect.try({
            try: () => {
              for (const dir of [layout.workspace, layout.home, layout.tmp]) mkdirSync(dir, { recursive: true })
            },
            catch: (e) => new TerminalError({ message: `cannot create the sandbox workspace: ${e instanceof Error ? e.message : String(e)}` })
          })
          // protect_home: false leaves the runtime's home visible (read-only, as the rest of the host).
          const view = sandboxView(settings.protect_home ? config.home.root : "/", settings.sandbox_home_binds)
          const transport = yield* makeSandboxTransport({
            layout,
            view,
            network: settings.sandbox_network,
            home: spec.cwd ?? layout.workspace,
            env: childEnv(process.env, settings.env_passthrough, spec.env),
            unseen: join(root, "unseen")
          })
          return yield* makeEnvironment({ kind: "sandbox", isolated: true, taskId: spec.taskId }, transport)
        })
    })
  })
)
