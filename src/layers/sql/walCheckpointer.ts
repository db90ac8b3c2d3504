/**
 * WAL checkpoints off the event loop. SQLite's own checkpoint runs inside
 * the commit that crosses `wal_autocheckpoint` (1 000 pages): it copies the
 * log into the database file and syncs both, 10–15 ms here, during which
 * the whole runtime waits (one tool call in a few hundred took that much
 * longer, and a prompt batch spent ~6% of its CPU there). Here the
 * connection's own checkpoint is only a backstop (10 000 pages); a timer
 * looks at the log's size, and once it holds `thresholdPages` a worker
 * thread with its own connection checkpoints it (PASSIVE: writers go on,
 * and the next write after a complete pass starts the log again). Commits
 * keep their durability: only who copies the log into the file changes.
 *
 * The worker starts the first time the log needs it (short commands never
 * start one). If it cannot start or fails, the connection takes its own
 * checkpoints back at SQLite's default and a warning is logged.
 */
import { statSync } from "node:fs"
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Runtime } from "effect"

export interface WalCheckpointerOptions {
  /** The database file (its log is `<filename>-wal`). */
  readonly filename: string
  /** Sets the connection's own `wal_autocheckpoint` (pages), through its client. */
  readonly setAutocheckpoint: (pages: number) => Effect.Effect<void, SqlError>
  /** Checkpoint once the log holds this many pages (default 1 000, SQLite's own trigger). */
  readonly thresholdPages?: number | undefined
  /** How often the log's size is looked at (default 250 ms). */
  readonly intervalMs?: number | undefined
  /** The connection's own checkpoint, for when the worker falls behind (default 10 000 pages). */
  readonly backstopPages?: number | undefined
  /** The better-sqlite3 module the worker loads (default: the one this module resolves). */
  readonly driver?: string | undefined
}

export interface WalCheckpointer {
  /** Checkpoints the worker finished, and the last one's log and copied page counts. */
  readonly stats: () => { readonly checkpoints: number; readonly lastLog: number; readonly lastCheckpointed: number; readonly failed: boolean }
}

/** SQLite's default `wal_autocheckpoint`, restored when the worker is not there. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000
/** A WAL frame is a page plus its 24-byte header; the file starts with a 32-byte header. */
const walBytes = (pages: number, pageSize: number) => 32 + pages * (pageSize + 24)

/**
 * The worker, as CommonJS source run with `eval` (so it needs no file of its own in the bundle). It checkpoints
 * on each request, up to four passes while the writer keeps adding frames, and answers with the counts.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.driver)
const db = new Database(workerData.filename, { fileMustExist: true })
parentPort.on("message", (message) => {
  if (message === "close") { db.close(); parentPort.close(); return }
  try {
    let row, passes = 0
    do { row = db.pragma("wal_checkpoint(PASSIVE)")[0]; passes++ } while (row.busy === 0 && row.checkpointed < row.log && passes < 4)
    parentPort.postMessage({ ok: true, log: row.log, checkpointed: row.checkpointed })
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error && error.message || error) })
  }
})
`

interface WorkerAnswer {
  readonly ok: boolean
  readonly log?: number
  readonly checkpointed?: number
  readonly error?: string
}

/** Starts watching the log of `options.filename` (a file in WAL mode); stops, and closes the worker, with the scope. */
export const startWalCheckpointer = (options: WalCheckpointerOptions, pageSize: number) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const run = Runtime.runFork(runtime)
    const threshold = walBytes(options.thresholdPages ?? SQLITE_DEFAULT_AUTOCHECKPOINT, pageSize)
    const driver = options.driver ?? createRequire(import.meta.url).resolve("better-sqlite3")
    const walFile = `${options.filename}-wal`
    yield* options.setAutocheckpoint(options.backstopPages ?? 10 * SQLITE_DEFAULT_AUTOCHECKPOINT)

    let worker: Worker | undefined
    let busy = false
    let failed = false
    let closed = false
    let checkpoints = 0
    let lastLog = 0
    let lastCheckpointed = 0

    const giveUp = (why: string) => {
      if (failed || closed) return
      failed = true
      busy = false
      clearInterval(timer)
      const current = worker
      worker = undefined
      void current?.terminate().catch(() => undefined)
      run(
        options.setAutocheckpoint(SQLITE_DEFAULT_AUTOCHECKPOINT).pipe(
          Effect.ignore,
          Effect.zipRight(Effect.logWarning(`state database checkpoints are back on the main thread: ${why}`))
        )
      )
    }

    const spawn = (): Worker => {
      const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, filename: options.filename } })
      w.unref()
      w.on("message", (answer: WorkerAnswer) => {
        busy = false
        if (!answer.ok) return giveUp(answer.error ?? "unknown error")
        checkpoints++
        lastLog = answer.log ?? 0
        lastCheckpointed = answer.checkpointed ?? 0
      })
      w.on("error", (error) => giveUp(error.message))
      w.on("exit", (code) => {
        if (worker === w) giveUp(`the checkpoint worker exited (${code})`)
      })
      return w
    }

    const tick = () => {
      if (busy || failed || closed) return
      let size: number
      try {
        size = statSync(walFile).size
      } catch {
        return
      }
      if (size < threshold) return
      busy = true
      try {
        worker ??= spawn()
        worker.postMessage("check")
      } catch (error) {
        giveUp(error instanceof Error ? error.message : String(error))
      }
    }
    const timer = setInterval(tick, options.intervalMs ?? 250)
    timer.unref()

    yield* Effect.addFinalizer(() =>
      Effect.promise(() => {
        clearInterval(timer)
        closed = true
        const current = worker
        worker = undefined
        if (current === undefined) return Promise.resolve()
        // The worker closes its connection first, so the main one closes last and removes the log.
        return new Promise<void>((resolve) => {
          const kill = setTimeout(() => void current.terminate().finally(resolve), 2000)
          current.once("exit", () => {
            clearTimeout(kill)
            resolve()
          })
          current.postMessage("close")
        })
      })
    )
    const checkpointer: WalCheckpointer = { stats: () => ({ checkpoints, lastLog, lastCheckpointed, failed }) }
    return checkpointer
  })
