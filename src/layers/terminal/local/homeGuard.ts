/**
 * `terminal.protect_home` for the local backend: commands see the host as it
 * is, except that the runtime's home (config, allowlist, state, skills) is
 * read-only, apart from the run's report directory.
 *
 * bubblewrap builds one mount namespace per backend (`--dev-bind / /`, the
 * home re-bound read-only) held open by a `sleep` process, and every command
 * enters it with `nsenter --mount` before exec'ing bash. Entering costs one
 * exec (~1 ms); starting bwrap for each command cost ~3.5 ms and, worse, put
 * bwrap's monitor process in the command's process group: a Ctrl-C or
 * SIGTERM meant for the command killed the monitor, and the command with it.
 * With nsenter the command is the process we start, in our pid, user and
 * network namespaces, its own process group, its own terminal.
 *
 * Limits: bwrap marks every mount nosuid (set-uid programs such as sudo do not
 * gain privileges; root is unaffected), mounts made on the host after the
 * namespace was built are not seen, and a root command can still unmount the
 * read-only bind (approval is what stops `umount`/`mount`/`nsenter`).
 *
 * When bwrap or nsenter is missing or not permitted, the backend runs
 * commands as before and says so once at debug level. If the namespace
 * disappears later (its holder was killed) it is built again; if that fails,
 * commands fail rather than run unprotected.
 */
import { execFile, spawn } from "node:child_process"
import { statSync } from "node:fs"
import { Effect } from "effect"
import { TerminalError } from "../../../services/TerminalBackend.js"

interface Holder {
  readonly monitor: number
  readonly child: number
  /** The namespace's inode, to tell it from whatever later reuses the pid. */
  readonly mountNs: number
  /** nsenter arguments that enter it. */
  readonly enter: ReadonlyArray<string>
}

export interface HomeGuard {
  /** The program and arguments that run `bash <bashArgs>` with the home read-only. */
  readonly launch: (bashArgs: ReadonlyArray<string>) => Effect.Effect<{ readonly file: string; readonly args: ReadonlyArray<string> }, TerminalError>
  readonly close: () => void
}

const inode = (path: string): number | undefined => {
  try {
    return statSync(path).ino
  } catch {
    return undefined
  }
}

const HOLDER_TIMEOUT_MS = 10_000

/** Start bwrap holding a namespace with `readOnly` bound read-only and `writable` (inside it) bound writable. */
const startHolder = (readOnly: string, writable: string): Effect.Effect<Holder, TerminalError> =>
  Effect.async<Holder, TerminalError>((resume) => {
    const fail = (message: string) => resume(Effect.fail(new TerminalError({ message: `cannot protect the home: ${message}` })))
    const child = spawn("bwrap", [
      "--die-with-parent",
      "--dev-bind", "/", "/",
      "--ro-bind", readOnly, readOnly,
      "--bind", writable, writable,
      // The pid comes from inside: once it is printed, every mount is in place.
      "--", "sh", "-c", "echo $$; exec sleep infinity"
    ], { detached: true, stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" } })
    let info = ""
    let errors = ""
    let settled = false
    const timer = setTimeout(() => finish(), HOLDER_TIMEOUT_MS)
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.stderr?.destroy()
      child.stdout?.destroy()
      const kid = /^\d+\n/.test(info) ? Number.parseInt(info, 10) : NaN
      const mountNs = Number.isInteger(kid) ? inode(`/proc/${kid}/ns/mnt`) : undefined
      if (child.pid === undefined || mountNs === undefined) {
        if (child.pid !== undefined) child.kill("SIGKILL")
        return fail(errors.trim() || "bwrap did not start")
      }
      child.unref()
      // A holder in another user namespace (bwrap without privileges) is entered through it.
      const userNs = inode(`/proc/${kid}/ns/user`)
      const enter = userNs !== undefined && userNs !== inode("/proc/self/ns/user")
        ? [`--user=/proc/${kid}/ns/user`, "--preserve-credentials", `--mount=/proc/${kid}/ns/mnt`]
        : [`--mount=/proc/${kid}/ns/mnt`]
      resume(Effect.succeed({ monitor: child.pid, child: kid, mountNs, enter }))
    }
    child.once("error", (error) => {
      errors += error.message
      finish()
    })
    child.once("exit", () => finish())
    child.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString("utf8")
    })
    child.stdout?.on("data", (chunk: Buffer) => {
      info += chunk.toString("utf8")
      if (info.includes("\n")) finish()
    })
  })

const stopHolder = (holder: Holder) => {
  for (const pid of [holder.child, holder.monitor]) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // already gone
    }
  }
}

const holderAlive = (holder: Holder) => inode(`/proc/${holder.child}/ns/mnt`) === holder.mountNs

/** Whether commands entering the namespace really cannot write `readOnly` (and nsenter works). */
const verify = (holder: Holder, readOnly: string): Effect.Effect<boolean> =>
  Effect.async<boolean>((resume) => {
    execFile("nsenter", [...holder.enter, "--", "bash", "-c", `test -d "$1" && ! test -w "$1"`, "bash", readOnly], { timeout: HOLDER_TIMEOUT_MS }, (error) =>
      resume(Effect.succeed(error === null)))
  })

/**
 * A guard for `home` (read-only) with `writable` (a directory inside it) left
 * writable. Builds the namespace now and checks that a command in it cannot
 * write the home; fails when that is not possible here.
 */
export const makeHomeGuard = (home: string, writable: string): Effect.Effect<HomeGuard, TerminalError> =>
  Effect.gen(function*() {
    let holder = yield* startHolder(home, writable)
    if (!(yield* verify(holder, home))) {
      stopHolder(holder)
      return yield* Effect.fail(new TerminalError({ message: "cannot protect the home: nsenter cannot enter bwrap's namespace" }))
    }
    let closed = false
    const lock = yield* Effect.makeSemaphore(1)
    const current: Effect.Effect<Holder, TerminalError> = lock.withPermits(1)(Effect.suspend(() => {
      if (closed) return Effect.fail(new TerminalError({ message: "the terminal backend is closed" }))
      if (holderAlive(holder)) return Effect.succeed(holder)
      stopHolder(holder)
      return Effect.tap(startHolder(home, writable), (fresh) => Effect.sync(() => {
        holder = fresh
      }))
    }))
    return {
      launch: (bashArgs) =>
        Effect.map(current, (h) => ({ file: "nsenter", args: [...h.enter, "--", "bash", ...bashArgs] })),
      close: () => {
        closed = true
        stopHolder(holder)
      }
    }
  })
