/**
 * The scheduler on TestClock, in process, with the scripted model and a real state.db:
 * runs land on the right instants, missed slots run once, leases keep a job to one owner.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { OUTPUT_RETENTION } from "../../src/layers/cron/runJob.js"
import { CronJobs, CronScheduler } from "../../src/services/CronJobs.js"
import { SessionStore } from "../../src/services/SessionStore.js"
import { scriptedAgent } from "../agent/helpers.js"

const T0 = Date.parse("2026-01-01T10:00:30Z")
const at = (hhmmss: string) => Date.parse(`2026-01-01T${hhmmss}Z`)

/** Real time passes (file and database work of a run), the test clock does not. */
const realWait = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

const runsOf = (jobId: string) => Effect.flatMap(CronJobs, (s) => s.history({ jobId, limit: 100 }))

const waitForRuns = (jobId: string, count: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < 250; i++) {
      const runs = yield* runsOf(jobId)
      if (runs.length >= count) return runs
      yield* realWait(20)
    }
    return yield* runsOf(jobId)
  })

/** The runtime starts at T0: its background fibers sleep on the test clock, so the clock is set before they start. */
const atT0 = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.zipRight(TestClock.setTime(T0), Effect.provide(body, scriptedAgent([{ content: "All quiet.", repeat: true }]).layer))

describe("cron scheduler", () => {
  it.scoped("a job every minute runs at each minute, and not in between", () =>
    atT0(Effect.gen(function*() {
      const store = yield* CronJobs
      const job = yield* store.create({ prompt: "Report the time.", schedule: "* * * * *", tz: "UTC", name: "minutely" })
      expect(job.nextRunAt).toBe(at("10:01:00"))
      yield* Effect.forkScoped(Effect.flatMap(CronScheduler, (s) => s.daemon({ owner: "test-daemon" })))
      yield* realWait(100)
      yield* TestClock.adjust("29 seconds")
      yield* realWait(100)
      expect(yield* runsOf(job.id)).toHaveLength(0)
      yield* TestClock.adjust("1 second")
      expect(yield* waitForRuns(job.id, 1)).toHaveLength(1)
      yield* TestClock.adjust("1 minute")
      yield* waitForRuns(job.id, 2)
      yield* TestClock.adjust("1 minute")
      const runs = [...(yield* waitForRuns(job.id, 3))].reverse()
      expect(runs.map((r) => r.startedAt)).toEqual([at("10:01:00"), at("10:02:00"), at("10:03:00")])
      expect(runs.map((r) => r.scheduledFor)).toEqual([at("10:01:00"), at("10:02:00"), at("10:03:00")])
      expect(runs.every((r) => r.status === "ok" && r.owner === "test-daemon" && !r.manual)).toBe(true)
      // Each run is its own `cron` session; its output document is on disk.
      const session = yield* Effect.flatMap(SessionStore, (s) => s.get(runs[0]!.sessionId!))
      expect(session.source).toBe("cron")
      expect(runs[0]!.outputPath).toMatch(new RegExp(`/cron/output/${job.id}/2026-01-01_10-01-00\\.md$`))
      expect(readFileSync(runs[0]!.outputPath!, "utf8")).toContain("## Response\n\nAll quiet.")
      const after = Option.getOrThrow(yield* store.get(job.id))
      expect(after).toMatchObject({ nextRunAt: at("10:04:00"), lastStatus: "ok", repeatCompleted: 3 })
    })))

  it.scoped("slots missed while no scheduler ran are caught up once, not one run per slot", () =>
    atT0(Effect.gen(function*() {
      const store = yield* CronJobs
      const scheduler = yield* CronScheduler
      const job = yield* store.create({ prompt: "Digest.", schedule: "every 1m", tz: "UTC" })
      yield* TestClock.adjust("10 minutes")
      expect(yield* scheduler.tick({ owner: "late" })).toHaveLength(1)
      expect(yield* scheduler.tick({ owner: "late" })).toHaveLength(0)
      expect(Option.getOrThrow(yield* store.get(job.id)).nextRunAt).toBe(T0 + 11 * 60_000)
    })))

  it.scoped("a lease keeps a due job to one owner until it expires; a one-shot is removed after its run", () =>
    atT0(Effect.gen(function*() {
      const store = yield* CronJobs
      const job = yield* store.create({ prompt: "Once.", schedule: "in 1m", tz: "UTC" })
      expect(Option.isNone(yield* store.claim(job.id, "a", 30_000))).toBe(true) // not due yet
      yield* TestClock.adjust("1 minute")
      expect(Option.isSome(yield* store.claim(job.id, "a", 30_000))).toBe(true)
      expect(Option.isNone(yield* store.claim(job.id, "b", 30_000))).toBe(true)
      expect(yield* store.due).toHaveLength(0)
      expect(yield* store.renew(job.id, "b", 30_000)).toBe(false)
      // Owner a died: after the lease runs out, b takes the job over and runs it.
      yield* TestClock.adjust("31 seconds")
      expect(yield* store.due).toHaveLength(1)
      const ran = yield* Effect.flatMap(CronScheduler, (s) => s.tick({ owner: "b" }))
      expect(ran.map((r) => r.owner)).toEqual(["b"])
      expect(Option.isNone(yield* store.get(job.id))).toBe(true)
      expect(yield* runsOf(job.id)).toHaveLength(1)
      expect(existsSync(ran[0]!.outputPath!)).toBe(true)
    })))

  it.scoped("a run whose model fails is recorded as an error, with a FAILED output document", () =>
    Effect.gen(function*() {
      const store = yield* CronJobs
      const job = yield* store.create({ prompt: "Check the feed.", schedule: "every 1h", tz: "UTC", name: "feed" })
      const result = yield* Effect.flatMap(CronScheduler, (s) => s.runNow(job.id, { owner: "manual" }))
      if (result._tag !== "Ran") throw new Error(result.reason)
      expect(result.run).toMatchObject({ status: "error", manual: true, error: expect.stringContaining("denied") })
      const doc = readFileSync(result.run.outputPath!, "utf8")
      expect(doc).toMatch(/^# Cron Job: feed \(FAILED\)\n/)
      expect(Option.getOrThrow(yield* store.get(job.id))).toMatchObject({ lastStatus: "error", nextRunAt: expect.any(Number) })
    }).pipe(Effect.provide(scriptedAgent([{ error: { type: "auth", message: "access denied" }, repeat: true }]).layer)))

  it.scoped("output documents are kept to the newest OUTPUT_RETENTION per job", () =>
    atT0(Effect.gen(function*() {
      const store = yield* CronJobs
      const scheduler = yield* CronScheduler
      const job = yield* store.create({ prompt: "Again.", schedule: "every 1h", tz: "UTC" })
      for (let i = 0; i < OUTPUT_RETENTION + 2; i++) {
        yield* scheduler.runNow(job.id, { owner: "retention" })
        yield* TestClock.adjust("1 minute")
      }
      const docs = readdirSync(join(dirname((yield* runsOf(job.id))[0]!.outputPath!))).sort()
      expect(docs).toHaveLength(OUTPUT_RETENTION)
      expect(docs[0]).toBe("2026-01-01_10-02-30.md")
    })), 60_000)
})
