/**
 * The browser tools on a real headless Chromium against a loopback site
 * (web.allow_private: true), and the address policy with it off.
 */
import { existsSync, readFileSync } from "node:fs"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { findOnPath } from "../../src/layers/browser/locate.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { describeNeeding } from "../support/systemPrograms.js"
import { testRuntime } from "../support/runtime.js"
import { startSite } from "./site.js"

type Json = Record<string, any>

const call = (tool: string, args: Record<string, unknown> = {}, taskId = "browser") =>
  Effect.map(Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId } })), (s) => JSON.parse(s) as Json)

/** The ref of the first snapshot line matching `pattern`. */
const refOf = (snapshot: string, pattern: RegExp): string => {
  const line = snapshot.split("\n").find((l) => pattern.test(l))
  const ref = line === undefined ? undefined : /\[ref=(\w+)\]/.exec(line)?.[1]
  if (ref === undefined) throw new Error(`no ref for ${pattern} in:\n${snapshot}`)
  return ref
}

const chromium = findOnPath()

describeNeeding(chromium === undefined ? "chromium is not installed" : undefined, "browser tools", () => {
  layer(testRuntime({ web: { allow_private: true }, browser: { command_timeout: 3 } }), { timeout: 120_000 })("on a loopback site", (it) => {
    it.scoped("navigate answers with the title, a compact snapshot and its ref count", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        const out = yield* call("browser_navigate", { url: `${base}/` })
        expect(out["success"]).toBe(true)
        expect(out["url"]).toBe(`${base}/`)
        expect(out["title"]).toBe("Browser Test Home")
        expect(out["snapshot"]).toMatch(/- heading "Example" \[level=1\] \[ref=e\d+\]/)
        expect(out["snapshot"]).toMatch(/- button "Change the text" \[ref=e\d+\]/)
        expect(out["element_count"]).toBe(new Set(String(out["snapshot"]).match(/\[ref=\w+\]/g)).size)
        expect(out["element_count"]).toBeGreaterThan(3)
      }))

    it.scoped("a click by ref runs the page's script; the next snapshot shows the change; stale and unknown refs are refused", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        const nav = yield* call("browser_navigate", { url: `${base}/` })
        const button = refOf(nav["snapshot"], /button "Change the text"/)
        const clicked = yield* call("browser_click", { ref: `@${button}` })
        expect(clicked).toEqual({ success: true, clicked: `@${button}` })
        const snap = yield* call("browser_snapshot", {})
        expect(snap["success"]).toBe(true)
        expect(snap["snapshot"]).toContain("clicked by the tool")
        const unknown = yield* call("browser_click", { ref: "e999" })
        expect(unknown["success"]).toBe(false)
        expect(unknown["error"]).toContain("browser_snapshot")
        // A new document: the old page's refs no longer count.
        yield* call("browser_navigate", { url: `${base}/form` })
        const stale = yield* call("browser_click", { ref: button })
        expect(stale["success"]).toBe(false)
        expect(stale["error"]).toMatch(/stale|no longer|No current snapshot/)
        expect(stale["error"]).toContain("browser_snapshot")
      }))

    it.scoped("type into a form, submit with Enter; back returns to the form", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        const nav = yield* call("browser_navigate", { url: `${base}/form` })
        const box = refOf(nav["snapshot"], /textbox "Query"/)
        const typed = yield* call("browser_type", { ref: box, text: "effect fibers" })
        expect(typed).toEqual({ success: true, typed: "effect fibers", element: `@${box}` })
        expect(yield* call("browser_press", { key: "Enter" })).toEqual({ success: true, pressed: "Enter" })
        const snap = yield* call("browser_snapshot", { full: true })
        expect(snap["snapshot"]).toContain("You searched: effect fibers")
        const back = yield* call("browser_back")
        expect(back).toEqual({ success: true, url: `${base}/form` })
        // The search page's refs are gone with it.
        const after = yield* call("browser_type", { ref: box, text: "again" })
        expect(after["success"]).toBe(false)
      }))

    it.scoped("console messages, JS errors and expression evaluation", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        yield* call("browser_navigate", { url: `${base}/` })
        // Real time (it.scoped runs on the test clock): the page's timer throws after load.
        yield* Effect.promise(() => new Promise((done) => setTimeout(done, 300)))
        const read = yield* call("browser_console", { clear: true })
        expect(read["success"]).toBe(true)
        expect(read["console_messages"]).toContainEqual({ type: "log", text: "hello from the page", source: "console" })
        expect(read["js_errors"].map((e: Json) => e["message"])).toContain("boom from the page")
        expect(read["total_messages"]).toBe(read["console_messages"].length)
        const empty = yield* call("browser_console", {})
        expect(empty["total_messages"]).toBe(0)
        expect(yield* call("browser_console", { expression: "document.title" })).toEqual({ success: true, result: "Browser Test Home", result_type: "str" })
        expect(yield* call("browser_console", { expression: "1 + 2" })).toEqual({ success: true, result: 3, result_type: "int" })
        expect(yield* call("browser_console", { expression: "({ a: [1, 2] })" })).toEqual({ success: true, result: { a: [1, 2] }, result_type: "dict" })
        const thrown = yield* call("browser_console", { expression: "nope.nope" })
        expect(thrown["success"]).toBe(false)
        expect(thrown["error"]).toContain("nope is not defined")
      }))

    it.scoped("get_images lists real images, not data: ones; scroll checks its direction", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        yield* call("browser_navigate", { url: `${base}/` })
        const out = yield* call("browser_get_images")
        expect(out["success"]).toBe(true)
        expect(out["count"]).toBe(1)
        expect(out["images"][0]).toEqual({ src: `${base}/pixel.png`, alt: "a tiny pixel", width: 1, height: 1 })
        expect(yield* call("browser_scroll", { direction: "down" })).toEqual({ success: true, scrolled: "down" })
        expect(yield* call("browser_scroll", { direction: "left" })).toEqual({ success: false, error: "Invalid direction 'left'. Use 'up' or 'down'." })
      }))

    it.scoped("a page that never finishes loading times out with a clear error", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        const out = yield* call("browser_navigate", { url: `${base}/hang` })
        expect(out["success"]).toBe(false)
        expect(out["error"]).toMatch(/timed out after 3s/)
        expect(out["error"]).toContain("browser.command_timeout")
      }))

    it.scoped("a redirect to a metadata address is refused even with private addresses allowed; secrets in URLs too", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        const out = yield* call("browser_navigate", { url: `${base}/to-metadata` })
        expect(out).toEqual({ success: false, error: "Blocked: redirect landed on a private or internal address" })
        const secret = yield* call("browser_navigate", { url: `${base}/?api_key=abc123` })
        expect(secret["success"]).toBe(false)
        expect(secret["error"]).toContain("credential-like query parameter (api_key)")
      }))

    it.scoped("a snapshot over 15000 characters is cut on a line, the full copy saved", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        yield* call("browser_navigate", { url: `${base}/long` })
        const out = yield* call("browser_snapshot", { full: true })
        const text = String(out["snapshot"])
        expect(text.length).toBeLessThanOrEqual(15_000)
        const pointer = /read_file path="([^"]+)" offset=(\d+) limit=200\]$/.exec(text)
        expect(pointer).not.toBeNull()
        expect(existsSync(pointer![1]!)).toBe(true)
        const saved = readFileSync(pointer![1]!, "utf8").split("\n")
        expect(saved.length).toBeGreaterThan(1400)
        expect(saved.slice(0, Number(pointer![2]) - 1)).toEqual(text.split("\n").slice(0, Number(pointer![2]) - 1))
      }))

    it.scoped("tasks have their own pages", () =>
      Effect.gen(function*() {
        const { base } = yield* startSite
        yield* call("browser_navigate", { url: `${base}/form` }, "task-a")
        yield* call("browser_navigate", { url: `${base}/` }, "task-b")
        expect((yield* call("browser_console", { expression: "location.pathname" }, "task-a"))["result"]).toBe("/form")
        expect((yield* call("browser_console", { expression: "location.pathname" }, "task-b"))["result"]).toBe("/")
      }))
  })
})

