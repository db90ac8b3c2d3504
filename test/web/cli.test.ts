/**
 * `hermes-effect call web_extract` through the built CLI: the page-to-text
 * libraries (linkedom, readability, turndown, unpdf) sit outside the bundle and
 * load on first use, with and without the code cache.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { runCliAsync } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"
import { startServer } from "./server.js"

describe("web_extract from the CLI", () => {
  for (const cache of ["1", "0"]) {
    it.scoped(`an article becomes Markdown and a PDF text (code cache ${cache === "1" ? "on" : "off"})`, () =>
      Effect.gen(function*() {
        const { base } = yield* startServer
        const home = tempHome("hermes-web-cli-")
        writeFileSync(join(home, "config.yaml"), "web:\n  allow_private: true\n")
        const run = yield* Effect.promise(() =>
          runCliAsync(["call", "web_extract", JSON.stringify({ urls: [`${base}/article`, `${base}/doc.pdf`] })], {
            home,
            env: { HERMES_EFFECT_CODE_CACHE: cache }
          })
        )
        expect(run.stderr).toBe("")
        expect(run.code).toBe(0)
        const results = (JSON.parse(run.stdout) as { results: Array<Record<string, unknown>> }).results
        expect(results[0]?.["title"]).toBe("The Effect Article")
        expect(String(results[0]?.["content"])).toContain("## Section 1")
        expect(String(results[0]?.["content"])).not.toContain("SCRIPT-SHOULD-NOT-APPEAR")
        expect(String(results[1]?.["content"])).toContain("Hello from a PDF document")
      }))
  }
})
