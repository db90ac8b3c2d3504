// `npm run bundle`: the CLI as shipped. dist/cli/bin.js is the small ES-module entry (with the ACP fast path);
// dist/cli/main.cjs is the whole program in one CommonJS file, which bin.js runs through a V8 code cache
// (src/programs/codeCache.ts). Native, browser and page-to-text packages stay outside, loaded from node_modules.
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { build } from "esbuild"

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  minify: true,
  logLevel: "warning",
  external: ["better-sqlite3", "@lydell/node-pty", "playwright-core"]
}

rmSync("dist/cli", { recursive: true, force: true })
await build({
  ...common,
  entryPoints: ["dist/programs/bin.js"],
  format: "esm",
  outfile: "dist/cli/bin.js"
})
await build({
  ...common,
  entryPoints: ["dist/programs/main.js"],
  format: "cjs",
  outfile: "dist/cli/main.cjs",
  // Page-to-text libraries (~2.3 MB, used by web tools only) load from node_modules on first use, so a start without
  // the code cache does not parse them; `import()` becomes `require`, which functions restored from the cache keep.
  external: [...common.external, "unpdf", "linkedom", "turndown", "@mozilla/readability"],
  supported: { "dynamic-import": false },
  // The few modules that ask `import.meta.url` (package.json lookup, node-pty's require) get the bundle's own URL.
  define: { "import.meta.url": "__hermesBundleUrl" },
  banner: { js: "const __hermesBundleUrl=require('node:url').pathToFileURL(__filename).href;" },
  // Licence texts go to main.cjs.LEGAL.txt: one of them is not ASCII, and the bundle must be (below).
  legalComments: "linked"
})
// Pure ASCII, the bundle reads as a one-byte string: Node decodes it in half the time, and V8 scans and hashes
// half the bytes. One character outside ASCII anywhere (esbuild escapes strings, not `String.raw` or comments)
// makes the whole source two bytes a character.
const outside = /[^\x00-\x7f]/.exec(readFileSync("dist/cli/main.cjs", "latin1"))
if (outside !== null) throw new Error(`dist/cli/main.cjs is not ASCII at offset ${outside.index}: escape that character in the source`)
writeFileSync("dist/bin.mjs", "#!/usr/bin/env node\nimport './cli/bin.js'\n")
chmodSync("dist/bin.mjs", 0o755)
