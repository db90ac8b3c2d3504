/**
 * Schedules of cron jobs, as the `cronjob` tool describes them:
 * - `every 30m`, `every 2h`, `every day`, and a bare `30m`: recurring intervals
 *   (the tool's description says a bare duration repeats; Hermes' parser makes it a
 *   one-shot, and we follow the description the model reads)
 * - `in 30m`: once, that far from now
 * - 5 or 6 cron fields (`0 9 * * 1-5`, names like MON-FRI too), read in the job's time zone
 * - ISO timestamps (`2026-06-01T09:00`, a naive one read in the job's time zone): once
 */
import { Cron, DateTime, Either, Option } from "effect"

export type Schedule =
  | { readonly kind: "interval"; readonly minutes: number; readonly display: string }
  | { readonly kind: "cron"; readonly expr: string; readonly display: string }
  | { readonly kind: "once"; readonly runAt: number; readonly display: string }

/** A one-shot this far in the past is refused (Hermes' grace). */
export const ONE_SHOT_GRACE_MS = 120_000

const UNITS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(m|min|mins|minute|minutes)$/, 1],
  [/^(h|hr|hrs|hour|hours)$/, 60],
  [/^(d|day|days)$/, 1440]
]

/** `30m`, `2 hours`, `hour` (one) → minutes; undefined when it is not a duration. */
export const durationMinutes = (text: string): number | undefined => {
  const m = /^(\d+)?\s*([a-z]+)$/.exec(text.trim().toLowerCase())
  if (m === null) return undefined
  const unit = UNITS.find(([re]) => re.test(m[2]!))
  if (unit === undefined) return undefined
  // A bare unit ("every hour") is one of it; a unit after a number must be spelt out or abbreviated.
  const count = m[1] === undefined ? 1 : Number(m[1])
  return count * unit[1]
}

const minutesDisplay = (minutes: number) => `${minutes}m`

/** The zone, checked; undefined when the name is not a known IANA zone. */
export const validTimeZone = (tz: string): string | undefined =>
  Option.match(DateTime.zoneMakeNamed(tz), { onNone: () => undefined, onSome: () => tz })

/** `TZ`, else the system's zone, else UTC. */
export const defaultTimeZone = (): string => {
  const env = process.env["TZ"]
  if (env !== undefined && env.length > 0 && validTimeZone(env) !== undefined) return env
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"
}

const pad = (n: number) => String(n).padStart(2, "0")

/** `YYYY-MM-DD HH:MM` as the wall clock of `tz` shows it. */
export const wallClock = (epochMs: number, tz: string): string => {
  const parts = DateTime.toParts(DateTime.unsafeMakeZoned(epochMs, { timeZone: tz }))
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)} ${pad(parts.hours)}:${pad(parts.minutes)}`
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i

/** An ISO timestamp → epoch ms; a naive one is a wall-clock time in `tz`. */
const parseTimestamp = (text: string, tz: string): number | undefined => {
  const m = ISO.exec(text)
  if (m === null) return undefined
  const [year, month, day, hours, minutes, seconds] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0))
  const utc = Date.UTC(year!, month! - 1, day!, hours!, minutes!, seconds!)
  // Date.UTC rolls over (month 13, hour 99): a calendar that moved means the text was not a real time.
  const d = new Date(utc)
  if (d.getUTCMonth() !== month! - 1 || d.getUTCDate() !== day! || d.getUTCHours() !== hours! || d.getUTCMinutes() !== minutes!) return undefined
  if (m[7] !== undefined) {
    const ms = Date.parse(m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00${m[7]}` : text.replace(" ", "T"))
    return Number.isNaN(ms) ? undefined : ms
  }
  return DateTime.toEpochMillis(DateTime.unsafeMakeZoned(utc, { timeZone: tz, adjustForTimeZone: true }))
}

const USAGE = [
  "  every 30m, every 2h, every day, 30m  (recurring interval)",
  "  in 30m, in 2h                        (once, that long from now)",
  "  0 9 * * *                            (cron expression, in the job's time zone)",
  "  2026-06-01T09:00                     (once, at that time)"
].join("\n")

const invalid = (input: string, why?: string) =>
  Either.left(why === undefined ? `Invalid schedule '${input}'. Use:\n${USAGE}` : `Invalid schedule '${input}': ${why}`)

/**
 * Parse a schedule at `now` (epoch ms) for a job in `tz`. Left: the reason, for the model or the user.
 */
export const parseSchedule = (input: string, now: number, tz: string): Either.Either<Schedule, string> => {
  const text = input.trim()
  const lower = text.toLowerCase()
  if (text.length === 0) return invalid(input)
  if (lower.startsWith("every ")) {
    const minutes = durationMinutes(lower.slice(6))
    if (minutes === undefined) return invalid(input)
    if (minutes <= 0) return invalid(input, "the interval must be at least one minute")
    return Either.right({ kind: "interval", minutes, display: `every ${minutesDisplay(minutes)}` })
  }
  if (lower.startsWith("in ")) {
    const minutes = durationMinutes(lower.slice(3))
    if (minutes === undefined) return invalid(input)
    return Either.right({ kind: "once", runAt: now + minutes * 60_000, display: `once in ${minutesDisplay(minutes)}` })
  }
  if (/^\d+\s*[a-z]+$/.test(lower)) {
    const minutes = durationMinutes(lower)
    if (minutes === undefined) return invalid(input)
    if (minutes <= 0) return invalid(input, "the interval must be at least one minute")
    return Either.right({ kind: "interval", minutes, display: `every ${minutesDisplay(minutes)}` })
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const runAt = parseTimestamp(text, tz)
    if (runAt === undefined) return invalid(input, "not a valid ISO timestamp")
    if (runAt < now - ONE_SHOT_GRACE_MS) return invalid(input, `${wallClock(runAt, tz)} (${tz}) is in the past`)
    return Either.right({ kind: "once", runAt, display: `once at ${wallClock(runAt, tz)}` })
  }
  const fields = text.split(/\s+/)
  if (fields.length === 5 || fields.length === 6) {
    const expr = fields.join(" ")
    const parsed = Cron.parse(expr, tz)
    if (Either.isLeft(parsed)) return invalid(input, parsed.left.message)
    return Either.right({ kind: "cron", expr, display: expr })
  }
  return invalid(input)
}

/**
 * The first run after `after` (epoch ms): an interval counts from `after`, a cron expression
 * takes its next slot in `tz`; a one-shot has none once it ran (`ran`).
 */
export const nextRunAfter = (schedule: Schedule, after: number, tz: string, ran: boolean): number | null => {
  switch (schedule.kind) {
    case "interval":
      return after + schedule.minutes * 60_000
    case "cron": {
      const parsed = Cron.parse(schedule.expr, tz)
      return Either.isLeft(parsed) ? null : Cron.next(parsed.right, new Date(after)).getTime()
    }
    case "once":
      return ran ? null : schedule.runAt
  }
}

/** The next run of a job just created (or resumed) at `now`. */
export const firstRun = (schedule: Schedule, now: number, tz: string): number | null =>
  schedule.kind === "once" ? schedule.runAt : nextRunAfter(schedule, now, tz, false)
