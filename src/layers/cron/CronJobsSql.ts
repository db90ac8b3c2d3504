/**
 * CronJobs on the state database. Claims are single statements (an upsert on
 * `cron_leases` guarded by the job being due and the old lease having expired),
 * so two schedulers on one home never both get a job; SQLite serialises them.
 * Database failures are defects, as in the other stores on this file.
 */
import { SqlClient } from "@effect/sql"
import { randomBytes } from "node:crypto"
import { Clock, Effect, Either, Layer, Option } from "effect"
import { defaultTimeZone, firstRun, nextRunAfter, parseSchedule, validTimeZone, wallClock } from "../../lib/cron/schedule.js"
import type { Schedule } from "../../lib/cron/schedule.js"
import { AmbiguousCronJob, CronJobNotFound, CronJobs, InvalidSchedule } from "../../services/CronJobs.js"
import type { CronJob, CronJobPatch, CronModel, CronRun, NewCronJob, RunOutcome } from "../../services/CronJobs.js"

interface JobRow {
  readonly id: string
  readonly name: string
  readonly prompt: string
  readonly skills: string
  readonly model: string | null
  readonly enabled_toolsets: string | null
  readonly deliver: string
  readonly workdir: string | null
  readonly schedule: string
  readonly tz: string
  readonly repeat_times: number | null
  readonly repeat_completed: number
  readonly enabled: number
  readonly state: string
  readonly paused_at: number | null
  readonly paused_reason: string | null
  readonly created_at: number
  readonly next_run_at: number | null
  readonly last_run_at: number | null
  readonly last_status: string | null
  readonly last_error: string | null
}

interface RunRow {
  readonly id: number
  readonly job_id: string
  readonly job_name: string
  readonly scheduled_for: number | null
  readonly started_at: number
  readonly finished_at: number
  readonly status: string
  readonly session_id: string | null
  readonly output_path: string | null
  readonly error: string | null
  readonly owner: string
  readonly manual: number
}

const jsonList = (text: string | null): ReadonlyArray<string> | null => {
  if (text === null) return null
  const value: unknown = JSON.parse(text)
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []
}

export const jobOf = (row: JobRow): CronJob => ({
  id: row.id,
  name: row.name,
  prompt: row.prompt,
  skills: jsonList(row.skills) ?? [],
  model: row.model === null ? null : (JSON.parse(row.model) as CronModel),
  enabledToolsets: jsonList(row.enabled_toolsets),
  deliver: row.deliver,
  workdir: row.workdir,
  schedule: JSON.parse(row.schedule) as Schedule,
  tz: row.tz,
  repeatTimes: row.repeat_times,
  repeatCompleted: row.repeat_completed,
  enabled: row.enabled === 1,
  state: row.state as CronJob["state"],
  pausedAt: row.paused_at,
  pausedReason: row.paused_reason,
  createdAt: row.created_at,
  nextRunAt: row.next_run_at,
  lastRunAt: row.last_run_at,
  lastStatus: row.last_status === "ok" || row.last_status === "error" ? row.last_status : null,
  lastError: row.last_error
})

const runOf = (row: RunRow): CronRun => ({
  id: row.id,
  jobId: row.job_id,
  jobName: row.job_name,
  scheduledFor: row.scheduled_for,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  status: row.status === "ok" ? "ok" : "error",
  sessionId: row.session_id,
  outputPath: row.output_path,
  error: row.error,
  owner: row.owner,
  manual: row.manual === 1
})

/** Hermes' default name: the start of the prompt, else the first skill. */
const defaultName = (prompt: string, skills: ReadonlyArray<string>) => {
  const text = prompt.trim().replace(/\s+/g, " ")
  return text.length > 0 ? text.slice(0, 50) : skills[0] ?? "cron job"
}

const dedupe = (items: ReadonlyArray<string>) => [...new Set(items.map((s) => s.trim()).filter((s) => s.length > 0))]

/** Omitted: once for a one-shot, forever otherwise; ≤ 0 means forever. */
const repeatTimes = (repeat: number | undefined, schedule: Schedule): number | null =>
  repeat === undefined ? (schedule.kind === "once" ? 1 : null) : repeat <= 0 ? null : Math.floor(repeat)

const orDie = Effect.orDieWith((e: { readonly message: string }) => new Error(`cron store: ${e.message}`))