layer(testRuntime({ web: { allow_private: false } }), { timeout: 60_000 })("browser address policy", (it) => {
  it.scoped("with private addresses refused, loopback by address or by name is blocked before any browser starts", () =>
    Effect.gen(function*() {
      const { base, hits } = yield* startSite
      for (const url of [`${base}/`, base.replace("127.0.0.1", "localhost"), "http://169.254.169.254/latest/meta-data/"]) {
        const out = yield* call("browser_navigate", { url })
        expect(out).toEqual({ success: false, error: "Blocked: URL targets a private or internal network address" })
      }
      expect(hits).toEqual([])
      const scheme = yield* call("browser_navigate", { url: "file:///etc/passwd" })
      expect(scheme["success"]).toBe(false)
      expect(scheme["error"]).toContain("Unsupported URL scheme 'file'")
    }).pipe(Effect.when(() => chromium !== undefined)))
})

layer(testRuntime({ web: { allow_private: true }, browser: { command_timeout: 5 }, security: { website_blocklist: { enabled: true, domains: ["localhost"] } } }), { timeout: 60_000 })("browser and the website blocklist", (it) => {
  it.scoped("a listed host is refused with its rule; a redirect onto it never reaches it", () =>
    Effect.gen(function*() {
      const { base, hits } = yield* startSite
      const listed = base.replace("127.0.0.1", "localhost")
      const out = yield* call("browser_navigate", { url: `${listed}/form` })
      expect(out).toEqual({
        success: false,
        error: "Blocked by website policy: 'localhost' matched rule 'localhost' from config",
        blocked_by_policy: { host: "localhost", rule: "localhost", source: "config" }
      })
      const redirected = yield* call("browser_navigate", { url: `${base}/redirect?to=${encodeURIComponent(`${listed}/form`)}` })
      expect(redirected["success"]).toBe(false)
      expect(hits).toEqual(["/redirect"])
    }).pipe(Effect.when(() => chromium !== undefined)))
})
