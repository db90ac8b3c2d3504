/**
 * A TerminalEnvironment for backends that run `bash` on this machine (local,
 * and sandbox through bwrap): a fresh shell per command in its own process
 * group, cwd and exports carried over through `shellScript.ts`, bounded
 * output capture, and file access through a host-path mapping the backend
 * supplies. The environment's scope owns every process it starts.
 */
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs"
import { isAbsolute, resolve as resolvePath } from "node:path"
import { Deferred, Effect, Exit, Mailbox, Option } from "effect"
import type { Scope } from "effect"
import type {
  ApprovedCommand,
  RunningProcess,
  RunOptions,
  RunResult,
  SpawnOptions,
  TerminalEnvironment
} from "../../services/TerminalBackend.js"
import { EnvironmentFileError, TerminalError } from "../../services/TerminalBackend.js"
import { DEFAULT_CAPTURE_BYTES, makeBoundedCapture } from "./boundedCapture.js"
import { makeSnapshotReaders } from "./snapshotReaders.js"
import { makeHostFiles } from "./environmentFiles.js"
import { startChild } from "./child.js"
import type { ChildHandle } from "./child.js"
import { terminateGroup } from "./processGroup.js"
import { cwdResultFile, envResultFile, shellArgs, snapshotScript } from "./shellScript.js"

export interface ShellEnvironmentConfig {
  readonly kind: string
  readonly isolated: boolean
  readonly taskId: string
  /** Starting and fallback directory, as commands see it. */
  readonly home: string
  /**
   * Host directory for the export snapshots commands source: written only by the runtime
   * (read-only to commands where the backend protects it). Commands must see it at the same path.
   */
  readonly stateDir: string
  /** Host directory where each command's wrapper writes its cwd and exports (writable by commands, same path inside). */
  readonly outDir: string
  /** Variables every command starts with (already filtered). */
  readonly env: Readonly<Record<string, string>>
  /** The program and arguments that run `bash <bashArgs>` (bwrap or nsenter wraps it). */
  readonly launch: (bashArgs: ReadonlyArray<string>, options: { readonly pty: boolean }) => Effect.Effect<{
    readonly file: string
    readonly args: ReadonlyArray<string>
  }, TerminalError>
  /** Where a path as commands see it lives on the host. */
  readonly hostPath: (path: string) => string
  /** `hostPath` is the identity (commands see the host's own files), which allows faster symlink resolution. */
  readonly hostPathIsIdentity?: boolean | undefined
  /** Why writing this path (as commands see it) is refused, or undefined when allowed. */
  readonly writeDenied: (path: string) => string | undefined
}

/** How long to wait for a killed process to report its exit before giving up on it. */
const EXIT_AFTER_KILL_MS = 3000

const errnoOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

const fileError = (path: string, error: unknown): EnvironmentFileError => {
  const code = errnoOf(error)
  const detail = error instanceof Error ? error.message : String(error)
  const reason = code === "ENOENT" || code === "ENOTDIR"
    ? "NotFound"
    : code === "EISDIR"
    ? "IsDirectory"
    : code === "EACCES" || code === "EPERM" || code === "EROFS"
    ? "Denied"
    : "Io"
  const message = reason === "NotFound" ? `No such file or directory: ${path}` : reason === "IsDirectory" ? `Is a directory: ${path}` : detail
  return new EnvironmentFileError({ path, reason, message })
}

/**
 * Wait for a deferred at most `ms` of real time. Runs inside finalizers: the
 * racers are made interruptible explicitly, or the loser (inheriting the
 * finalizer's uninterruptibility) would hold the race until it finished too.
 */
const awaitReal = <A>(deferred: Deferred.Deferred<A>, ms: number): Effect.Effect<Option.Option<A>> =>
  Effect.raceFirst(
    Effect.interruptible(Effect.map(Deferred.await(deferred), Option.some)),
    Effect.interruptible(Effect.async<Option.Option<A>>((resume) => {
      const timer = setTimeout(() => resume(Effect.succeedNone), ms)
      return Effect.sync(() => clearTimeout(timer))
    }))
  )

