/**
 * The Browser layer's process lifecycle on a real Chromium: launched on first
 * use, closed by the idle reaper, and gone once the layer's scope closes.
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { BrowserLive } from "../../src/layers/browser/BrowserLive.js"
import { findOnPath } from "../../src/layers/browser/locate.js"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { Browser } from "../../src/services/Browser.js"
import type { HermesConfigInput } from "../../src/services/Config.js"
import { tempHome } from "../support/runtime.js"
import { describeNeeding } from "../support/systemPrograms.js"
import { startSite } from "./site.js"

/** Live processes of the Chromium this test process launched (marked with our pid), and our direct chromium children. */
const ourChromium = (): ReadonlyArray<string> =>
  execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" }).split("\n").filter((line) => {
    const [, ppid, ...args] = line.trim().split(/\s+/)
    const command = args.join(" ")
    return command.includes(`--hermes-effect-pid=${process.pid}`) || (ppid === String(process.pid) && /chrom/i.test(command))
  })

const browserLayer = (config: HermesConfigInput) => {
  const root = tempHome("hermes-browser-")
  return BrowserLive.pipe(Layer.provide(ConfigTest(config, { root, workspaceDir: join(root, "workspace") })))
}

const waitFor = (condition: () => boolean, ms: number) =>
  Effect.promise(async () => {
    const end = Date.now() + ms
    while (!condition() && Date.now() < end) await new Promise((done) => setTimeout(done, 100))
    return condition()
  })

describeNeeding(findOnPath() === undefined ? "chromium is not installed" : undefined, "browser lifecycle", () => {
  it.live("one Chromium starts on first use and none is left once the layer's scope closes", () =>
    Effect.gen(function*() {
      expect(ourChromium()).toEqual([])
      yield* Effect.scoped(Effect.gen(function*() {
        const { base } = yield* startSite
        const browser = yield* Browser
        expect(ourChromium()).toEqual([]) // lazy: nothing yet
        yield* browser.navigate("a", `${base}/`)
        yield* browser.navigate("b", `${base}/form`)
        expect(ourChromium().filter((l) => l.includes("--hermes-effect-pid")).length).toBeGreaterThanOrEqual(1)
      }).pipe(Effect.provide(browserLayer({ web: { allow_private: true } }))))
      expect(yield* waitFor(() => ourChromium().length === 0, 5000)).toBe(true)
    }), 60_000)

  it.live("the idle reaper closes a task's context and then the Chromium; the next call starts a new one", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base } = yield* startSite
      const browser = yield* Browser
      yield* browser.navigate("idle", `${base}/`)
      expect(ourChromium().length).toBeGreaterThan(0)
      expect(yield* waitFor(() => ourChromium().length === 0, 8000)).toBe(true)
      const again = yield* browser.navigate("idle", `${base}/form`)
      expect(again.title).toBe("Search form")
    }).pipe(Effect.provide(browserLayer({ web: { allow_private: true }, browser: { idle_seconds: 1 } })))), 60_000)
})
