/**
 * The transport for backends whose commands run on this machine (local, and
 * sandbox through bwrap): each command is a `bash` we start ourselves, leader
 * of its own process group (`child.ts`), so stopping it is signalling that
 * group. Its wrapper (`shellScript.ts`) writes its cwd and exports to report
 * files the runtime reads straight from the host; the next snapshot is
 * rebuilt from them in a directory commands cannot write when the backend
 * protects it. Files are the host's, through the path mapping the backend
 * supplies (`environmentFiles.ts`).
 */
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs"
import { Deferred, Effect, Exit, FiberId } from "effect"
import type { Scope } from "effect"
import { EnvironmentFileError, TerminalError } from "../../services/TerminalBackend.js"
import { makeHostFiles } from "./environmentFiles.js"
import { parseExportSnapshot } from "./exportSnapshot.js"
import { startChild } from "./child.js"
import { terminateGroup } from "./processGroup.js"
import { frameable, functionsAfter, launchedFromJob, makePersistentShell, snapshotToSource } from "./persistent/persistentShell.js"
import type { ShellJob } from "./persistent/persistentShell.js"
import { cwdResultFile, envResultFile, shellArgs, snapshotScript } from "./shellScript.js"
import type { Invocation, Launched, Outcome, Transport } from "./transport.js"
import { awaitReal } from "./awaitReal.js"

