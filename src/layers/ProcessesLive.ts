/**
 * Background processes over the task environments.
 *
 * Each process is one fiber in a FiberMap keyed by its id: the fiber owns the
 * scope the process was spawned in, reads its output into a rolling buffer,
 * and records the exit. Interrupting the fiber (kill by session, or closing
 * the runtime, which closes the FiberMap) closes that scope, and the backend
 * kills the process tree.
 */
import { randomBytes } from "node:crypto"
import { Clock, Deferred, Effect, FiberMap, Layer, Queue, Stream } from "effect"
import { Approval } from "../services/Approval.js"
import { Environments } from "../services/Environments.js"
import { Processes, ProcessNotFound, ProcessStdinUnavailable } from "../services/Processes.js"
import type { CompletionReason, ProcessInfo, ProcessNotification, ProcessesService } from "../services/Processes.js"
import type { RunningProcess, TerminalError } from "../services/TerminalBackend.js"
import { approveCommand } from "./terminal/commandGate.js"
import { redactSecrets, tailText } from "./terminal/outputText.js"
import { makeGlobalWatchState, makeWatchState, onWatchMatch } from "./processes/watchLimiter.js"
import type { ProcessWatchState } from "./processes/watchLimiter.js"

export const PROCESS_LIMITS = {
  /** Rolling output buffer per process. */
  maxOutputChars: 200_000,
  /** Finished processes are forgotten after this long. */
  finishedTtlMs: 1_800_000,
  /** Most processes tracked; the oldest finished ones go first. */
  maxProcesses: 64,
  /** Output carried by a completion notification. */
  completionOutputChars: 2000
} as const

interface ProcessRecord {
  readonly id: string
  readonly command: string
  readonly cwd: string
  readonly taskId: string
  readonly sessionId: string | undefined
  readonly startedAt: number
  readonly handle: RunningProcess
  readonly exited: Deferred.Deferred<void>
  readonly watchPatterns: ReadonlyArray<string>
  readonly watch: ProcessWatchState
  notifyOnComplete: boolean
  watchHit: boolean
  buffer: string
  outputChars: number
  /** Unfinished last line, for watch-pattern matching. */
  partialLine: string
  exitCode: number | null
  completionReason: CompletionReason | undefined
  finishedAt: number | undefined
  /** Set before a deliberate stop, so the exit is reported as killed. */
  killRequested: boolean
  stdinClosed: boolean
  /** `wait` calls in progress: an exit they observe needs no notification. */
  waiters: number
}

const newId = () => `proc_${randomBytes(6).toString("hex")}`

const info = (r: ProcessRecord): ProcessInfo => ({
  id: r.id,
  command: r.command,
  cwd: r.cwd,
  pid: r.handle.pid,
  taskId: r.taskId,
  sessionId: r.sessionId,
  startedAt: r.startedAt,
  status: r.exitCode === null ? "running" : "exited",
  exitCode: r.exitCode,
  completionReason: r.completionReason,
  pty: r.handle.pty,
  notifyOnComplete: r.notifyOnComplete,
  watchPatterns: r.watchPatterns,
  watchHit: r.watchHit,
  outputChars: r.outputChars
})

/** SIGTERM, as Hermes reports a killed process. */
const KILLED_EXIT_CODE = -15

