/**
 * The sandbox backend's transport: `bash` on this machine under bubblewrap
 * (`../hostTransport.ts`), and the mapping between paths as sandboxed
 * commands see them and where they live on the host, so the file tools see
 * the sandbox's view: its private /tmp, hidden homes, writable workspace only.
 */
import { statSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { Effect } from "effect"
import type { Scope } from "effect"
import type { TerminalError } from "../../../services/TerminalBackend.js"
import { makeHostTransport } from "../hostTransport.js"
import type { Transport } from "../transport.js"

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

export interface SandboxTransportConfig {
  readonly layout: SandboxLayout
  readonly view: SandboxView
  readonly network: boolean
  /** Starting directory (the workspace unless the task names one). */
  readonly home: string
  /** Variables every command starts with (already filtered). */
  readonly env: Readonly<Record<string, string>>
  /** Where paths the sandbox hides map to: a host path that does not exist. */
  readonly unseen: string
}

export const makeSandboxTransport = ({ env, home, layout, network, unseen, view }: SandboxTransportConfig): Effect.Effect<Transport, TerminalError, Scope.Scope> => {
  const writable = [layout.workspace, layout.home, layout.out]
  const visible = [...writable, layout.state, ...view.binds]
  // What commands cannot see, file tools cannot read either: it maps to a path that does not exist.
  const hiddenHere = (path: string) =>
    !visible.some((dir) => within(path, dir)) &&
    (view.runtimeHome !== undefined && within(path, view.runtimeHome) || view.hidden.some((dir) => within(path, dir)))
  return makeHostTransport({
    home,
    stateDir: layout.state,
    outDir: layout.out,
    env: { ...env, HOME: layout.home, TMPDIR: "/tmp" },
    launch: (bashArgs) => Effect.succeed({ file: "bwrap", args: bwrapArgs(layout, network, bashArgs, view) }),
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
}