export const CronJobsSql: Layer.Layer<CronJobs, never, SqlClient.SqlClient> = Layer.effect(
  CronJobs,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const schedule = (input: string, now: number, tz: string) =>
      Either.match(parseSchedule(input, now, tz), {
        onLeft: (message) => Effect.fail(new InvalidSchedule({ input, message })),
        onRight: Effect.succeed
      })

    const zone = (tz: string | undefined, input: string) => {
      if (tz === undefined) return Effect.succeed(defaultTimeZone())
      return validTimeZone(tz) === undefined
        ? Effect.fail(new InvalidSchedule({ input, message: `Unknown time zone '${tz}' (use an IANA name such as Europe/Paris or UTC)` }))
        : Effect.succeed(tz)
    }

    const get = (id: string) =>
      sql<JobRow>`SELECT * FROM cron_jobs WHERE id = ${id}`.pipe(
        orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), jobOf))
      )

    const must = (id: string) => Effect.flatMap(get(id), Option.match({ onNone: () => Effect.fail(new CronJobNotFound({ ref: id })), onSome: Effect.succeed }))

    const create = Effect.fn("CronJobs.create")(function*(input: NewCronJob) {
      const now = yield* Clock.currentTimeMillis
      const tz = yield* zone(input.tz, input.schedule)
      const parsed = yield* schedule(input.schedule, now, tz)
      const skills = dedupe(input.skills ?? [])
      const id = randomBytes(6).toString("hex")
      const name = input.name?.trim() || defaultName(input.prompt, skills)
      yield* sql`INSERT INTO cron_jobs ${
        sql.insert({
          id,
          name,
          prompt: input.prompt,
          skills: JSON.stringify(skills),
          model: input.model === undefined ? null : JSON.stringify(input.model),
          enabled_toolsets: input.enabledToolsets === undefined || input.enabledToolsets.length === 0 ? null : JSON.stringify(dedupe(input.enabledToolsets)),
          deliver: input.deliver?.trim() || "local",
          workdir: input.workdir?.trim() || null,
          schedule: JSON.stringify(parsed),
          tz,
          repeat_times: repeatTimes(input.repeat, parsed),
          created_at: now,
          next_run_at: firstRun(parsed, now, tz)
        })
      }`.pipe(orDie)
      return yield* must(id).pipe(Effect.orDie)
    })

    const list = Effect.fn("CronJobs.list")(function*(options?: { readonly includeDisabled?: boolean | undefined }) {
      const rows = options?.includeDisabled === false
        ? yield* sql<JobRow>`SELECT * FROM cron_jobs WHERE enabled = 1 ORDER BY next_run_at IS NULL, next_run_at, created_at`.pipe(orDie)
        : yield* sql<JobRow>`SELECT * FROM cron_jobs ORDER BY next_run_at IS NULL, next_run_at, created_at`.pipe(orDie)
      return rows.map(jobOf)
    })

    const resolve = Effect.fn("CronJobs.resolve")(function*(ref: string) {
      const key = ref.trim()
      const byId = yield* get(key)
      if (Option.isSome(byId)) return byId.value
      const rows = yield* sql<JobRow>`SELECT * FROM cron_jobs WHERE lower(name) = lower(${key}) ORDER BY created_at`.pipe(orDie)
      if (rows.length === 0) return yield* new CronJobNotFound({ ref })
      if (rows.length > 1) {
        return yield* new AmbiguousCronJob({
          ref,
          matches: rows.map(jobOf).map((j) => ({
            id: j.id,
            name: j.name,
            schedule: j.schedule.display,
            next_run_at: j.nextRunAt === null ? null : new Date(j.nextRunAt).toISOString()
          }))
        })
      }
      return jobOf(rows[0]!)
    })

    const update = Effect.fn("CronJobs.update")(function*(id: string, patch: CronJobPatch) {
      const job = yield* must(id)
      const now = yield* Clock.currentTimeMillis
      const tz = patch.tz === undefined ? job.tz : yield* zone(patch.tz, patch.schedule ?? job.schedule.display)
      const set: Record<string, string | number | null> = {}
      if (patch.name !== undefined) set["name"] = patch.name.trim() || job.name
      if (patch.prompt !== undefined) set["prompt"] = patch.prompt
      if (patch.skills !== undefined) set["skills"] = JSON.stringify(dedupe(patch.skills))
      if (patch.model !== undefined) set["model"] = patch.model === null ? null : JSON.stringify(patch.model)
      if (patch.enabledToolsets !== undefined) {
        set["enabled_toolsets"] = patch.enabledToolsets === null || patch.enabledToolsets.length === 0 ? null : JSON.stringify(dedupe(patch.enabledToolsets))
      }
      if (patch.deliver !== undefined) set["deliver"] = patch.deliver.trim() || "local"
      if (patch.workdir !== undefined) set["workdir"] = patch.workdir === null || patch.workdir.trim() === "" ? null : patch.workdir.trim()
      if (patch.tz !== undefined) set["tz"] = tz
      const parsed = patch.schedule !== undefined ? yield* schedule(patch.schedule, now, tz) : undefined
      if (patch.repeat !== undefined) set["repeat_times"] = repeatTimes(patch.repeat, parsed ?? job.schedule)
      if (parsed !== undefined || patch.tz !== undefined) {
        const next = parsed ?? job.schedule
        set["schedule"] = JSON.stringify(next)
        set["next_run_at"] = firstRun(next, now, tz)
        // A new schedule brings a finished job back, unless it was paused on purpose.
        if (job.state !== "paused") Object.assign(set, { state: "scheduled", enabled: 1 })
      }
      if (Object.keys(set).length > 0) yield* sql`UPDATE cron_jobs SET ${sql.update(set)} WHERE id = ${job.id}`.pipe(orDie)
      return yield* must(job.id)
    })

    const pause = Effect.fn("CronJobs.pause")(function*(id: string, reason?: string | undefined) {
      const job = yield* must(id)
      const now = yield* Clock.currentTimeMillis
      yield* sql`UPDATE cron_jobs SET enabled = 0, state = 'paused', paused_at = ${now}, paused_reason = ${reason ?? null} WHERE id = ${job.id}`.pipe(orDie)
      return yield* must(job.id)
    })

    const resume = Effect.fn("CronJobs.resume")(function*(id: string) {
      const job = yield* must(id)
      const now = yield* Clock.currentTimeMillis
      if (job.schedule.kind === "once" && job.schedule.runAt < now - 120_000) {
        return yield* new InvalidSchedule({
          input: job.schedule.display,
          message: `Invalid schedule '${job.schedule.display}': ${wallClock(job.schedule.runAt, job.tz)} (${job.tz}) is in the past; update the schedule first`
        })
      }
      const next = firstRun(job.schedule, now, job.tz)
      yield* sql`UPDATE cron_jobs SET enabled = 1, state = 'scheduled', paused_at = NULL, paused_reason = NULL, next_run_at = ${next} WHERE id = ${job.id}`.pipe(orDie)
      return yield* must(job.id)
    })

    const remove = Effect.fn("CronJobs.remove")(function*(id: string) {
      const job = yield* must(id)
      yield* sql.withTransaction(Effect.zipRight(
        sql`DELETE FROM cron_jobs WHERE id = ${job.id}`,
        sql`DELETE FROM cron_leases WHERE job_id = ${job.id}`
      )).pipe(orDie)
      return job
    })

    const due = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      sql<JobRow>`SELECT j.* FROM cron_jobs j WHERE j.enabled = 1 AND j.next_run_at <= ${now}
        AND NOT EXISTS (SELECT 1 FROM cron_leases l WHERE l.job_id = j.id AND l.expires_at > ${now})
        ORDER BY j.next_run_at`
    ).pipe(orDie, Effect.map((rows) => rows.map(jobOf)), Effect.withSpan("CronJobs.due"))

    // Two index walks instead of a scan: the first free job in next-run order, and the (few) leased ones
    // (CROSS JOIN keeps the lease table outside, so the jobs are looked up by id, not scanned).
    const nextWake = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      sql<{ wake: number | null }>`SELECT min(w) AS wake FROM (
          SELECT * FROM (SELECT next_run_at AS w FROM cron_jobs WHERE enabled = 1 AND next_run_at IS NOT NULL
            AND id NOT IN (SELECT job_id FROM cron_leases WHERE expires_at > ${now}) ORDER BY next_run_at LIMIT 1)
          UNION ALL
          SELECT max(j.next_run_at, l.expires_at) FROM cron_leases l CROSS JOIN cron_jobs j ON j.id = l.job_id
            WHERE l.expires_at > ${now} AND j.enabled = 1 AND j.next_run_at IS NOT NULL
        )`
    ).pipe(orDie, Effect.map((rows) => Option.fromNullable(rows[0]?.wake ?? null)))

    const claim = Effect.fn("CronJobs.claim")(function*(id: string, owner: string, leaseMs: number, options?: { readonly force?: boolean }) {
      const now = yield* Clock.currentTimeMillis
      const force = options?.force === true ? 1 : 0
      // One statement: the job must be enabled and due (or forced), and any lease on it expired.
      const rows = yield* sql<{ job_id: string }>`INSERT INTO cron_leases (job_id, owner, expires_at, due_at)
        SELECT id, ${owner}, ${now + leaseMs}, next_run_at FROM cron_jobs
        WHERE id = ${id} AND enabled = 1 AND (${force} = 1 OR next_run_at <= ${now})
        ON CONFLICT (job_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at, due_at = excluded.due_at
        WHERE cron_leases.expires_at <= ${now}
        RETURNING job_id`.pipe(orDie)
      return rows.length === 0 ? Option.none() : yield* get(id)
    })

    const renew = (id: string, owner: string, leaseMs: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        sql<{ job_id: string }>`UPDATE cron_leases SET expires_at = ${now + leaseMs} WHERE job_id = ${id} AND owner = ${owner} RETURNING job_id`
      ).pipe(orDie, Effect.map((rows) => rows.length > 0))

    const release = (id: string, owner: string) => sql`DELETE FROM cron_leases WHERE job_id = ${id} AND owner = ${owner}`.pipe(orDie, Effect.asVoid)

    const finish = Effect.fn("CronJobs.finish")(function*(id: string, owner: string, outcome: RunOutcome) {
      const now = yield* Clock.currentTimeMillis
      return yield* sql.withTransaction(Effect.gen(function*() {
        // A write first: the transaction takes the write lock (waiting on busy_timeout) before it reads, since a
        // read-then-write transaction fails at once with SQLITE_BUSY when another process wrote in between.
        yield* sql`DELETE FROM cron_leases WHERE job_id = ${id} AND owner = ${owner}`
        const [row] = yield* sql<JobRow>`SELECT * FROM cron_jobs WHERE id = ${id}`
        const name = row?.name ?? id
        const [run] = yield* sql<RunRow>`INSERT INTO cron_runs ${
          sql.insert({
            job_id: id,
            job_name: name,
            scheduled_for: outcome.scheduledFor,
            started_at: outcome.startedAt,
            finished_at: now,
            status: outcome.status,
            session_id: outcome.sessionId,
            output_path: outcome.outputPath,
            error: outcome.error,
            owner,
            manual: outcome.manual ? 1 : 0
          })
        } RETURNING *`
        if (row !== undefined) {
          const job = jobOf(row)
          const completed = job.repeatCompleted + 1
          if (job.repeatTimes !== null && completed >= job.repeatTimes) {
            yield* sql`DELETE FROM cron_jobs WHERE id = ${id}`
          } else {
            // From this run, not from the missed slot: a scheduler that was down runs the job once, then keeps time.
            // An interval counts from the run's start (never before now); a cron job takes its next slot after now.
            const from = job.schedule.kind === "interval" ? outcome.startedAt : now
            const after = nextRunAfter(job.schedule, from, job.tz, true)
            const next = after === null ? null : Math.max(after, now)
            yield* sql`UPDATE cron_jobs SET ${
              sql.update({
                repeat_completed: completed,
                last_run_at: outcome.startedAt,
                last_status: outcome.status,
                last_error: outcome.error,
                next_run_at: next,
                ...(next === null ? { enabled: 0, state: "completed" } : {})
              })
            } WHERE id = ${id}`
          }
        }
        return runOf(run!)
      })).pipe(orDie)
    })

    const history = Effect.fn("CronJobs.history")(function*(options?: { readonly jobId?: string | undefined; readonly limit?: number | undefined }) {
      const limit = Math.max(1, Math.min(options?.limit ?? 20, 1000))
      const rows = options?.jobId === undefined
        ? yield* sql<RunRow>`SELECT * FROM cron_runs ORDER BY id DESC LIMIT ${limit}`.pipe(orDie)
        : yield* sql<RunRow>`SELECT * FROM cron_runs WHERE job_id = ${options.jobId} ORDER BY id DESC LIMIT ${limit}`.pipe(orDie)
      return rows.map(runOf)
    })

    return CronJobs.of({ create, list, get, resolve, update, pause, resume, remove, due, nextWake, claim, renew, release, finish, history })
  })
)
