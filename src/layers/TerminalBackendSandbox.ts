/**
 * The sandbox backend: each command runs under bubblewrap with the host's
 * root read-only, a per-task writable workspace and home, a per-task private
 * /tmp, its own PID namespace, no network unless `terminal.sandbox_network`
 * is true, and `--die-with-parent`. It declares itself isolated.
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
import { Config } from "../services/Config.js"
import { TerminalBackend, TerminalError } from "../services/TerminalBackend.js"
import { childEnv } from "./terminal/childEnv.js"
import { terminalSettings } from "./terminal/settings.js"
import { makeShellEnvironment } from "./terminal/shellEnvironment.js"

/** A directory name for a task id: readable prefix plus a hash, never a path. */
const taskDirName = (taskId: string): string => {
  const readable = taskId.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 40).replace(/^\.+/, "_")
  return `${readable}-${createHash("sha256").update(taskId).digest("hex").slice(0, 10)}`
}

const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`)

export interface SandboxLayout {
  readonly workspace: string
  readonly home: string
  readonly tmp: string
  readonly state: string
}

/** bwrap arguments that run `bash <bashArgs>` in the sandbox. */
export const bwrapArgs = (
  layout: SandboxLayout,
  network: boolean,
  bashArgs: ReadonlyArray<string>
): ReadonlyArray<string> => [
  "--die-with-parent",
  "--unshare-pid",
  ...(network ? [] : ["--unshare-net"]),
  "--ro-bind", "/", "/",
  "--dev", "/dev",
  "--proc", "/proc",
  // /tmp first: the binds below may live under the host's /tmp and must stay visible.
  "--bind", layout.tmp, "/tmp",
  "--bind", layout.workspace, layout.workspace,
  "--bind", layout.home, layout.home,
  "--bind", layout.state, layout.state,
  "--",
  "bash",
  ...bashArgs
]

/** Whether bwrap can build a sandbox here (installed, and namespaces permitted). */
const probeBwrap: Effect.Effect<boolean> = Effect.async<boolean>((resume) => {
  execFile(
    "bwrap",
    ["--die-with-parent", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"],
    { timeout: 10_000 },
    (error) => resume(Effect.succeed(error === null))
  )
})

export const TerminalBackendSandbox: Layer.Layer<TerminalBackend, never, Config> = Layer.effect(
  TerminalBackend,
  Effect.gen(function*() {
    const config = yield* Config
    const available = yield* Effect.cached(probeBwrap)
    return TerminalBackend.of({
      kind: "sandbox",
      isolated: true,
      available,
      makeEnvironment: (spec) =>
        Effect.gen(function*() {
          const settings = terminalSettings(yield* config.current)
          const root = resolve(settings.sandboxDir ?? config.home.workspaceDir, taskDirName(spec.taskId))
          const layout: SandboxLayout = {
            workspace: join(root, "workspace"),
            home: join(root, "home"),
            tmp: join(root, "tmp"),
            state: join(root, "state")
          }
          yield* Effect.try({
            try: () => {
              for (const dir of [layout.workspace, layout.home, layout.tmp]) mkdirSync(dir, { recursive: true })
            },
            catch: (e) => new TerminalError({ message: `cannot create the sandbox workspace: ${e instanceof Error ? e.message : String(e)}` })
          })
          const writable = [layout.workspace, layout.home, layout.state]
          return yield* makeShellEnvironment({
            kind: "sandbox",
            isolated: true,
            taskId: spec.taskId,
            home: spec.cwd ?? layout.workspace,
            stateDir: layout.state,
            env: { ...childEnv(process.env, settings.envPassthrough), HOME: layout.home, TMPDIR: "/tmp" },
            launch: (bashArgs) => ({ file: "bwrap", args: bwrapArgs(layout, settings.sandboxNetwork, bashArgs) }),
            // Binds first (they may sit under the host's /tmp), then the private /tmp.
            hostPath: (path) =>
              writable.some((dir) => within(path, dir)) ? path : within(path, "/tmp") ? join(layout.tmp, path.slice(4)) : path,
            writeDenied: (path) =>
              writable.some((dir) => within(path, dir)) || within(path, "/tmp")
                ? undefined
                : `Permission denied: the sandbox can only write inside its workspace (${layout.workspace}), its home and /tmp`
          })
        })
    })
  })
)
