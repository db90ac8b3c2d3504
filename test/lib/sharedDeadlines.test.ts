import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { pendingDeadlines, startDeadline } from "../../src/lib/effect/sharedDeadlines.js"

const sleep = (ms: number) => Effect.promise(() => new Promise((r) => setTimeout(r, ms)))

describe("sharedDeadlines", () => {
  it.live("fires each deadline once it has passed, in time order, whatever order they were set in", () =>
    Effect.gen(function*() {
      const fired: Array<string> = []
      const started = performance.now()
      const at: Record<string, number> = {}
      const mark = (name: string) => () => {
        fired.push(name)
        at[name] = performance.now() - started
      }
      startDeadline(120, mark("late"))
      startDeadline(30, mark("early"))
      startDeadline(60, mark("middle"))
      expect(pendingDeadlines()).toBe(3)
      yield* sleep(250)
      expect(fired).toEqual(["early", "middle", "late"])
      expect(at["early"]).toBeGreaterThanOrEqual(29)
      expect(at["middle"]).toBeGreaterThanOrEqual(59)
      expect(at["late"]).toBeGreaterThanOrEqual(119)
      expect(pendingDeadlines()).toBe(0)
    }))

  it.live("a cancelled deadline never fires, and cancelling twice or after firing changes nothing", () =>
    Effect.gen(function*() {
      const fired: Array<string> = []
      const cancelA = startDeadline(20, () => fired.push("a"))
      const cancelB = startDeadline(40, () => fired.push("b"))
      const cancelC = startDeadline(20, () => fired.push("c"))
      cancelA()
      cancelA()
      expect(pendingDeadlines()).toBe(2)
      yield* sleep(80)
      expect(fired).toEqual(["c", "b"])
      cancelB()
      cancelC()
      expect(pendingDeadlines()).toBe(0)
    }))

  it.live("a deadline set from a firing one is kept", () =>
    Effect.gen(function*() {
      const fired: Array<string> = []
      startDeadline(10, () => {
        fired.push("first")
        startDeadline(10, () => fired.push("second"))
      })
      yield* sleep(80)
      expect(fired).toEqual(["first", "second"])
    }))

  it.live("a deadline that throws does not keep the others due with it from firing", () =>
    Effect.gen(function*() {
      const fired: Array<string> = []
      const uncaught: Array<unknown> = []
      const listener = (error: unknown) => void uncaught.push(error)
      // The throw surfaces as a timer callback's would: as an uncaught exception.
      const listeners = process.listeners("uncaughtException")
      process.removeAllListeners("uncaughtException")
      process.on("uncaughtException", listener)
      try {
        startDeadline(10, () => fired.push("a"))
        startDeadline(10, () => {
          throw new Error("boom")
        })
        startDeadline(10, () => fired.push("c"))
        yield* sleep(60)
      } finally {
        process.removeListener("uncaughtException", listener)
        for (const l of listeners) process.on("uncaughtException", l)
      }
      expect(fired.sort()).toEqual(["a", "c"])
      expect(uncaught).toHaveLength(1)
      expect(pendingDeadlines()).toBe(0)
    }))

  it("a cancelled deadline does not hold the process open; a waiting one does", () => {
    // The built module (`npm test` builds first), in a process of its own.
    const module = fileURLToPath(new URL("../../dist/lib/effect/sharedDeadlines.js", import.meta.url))
    const run = (code: string) => {
      const started = performance.now()
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" })
      return { ...r, ms: performance.now() - started }
    }
    const cancelled = run(`import { startDeadline } from ${JSON.stringify(module)}; const cancel = startDeadline(60000, () => {}); cancel()`)
    expect(cancelled.status).toBe(0)
    expect(cancelled.ms).toBeLessThan(30000)
    const waiting = run(`import { startDeadline } from ${JSON.stringify(module)}; startDeadline(300, () => console.log("fired"))`)
    expect(waiting.stdout.trim()).toBe("fired")
  })
})
