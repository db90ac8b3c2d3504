/**
 * The environment engine: one TerminalEnvironment for every backend, over a
 * `Transport` (`transport.ts`) that says how to reach the target.
 *
 * Each command is a fresh `bash` running a wrapper script that sources the
 * task's latest export snapshot, changes to the tracked directory and evals
 * the command; what it leaves (its directory, its exports as the next
 * snapshot) is collected once it is gone. A transport with a persistent shell
 * (`persistent/persistentShell.ts`) runs foreground commands in one long-lived
 * bash instead and reports the same things; the engine does not tell them apart. Output is captured within a fixed
 * budget; a timeout or interrupt stops the command's whole process tree on
 * the target. A snapshot is freed once it is neither current nor read by a
 * command that started from it. The environment's scope owns every process
 * it starts.
 */
import { posix } from "node:path"
import { Deferred, Effect, Exit, Mailbox } from "effect"
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
import { makeEndingRace } from "./endingRace.js"
import { makeSnapshotReaders } from "./snapshotReaders.js"
import type { CommandEvents, Launched, Transport } from "./transport.js"
import type { DecidedBy } from "../../services/Approval.js"

/** Dangerous commands let through by a decision the gate relies on (not by isolation or approvals being off). */
const UNTRUSTED: ReadonlySet<DecidedBy> = new Set(["allowlist", "rule", "session", "smart", "human", "non-interactive"])

export interface EnvironmentIdentity {
  readonly kind: string
  readonly isolated: boolean
  readonly taskId: string
}

/** The command has ended (it said so) but its process stays open this long: stop what holds it. */
const HELD_OPEN_MS = 500

const sleepReal = (ms: number) =>
  Effect.interruptible(Effect.async<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), ms)
    return Effect.sync(() => clearTimeout(timer))
  }))

interface Started {
  readonly runId: string
  readonly launched: Launched
  readonly startedFrom: string | undefined
}

const noop = () => undefined

