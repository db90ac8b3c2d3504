/**
 * A persistent shell: one long-lived `bash` per task environment, started on
 * the first command and owned by the environment's scope, that runs
 * foreground commands framed by `shellFrame.ts` instead of starting a process
 * for each. It is one more way for a transport to start a command: the
 * transport (host or exec) says how to launch the shell and how to stop its
 * process tree, and turns a frame's report into the cwd and exports it keeps.
 *
 * One command at a time: while a frame runs, `tryStart` answers undefined and
 * the transport starts that command the old way (a process of its own), so
 * concurrent calls of one task still run side by side.
 *
 * Stopping a command (timeout, interrupt) stops the shell's whole tree; its
 * EXIT trap still reports the cwd and exports, and the next command gets a new
 * shell. So does a shell that died (`kill $$`, `exec` of another program) or a
 * command that left a background job (`cmd &`), whose processes would
 * otherwise outlive the call, as they never did with a process per command.
 * A new shell starts from the environment's tracked cwd and latest exports.
 */
import { randomBytes, randomFillSync } from "node:crypto"
import { Deferred, Effect, Exit, FiberId, Option } from "effect"
import type { Scope } from "effect"
import { TerminalError } from "../../../services/TerminalBackend.js"
import { startChild } from "../child.js"
import type { ChildHandle } from "../child.js"
import type { Invocation, Launched, Outcome } from "../transport.js"
import { frameScript, makeFrameReader, SHELL_INIT } from "./shellFrame.js"
import type { FrameReport, FrameSpec } from "./shellFrame.js"
import { awaitReal } from "../awaitReal.js"

export interface ShellLaunch extends Invocation {
  readonly env: Readonly<Record<string, string>>
  /** The local process's directory (frames change to theirs anyway). */
  readonly cwd?: string | undefined
  /** Called once the shell's process has exited. */
  readonly done?: (() => void) | undefined
}

export interface PersistentShellConfig {
  /** How to start `bash` reading commands from stdin (`bash -s`, through nsenter, ssh or `exec`). */
  readonly launch: Effect.Effect<ShellLaunch, TerminalError>
  /** Lines after the frame setup, once per shell (e.g. writing its pid where a kill can find it). */
  readonly init?: ((generation: number) => string) | undefined
  /** Stop the shell's whole process tree (SIGTERM, grace, SIGKILL), given its local process. */
  readonly stopTree: (shell: ChildHandle, generation: number) => Effect.Effect<void>
  /** On close, end the shell with EOF (a remote shell; waits briefly) rather than stopping its tree. */
  readonly closeByEof?: boolean | undefined
  /** Why the shell's exit is the transport's failure (a lost connection), or undefined. */
  readonly failure?: ((code: number, diagnostics: string) => string | undefined) | undefined
}

export interface FrameEvents {
  readonly onData: (chunk: Buffer) => void
  /** The exit code, once, after the last `onData` and just before `ShellJob.exited` completes. */
  readonly onExit: (code: number) => void
}

/** One command running in the shell. */
export interface ShellJob {
  /** The shell's generation: which shell (1 = the first) ran it. */
  readonly generation: number
  readonly pid: number
  /** The exit code, once the frame is over (or the shell gone) and all output delivered. */
  readonly exited: Deferred.Deferred<number>
  /** What the frame reported (cwd, exports), as far as it got. */
  readonly report: () => Partial<FrameReport>
  readonly problem: () => string | undefined
  /** Stop the command (the whole shell when it still runs) and wait, bounded, for the end. */
  readonly stop: Effect.Effect<void>
}

/** A framed command as the engine sees any started command: no stdin, stop = release, the outcome from the frame. */
export const launchedFromJob = (job: ShellJob, collect: () => Outcome): Launched => ({
  pid: job.pid,
  pty: false,
  write: () => false,
  end: () => false,
  exited: job.exited,
  problem: job.problem,
  stop: job.stop,
  release: job.stop,
  collect: Effect.sync(collect)
})

/**
 * The functions the shell holds for the next command: what a finished frame
 * reported, none when the shell is being replaced (it ended, was stopped, or
 * left a background job), since a new shell starts with exports only.
 */
export const functionsAfter = (report: Partial<FrameReport>): ReadonlyArray<string> =>
  report.end === "X" && report.leftovers !== true ? (report.functions ?? []) : []