export interface HostTransportConfig {
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
  readonly launch: (bashArgs: ReadonlyArray<string>, options: { readonly pty: boolean }) => Effect.Effect<Invocation, TerminalError>
  /** Where a path as commands see it lives on the host. */
  readonly hostPath: (path: string) => string
  /** `hostPath` is the identity (commands see the host's own files), which allows faster symlink resolution. */
  readonly hostPathIsIdentity?: boolean | undefined
  /** Why writing this path (as commands see it) is refused, or undefined when allowed. */
  readonly writeDenied: (path: string) => string | undefined
  /** Run foreground commands in one long-lived bash (`persistent/persistentShell.ts`) instead of a bash each. */
  readonly persistent?: boolean | undefined
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


const removeFile = (file: string) => {
  try {
    unlinkSync(file)
  } catch {
    // already gone
  }
}

export const makeHostTransport = (config: HostTransportConfig): Effect.Effect<Transport, TerminalError, Scope.Scope> =>
  Effect.gen(function*() {
    yield* Effect.try({
      try: () => {
        mkdirSync(config.stateDir, { recursive: true, mode: 0o700 })
        mkdirSync(config.outDir, { recursive: true, mode: 0o700 })
      },
      catch: (e) => new TerminalError({ message: `cannot create environment state: ${e instanceof Error ? e.message : String(e)}` })
    })
    // After the engine has stopped what still runs (its finalizer is added later, so it runs first).
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        rmSync(config.stateDir, { recursive: true, force: true })
        rmSync(config.outDir, { recursive: true, force: true })
      })
    )
    let snapshots = 0

    /** Read what the command left behind: its cwd, and its exports as the next snapshot. */
    const collectReports = (runId: string): Outcome => {
      const cwdFile = cwdResultFile(config.outDir, runId)
      const envFile = envResultFile(config.outDir, runId)
      let cwd: string | undefined
      try {
        cwd = readFileSync(cwdFile, "utf8").trim()
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
      if (cwd === undefined || report === undefined) return { cwd }
      // undefined: the state directory is gone (closing), the previous snapshot stays
      return { cwd, snapshot: writeSnapshot(report) }
    }

    /** A new snapshot from exports a command left (undefined: the state directory is gone). */
    const writeSnapshot = (report: string): Outcome["snapshot"] => {
      try {
        const next = snapshotScript(report)
        const file = `${config.stateDir}/s${++snapshots}.sh`
        writeFileSync(file, next.script, { mode: 0o600 })
        return { file, variables: next.variables }
      } catch {
        return undefined
      }
    }

    const shell = config.persistent === true
      ? yield* makePersistentShell({
        launch: Effect.map(config.launch(["-s"], { pty: false }), (invocation) => ({ ...invocation, cwd: config.home, env: config.env })),
        stopTree: (child) => terminateGroup(child.pid)
      })
      : undefined
    // The snapshots the current shell holds the exports of (it made them, or sourced them), and its last report.
    let held = { generation: 0, files: new Set<string>(), exports: "" }

    /** What a framed command left: its cwd, and a new snapshot only when its exports changed. */
    const collectFrame = (job: ShellJob, startedFrom: string | undefined): Outcome => {
      const report = job.report()
      const { cwd, exports } = report
      const functions = functionsAfter(report)
      if (cwd === undefined || exports === undefined) return { cwd, functions }
      const current = held.generation === job.generation
      if (current && exports === held.exports && (startedFrom === undefined || held.files.has(startedFrom))) return { cwd, functions }
      const snapshot = writeSnapshot(exports)
      if (snapshot === undefined) return { cwd, functions }
      if (current) {
        held.files.add(snapshot.file)
        held.exports = exports
      }
      return { cwd, snapshot, functions }
    }

    const startFramed = (run: Parameters<Transport["start"]>[0], events: Parameters<Transport["start"]>[1]) =>
      Effect.suspend(() => {
        if (shell === undefined || !frameable(run)) return Effect.succeed(undefined)
        const source = snapshotToSource(run.snapshot, shell.generation(), held)
        return shell.tryStart({
          command: run.command,
          cwd: run.cwd,
          fallbackCwd: run.fallbackCwd,
          source,
          env: run.env,
          envFile: undefined,
          replaceAfter: run.untrusted === true
        }, { onData: events.onData, onExit: events.onExit }).pipe(
          Effect.map((job): Launched | undefined => {
            if (job === undefined) return undefined
            if (held.generation !== job.generation) held = { generation: job.generation, files: new Set(), exports: "" }
            if (run.snapshot !== undefined) held.files.add(run.snapshot)
            return launchedFromJob(job, () => collectFrame(job, run.snapshot))
          })
        )
      })

    const hostFiles = makeHostFiles({
      hostPath: config.hostPath,
      identity: config.hostPathIsIdentity === true,
      writeDenied: config.writeDenied,
      fileError
    })

    const transport: Transport = {
      home: config.home,
      userHome: config.env["HOME"] ?? config.home,
      env: config.env,
      reportsEnd: false,
      initialSnapshot: undefined,
      releaseSnapshot: removeFile,
      readVariables: (file) =>
        Effect.sync(() => {
          try {
            return parseExportSnapshot(readFileSync(file, "utf8"))
          } catch {
            return undefined
          }
        }),
      start: (run, events) =>
        Effect.flatMap(startFramed(run, events), (framed) => framed !== undefined ? Effect.succeed(framed) : Effect.suspend(() => {
          const args = shellArgs(
            {
              outDir: config.outDir,
              snapshot: run.snapshot,
              runId: run.runId,
              cwd: run.cwd,
              fallbackCwd: run.fallbackCwd,
              env: run.env,
              persist: run.persist
            },
            run.command
          )
          const exited = Deferred.unsafeMake<number>(FiberId.none)
          return config.launch(args, { pty: run.pty }).pipe(
            Effect.flatMap(({ args: argv, file }) =>
              startChild({ file, args: argv, cwd: config.home, env: config.env, pty: run.pty, stdin: run.stdin }, {
                onData: events.onData,
                onExit: (code) => {
                  events.onExit(code)
                  Deferred.unsafeDone(exited, Exit.succeed(code))
                }
              })
            ),
            Effect.map((child): Launched => ({
              pid: child.pid,
              pty: child.pty,
              write: child.write,
              end: child.end,
              exited,
              problem: () => undefined,
              // Make sure the process is gone: kill its group when still running, and wait (bounded) for the exit.
              stop: Effect.suspend(() =>
                Deferred.isDone(exited).pipe(
                  Effect.flatMap((done) =>
                    done ? Effect.void : Effect.zipRight(terminateGroup(child.pid), Effect.asVoid(awaitReal(exited, EXIT_AFTER_KILL_MS)))
                  )
                )
              ),
              release: terminateGroup(child.pid),
              collect: run.persist ? Effect.sync(() => collectReports(run.runId)) : Effect.succeed({})
            }))
          )
        })),
      files: ({ rawAbsolute, resolve }) => ({
        readFile: (path, options) => hostFiles.readFile(resolve(path), options),
        readDir: (path) => hostFiles.readDir(resolve(path)),
        realPath: (path) => hostFiles.realPath(rawAbsolute(path)),
        readLink: (path) => hostFiles.readLink(resolve(path)),
        rename: (from, to) => hostFiles.rename(resolve(from), resolve(to)),
        remove: (path) => hostFiles.remove(resolve(path)),
        // Regular files only, never into /dev, /proc or /sys: see environmentFiles.ts.
        writeFile: (path, data, options) =>
          options?.atomic === true ? hostFiles.writeAtomic(resolve(path), data, options.expectedReal) : hostFiles.write(resolve(path), data),
        stat: (path) => hostFiles.stat(resolve(path))
      })
    }
    return transport
  })