export const makeEnvironment = (
  identity: EnvironmentIdentity,
  transport: Transport
): Effect.Effect<TerminalEnvironment, never, Scope.Scope> =>
  Effect.gen(function*() {
    const home = transport.home
    let cwd = home
    let active = 0
    let runs = 0
    // The newest export snapshot (its variables when known), and how many starting commands still read each older one.
    let snapshot = transport.initialSnapshot
    // The functions the task's persistent shell holds (approval judges a call of one as unknown); undefined until a
    // command has run in one (it then keeps plain variables too).
    let functions: ReadonlyArray<string> | undefined
    let variables: Readonly<Record<string, string>> | undefined
    const { pin, unpin, discard } = makeSnapshotReaders(() => snapshot, transport.releaseSnapshot)
    const live = new Map<string, Launched>()

    // Runs before the transport's own cleanup (registered earlier): stop everything still running.
    yield* Effect.addFinalizer(() =>
      Effect.forEach([...live.values()], (launched) => launched.release, { concurrency: "unbounded", discard: true })
    )

    const begin = (
      command: ApprovedCommand,
      options: SpawnOptions,
      io: { readonly persist: boolean; readonly stdin: boolean },
      events: CommandEvents
    ): Effect.Effect<Started, TerminalError> =>
      Effect.suspend(() => {
        const runId = `r${++runs}`
        const startedFrom = snapshot
        pin(startedFrom)
        const explicit = options.cwd
        return transport.start({
          runId,
          command: command.text,
          snapshot: startedFrom,
          cwd: explicit ?? cwd,
          fallbackCwd: explicit === undefined ? home : undefined,
          env: options.env,
          persist: io.persist,
          untrusted: UNTRUSTED.has(command.grant.decidedBy),
          pty: options.pty === true,
          stdin: io.stdin
        }, events).pipe(
          Effect.map((launched): Started => {
            live.set(runId, launched)
            active++
            return { runId, launched, startedFrom }
          }),
          Effect.tapError(() => Effect.sync(() => unpin(startedFrom)))
        )
      })

    const untrack = (started: Started) => {
      if (live.delete(started.runId)) active--
    }

    /** Take what a finished command left: its directory (a command given its own keeps the tracked one) and its exports. */
    const settle = (started: Started, trackCwd: boolean) =>
      Effect.map(started.launched.collect, (outcome) => {
        if (trackCwd && outcome.cwd !== undefined && outcome.cwd.length > 0) cwd = outcome.cwd
        if (outcome.functions !== undefined) functions = outcome.functions
        if (outcome.snapshot !== undefined) {
          const previous = snapshot
          snapshot = outcome.snapshot.file
          variables = outcome.snapshot.variables
          if (previous !== undefined) discard(previous)
        }
        unpin(started.startedFrom)
      })

    const run = (command: ApprovedCommand, options: RunOptions = {}): Effect.Effect<RunResult, TerminalError> =>
      Effect.suspend(() => {
        const capture = makeBoundedCapture(options.maxOutputBytes ?? DEFAULT_CAPTURE_BYTES)
        const race = makeEndingRace()
        return Effect.acquireUseRelease(
          Effect.tap(
            begin(command, options, { persist: true, stdin: options.stdin !== undefined }, {
              onData: capture.push,
              // The command is done but something it left may hold its process open.
              onEnd: transport.reportsEnd ? (code) => race.onEnd(code, HELD_OPEN_MS) : noop,
              onExit: race.onExit
            }),
            ({ launched }) =>
              Effect.sync(() => {
                if (options.stdin !== undefined) {
                  launched.write(options.stdin)
                  launched.end()
                }
              })
          ),
          ({ launched }) =>
            Effect.gen(function*() {
              const ending = yield* race.await(options.timeoutMs, options.interrupt)
              yield* launched.stop
              if (ending._tag === "Exit") {
                const problem = launched.problem()
                if (problem !== undefined) return yield* Effect.fail(new TerminalError({ message: problem }))
              }
              const result: RunResult = {
                output: capture.result(),
                exitCode: ending._tag === "Exit" ? ending.code : ending._tag === "Timeout" ? 124 : 130,
                timedOut: ending._tag === "Timeout",
                interrupted: ending._tag === "Interrupt",
                cwd
              }
              return result
            }),
          (started) =>
            started.launched.stop.pipe(
              Effect.zipRight(settle(started, options.cwd === undefined)),
              Effect.ensuring(Effect.sync(() => {
                race.dispose()
                untrack(started)
              }))
            )
        ).pipe(
          // The cwd after the command is only known once its state is collected.
          Effect.map((result) => ({ ...result, cwd }))
        )
      })

    const spawn = (command: ApprovedCommand, options: SpawnOptions = {}): Effect.Effect<RunningProcess, TerminalError, Scope.Scope> =>
      Effect.gen(function*() {
        const mailbox = yield* Mailbox.make<string>()
        const ended = yield* Deferred.make<void>()
        const decoder = new TextDecoder("utf-8")
        let settled = false
        const settleOnce = (started: Started) =>
          Effect.suspend(() => {
            if (settled) return Effect.void
            settled = true
            untrack(started)
            return settle(started, false)
          })
        const started = yield* Effect.acquireRelease(
          // Background processes keep a stdin pipe so `process write/submit/close` can reach them.
          begin(command, options, { persist: false, stdin: true }, {
            onData: (chunk) => {
              const text = decoder.decode(chunk, { stream: true })
              if (text.length > 0) mailbox.unsafeOffer(text)
            },
            onEnd: () => Deferred.unsafeDone(ended, Exit.void),
            onExit: () => {
              const rest = decoder.decode()
              if (rest.length > 0) mailbox.unsafeOffer(rest)
              mailbox.unsafeDone(Exit.void)
            }
          }),
          (s) => Effect.ensuring(s.launched.stop, settleOnce(s))
        )
        const { launched } = started
        // A process that ends on its own no longer keeps the environment busy.
        yield* Effect.forkScoped(Effect.zipRight(Deferred.await(launched.exited), settleOnce(started)))
        // Ended, but a leftover keeps its process open: stop it so the output ends.
        if (transport.reportsEnd) {
          yield* Effect.forkScoped(
            Deferred.await(ended).pipe(
              Effect.zipRight(sleepReal(HELD_OPEN_MS)),
              Effect.zipRight(launched.stop)
            )
          )
        }
        const stdinError = () => new TerminalError({ message: "Process stdin not available (stdin closed)" })
        const handle: RunningProcess = {
          pid: launched.pid,
          pty: launched.pty,
          output: Mailbox.toStream(mailbox),
          exitCode: Deferred.await(launched.exited),
          isRunning: Effect.map(Deferred.isDone(launched.exited), (done) => !done),
          write: (input) => (launched.write(input.text) ? Effect.void : Effect.fail(stdinError())),
          closeStdin: Effect.suspend(() => (launched.end() ? Effect.void : Effect.fail(stdinError()))),
          kill: launched.stop
        }
        return handle
      })

    const userHome = transport.userHome
    const resolve = (path: string): string => {
      if (path === "~") return userHome
      if (path.startsWith("~/")) return posix.resolve(userHome, path.slice(2))
      return posix.isAbsolute(path) ? posix.resolve(path) : posix.resolve(cwd, path)
    }

    /** Absolute but not normalised: `..` after a symlink must be resolved against the link's target. */
    const rawAbsolute = (path: string): string =>
      path === "~" ? userHome : path.startsWith("~/") ? `${userHome}/${path.slice(2)}` : posix.isAbsolute(path) ? path : `${cwd}/${path}`

    const environment: TerminalEnvironment = {
      kind: identity.kind,
      isolated: identity.isolated,
      taskId: identity.taskId,
      home,
      cwd: Effect.sync(() => cwd),
      active: Effect.sync(() => active),
      shellFunctions: Effect.sync(() => functions),
      variables: Effect.suspend(() => {
        if (variables !== undefined) return Effect.succeed(variables)
        const file = snapshot
        if (file === undefined) return Effect.succeed(transport.env)
        // Exec transports: one round trip, and only when approval meets a command word held in a variable.
        return Effect.map(transport.readVariables(file), (read) => read ?? transport.env)
      }),
      run,
      spawn,
      resolvePath: (path) => Effect.sync(() => resolve(path)),
      ...transport.files({ resolve, rawAbsolute })
    }
    return environment
  })
