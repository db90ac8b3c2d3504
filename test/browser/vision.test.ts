/** browser_vision: a full-page screenshot under cache/screenshots goes to auxiliary.vision (a loopback OpenAI-compatible server). */
import { existsSync, readFileSync } from "node:fs"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { findOnPath } from "../../src/layers/browser/locate.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { startOpenAiServer } from "../support/openaiServer.js"
import { testRuntime } from "../support/runtime.js"
import { describeNeeding } from "../support/systemPrograms.js"
import { startSite } from "./site.js"

type Json = Record<string, any>

const call = (tool: string, args: Record<string, unknown> = {}) =>
  Effect.map(Effect.flatMap(ToolExecutor, (x) => x.dispatch({ tool, args }, { context: { taskId: "vision" } })), (s) => JSON.parse(s) as Json)

describeNeeding(findOnPath() === undefined ? "chromium is not installed" : undefined, "browser_vision", () => {
  it.scoped("screenshots the page and returns the vision model's analysis with the screenshot path", () =>
    Effect.gen(function*() {
      const { base } = yield* startSite
      const model = yield* Effect.acquireRelease(Effect.promise(() => startOpenAiServer()), (s) => Effect.promise(() => s.close()))
      model.enqueue({ kind: "completion", content: "A heading that says Example and one button." })
      const config = { web: { allow_private: true }, auxiliary: { vision: { provider: "local-vl", name: "vl-model", base_url: model.baseUrl, max_retries: 0 } } }
      yield* Effect.scoped(Effect.gen(function*() {
        yield* call("browser_navigate", { url: `${base}/` })
        const out = yield* call("browser_vision", { question: "What is on the page?" })
        expect(out["success"]).toBe(true)
        expect(out["analysis"]).toBe("A heading that says Example and one button.")
        const path = String(out["screenshot_path"])
        expect(path).toMatch(/cache\/screenshots\/browser_screenshot_[0-9a-f]{32}\.png$/)
        expect(existsSync(path)).toBe(true)
        expect(readFileSync(path).subarray(1, 4).toString()).toBe("PNG")
        const parts = (model.requests.at(-1)!.body["messages"] as Array<Json>).at(-1)!["content"] as Array<Json>
        expect(parts.find((p) => p["type"] === "image_url")!["image_url"]["url"]).toMatch(/^data:image\/png;base64,/)
        expect(parts.find((p) => p["type"] === "text")!["text"]).toContain("What is on the page?")
      }).pipe(Effect.provide(testRuntime(config))))
    }), 90_000)
})
