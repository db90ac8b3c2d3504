/**
 * The transport for targets reached through a command client: a remote host
 * over ssh, or a container through `docker|podman exec`. The backend's
 * `ExecChannel` only says how to run an argv there; everything else is the
 * same for both: a private state directory on the target (set up once), the
 * command wrapper of `remoteScripts.ts`, kills that stop the whole process
 * tree on the target (not just the local client), and file access over the
 * same channel (`targetFiles.ts`).
 *
 * A command costs one round trip: its exit code and final directory come back
 * on the side channel (`transportProcess.ts`). State files that are no longer
 * needed are removed by a later command, in batches.
 */
import { randomBytes } from "node:crypto"
import { Deferred, Effect, Exit, FiberId, Option } from "effect"
import type { Scope } from "effect"
import { TerminalError } from "../../services/TerminalBackend.js"
import {
  CLEANUP_SCRIPT,
  cwdFile,
  envFile,
  exportRecords,
  exportScript,
  INITIAL_SNAPSHOT,
  KILL_SCRIPT,
  pidFile,
  SETUP_MARK,
  SETUP_SCRIPT,
  shArgv,
  shellSignature,
  TAKE_FILE_SCRIPT,
  WRITE_SCRIPT,
  wrapperArgv,
  wrapperSignature
} from "./remoteScripts.js"
import { TOOL_RUN_VARIABLE } from "../../services/Environments.js"
import { MARKER_KILL_SCRIPT } from "../processes/markedProcesses.js"
import { makeTargetFiles } from "./targetFiles.js"
import { runClient, startClient } from "./transportProcess.js"
import { frameable, functionsAfter, launchedFromJob, makePersistentShell, snapshotToSource } from "./persistent/persistentShell.js"
import type { ShellJob } from "./persistent/persistentShell.js"
import { shellQuote, snapshotScript } from "./shellScript.js"
import type { ClientHandle, ClientResult } from "./transportProcess.js"
import type { ExecChannel, Launched, Outcome, Transport } from "./transport.js"
import { awaitReal } from "./awaitReal.js"

export interface ExecTransportConfig {
  /** Names the target in setup errors ("ssh", "container"). */
  readonly kind: string
  readonly channel: ExecChannel
  /** Starting directory on the target: absolute, `~/…` or relative to $HOME; $HOME when undefined. */
  readonly home: string | undefined
  /** Exported in every command: the first snapshot's variables, handed to each new shell, never on a command line. */
  readonly env: Readonly<Record<string, string>>
  /** The target is destroyed right after the environment (a container): no remote cleanup. */
  readonly disposable: boolean
  /** `terminal.persistent_shell`: foreground commands run in one long-lived bash on the target, over one channel. */
  readonly persistent?: boolean | undefined
}

/** How a command started outside the persistent shell gets its exports (see `exportsFor`). */
interface ExportsDelivery {
  readonly mode?: "stdin" | "lines" | undefined
  readonly input?: string | undefined
  readonly file?: string | undefined
}

/** Helper scripts (files, setup, cleanup) get this long. */
const HELPER_TIMEOUT_MS = 60_000
/** Stopping a tree: SIGTERM, this many 25 ms steps of grace, then SIGKILL. */
const KILL_GRACE_STEPS = 40
const KILL_TIMEOUT_MS = 15_000
/** After a kill, how long to wait for the client to report its exit before killing it locally. */
const EXIT_AFTER_KILL_MS = 3000
/** State files are removed by a later command once this many have piled up. */
const GARBAGE_BATCH = 16

