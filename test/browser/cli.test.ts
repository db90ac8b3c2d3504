/** `hermes-effect call browser_navigate` through the built CLI: a real Chromium, and none left behind when the process exits. */
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { findOnPath } from "../../src/layers/browser/locate.js"
import { runCliAsync } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"
import { describeNeeding } from "../support/systemPrograms.js"
import { startSite } from "./site.js"

/** Chromium processes marked by a hermes-effect process that no longer exists. */
const orphans = (): ReadonlyArray<string> =>
  execFileSync("ps", ["-eo", "args="], { encoding: "utf8" }).split("\n").filter((args) => {
    const owner = /--hermes-effect-pid=(\d+)/.exec(args)?.[1]
    if (owner === undefined) return false
    try {
      process.kill(Number(owner), 0)
      return false
    } catch {
      return true
    }
  })

describeNeeding(findOnPath() === undefined ? "chromium is not installed" : undefined, "browser tools from the CLI", () => {
  it.scoped("call browser_navigate prints the JSON result; the Chromium exits with the CLI", () =>
    Effect.gen(function*() {
      const { base } = yield* startSite
      const home = tempHome("hermes-browser-cli-")
      writeFileSync(join(home, "config.yaml"), "web:\n  allow_private: true\n")
      const run = yield* Effect.promise(() => runCliAsync(["call", "browser_navigate", JSON.stringify({ url: `${base}/` })], { home }))
      expect(run.code).toBe(0)
      const out = JSON.parse(run.stdout) as Record<string, unknown>
      expect(out["success"]).toBe(true)
      expect(out["title"]).toBe("Browser Test Home")
      expect(String(out["snapshot"])).toContain('heading "Example"')
      expect(orphans()).toEqual([])
    }), 90_000)
})