export const ProcessesLive: Layer.Layer<Processes, never, Environments | Approval> = Layer.scoped(
  Processes,
  Effect.gen(function*() {
    const environments = yield* Environments
    const approval = yield* Approval
    const fibers = yield* FiberMap.make<string>()
    const notifications = yield* Queue.unbounded<ProcessNotification>()
    const records = new Map<string, ProcessRecord>()
    const globalWatch = makeGlobalWatchState()

    const lookup = (id: string) =>
      Effect.suspend(() => {
        const record = records.get(id)
        return record === undefined ? Effect.fail(new ProcessNotFound({ id })) : Effect.succeed(record)
      })

    const base = (r: ProcessRecord) => ({ processId: r.id, command: r.command, taskId: r.taskId, sessionId: r.sessionId })

    const onOutput = (r: ProcessRecord, text: string) =>
      Effect.gen(function*() {
        r.outputChars += text.length
        r.buffer += text
        // Trim in steps, not per chunk, so appending stays cheap.
        if (r.buffer.length > PROCESS_LIMITS.maxOutputChars * 1.25) r.buffer = r.buffer.slice(-PROCESS_LIMITS.maxOutputChars)
        if (r.watchPatterns.length === 0 || r.watch.disabled) return
        const lines = (r.partialLine + text).split("\n")
        r.partialLine = (lines.pop() ?? "").slice(-PROCESS_LIMITS.maxOutputChars)
        const matched = lines.filter((line) => r.watchPatterns.some((p) => line.includes(p)))
        if (matched.length === 0) return
        r.watchHit = true
        const verdict = onWatchMatch(r.watch, globalWatch, yield* Clock.currentTimeMillis)
        if (verdict._tag === "Deliver") {
          const pattern = r.watchPatterns.find((p) => matched[0]!.includes(p)) ?? r.watchPatterns[0]!
          yield* Queue.offer(notifications, {
            ...base(r),
            type: "watch_match",
            pattern,
            output: redactSecrets(tailText(matched.join("\n"), PROCESS_LIMITS.completionOutputChars), r.command),
            suppressed: verdict.suppressed
          })
        } else if (verdict._tag === "Disable") {
          r.notifyOnComplete = true
          yield* Queue.offer(notifications, {
            ...base(r),
            type: "watch_disabled",
            message: "watch_patterns disabled after repeated matches inside the 15 s cooldown; you will be notified once when the process exits instead."
          })
        }
      })

    const finish = (r: ProcessRecord, code: number, reason: CompletionReason) =>
      Effect.gen(function*() {
        if (r.exitCode !== null) return
        r.exitCode = reason === "killed" ? KILLED_EXIT_CODE : code
        r.completionReason = reason
        r.finishedAt = yield* Clock.currentTimeMillis
        // Someone deliberately stopped it, or is waiting on it: they see the result directly.
        if (r.notifyOnComplete && reason === "exited" && r.waiters === 0) {
          yield* Queue.offer(notifications, {
            ...base(r),
            type: "completion",
            exitCode: r.exitCode,
            completionReason: reason,
            output: redactSecrets(tailText(r.buffer, PROCESS_LIMITS.completionOutputChars), r.command)
          })
        }
        yield* Deferred.succeed(r.exited, undefined)
      })

    /** Forget expired finished processes, then the oldest finished ones while over the cap. */
    const prune = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const finished = [...records.values()].filter((r) => r.finishedAt !== undefined)
      for (const r of finished) if (now - r.finishedAt! > PROCESS_LIMITS.finishedTtlMs) records.delete(r.id)
      const remaining = finished.filter((r) => records.has(r.id)).sort((a, b) => a.startedAt - b.startedAt)
      while (records.size >= PROCESS_LIMITS.maxProcesses && remaining.length > 0) records.delete(remaining.shift()!.id)
    })

    const start: ProcessesService["start"] = (request) =>
      Effect.gen(function*() {
        const { context } = request
        const env = yield* environments.get(context.taskId)
        const approved = yield* approveCommand(approval, env, context, request.command, request.pty === true ? "pty" : "background")
        yield* prune
        const id = newId()
        const cwd = request.cwd ?? (yield* env.cwd)
        const startedAt = yield* Clock.currentTimeMillis
        const started = yield* Deferred.make<ProcessRecord, TerminalError>()
        const watchPatterns = request.notifyOnComplete === true ? [] : (request.watchPatterns ?? []).filter((p) => p.length > 0)

        const lifecycle = Effect.gen(function*() {
          const handle = yield* env.spawn(approved, { cwd, pty: request.pty === true, env: { PYTHONUNBUFFERED: "1" } })
          const record: ProcessRecord = {
            id,
            command: request.command,
            cwd,
            taskId: context.taskId,
            sessionId: context.sessionId,
            startedAt,
            handle,
            exited: yield* Deferred.make<void>(),
            watchPatterns,
            watch: makeWatchState(),
            notifyOnComplete: request.notifyOnComplete === true,
            watchHit: false,
            buffer: "",
            outputChars: 0,
            partialLine: "",
            exitCode: null,
            completionReason: undefined,
            finishedAt: undefined,
            killRequested: false,
            stdinClosed: false,
            waiters: 0
          }
          records.set(id, record)
          yield* Deferred.succeed(started, record)
          yield* Effect.onInterrupt(
            Effect.gen(function*() {
              yield* Stream.runForEach(handle.output, (text) => onOutput(record, text))
              const code = yield* handle.exitCode
              yield* finish(record, code, record.killRequested ? "killed" : "exited")
            }),
            // Interrupted: a session or the runtime is closing; the scope kills the process.
            () => finish(record, KILLED_EXIT_CODE, "killed")
          )
        }).pipe(
          Effect.scoped,
          Effect.catchAll((error) => Deferred.fail(started, error)),
          Effect.onInterrupt(() => Deferred.interrupt(started))
        )

        yield* FiberMap.run(fibers, id, lifecycle)
        return { ...info(yield* Deferred.await(started)), approval: approved.grant }
      })

    const wait: ProcessesService["wait"] = (id, timeout) =>
      Effect.gen(function*() {
        const r = yield* lookup(id)
        if (r.exitCode === null) {
          r.waiters++
          yield* Deferred.await(r.exited).pipe(
            Effect.timeoutOption(timeout),
            Effect.ensuring(Effect.sync(() => r.waiters--))
          )
        }
        return info(r)
      })

    const kill: ProcessesService["kill"] = (id) =>
      Effect.gen(function*() {
        const r = yield* lookup(id)
        if (r.exitCode !== null) return { info: info(r), alreadyExited: true }
        r.killRequested = true
        yield* r.handle.kill
        yield* Deferred.await(r.exited)
        return { info: info(r), alreadyExited: false }
      })

    const stdinTarget = (id: string) =>
      Effect.flatMap(lookup(id), (r) =>
        r.exitCode !== null
          ? Effect.fail(new ProcessStdinUnavailable({ id, reason: "exited" }))
          : r.stdinClosed
          ? Effect.fail(new ProcessStdinUnavailable({ id, reason: "closed" }))
          : Effect.succeed(r))

    const write: ProcessesService["write"] = (id, data, context) =>
      Effect.gen(function*() {
        const r = yield* stdinTarget(id)
        const approved = yield* approveCommand(approval, environments.backend, context, data, "process-write")
        yield* r.handle.write(approved)
        return data.length
      })

    const closeStdin: ProcessesService["closeStdin"] = (id) =>
      Effect.gen(function*() {
        const r = yield* stdinTarget(id)
        yield* r.handle.closeStdin
        r.stdinClosed = true
      })

    const closeWhere = (predicate: (r: ProcessRecord) => boolean) =>
      Effect.gen(function*() {
        const targets = [...records.values()].filter((r) => r.exitCode === null && predicate(r))
        for (const r of targets) r.killRequested = true
        yield* Effect.forEach(targets, (r) => FiberMap.remove(fibers, r.id), { concurrency: "unbounded", discard: true })
        return targets.length
      })

    return Processes.of({
      start,
      get: (id) => Effect.map(lookup(id), info),
      list: (filter) =>
        Effect.sync(() =>
          [...records.values()]
            .filter((r) =>
              filter === undefined ||
              (filter.taskId !== undefined && r.taskId === filter.taskId) ||
              (filter.sessionId !== undefined && r.sessionId === filter.sessionId) ||
              (filter.taskId === undefined && filter.sessionId === undefined))
            .map(info)
        ),
      output: (id) =>
        Effect.map(lookup(id), (r) =>
          r.buffer.length > PROCESS_LIMITS.maxOutputChars ? r.buffer.slice(-PROCESS_LIMITS.maxOutputChars) : r.buffer),
      wait,
      kill,
      write,
      closeStdin,
      notifications,
      drainNotifications: Effect.map(Queue.takeAll(notifications), (chunk) => [...chunk]),
      hasRunning: (taskId) => Effect.sync(() => [...records.values()].some((r) => r.taskId === taskId && r.exitCode === null)),
      closeSession: (sessionId) => closeWhere((r) => r.sessionId === sessionId),
      closeTask: (taskId) => closeWhere((r) => r.taskId === taskId)
    })
  })
)