export const makeExecTransport = (config: ExecTransportConfig): Effect.Effect<Transport, TerminalError, Scope.Scope> =>
  Effect.gen(function*() {
    const channel = config.channel
    const token = `__hermes_${randomBytes(6).toString("hex")}_`

    /** One helper script on the target, to completion. */
    const script = (source: string, args: ReadonlyArray<string>, input?: Uint8Array | string, timeoutMs = HELPER_TIMEOUT_MS) =>
      Effect.suspend(() => {
        const invocation = channel.open(shArgv(source, args), { tty: false, stdin: input !== undefined })
        return Effect.ensuring(runClient(invocation, channel.env, input, timeoutMs), Effect.sync(invocation.done))
      })
    const problemOf = (result: ClientResult) => channel.failure(result.code, result.stderr)

    const setup = yield* script(SETUP_SCRIPT, [config.home ?? ""])
    if (setup.code !== 0) {
      const why = problemOf(setup) ?? (setup.stderr.length > 0 ? setup.stderr : `setup exited with code ${setup.code}`)
      return yield* Effect.fail(new TerminalError({ message: `cannot set up the ${config.kind} environment: ${why}` }))
    }
    const report = setup.stdout.toString("utf8")
    const [stateDir = "", targetHome = "/", start = ""] = report.slice(report.lastIndexOf(`${SETUP_MARK}\n`) + SETUP_MARK.length + 1).split("\n")
    if (!stateDir.startsWith("/") || !start.startsWith("/")) {
      return yield* Effect.fail(new TerminalError({ message: `cannot set up the ${config.kind} environment: unexpected setup output` }))
    }

    let garbage: Array<string> = []
    const takeGarbage = (): ReadonlyArray<string> => {
      if (garbage.length < GARBAGE_BATCH) return []
      const batch = garbage
      garbage = []
      return batch
    }

    // After the engine has stopped what still runs (its finalizer is added later, so it runs first).
    const marker = config.env[TOOL_RUN_VARIABLE]
    if (!config.disposable) {
      yield* Effect.addFinalizer(() =>
        Effect.ignore(
          // What left its process group (setsid, double fork) is found by the task's marker on the target.
          (marker === undefined
            ? Effect.void
            : Effect.ignore(script(MARKER_KILL_SCRIPT, [`${TOOL_RUN_VARIABLE}=${marker}`], undefined, KILL_TIMEOUT_MS))
          ).pipe(Effect.zipRight(script(CLEANUP_SCRIPT, [stateDir], undefined, KILL_TIMEOUT_MS)))
        )
      )
    }

    /** Stop one command's tree on the target, then make sure the local client is gone too. */
    const stopOnTarget = (runId: string, client: ClientHandle, exited: Deferred.Deferred<number>): Effect.Effect<void> =>
      Effect.gen(function*() {
        if (yield* Deferred.isDone(exited)) return
        yield* script(KILL_SCRIPT, [pidFile(stateDir, runId), String(KILL_GRACE_STEPS), wrapperSignature(stateDir, runId)], undefined, KILL_TIMEOUT_MS).pipe(
          Effect.catchAll((error) => Effect.logDebug(`${config.kind}: could not stop ${runId} on the target: ${error.message}`))
        )
        if (Option.isSome(yield* awaitReal(exited, EXIT_AFTER_KILL_MS))) return
        client.kill()
        yield* awaitReal(exited, EXIT_AFTER_KILL_MS)
      }).pipe(Effect.uninterruptible)

    /** Only the local client (the target is about to be destroyed anyway). */
    const dropClient = (client: ClientHandle, exited: Deferred.Deferred<number>): Effect.Effect<void> =>
      Effect.suspend(() => {
        client.kill()
        return Effect.asVoid(awaitReal(exited, EXIT_AFTER_KILL_MS))
      })

    const files = (paths: Parameters<Transport["files"]>[0]) => makeTargetFiles({ script, failure: channel.failure, ...paths })
    // Paths given to it are absolute already.
    const stateFiles = files({ resolve: (path) => path, rawAbsolute: (path) => path })

    /**
     * The variables of each snapshot, as the runtime read them: from a frame's report, or from the file when
     * approval first needed them. A command only ever gets exports as lines written here from these (never the file:
     * anything left running on the target can rewrite it), so it runs with the variables approval judged it by.
     */
    const initialSnapshot = `${stateDir}/${INITIAL_SNAPSHOT}`
    const known = new Map<string, Readonly<Record<string, string>>>([[initialSnapshot, config.env]])
    const variablesOf = (file: string): Effect.Effect<Readonly<Record<string, string>> | undefined> =>
      Effect.suspend(() => {
        const held = known.get(file)
        if (held !== undefined) return Effect.succeed(held)
        return stateFiles.readFile(file).pipe(
          Effect.map((bytes) => {
            const { variables } = snapshotScript(Buffer.from(bytes).toString("utf8"))
            known.set(file, variables)
            return variables
          }),
          Effect.orElseSucceed(() => undefined)
        )
      })
    /** The exports a command starts from: those of `file`, or the environment's own when it cannot be read. */
    const startingExports = (file: string) => Effect.map(variablesOf(file), (variables) => variables ?? config.env)
    const forget = (file: string) => {
      known.delete(file)
      garbage.push(file)
    }

    /** The persistent shell writes its pid (its process group: a session leader) here, for KILL_SCRIPT. */
    const shellPidFile = (generation: number) => `${stateDir}/shell-${generation}.pid`
    const shell = config.persistent === true
      ? yield* makePersistentShell({
        launch: Effect.sync(() => {
          // The argument marks the shell's command line for KILL_SCRIPT; the init drops it from the positional parameters.
          const invocation = channel.open(["bash", "-s", "--", shellSignature(stateDir)], { tty: false, stdin: true })
          return { file: invocation.file, args: invocation.args, env: channel.env, done: invocation.done }
        }),
        init: (generation) => `builtin set --; __hermes_state=${shellQuote(stateDir)}; builtin echo $$ > "$__hermes_state/shell-${generation}.pid"\n`,
        stopTree: (_, generation) =>
          script(KILL_SCRIPT, [shellPidFile(generation), String(KILL_GRACE_STEPS), shellSignature(stateDir)], undefined, KILL_TIMEOUT_MS).pipe(
            Effect.catchAll((error) => Effect.logDebug(`${config.kind}: could not stop the shell on the target: ${error.message}`))
          ),
        // EOF ends the shell; the target stops whatever else is left (marker kill, or the container goes).
        closeByEof: true,
        failure: channel.failure
      })
      : undefined
    // The snapshots the current shell holds the exports of (its own reports, or sourced).
    let held = { generation: 0, files: new Set<string>() }

    const collectFrame = (job: ShellJob, exports: string): Outcome => {
      const report = job.report()
      const { cwd, exports: text } = report
      const functions = functionsAfter(report)
      if (cwd === undefined || cwd.length === 0) {
        forget(exports)
        return { functions }
      }
      if (held.generation === job.generation) held.files.add(exports)
      // The frame also sent the exports it wrote: approval reads the task's variables without a round trip.
      const variables = text === undefined ? undefined : snapshotScript(text).variables
      if (variables !== undefined) known.set(exports, variables)
      return { cwd, snapshot: { file: exports, variables }, functions }
    }

    /**
     * How a command gets the exports it starts from: on stdin ahead of its input, or (under a PTY, whose input is
     * a terminal) in a file written just now under a fresh name, which the command sources and removes at once.
     */
    const exportsFor = (run: Parameters<Transport["start"]>[0]): Effect.Effect<ExportsDelivery, TerminalError> =>
      run.snapshot === undefined ? Effect.succeed({}) : Effect.flatMap(startingExports(run.snapshot), (variables): Effect.Effect<ExportsDelivery, TerminalError> => {
        if (!run.pty) return Effect.succeed(run.stdin ? { mode: "lines", input: exportRecords(variables) } : { mode: "stdin", input: exportScript(variables) })
        const file = `${stateDir}/x-${randomBytes(9).toString("hex")}.env`
        garbage.push(file)
        // The state directory is under /dev/shm where there is one, which the file tools never write: a helper writes it.
        return Effect.flatMap(script(WRITE_SCRIPT, [file], exportScript(variables)), (written) =>
          written.code === 0
            ? Effect.succeed({ file })
            : Effect.fail(new TerminalError({ message: `cannot pass the task's exports to the ${config.kind} target: ${problemOf(written) ?? written.stderr}` })))
      })

    const startFramed = (run: Parameters<Transport["start"]>[0], events: Parameters<Transport["start"]>[1]) =>
      Effect.suspend(() => {
        if (shell === undefined || !frameable(run)) return Effect.succeed(undefined)
        const source = snapshotToSource(run.snapshot, shell.generation(), held)
        const exports = envFile(stateDir, run.runId)
        return Effect.flatMap(source === undefined ? Effect.succeed(undefined) : startingExports(source), (variables) => {
          const batch = takeGarbage()
          return shell.tryStart({
            command: run.command,
            cwd: run.cwd,
            fallbackCwd: run.fallbackCwd,
            source: undefined,
            sourceText: variables === undefined ? undefined : exportScript(variables),
            env: run.env,
            envFile: exports,
            exportsInStream: true,
            replaceAfter: run.untrusted === true,
            prelude: batch.length === 0 ? undefined : `rm -f -- ${batch.map(shellQuote).join(" ")}`
          }, { onData: events.onData, onExit: events.onExit }).pipe(
            Effect.map((job): Launched | undefined => {
              if (job === undefined) {
                garbage.push(...batch)
                return undefined
              }
              if (held.generation !== job.generation) held = { generation: job.generation, files: new Set() }
              if (run.snapshot !== undefined) held.files.add(run.snapshot)
              return launchedFromJob(job, () => collectFrame(job, exports))
            })
          )
        })
      })

    const transport: Transport = {
      home: start,
      userHome: targetHome,
      env: config.env,
      reportsEnd: true,
      initialSnapshot,
      releaseSnapshot: (file) => forget(file),
      readVariables: variablesOf,
      start: (run, events) =>
        Effect.flatMap(startFramed(run, events), (framed) => framed !== undefined ? Effect.succeed(framed) : Effect.flatMap(exportsFor(run), (delivery) => Effect.suspend(() => {
          const pty = run.pty
          const argv = wrapperArgv({
            stateDir,
            runId: run.runId,
            snapshot: delivery.file,
            exports: delivery.mode,
            garbage: takeGarbage(),
            cwd: run.cwd,
            fallbackCwd: run.fallbackCwd,
            env: run.env,
            persist: run.persist,
            token: pty ? undefined : token
          }, run.command)
          const stdin = run.stdin || delivery.input !== undefined
          const invocation = channel.open(argv, { tty: pty, stdin: pty || stdin })
          const exited = Deferred.unsafeMake<number>(FiberId.none)
          let exitMarker: number | undefined
          let cwdMarker: string | undefined
          let exportsMarker: string | undefined
          let clientExit: { readonly code: number; readonly diagnostics: string } | undefined
          return startClient(
            { file: invocation.file, args: invocation.args, env: channel.env, pty, stdin, token: pty ? undefined : token },
            {
              onData: events.onData,
              onMarker: (marker) => {
                if (marker._tag === "Cwd") cwdMarker = marker.cwd
                else if (marker._tag === "Exports") exportsMarker = marker.text
                else {
                  exitMarker = marker.code
                  events.onEnd(marker.code)
                }
              },
              onExit: (code, diagnostics) => {
                invocation.done()
                clientExit = { code, diagnostics }
                const final = exitMarker ?? code
                events.onExit(final)
                Deferred.unsafeDone(exited, Exit.succeed(final))
              }
            }
          ).pipe(
            Effect.tap((client) =>
              Effect.sync(() => {
                if (delivery.input === undefined) return
                client.write(delivery.input)
                if (!run.stdin) client.end()
              })
            ),
            Effect.map((client): Launched => ({
              pid: client.pid,
              pty: client.pty,
              write: client.write,
              end: client.end,
              exited,
              // No exit marker over pipes: the client, not the command, ended (a PTY has no markers at all).
              problem: () =>
                clientExit === undefined || exitMarker !== undefined || pty ? undefined : channel.failure(clientExit.code, clientExit.diagnostics),
              stop: stopOnTarget(run.runId, client, exited),
              release: config.disposable ? dropClient(client, exited) : stopOnTarget(run.runId, client, exited),
              collect: Effect.gen(function*() {
                const done = pidFile(stateDir, run.runId)
                if (!run.persist) {
                  garbage.push(done)
                  return {}
                }
                let next = cwdMarker
                if (pty) {
                  const taken = yield* Effect.either(script(TAKE_FILE_SCRIPT, [cwdFile(stateDir, run.runId)], undefined, KILL_TIMEOUT_MS))
                  if (taken._tag === "Right" && taken.right.code === 0) next = taken.right.stdout.toString("utf8").trim()
                }
                const exports = envFile(stateDir, run.runId)
                // The trap sends the exports before the directory: a run that reported its directory left a whole snapshot
                // (in the stream over pipes, which the runtime keeps under the file's name; in the file under a PTY).
                const variables = exportsMarker === undefined ? undefined : snapshotScript(exportsMarker).variables
                if (variables !== undefined) known.set(exports, variables)
                const complete = next !== undefined && next.length > 0 && (pty || variables !== undefined)
                const outcome: Outcome = complete ? { cwd: next, snapshot: { file: exports, variables } } : {}
                if (outcome.snapshot === undefined) forget(exports)
                garbage.push(done)
                return outcome
              })
            })),
            Effect.tapError(() => Effect.sync(invocation.done))
          )
        }))),
      files
    }
    return transport
  })