/** Whether a command may run in the task's shell: foreground, no PTY, no stdin data (those get a process each). */
export const frameable = (run: { readonly persist: boolean; readonly pty: boolean; readonly stdin: boolean }): boolean =>
  run.persist && !run.pty && !run.stdin

/** The export snapshot to source before a command: none when the running shell already holds it. */
export const snapshotToSource = (
  snapshot: string | undefined,
  generation: number,
  held: { readonly generation: number; readonly files: ReadonlySet<string> }
): string | undefined =>
  snapshot !== undefined && (generation === 0 || held.generation !== generation || !held.files.has(snapshot)) ? snapshot : undefined

export interface PersistentShell {
  /** Run a frame in the shell, starting one when there is none; undefined while another frame runs. */
  readonly tryStart: (frame: Omit<FrameSpec, "mark" | "seal">, events: FrameEvents) => Effect.Effect<ShellJob | undefined, TerminalError>
  /** The generation the next frame runs in (0 when there is no shell yet, or it is gone). */
  readonly generation: () => number
}

/** How long to wait for a stopped shell to report its end before dropping it. */
const EXIT_AFTER_KILL_MS = 3000
const DIAGNOSTICS_CHARS = 4000


interface Running {
  readonly onExit: (code: number) => void
  readonly reader: ReturnType<typeof makeFrameReader>
  readonly exited: Deferred.Deferred<number>
  report: Partial<FrameReport>
  quitting: boolean
  /** The shell's exit code, when it ended during this frame. */
  shellExit: number | undefined
  /** The shell is replaced after this frame whatever it reports (`FrameSpec.replaceAfter`). */
  readonly replaceAfter: boolean
}

interface Live {
  readonly generation: number
  readonly child: ChildHandle
  readonly gone: Deferred.Deferred<number>
  alive: boolean
  diagnostics: string
  current: Running | undefined
  /** Variables the last frame left with an attribute (see shellFrame.ts): the next frame drops it. */
  attributed: ReadonlyArray<string>
}

/** 96 random bits as hex for each frame's seal, drawn from a pool refilled 42 at a time (one system call, not one per frame). */
const sealSource = () => {
  const pool = Buffer.alloc(12 * 42)
  let at = pool.length
  return (): string => {
    if (at === pool.length) {
      randomFillSync(pool)
      at = 0
    }
    const hex = pool.toString("hex", at, at + 12)
    at += 12
    return hex
  }
}

