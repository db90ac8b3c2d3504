/** Schedule parsing: the forms the cronjob tool describes, next runs in the job's time zone, refusals with the reason. */
import { describe, expect, it } from "vitest"
import { Either } from "effect"
import { firstRun, nextRunAfter, parseSchedule } from "../../src/lib/cron/schedule.js"

const NOW = Date.parse("2026-01-01T10:00:00Z")
const ok = (text: string, tz = "UTC") => {
  const parsed = parseSchedule(text, NOW, tz)
  if (Either.isLeft(parsed)) throw new Error(parsed.left)
  return parsed.right
}
const reason = (text: string, tz = "UTC") => {
  const parsed = parseSchedule(text, NOW, tz)
  if (Either.isRight(parsed)) throw new Error(`accepted: ${JSON.stringify(parsed.right)}`)
  return parsed.left
}

describe("cron schedules", () => {
  it("intervals: 'every 30m', 'every 2 hours', 'every day', and a bare '30m' repeats (as the tool's description says)", () => {
    expect(ok("every 30m")).toEqual({ kind: "interval", minutes: 30, display: "every 30m" })
    expect(ok("every 2 hours")).toMatchObject({ kind: "interval", minutes: 120 })
    expect(ok("every hour")).toMatchObject({ kind: "interval", minutes: 60 })
    expect(ok("every day")).toMatchObject({ kind: "interval", minutes: 1440 })
    expect(ok("30m")).toEqual({ kind: "interval", minutes: 30, display: "every 30m" })
    expect(firstRun(ok("every 30m"), NOW, "UTC")).toBe(NOW + 30 * 60_000)
  })

  it("one-shots: 'in 2h' and ISO timestamps; a naive timestamp is read in the job's time zone", () => {
    expect(ok("in 2h")).toEqual({ kind: "once", runAt: NOW + 2 * 3_600_000, display: "once in 120m" })
    expect(ok("2026-06-01T09:00:00Z")).toMatchObject({ kind: "once", runAt: Date.parse("2026-06-01T09:00:00Z") })
    expect(ok("2026-06-01T09:00", "Europe/Paris")).toEqual({ kind: "once", runAt: Date.parse("2026-06-01T07:00:00Z"), display: "once at 2026-06-01 09:00" })
    expect(nextRunAfter(ok("in 2h"), NOW + 3 * 3_600_000, "UTC", true)).toBeNull()
  })

  it("cron expressions: next run in the job's time zone, day names accepted", () => {
    const daily = ok("0 9 * * *", "Europe/Paris")
    expect(daily).toEqual({ kind: "cron", expr: "0 9 * * *", display: "0 9 * * *" })
    expect(new Date(firstRun(daily, NOW, "Europe/Paris")!).toISOString()).toBe("2026-01-02T08:00:00.000Z")
    expect(new Date(firstRun(daily, NOW, "America/New_York")!).toISOString()).toBe("2026-01-01T14:00:00.000Z")
    // 2026-01-01 is a Thursday: the next weekday 9:00 UTC is Friday's.
    expect(new Date(firstRun(ok("0 9 * * MON-FRI"), NOW, "UTC")!).toISOString()).toBe("2026-01-02T09:00:00.000Z")
    const everyMinute = ok("* * * * *")
    expect(nextRunAfter(everyMinute, NOW, "UTC", true)).toBe(NOW + 60_000)
  })

  it("invalid schedules are refused with the reason", () => {
    expect(reason("0 61 * * *")).toBe("Invalid schedule '0 61 * * *': Expected a value between 0 and 23")
    expect(reason("70 * * * *")).toContain("Expected a value between 0 and 59")
    expect(reason("whenever")).toMatch(/^Invalid schedule 'whenever'\. Use:\n/)
    expect(reason("every fortnight")).toMatch(/^Invalid schedule 'every fortnight'\. Use:/)
    expect(reason("every 0m")).toContain("at least one minute")
    expect(reason("2025-01-01T00:00:00Z")).toBe("Invalid schedule '2025-01-01T00:00:00Z': 2025-01-01 00:00 (UTC) is in the past")
    expect(reason("2026-13-45T99:00")).toContain("Invalid schedule '2026-13-45T99:00'")
  })
})
