#!/usr/bin/env node
/**
 * The entry: `hermes-effect acp` first answers the client's `initialize`
 * from a small module (editors wait for it), then loads the full program
 * (src/programs/main.ts) to serve the rest of the connection. Every other
 * command loads the full program at once.
 *
 * Built (`npm run bundle`), the full program is dist/cli/main.cjs, run through
 * a V8 code cache (codeCache.ts); unbundled (dist/programs), it is main.js.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { registerHostImport } from "../lib/importModule.js"
import { runCached } from "./codeCache.js"

registerHostImport((specifier) => import(specifier))

const bundled = fileURLToPath(new URL("./main.cjs", import.meta.url))
// A computed specifier, so the bundler leaves the unbundled fallback out of bin.js.
const unbundled = "./main.js"
const loadMain = (): Promise<unknown> => existsSync(bundled) ? Promise.resolve().then(() => runCached(bundled)) : import(unbundled)

if (process.argv.length === 3 && process.argv[2] === "acp") {
  const { answerInitialize } = await import("./acp/fast.js")
  answerInitialize(loadMain)
} else {
  await loadMain()
}
