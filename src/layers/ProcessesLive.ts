/**
 * Background processes over the task environments.
 *
 * Each process is one fiber in a FiberMap keyed by its id: the fiber owns the
 * scope the process was spawned in, reads its output into a rolling buffer,
 * and records the exit. Interrupting the fiber (kill by session, or closing
 * the runtime, which closes the FiberMap) closes that scope, and the backend
 * kills the process tree. Closing the scope, however it happens (the process
 * ended, was killed, or the runtime is closing), also kills whatever still
 * carries the process's marker: what it started outside its group.
 *
 * Text typed into a process is judged with the input it continues
 * (`processes/typedInput.ts`), in the language of every program that may read
 * it (`processes/inputLanguage.ts`), with what the starting command set up
 * for them (`processes/readerSetup.ts`); writes to one process are serialised
 * so the kept input always matches what was written.
 */
import { randomBytes } from "node:crypto"
import { posix } from "node:path"
import { Clock, Deferred, Effect, FiberMap, Layer, Queue, Stream } from "effect"
import { Approval, CommandDenied } from "../services/Approval.js"
import type { ApprovalService, InputReader } from "../services/Approval.js"
import { Config } from "../services/Config.js"
import type { HermesConfig } from "../services/Config.js"
import { Environments } from "../services/Environments.js"
import { Processes, ProcessLimitReached, ProcessNotFound, ProcessStdinUnavailable, TOOL_PROCESS_VARIABLE } from "../services/Processes.js"
import type { CompletionReason, ProcessInfo, ProcessNotification, ProcessesService, StartRequest } from "../services/Processes.js"
import type { ApprovedCommand, RunningProcess, TerminalEnvironment, TerminalError } from "../services/TerminalBackend.js"
import type { ToolCallContext } from "../services/ToolContext.js"
import { approveCommand, approveInput } from "./terminal/commandGate.js"
import { inputReaders } from "./processes/inputLanguage.js"
import { killMarked } from "./processes/markedProcesses.js"
import { codeRebindsKeys, readerSetup, shellRebindsKeys } from "./processes/readerSetup.js"
import type { ReaderSetup } from "./processes/readerSetup.js"
import { planInput } from "./processes/typedInput.js"
import { replReadings } from "./processes/replReadings.js"
import { replsOf } from "./processes/replEscapes.js"
import type { Repl } from "./processes/replEscapes.js"
import type { InputPlan, JudgedText } from "./processes/typedInput.js"
import { redactToolOutput, tailText } from "../lib/text.js"
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

/** Running at once, per task and per runtime: `terminal.max_background_per_task` / `terminal.max_background`. */
const runningCaps = (config: HermesConfig) => ({
  perTask: config.terminal.max_background_per_task,
  total: config.terminal.max_background
})

/** Typed into a shell whose directory the starting command changed in a way not known before it runs. */
export const UNKNOWN_READER_DIR_DESCRIPTION =
  "typed into a shell whose working directory its command changed in a way not known before it runs"
/** Typed after the keys were given other meanings (`stty`, `bind`, INPUTRC): what runs is not what was sent. */
export const REBOUND_KEYS_DESCRIPTION = "changes what typed keys do (terminal settings, readline key bindings)"

