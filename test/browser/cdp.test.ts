/**
 * browser.cdp_url: the tools drive a Chromium someone else started (here: the
 * test, with --remote-debugging-port), and browser_cdp / browser_dialog appear.
 */
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { findOnPath } from "../../src/layers/browser/locate.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { testRuntime } from "../support/runtime.js"
import { describeNeeding } from "../support/systemPrograms.js"
import { startSite } from "./site.js"

type Json = Record<string, any>

const executable = findOnPath()

/** A headless Chromium listening for CDP; its ws:// URL. Killed when the scope closes. */
const remoteChromium = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ readonly url: string; readonly kill: () => Promise<void> }>((resolve, reject) => {
      const child = spawn(executable!, [
        "--headless", "--no-sandbox", "--remote-debugging-port=0", `--user-data-dir=${mkdtempSync(join(tmpdir(), "hermes-cdp-"))}`, "about:blank"
      ], { stdio: ["ignore", "ignore", "pipe"] })
      let text = ""
      const exited = new Promise<void>((done) => child.on("exit", () => done()))
      child.stderr.on("data", (chunk: Buffer) => {
        text += chunk.toString()
        const url = /DevTools listening on (ws:\/\/\S+)/.exec(text)?.[1]
        if (url !== undefined) resolve({ url, kill: () => (child.kill("SIGKILL"), exited) })
      })
      child.on("error", reject)
    })
  ),
  (chromium) => Effect.promise(chromium.kill)
)

const call = (tool: string, args: Record<string, unknown> = {}) =>
  Effect.map(Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId: "cdp" } })), (s) => JSON.parse(s) as Json)

describeNeeding(executable === undefined ? "chromium is not installed" : undefined, "browser on browser.cdp_url", () => {
  it.live("browser_cdp runs browser- and tab-level methods; a prompt() waits for browser_dialog", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base } = yield* startSite
      const chromium = yield* remoteChromium
      yield* Effect.scoped(Effect.gen(function*() {
        const registry = yield* ToolRegistry
        expect(yield* registry.isAvailable("browser_cdp")).toBe(true)
        expect(yield* registry.isAvailable("browser_dialog")).toBe(true)
        const version = yield* call("browser_cdp", { method: "Browser.getVersion" })
        expect(version["success"]).toBe(true)
        expect(version["method"]).toBe("Browser.getVersion")
        expect(version["result"]["product"]).toMatch(/Chrome/)

        const nav = yield* call("browser_navigate", { url: `${base}/dialog` })
        expect(nav["title"]).toBe("Dialogs")
        const targets = yield* call("browser_cdp", { method: "Target.getTargets" })
        const tab = (targets["result"]["targetInfos"] as Array<Json>).find((t) => t["url"] === `${base}/dialog`)
        expect(tab).toBeDefined()
        const evaluated = yield* call("browser_cdp", {
          method: "Runtime.evaluate", params: { expression: "document.title", returnByValue: true }, target_id: tab!["targetId"]
        })
        expect(evaluated["result"]["result"]["value"]).toBe("Dialogs")
        expect(evaluated["target_id"]).toBe(tab!["targetId"])
        const bad = yield* call("browser_cdp", { method: "No.suchMethod" })
        expect(bad["method"]).toBe("No.suchMethod")
        expect(bad["error"]).toContain("CDP No.suchMethod failed")

        const button = /button "Ask" \[ref=(\w+)\]/.exec(nav["snapshot"])![1]
        expect((yield* call("browser_click", { ref: button }))["success"]).toBe(true)
        const snap = yield* call("browser_snapshot")
        expect(snap["pending_dialogs"]).toHaveLength(1)
        expect(snap["pending_dialogs"][0]).toMatchObject({ type: "prompt", message: "Your name?" })
        const answered = yield* call("browser_dialog", { action: "accept", prompt_text: "Ada" })
        expect(answered["success"]).toBe(true)
        expect(answered["dialog"]["type"]).toBe("prompt")
        expect((yield* call("browser_console", { expression: "document.title" }))["result"]).toBe("answer:Ada")
        expect((yield* call("browser_dialog", { action: "dismiss" }))["success"]).toBe(false)
      }).pipe(Effect.provide(testRuntime({ web: { allow_private: true }, browser: { cdp_url: chromium.url } }))))
    })), 90_000)

  it.effect("without browser.cdp_url, browser_cdp and browser_dialog are unavailable and say why", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      expect(yield* registry.isAvailable("browser_navigate")).toBe(true)
      expect(yield* registry.isAvailable("browser_cdp")).toBe(false)
      expect(yield* registry.whyUnavailable(registry.get("browser_dialog")!)).toContain("browser.cdp_url")
    }).pipe(Effect.provide(testRuntime({}))))
})

it.effect("with no browser found, the browser tools are unavailable and say how to get one", () =>
  Effect.gen(function*() {
    const registry = yield* ToolRegistry
    expect(yield* registry.isAvailable("browser_navigate")).toBe(false)
    expect(yield* registry.whyUnavailable(registry.get("browser_snapshot")!)).toContain("apt-get install chromium")
    expect(yield* registry.isAvailable("browser_vision")).toBe(false)
  }).pipe(Effect.provide(testRuntime({ browser: { executable: "/nonexistent/chromium" } }))))
