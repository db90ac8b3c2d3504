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
import { mkdirSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { Effect, Layer } from "effect"
import { Config } from "../../../services/Config.js"
import { TerminalBackend, TerminalError } from "../../../services/TerminalBackend.js"
import { childEnv } from "../childEnv.js"
import { makeRunFolder, sweepRuns } from "../runState.js"
import type { RunFolder } from "../runState.js"
import { makeShellEnvironment } from "../shellEnvironment.js"

/** A directory name for a task id: readable prefix plus a hash, never a path. */
const taskDirName = (taskId: string): string => {
  const readable = taskId.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 40).replace(/^\.+/, "_")
  return `${readable}-${createHash("sha256").update(taskId).digest("hex").slice(0, 10)}`
}

const within = (path: string, dir: string) => dir === "/" || path === dir || path.startsWith(`${dir}/`)

export interface SandboxLayout {
  readonly workspace: string
  readonly home: string
  readonly tmp: string
  /** The task's export snapshots: read-only inside. */
  readonly state: string
  /** Where its commands report their cwd and exports: writable inside. */
  readonly out: string
}

/** What of the host's homes the sandbox sees: nothing under `hidden`, except `binds` (read-only). */
export interface SandboxView {
  /** Existing directories covered by an empty tmpfs (/root, /home, $HOME, the runtime's home). */
  readonly hidden: ReadonlyArray<string>
  /** Existing host paths bound back read-only (`terminal.sandbox_home_binds`). */
  readonly binds: ReadonlyArray<string>
  /** The runtime's home, hidden again after the binds (a bind of /root must not reveal it). */
  readonly runtimeHome: string | undefined
}

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

const exists = (path: string): boolean => {
  try {
    statSync(path)
    return true
  } catch {
    return false
  }
}

/**
 * Homes to hide: /root, /home and $HOME when elsewhere, plus the runtime's
 * home. Anything under /tmp is skipped: the sandbox's /tmp is private anyway.
 */
export const sandboxView = (runtimeHome: string, binds: ReadonlyArray<string>, userHome = process.env["HOME"] ?? homedir()): SandboxView => {
  const candidates = ["/root", "/home", resolve(userHome)]
  const hidden = [...new Set(candidates)].filter((dir) => dir !== "/" && !within(dir, "/tmp") && isDirectory(dir))
  const home = resolve(runtimeHome)
  return {
    hidden,
    binds: binds.map((path) => resolve(path.startsWith("~/") ? join(homedir(), path.slice(2)) : path)).filter(exists),
    runtimeHome: home !== "/" && !within(home, "/tmp") && isDirectory(home) ? home : undefined
  }
}

/** bwrap arguments that run `bash <bashArgs>` in the sandbox. */
export const bwrapArgs = (
  layout: SandboxLayout,
  network: boolean,
  bashArgs: ReadonlyArray<string>,
  view: SandboxView = { hidden: [], binds: [], runtimeHome: undefined }
): ReadonlyArray<string> => [
  "--die-with-parent",
  "--unshare-pid",
  ...(network ? [] : ["--unshare-net"]),
  "--ro-bind", "/", "/",
  "--dev", "/dev",
  "--proc", "/proc",
  // Homes go empty (read-only at the end), opted-in paths come back read-only, the runtime's home stays out of sight.
  ...view.hidden.flatMap((dir) => ["--tmpfs", dir]),
  ...view.binds.flatMap((path) => ["--ro-bind", path, path]),
  ...(view.runtimeHome === undefined ? [] : ["--tmpfs", view.runtimeHome]),
  // /tmp first: the binds below may live under the host's /tmp and must stay visible.
  "--bind", layout.tmp, "/tmp",
  "--bind", layout.workspace, layout.workspace,
  "--bind", layout.home, layout.home,
  "--ro-bind", layout.state, layout.state,
  "--bind", layout.out, layout.out,
  // Last: mount points for the binds above may have been made in these.
  ...[...view.hidden, ...(view.runtimeHome === undefined ? [] : [view.runtimeHome])].flatMap((dir) => ["--remount-ro", dir]),
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
          const writable = [layout.workspace, layout.home, layout.out]
          const visible = [...writable, layout.state, ...view.binds]
          // What commands cannot see, file tools cannot read either: it maps to a path that does not exist.
          const hiddenHere = (path: string) =>
            !visible.some((dir) => within(path, dir)) &&
            (view.runtimeHome !== undefined && within(path, view.runtimeHome) || view.hidden.some((dir) => within(path, dir)))
          const unseen = join(root, "unseen")
          return yield* makeShellEnvironment({
            kind: "sandbox",
            isolated: true,
            taskId: spec.taskId,
            home: spec.cwd ?? layout.workspace,
            stateDir: layout.state,
            outDir: layout.out,
            env: { ...childEnv(process.env, settings.env_passthrough, spec.env), HOME: layout.home, TMPDIR: "/tmp" },
            launch: (bashArgs) => Effect.succeed({ file: "bwrap", args: bwrapArgs(layout, settings.sandbox_network, bashArgs, view) }),
            // Binds first (they may sit under the host's /tmp), then the private /tmp.
            hostPath: (path) =>
              visible.some((dir) => within(path, dir))
                ? path
                : within(path, "/tmp")
                ? join(layout.tmp, path.slice(4))
                : hiddenHere(path)
                ? join(unseen, path)
                : path,
            writeDenied: (path) =>
              writable.some((dir) => within(path, dir)) || within(path, "/tmp")
                ? undefined
                : `Permission denied: the sandbox can only write inside its workspace (${layout.workspace}), its home and /tmp`
          })
        })
    })
  })
)