export const makePersistentShell = (config: PersistentShellConfig): Effect.Effect<PersistentShell, never, Scope.Scope> =>
  Effect.gen(function*() {
    const token = randomBytes(8).toString("hex")
    const nextSeal = sealSource()
    let frames = 0
    let generations = 0
    let shell: Live | undefined
    let busy = false
    let closed = false

    const finish = (live: Live, running: Running, code: number) => {
      if (live.current !== running) return
      live.current = undefined
      busy = false
      running.onExit(code)
      Deferred.unsafeDone(running.exited, Exit.succeed(code))
    }

    /** Drop a shell that must not run another frame: stop its tree, and wait (bounded) until it is gone. */
    const retire = (live: Live): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (shell === live) shell = undefined
        if (!live.alive) return Effect.void
        return Effect.zipRight(config.stopTree(live.child, live.generation), Effect.asVoid(awaitReal(live.gone, EXIT_AFTER_KILL_MS))).pipe(
          Effect.zipRight(Effect.sync(() => {
            if (live.alive) live.child.kill()
          }))
        )
      })

    const spawn = Effect.gen(function*() {
      const launch = yield* config.launch
      const generation = ++generations
      const gone = Deferred.unsafeMake<number>(FiberId.none)
      // Filled right after startChild returns; output cannot arrive before the first frame is written.
      const holder: { live?: Live } = {}
      const child = yield* startChild(
        { file: launch.file, args: launch.args, cwd: launch.cwd, env: launch.env, pty: false, stdin: true },
        {
          onData: (chunk) => {
            const live = holder.live
            const running = live?.current
            // Over, waiting for a retired shell to go: what it still says is not this frame's.
            if (live === undefined || running === undefined || running.report.end === "X") return
            const pushed = running.reader.push(chunk)
            if (pushed === undefined) return
            const report = running.replaceAfter && pushed.end === "X" ? { ...pushed, leftovers: true } : pushed
            running.report = report
            live.attributed = report.attributed ?? []
            if (report.end === "Q") {
              running.quitting = true
              return
            }
            // Leftover jobs would outlive the call: the shell goes with them (its report is in), and the
            // frame ends once they are gone, as a command's leftovers died with its process before. So does a
            // shell whose report is incomplete: a new one starts from the state the runtime kept.
            if (report.leftovers) Effect.runFork(retire(live))
            else finish(live, running, report.code)
          },
          onStderr: (chunk) => {
            const live = holder.live
            if (live !== undefined) live.diagnostics = (live.diagnostics + chunk.toString("utf8")).slice(-DIAGNOSTICS_CHARS)
          },
          onExit: (code) => {
            launch.done?.()
            const live = holder.live
            if (live === undefined) return
            live.alive = false
            if (shell === live) shell = undefined
            const running = live.current
            if (running !== undefined) {
              const over = running.report.end === "X"
              const partial = over ? undefined : running.reader.flush()
              if (!running.quitting && partial !== undefined) running.report = { ...running.report, ...partial }
              if (!over) running.shellExit = code
              finish(live, running, over ? running.report.code ?? code : code)
            }
            Deferred.unsafeDone(gone, Exit.succeed(code))
          }
        }
      ).pipe(Effect.tapError(() => Effect.sync(() => launch.done?.())))
      const live: Live = { generation, child, gone, alive: true, diagnostics: "", current: undefined, attributed: [] }
      holder.live = live
      child.write(SHELL_INIT + (config.init?.(generation) ?? ""))
      return live
    })

    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        closed = true
        const live = shell
        if (live === undefined) return Effect.void
        if (config.closeByEof !== true || live.current !== undefined) return retire(live)
        shell = undefined
        live.child.end()
        return Effect.flatMap(awaitReal(live.gone, EXIT_AFTER_KILL_MS), (ended) => Effect.sync(() => {
          if (Option.isNone(ended)) live.child.kill()
        }))
      })
    )

    const tryStart = (frame: Omit<FrameSpec, "mark" | "seal">, events: FrameEvents): Effect.Effect<ShellJob | undefined, TerminalError> =>
      Effect.suspend(() => {
        if (busy || closed) return Effect.succeed(undefined)
        busy = true
        const current = shell !== undefined && shell.alive ? Effect.succeed(shell) : Effect.tap(spawn, (live) => Effect.sync(() => {
          shell = live
        }))
        return current.pipe(
          Effect.tapError(() => Effect.sync(() => {
            busy = false
          })),
          Effect.map((live): ShellJob => {
            const mark = `__HERMES_${token}_${++frames}__`
            // Unguessable from the mark: the shell only learns it once the command has ended (shellFrame.ts).
            const seal = `__HERMES_${token}_${frames}_${nextSeal()}__`
            const running: Running = {
              onExit: events.onExit,
              reader: makeFrameReader(mark, seal, events.onData, frame.envFile === undefined || frame.exportsInStream === true),
              exited: Deferred.unsafeMake<number>(FiberId.none),
              report: {},
              quitting: false,
              shellExit: undefined,
              replaceAfter: frame.replaceAfter === true
            }
            live.current = running
            if (!live.child.write(frameScript({ ...frame, mark, seal, dropAttributes: live.attributed }))) finish(live, running, 1)
            const job: ShellJob = {
              generation: live.generation,
              pid: live.child.pid,
              exited: running.exited,
              report: () => running.report,
              // Gone without a word from the frame: maybe the connection, not the command.
              problem: () =>
                running.report.end === undefined && running.shellExit !== undefined
                  ? config.failure?.(running.shellExit, live.diagnostics)
                  : undefined,
              stop: Effect.suspend(() =>
                Effect.flatMap(Deferred.isDone(running.exited), (done) => {
                  if (done) return Effect.void
                  // The command runs in the shell: stopping it is stopping the shell (its trap still reports).
                  return Effect.zipRight(retire(live), Effect.asVoid(awaitReal(running.exited, EXIT_AFTER_KILL_MS))).pipe(
                    Effect.zipRight(Effect.sync(() => finish(live, running, 137)))
                  )
                })
              ).pipe(Effect.uninterruptible)
            }
            return job
          })
        )
      })

    return {
      tryStart,
      generation: () => (shell !== undefined && shell.alive ? shell.generation : 0)
    }
  })