interface ProcessRecord {
  readonly id: string
  readonly command: string
  readonly cwd: string
  /** Where it started, absolute: the directory its readers' relative paths count from. */
  readonly startDir: string
  readonly taskId: string
  readonly sessionId: string | undefined
  readonly startedAt: number
  readonly handle: RunningProcess
  readonly env: TerminalEnvironment
  /** Every language text typed into it may be read as. */
  readonly readers: ReadonlyArray<InputReader>
  /** What the starting command set up for them (variables, directory, PATH, keys). */
  readonly setup: ReaderSetup
  /** REPLs among them that read commands of their own (IPython's `!`, node's `.load`): see processes/replEscapes.ts. */
  readonly repls: ReadonlyArray<Repl>
  /** Serialises writes, so `typed` always matches what was written. */
  readonly writing: Effect.Semaphore
  /**
   * What was written so far, raw (see typedInput.ts): judged with each new write, so names bound earlier
   * (`import shutil as s`, `alias x=rm`) are known when a later line uses them.
   */
  typed: string
  /** Text already written changed what keys do: nothing typed from then on is judged as sent. */
  keysChanged: boolean
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

/** What every process a background process starts carries: found and killed when it ends. */
const processMarker = (id: string) => `${TOOL_PROCESS_VARIABLE}=${id}`

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

/** What the starting command set up for its readers; a `cd` by name is a lookup in CDPATH when the task exports one. */
const setupOf = (command: string, env: TerminalEnvironment): Effect.Effect<ReaderSetup> =>
  Effect.map(env.variables, (variables) => {
    const setup = readerSetup(command)
    const cdpath = (variables["CDPATH"] ?? "") !== ""
    return cdpath && setup.dirs !== null && setup.dirs.some((d) => d !== "." && !d.startsWith("/")) ? { ...setup, dirs: null } : setup
  })

/** Whether one reading of the typed text gives keys other meanings from then on. */
const rebindsKeys = (reading: JudgedText): boolean =>
  reading.language === "shell" ? shellRebindsKeys(reading.text) : codeRebindsKeys(reading.text)

/**
 * Every reading of the typed text, in every language and (for a shell) every directory its reader may stand in,
 * must be approved; the first refusal stops the write.
 */
const approveTyped = (
  approval: ApprovalService,
  r: ProcessRecord,
  context: ToolCallContext,
  plan: Extract<InputPlan, { readonly _tag: "Judge" }>,
  rebinds: boolean
): Effect.Effect<ApprovedCommand, CommandDenied> =>
  Effect.gen(function*() {
    let approved: ApprovedCommand | undefined
    for (const reading of plan.judged) {
      const shell = reading.language === "shell"
      const dirs = shell && r.setup.dirs !== null ? r.setup.dirs : ["."]
      const keys = rebinds || r.keysChanged || r.setup.keysChanged
      const uncertain = keys
        ? REBOUND_KEYS_DESCRIPTION
        : shell && r.setup.dirs === null
        ? UNKNOWN_READER_DIR_DESCRIPTION
        : reading.uncertain
      for (const dir of dirs) {
        approved = yield* approveInput(approval, r.env, context, reading.text, plan.written, reading.language, {
          cwd: posix.resolve(r.startDir, dir),
          variablesUnknown: r.setup.variablesUnknown,
          pathUnknown: r.setup.pathUnknown,
          uncertain
        })
      }
    }
    if (approved !== undefined) return approved
    // planInput always gives a reading; without one nothing was judged, so nothing is written.
    return yield* Effect.fail(
      new CommandDenied({ command: plan.written, description: null, hardline: false, decidedBy: "policy", reason: "Blocked: nothing to judge." })
    )
  })

export const ProcessesLive: Layer.Layer<Processes, never, Environments | Approval | Config> = Layer.scoped(
  Processes,
  Effect.gen(function*() {
    const environments = yield* Environments
    const approval = yield* Approval
    const config = yield* Config
    const fibers = yield* FiberMap.make<string>()
    const notifications = yield* Queue.unbounded<ProcessNotification>()
    const records = new Map<string, ProcessRecord>()
    const globalWatch = makeGlobalWatchState()
    /** Starts approved but not yet registered, per task: they count against the caps. */
    const starting = new Map<string, number>()

    /** Check the caps and hold a place; nothing yields between the check and the hold. */
    const reserve = (taskId: string) =>
      Effect.gen(function*() {
        const caps = runningCaps(yield* config.current)
        let total = 0
        let task = 0
        for (const r of records.values()) {
          if (r.exitCode !== null) continue
          total++
          if (r.taskId === taskId) task++
        }
        for (const [t, n] of starting) {
          total += n
          if (t === taskId) task += n
        }
        if (task >= caps.perTask) {
          return yield* Effect.fail(new ProcessLimitReached({ scope: "task", limit: caps.perTask, key: "terminal.max_background_per_task" }))
        }
        if (total >= caps.total) {
          return yield* Effect.fail(new ProcessLimitReached({ scope: "runtime", limit: caps.total, key: "terminal.max_background" }))
        }
        starting.set(taskId, (starting.get(taskId) ?? 0) + 1)
      })
    const unreserve = (taskId: string) =>
      Effect.sync(() => {
        const left = (starting.get(taskId) ?? 1) - 1
        if (left > 0) starting.set(taskId, left)
        else starting.delete(taskId)
      })

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
            output: redactToolOutput(tailText(matched.join("\n"), PROCESS_LIMITS.completionOutputChars), r.command),
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
            output: redactToolOutput(tailText(r.buffer, PROCESS_LIMITS.completionOutputChars), r.command)
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
        const approved = yield* approveCommand(approval, env, context, request.command, request.pty === true ? "pty" : "background", undefined, request.cwd)
        yield* reserve(context.taskId)
        return yield* Effect.ensuring(launch(request, env, approved), unreserve(context.taskId))
      })

    const launch = (request: StartRequest, env: TerminalEnvironment, approved: ApprovedCommand) =>
      Effect.gen(function*() {
        const { context } = request
        yield* prune
        const id = newId()
        const cwd = request.cwd ?? (yield* env.cwd)
        const startedAt = yield* Clock.currentTimeMillis
        const started = yield* Deferred.make<ProcessRecord, TerminalError>()
        const watchPatterns = request.notifyOnComplete === true ? [] : (request.watchPatterns ?? []).filter((p) => p.length > 0)

        const lifecycle = Effect.gen(function*() {
          // Added before the spawn, so it runs after the backend has stopped the process's group.
          yield* Effect.addFinalizer(() => Effect.asVoid(killMarked(processMarker(id))))
          const handle = yield* env.spawn(approved, {
            cwd,
            pty: request.pty === true,
            env: { PYTHONUNBUFFERED: "1", [TOOL_PROCESS_VARIABLE]: id }
          })
          const record: ProcessRecord = {
            id,
            command: request.command,
            cwd,
            startDir: posix.isAbsolute(cwd) ? cwd : posix.join(yield* env.cwd, cwd),
            taskId: context.taskId,
            sessionId: context.sessionId,
            startedAt,
            handle,
            env,
            readers: inputReaders(request.command, 0, request.pty === true),
            setup: yield* setupOf(request.command, env),
            repls: replsOf(request.command),
            writing: yield* Effect.makeSemaphore(1),
            typed: "",
            keysChanged: false,
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
        // What it started outside its group; its scope closing does this too, but later.
        yield* killMarked(processMarker(r.id))
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
      Effect.flatMap(stdinTarget(id), (r) =>
        r.writing.withPermits(1)(Effect.gen(function*() {
          const plan = planInput(r.typed, data, { pty: r.handle.pty, readers: r.readers })
          if (plan._tag === "Refused") {
            return yield* Effect.fail(
              new CommandDenied({ command: data, description: null, hardline: false, decidedBy: "policy", reason: plan.reason })
            )
          }
          const rebinds = plan.judged.some(rebindsKeys)
          const judged = [...plan.judged, ...replReadings(r.repls, plan.judged, r.handle.pty)]
          const approved = yield* approveTyped(approval, r, context, { ...plan, judged }, rebinds)
          yield* r.handle.write(approved)
          r.typed = plan.typed
          r.keysChanged ||= rebinds
          return data.length
        })))

    const closeStdin: ProcessesService["closeStdin"] = (id) =>
      Effect.gen(function*() {
        const r = yield* stdinTarget(id)
        yield* r.handle.closeStdin
        r.stdinClosed = true
      })

    const closeWhere = (predicate: (r: ProcessRecord) => boolean) =>
      Effect.gen(function*() {
        const targets = [...records.values()].filter((r) => r.exitCode === null && predicate(r))
        // Most tasks (a batch prompt, say) end with nothing running: skip the concurrent forEach's set-up.
        if (targets.length === 0) return 0
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