export const makeShellEnvironment = (config: ShellEnvironmentConfig): Effect.Effect<TerminalEnvironment, TerminalError, Scope.Scope> =>
  Effect.gen(function*() {
    yield* Effect.try({
      try: () => {
        mkdirSync(config.stateDir, { recursive: true, mode: 0o700 })
        mkdirSync(config.outDir, { recursive: true, mode: 0o700 })
      },
      catch: (e) => new TerminalError({ message: `cannot create environment state: ${e instanceof Error ? e.message : String(e)}` })
    })
    let cwd = config.home
    let active = 0
    let runs = 0
    // The newest export snapshot (and its variables), and how many starting commands still read each older one.
    let snapshot: string | undefined
    let snapshotVariables: Readonly<Record<string, string>> | undefined
    let snapshots = 0
    const { pin, unpin, discard: dropSnapshot } = makeSnapshotReaders(
      () => snapshot,
      (file) => {
        try {
          unlinkSync(file)
        } catch {
          // already gone
        }
      }
    )
    const live = new Set<number>()
    const envHome = config.env["HOME"] ?? config.home

    // Closing the environment stops everything still running in it, then drops its state.
    yield* Effect.addFinalizer(() =>
      Effect.forEach([...live], (pgid) => terminateGroup(pgid), { concurrency: "unbounded", discard: true }).pipe(
        Effect.zipRight(Effect.sync(() => {
          rmSync(config.stateDir, { recursive: true, force: true })
          rmSync(config.outDir, { recursive: true, force: true })
        }))
      )
    )

    /** Read what the command left behind: its cwd, and its exports as the next snapshot. */
    const collectState = (runId: string, startedFrom: string | undefined, trackCwd: boolean) =>
      Effect.sync(() => {
        const cwdFile = cwdResultFile(config.outDir, runId)
        const envFile = envResultFile(config.outDir, runId)
        let complete = false
        try {
          const next = readFileSync(cwdFile, "utf8").trim()
          complete = true
          // A command given its own directory does not move the tracked one.
          if (trackCwd && next.length > 0) cwd = next
          unlinkSync(cwdFile)
        } catch {
          // killed before it could write: keep the previous cwd
        }
        // The trap writes the exports first and the cwd second: only a run that got as far
        // as the cwd left a complete report. A partial one is dropped.
        let report: string | undefined
        try {
          report = readFileSync(envFile, "utf8")
          unlinkSync(envFile)
        } catch {
          // no report
        }
        if (complete && report !== undefined) {
          try {
            const next = snapshotScript(report)
            const file = `${config.stateDir}/s${++snapshots}.sh`
            writeFileSync(file, next.script, { mode: 0o600 })
            const previous = snapshot
            snapshot = file
            snapshotVariables = next.variables
            if (previous !== undefined) dropSnapshot(previous)
          } catch {
            // the state directory is gone (closing): keep the previous snapshot
          }
        }
        unpin(startedFrom)
      })

    const track = (pid: number) => {
      live.add(pid)
      active++
    }
    const untrack = (pid: number) => {
      if (live.delete(pid)) active--
    }

    const begin = (
      command: ApprovedCommand,
      options: SpawnOptions,
      io: { readonly persist: boolean; readonly stdinPipe: boolean },
      events: { readonly onData: (chunk: Buffer) => void; readonly onExit: (code: number) => void }
    ) => {
      const runId = `r${++runs}`
      const startedFrom = snapshot
      pin(startedFrom)
      const explicit = options.cwd
      const args = shellArgs(
        {
          outDir: config.outDir,
          snapshot: snapshot,
          runId,
          cwd: explicit ?? cwd,
          fallbackCwd: explicit === undefined ? config.home : undefined,
          env: options.env,
          persist: io.persist
        },
        command.text
      )
      const pty = options.pty === true
      return config.launch(args, { pty }).pipe(
        Effect.flatMap(({ file, args: argv }) =>
          startChild({ file, args: argv, cwd: config.home, env: config.env, pty, stdin: io.stdinPipe }, events)
        ),
        Effect.map((child) => {
          track(child.pid)
          return { child, runId, startedFrom }
        }),
        Effect.tapError(() => Effect.sync(() => unpin(startedFrom)))
      )
    }

    /** Make sure the process is gone: kill its group when still running, and wait (bounded) for the exit. */
    const ensureDead = (child: ChildHandle, exited: Deferred.Deferred<number>) =>
      Effect.gen(function*() {
        if (yield* Deferred.isDone(exited)) return
        yield* terminateGroup(child.pid)
        yield* awaitReal(exited, EXIT_AFTER_KILL_MS)
      })

    const run = (command: ApprovedCommand, options: RunOptions = {}): Effect.Effect<RunResult, TerminalError> => {
      const capture = makeBoundedCapture(options.maxOutputBytes ?? DEFAULT_CAPTURE_BYTES)
      return Effect.flatMap(Deferred.make<number>(), (exited) =>
        Effect.acquireUseRelease(
          Effect.tap(
            begin(command, options, { persist: true, stdinPipe: options.stdin !== undefined }, {
              onData: capture.push,
              onExit: (code) => Deferred.unsafeDone(exited, Exit.succeed(code))
            }),
            ({ child }) =>
              Effect.sync(() => {
                if (options.stdin !== undefined) {
                  child.write(options.stdin)
                  child.end()
                }
              })
          ),
          ({ child }) =>
            Effect.gen(function*() {
              type Ending = { readonly _tag: "Exit"; readonly code: number } | { readonly _tag: "Timeout" } | { readonly _tag: "Interrupt" }
              const racers: Array<Effect.Effect<Ending>> = [
                Effect.map(Deferred.await(exited), (code): Ending => ({ _tag: "Exit", code }))
              ]
              if (options.timeoutMs !== undefined) {
                racers.push(Effect.as(Effect.sleep(options.timeoutMs), { _tag: "Timeout" } as const))
              }
              if (options.interrupt !== undefined) racers.push(Effect.as(options.interrupt, { _tag: "Interrupt" } as const))
              const ending = yield* Effect.raceAll(racers)
              if (ending._tag !== "Exit") yield* ensureDead(child, exited)
              return {
                output: capture.result(),
                exitCode: ending._tag === "Exit" ? ending.code : ending._tag === "Timeout" ? 124 : 130,
                timedOut: ending._tag === "Timeout",
                interrupted: ending._tag === "Interrupt",
                cwd
              }
            }),
          ({ child, runId, startedFrom }) =>
            ensureDead(child, exited).pipe(
              Effect.zipRight(collectState(runId, startedFrom, options.cwd === undefined)),
              Effect.ensuring(Effect.sync(() => untrack(child.pid)))
            )
        ).pipe(
          // The cwd after the command is only known once its state is collected.
          Effect.map((result) => ({ ...result, cwd }))
        ))
    }

    const spawn = (command: ApprovedCommand, options: SpawnOptions = {}): Effect.Effect<RunningProcess, TerminalError, Scope.Scope> =>
      Effect.gen(function*() {
        const mailbox = yield* Mailbox.make<string>()
        const exited = yield* Deferred.make<number>()
        const decoder = new TextDecoder("utf-8")
        let settled = false
        const settle = (pid: number, startedFrom: string | undefined) => {
          if (settled) return
          settled = true
          untrack(pid)
          unpin(startedFrom)
        }
        const { child, startedFrom } = yield* Effect.acquireRelease(
          // Background processes keep a stdin pipe so `process write/submit/close` can reach them.
          begin(command, options, { persist: false, stdinPipe: true }, {
            onData: (chunk) => {
              const text = decoder.decode(chunk, { stream: true })
              if (text.length > 0) mailbox.unsafeOffer(text)
            },
            onExit: (code) => {
              const rest = decoder.decode()
              if (rest.length > 0) mailbox.unsafeOffer(rest)
              mailbox.unsafeDone(Exit.void)
              Deferred.unsafeDone(exited, Exit.succeed(code))
            }
          }),
          ({ child, startedFrom }) => Effect.ensuring(ensureDead(child, exited), Effect.sync(() => settle(child.pid, startedFrom)))
        )
        // A process that ends on its own no longer keeps the environment busy.
        yield* Effect.forkScoped(Effect.zipRight(Deferred.await(exited), Effect.sync(() => settle(child.pid, startedFrom))))
        const stdinError = () => new TerminalError({ message: "Process stdin not available (stdin closed)" })
        const handle: RunningProcess = {
          pid: child.pid,
          pty: child.pty,
          output: Mailbox.toStream(mailbox),
          exitCode: Deferred.await(exited),
          isRunning: Effect.map(Deferred.isDone(exited), (done) => !done),
          write: (input) => (child.write(input.text) ? Effect.void : Effect.fail(stdinError())),
          closeStdin: Effect.suspend(() => (child.end() ? Effect.void : Effect.fail(stdinError()))),
          kill: Effect.suspend(() => ensureDead(child, exited))
        }
        return handle
      })

    const resolve = (path: string): string => {
      if (path === "~") return envHome
      if (path.startsWith("~/")) return resolvePath(envHome, path.slice(2))
      return isAbsolute(path) ? resolvePath(path) : resolvePath(cwd, path)
    }

    /** Absolute but not normalised: `..` after a symlink must be resolved against the link's target. */
    const rawAbsolute = (path: string): string =>
      path === "~" ? envHome : path.startsWith("~/") ? `${envHome}/${path.slice(2)}` : isAbsolute(path) ? path : `${cwd}/${path}`

    const files = makeHostFiles({
      hostPath: config.hostPath,
      identity: config.hostPathIsIdentity === true,
      writeDenied: config.writeDenied,
      fileError
    })

    const environment: TerminalEnvironment = {
      kind: config.kind,
      isolated: config.isolated,
      taskId: config.taskId,
      home: config.home,
      cwd: Effect.sync(() => cwd),
      active: Effect.sync(() => active),
      variables: Effect.sync(() => snapshotVariables ?? config.env),
      run,
      spawn,
      resolvePath: (path) => Effect.sync(() => resolve(path)),
      readFile: (path, options) => files.readFile(resolve(path), options),
      readDir: (path) => files.readDir(resolve(path)),
      realPath: (path) => files.realPath(rawAbsolute(path)),
      readLink: (path) => files.readLink(resolve(path)),
      rename: (from, to) => files.rename(resolve(from), resolve(to)),
      remove: (path) => files.remove(resolve(path)),
      // Regular files only, never into /dev, /proc or /sys: see environmentFiles.ts.
      writeFile: (path, data, options) =>
        options?.atomic === true ? files.writeAtomic(resolve(path), data) : files.write(resolve(path), data),
      stat: (path) => files.stat(resolve(path))
    }
    return environment
  })
