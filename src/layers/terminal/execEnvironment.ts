/**
 * A TerminalEnvironment on a target reached through a command transport: a
 * remote host over ssh, or a container through `docker|podman exec`. The
 * transport only says how to run an argv there; everything else is the same
 * for both and mirrors the local backend: a fresh `bash` per command, cwd and
 * exports carried over through snapshot files on the target, bounded output
 * capture, timeouts and interrupts that stop the whole process tree (on the
 * target, not just the local client), and file access over the same transport
 * (`targetFiles.ts`).
 *
 * A command costs one round trip: its exit code and final directory come back
 * on the side channel (`remoteScripts.ts`). State files that are no longer
 * needed are removed by a later command, in batches.
 */
import { randomBytes } from "node:crypto"
import { posix } from "node:path"
import { Deferred, Effect, Exit, FiberId, Mailbox, Option } from "effect"
import type { Scope } from "effect"
import type {
  ApprovedCommand,
  RunningProcess,
  RunOptions,
  RunResult,
  SpawnOptions,
  TerminalEnvironment
} from "../../services/TerminalBackend.js"
import { TerminalError } from "../../services/TerminalBackend.js"
import { DEFAULT_CAPTURE_BYTES, makeBoundedCapture } from "./boundedCapture.js"
import { makeSnapshotReaders } from "./snapshotReaders.js"
import {
  CLEANUP_SCRIPT,
  cwdFile,
  envFile,
  exportLines,
  INITIAL_SNAPSHOT,
  KILL_SCRIPT,
  pidFile,
  SETUP_MARK,
  SETUP_SCRIPT,
  shArgv,
  TAKE_FILE_SCRIPT,
  wrapperArgv
} from "./remoteScripts.js"
import { TOOL_RUN_VARIABLE } from "../../services/Environments.js"
import { MARKER_KILL_SCRIPT } from "../processes/markedProcesses.js"
import { parseExportSnapshot } from "./exportSnapshot.js"
import { makeTargetFiles } from "./targetFiles.js"
import { runClient, startClient } from "./transportProcess.js"
import type { ClientHandle, ClientResult, Marker } from "./transportProcess.js"
import type { Transport } from "./transport.js"

export interface ExecEnvironmentConfig {
  readonly kind: string
  readonly isolated: boolean
  readonly taskId: string
  readonly transport: Transport
  /** Starting directory on the target: absolute, `~/…` or relative to $HOME; $HOME when undefined. */
  readonly home: string | undefined
  /** Exported in every command; written once into the first snapshot, never on a command line. */
  readonly env: Readonly<Record<string, string>>
  /** The target is destroyed right after the environment (a container): no remote cleanup. */
  readonly disposable: boolean
}

/** Helper scripts (files, setup, cleanup) get this long. */
const HELPER_TIMEOUT_MS = 60_000
/** Stopping a tree: SIGTERM, this many 25 ms steps of grace, then SIGKILL. */
const KILL_GRACE_STEPS = 40
const KILL_TIMEOUT_MS = 15_000
/** After a kill, how long to wait for the client to report its exit before killing it locally. */
const EXIT_AFTER_KILL_MS = 3000
/** The command has exited (its exit marker arrived) but the client stays open this long: stop what holds it. */
const HELD_OPEN_MS = 500
/** State files are removed by a later command once this many have piled up. */
const GARBAGE_BATCH = 16

const sleepReal = (ms: number) =>
  Effect.interruptible(Effect.async<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), ms)
    return Effect.sync(() => clearTimeout(timer))
  }))

/** Wait for a deferred at most `ms` of real time (usable inside finalizers). */
const awaitReal = <A>(deferred: Deferred.Deferred<A>, ms: number): Effect.Effect<Option.Option<A>> =>
  Effect.raceFirst(
    Effect.interruptible(Effect.map(Deferred.await(deferred), Option.some)),
    Effect.as(sleepReal(ms), Option.none())
  )


interface Started {
  readonly runId: string
  readonly client: ClientHandle
  readonly exited: Deferred.Deferred<number>
  readonly startedFrom: string | undefined
}

export const makeExecEnvironment = (config: ExecEnvironmentConfig): Effect.Effect<TerminalEnvironment, TerminalError, Scope.Scope> =>
  Effect.gen(function*() {
    const transport = config.transport
    const token = `__hermes_${randomBytes(6).toString("hex")}_`

    /** One helper script on the target, to completion. */
    const script = (source: string, args: ReadonlyArray<string>, input?: Uint8Array | string, timeoutMs = HELPER_TIMEOUT_MS) =>
      Effect.suspend(() => {
        const invocation = transport.open(shArgv(source, args), { tty: false, stdin: input !== undefined })
        return Effect.ensuring(runClient(invocation, transport.env, input, timeoutMs), Effect.sync(invocation.done))
      })
    const problemOf = (result: ClientResult) => transport.failure(result.code, result.stderr)

    const setup = yield* script(SETUP_SCRIPT, [config.home ?? ""], exportLines(config.env))
    if (setup.code !== 0) {
      const why = problemOf(setup) ?? (setup.stderr.length > 0 ? setup.stderr : `setup exited with code ${setup.code}`)
      return yield* Effect.fail(new TerminalError({ message: `cannot set up the ${config.kind} environment: ${why}` }))
    }
    const report = setup.stdout.toString("utf8")
    const [stateDir = "", targetHome = "/", start = ""] = report.slice(report.lastIndexOf(`${SETUP_MARK}\n`) + SETUP_MARK.length + 1).split("\n")
    if (!stateDir.startsWith("/") || !start.startsWith("/")) {
      return yield* Effect.fail(new TerminalError({ message: `cannot set up the ${config.kind} environment: unexpected setup output` }))
    }
    const home = start
    let cwd = home
    let active = 0
    let runs = 0

    // Snapshots as in the local backend: the newest one, and how many starting commands still read each.
    let snapshot: string | undefined = `${stateDir}/${INITIAL_SNAPSHOT}`
    let garbage: Array<string> = []
    const { pin, unpin, discard } = makeSnapshotReaders(() => snapshot, (file) => garbage.push(file))
    const takeGarbage = (): ReadonlyArray<string> => {
      if (garbage.length < GARBAGE_BATCH) return []
      const batch = garbage
      garbage = []
      return batch
    }

    const live = new Map<string, Started>()

    /** Stop one command's tree on the target, then make sure the local client is gone too. */
    const ensureDead = (started: Started): Effect.Effect<void> =>
      Effect.gen(function*() {
        if (yield* Deferred.isDone(started.exited)) return
        yield* script(KILL_SCRIPT, [pidFile(stateDir, started.runId), String(KILL_GRACE_STEPS)], undefined, KILL_TIMEOUT_MS).pipe(
          Effect.catchAll((error) => Effect.logDebug(`${config.kind}: could not stop ${started.runId} on the target: ${error.message}`))
        )
        if (Option.isSome(yield* awaitReal(started.exited, EXIT_AFTER_KILL_MS))) return
        started.client.kill()
        yield* awaitReal(started.exited, EXIT_AFTER_KILL_MS)
      }).pipe(Effect.uninterruptible)

    /** Only the local client (the target is about to be destroyed anyway). */
    const dropClient = (started: Started): Effect.Effect<void> =>
      Effect.suspend(() => {
        started.client.kill()
        return Effect.asVoid(awaitReal(started.exited, EXIT_AFTER_KILL_MS))
      })

    const marker = config.env[TOOL_RUN_VARIABLE]
    yield* Effect.addFinalizer(() =>
      Effect.forEach([...live.values()], config.disposable ? dropClient : ensureDead, { concurrency: "unbounded", discard: true }).pipe(
        Effect.zipRight(
          config.disposable
            ? Effect.void
            : Effect.ignore(
              // What left its process group (setsid, double fork) is found by the task's marker on the target.
              (marker === undefined
                ? Effect.void
                : Effect.ignore(script(MARKER_KILL_SCRIPT, [`${TOOL_RUN_VARIABLE}=${marker}`], undefined, KILL_TIMEOUT_MS))
              ).pipe(Effect.zipRight(script(CLEANUP_SCRIPT, [stateDir], undefined, KILL_TIMEOUT_MS)))
            )
        )
      )
    )

    const begin = (
      command: ApprovedCommand,
      options: SpawnOptions,
      io: { readonly persist: boolean; readonly stdin: boolean },
      events: {
        readonly onData: (chunk: Buffer) => void
        readonly onMarker: (marker: Marker) => void
        readonly onExit: (code: number, diagnostics: string) => void
      }
    ): Effect.Effect<Started, TerminalError> =>
      Effect.suspend(() => {
        const runId = `r${++runs}`
        const startedFrom = snapshot
        pin(startedFrom)
        const pty = options.pty === true
        const explicit = options.cwd
        const argv = wrapperArgv({
          stateDir,
          runId,
          snapshot: startedFrom,
          garbage: takeGarbage(),
          cwd: explicit ?? cwd,
          fallbackCwd: explicit === undefined ? home : undefined,
          env: options.env,
          persist: io.persist,
          token: pty ? undefined : token
        }, command.text)
        const invocation = transport.open(argv, { tty: pty, stdin: pty || io.stdin })
        const exited = Deferred.unsafeMake<number>(FiberId.none)
        return startClient(
          { file: invocation.file, args: invocation.args, env: transport.env, pty, stdin: io.stdin, token: pty ? undefined : token },
          {
            onData: events.onData,
            onMarker: events.onMarker,
            onExit: (code, diagnostics) => {
              invocation.done()
              events.onExit(code, diagnostics)
              Deferred.unsafeDone(exited, Exit.succeed(code))
            }
          }
        ).pipe(
          Effect.map((client): Started => {
            const started = { runId, client, exited, startedFrom }
            live.set(runId, started)
            active++
            return started
          }),
          Effect.tapError(() =>
            Effect.sync(() => {
              invocation.done()
              unpin(startedFrom)
            })
          )
        )
      })

    const untrack = (started: Started) => {
      if (live.delete(started.runId)) active--
    }

    /** What a finished foreground command left: its directory and, when it got that far, its exports. */
    const collectState = (started: Started, pty: boolean, reportedCwd: string | undefined, trackCwd: boolean) =>
      Effect.gen(function*() {
        let next = reportedCwd
        if (pty) {
          const taken = yield* Effect.either(script(TAKE_FILE_SCRIPT, [cwdFile(stateDir, started.runId)], undefined, KILL_TIMEOUT_MS))
          if (taken._tag === "Right" && taken.right.code === 0) next = taken.right.stdout.toString("utf8").trim()
        }
        const exports = envFile(stateDir, started.runId)
        // The trap writes the exports before the directory: a run that reported its directory left a whole snapshot.
        if (next !== undefined && next.length > 0) {
          if (trackCwd) cwd = next
          const previous = snapshot
          snapshot = exports
          if (previous !== undefined) discard(previous)
        } else {
          garbage.push(exports)
        }
        garbage.push(pidFile(stateDir, started.runId))
        unpin(started.startedFrom)
      })

    const run = (command: ApprovedCommand, options: RunOptions = {}): Effect.Effect<RunResult, TerminalError> =>
      Effect.suspend(() => {
        const capture = makeBoundedCapture(options.maxOutputBytes ?? DEFAULT_CAPTURE_BYTES)
        const pty = options.pty === true
        const ended = Deferred.unsafeMake<number>(FiberId.none)
        let exitMarker: number | undefined
        let cwdMarker: string | undefined
        let diagnostics = ""
        return Effect.acquireUseRelease(
          Effect.tap(
            begin(command, options, { persist: true, stdin: options.stdin !== undefined }, {
              onData: capture.push,
              onMarker: (marker) => {
                if (marker._tag === "Cwd") cwdMarker = marker.cwd
                else {
                  exitMarker = marker.code
                  Deferred.unsafeDone(ended, Exit.succeed(marker.code))
                }
              },
              onExit: (_code, text) => {
                diagnostics = text
              }
            }),
            ({ client }) =>
              Effect.sync(() => {
                if (options.stdin !== undefined) {
                  client.write(options.stdin)
                  client.end()
                }
              })
          ),
          (started) =>
            Effect.gen(function*() {
              type Ending =
                | { readonly _tag: "Exit"; readonly code: number }
                | { readonly _tag: "Timeout" }
                | { readonly _tag: "Interrupt" }
              const racers: Array<Effect.Effect<Ending>> = [
                Effect.map(Deferred.await(started.exited), (code): Ending => ({ _tag: "Exit", code })),
                // The command is done but something it left holds the session open.
                Effect.map(
                  Effect.zipLeft(Deferred.await(ended), sleepReal(HELD_OPEN_MS)),
                  (code): Ending => ({ _tag: "Exit", code })
                )
              ]
              if (options.timeoutMs !== undefined) {
                racers.push(Effect.as(Effect.sleep(options.timeoutMs), { _tag: "Timeout" } as const))
              }
              if (options.interrupt !== undefined) racers.push(Effect.as(options.interrupt, { _tag: "Interrupt" } as const))
              const ending = yield* Effect.raceAll(racers)
              yield* ensureDead(started)
              if (ending._tag === "Exit" && exitMarker === undefined && !pty) {
                const problem = transport.failure(ending.code, diagnostics)
                if (problem !== undefined) return yield* Effect.fail(new TerminalError({ message: problem }))
              }
              const result: RunResult = {
                output: capture.result(),
                exitCode: ending._tag === "Exit" ? exitMarker ?? ending.code : ending._tag === "Timeout" ? 124 : 130,
                timedOut: ending._tag === "Timeout",
                interrupted: ending._tag === "Interrupt",
                cwd
              }
              return result
            }),
          (started) =>
            ensureDead(started).pipe(
              Effect.zipRight(collectState(started, pty, cwdMarker, options.cwd === undefined)),
              Effect.ensuring(Effect.sync(() => untrack(started)))
            )
        ).pipe(Effect.map((result) => ({ ...result, cwd })))
      })

    const spawn = (command: ApprovedCommand, options: SpawnOptions = {}): Effect.Effect<RunningProcess, TerminalError, Scope.Scope> =>
      Effect.gen(function*() {
        const mailbox = yield* Mailbox.make<string>()
        const exited = yield* Deferred.make<number>()
        const ended = yield* Deferred.make<void>()
        const decoder = new TextDecoder("utf-8")
        let exitMarker: number | undefined
        let settled = false
        const settle = (started: Started) => {
          if (settled) return
          settled = true
          untrack(started)
          garbage.push(pidFile(stateDir, started.runId))
          unpin(started.startedFrom)
        }
        const started = yield* Effect.acquireRelease(
          begin(command, options, { persist: false, stdin: true }, {
            onData: (chunk) => {
              const text = decoder.decode(chunk, { stream: true })
              if (text.length > 0) mailbox.unsafeOffer(text)
            },
            onMarker: (marker) => {
              if (marker._tag === "Exit") {
                exitMarker = marker.code
                Deferred.unsafeDone(ended, Exit.void)
              }
            },
            onExit: (code) => {
              const rest = decoder.decode()
              if (rest.length > 0) mailbox.unsafeOffer(rest)
              mailbox.unsafeDone(Exit.void)
              Deferred.unsafeDone(exited, Exit.succeed(exitMarker ?? code))
            }
          }),
          (s) => Effect.ensuring(ensureDead(s), Effect.sync(() => settle(s)))
        )
        yield* Effect.forkScoped(Effect.zipRight(Deferred.await(started.exited), Effect.sync(() => settle(started))))
        // Exited, but a leftover keeps the session open: stop it so the output ends.
        yield* Effect.forkScoped(
          Deferred.await(ended).pipe(
            Effect.zipRight(sleepReal(HELD_OPEN_MS)),
            Effect.zipRight(ensureDead(started))
          )
        )
        const stdinError = () => new TerminalError({ message: "Process stdin not available (stdin closed)" })
        const handle: RunningProcess = {
          pid: started.client.pid,
          pty: started.client.pty,
          output: Mailbox.toStream(mailbox),
          exitCode: Deferred.await(exited),
          isRunning: Effect.map(Deferred.isDone(exited), (done) => !done),
          write: (input) => (started.client.write(input.text) ? Effect.void : Effect.fail(stdinError())),
          closeStdin: Effect.suspend(() => (started.client.end() ? Effect.void : Effect.fail(stdinError()))),
          kill: Effect.suspend(() => ensureDead(started))
        }
        return handle
      })

    const resolve = (path: string): string => {
      if (path === "~") return targetHome
      if (path.startsWith("~/")) return posix.resolve(targetHome, path.slice(2))
      return posix.isAbsolute(path) ? posix.resolve(path) : posix.resolve(cwd, path)
    }

    /** Absolute but not normalised: `..` after a symlink must be resolved against the link's target. */
    const rawAbsolute = (path: string): string =>
      path === "~" ? targetHome : path.startsWith("~/") ? `${targetHome}/${path.slice(2)}` : posix.isAbsolute(path) ? path : `${cwd}/${path}`

    const files = makeTargetFiles({ script, failure: transport.failure, resolve, rawAbsolute })

    const environment: TerminalEnvironment = {
      kind: config.kind,
      isolated: config.isolated,
      taskId: config.taskId,
      home,
      cwd: Effect.sync(() => cwd),
      active: Effect.sync(() => active),
      // One round trip, and only when approval meets a command word held in a variable.
      variables: Effect.suspend(() => {
        const file = snapshot
        if (file === undefined) return Effect.succeed(config.env)
        return files.readFile(file).pipe(
          Effect.map((bytes) => parseExportSnapshot(Buffer.from(bytes).toString("utf8"))),
          Effect.orElseSucceed(() => config.env)
        )
      }),
      run,
      spawn,
      resolvePath: (path) => Effect.sync(() => resolve(path)),
      ...files
    }
    return environment
  })
