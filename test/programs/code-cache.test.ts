/**
 * The CLI's code cache (src/programs/codeCache.ts): each case runs a real Node
 * process that loads a CommonJS file through `runCached` (from dist, as the
 * CLI does), then looks at what was written and what the next start used.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const CODE_CACHE = fileURLToPath(new URL("../../dist/programs/codeCache.js", import.meta.url))

/** A program that proves it ran as CommonJS: it prints its answer, what `require` gives and its own file name. */
const PROGRAM = (answer: number) =>
  `#!/usr/bin/env node\nconst path = require("node:path")\nconst twice = (n) => n * 2\n` +
  `module.exports.answer = ${answer}\nconsole.log(JSON.stringify({ answer: twice(${answer / 2}), file: path.basename(__filename), dir: __dirname }))\n`

interface Start {
  readonly use: string
  readonly output: { readonly answer: number; readonly file: string; readonly dir: string }
}

const start = (file: string, env: Readonly<Record<string, string>> = {}): Start => {
  const script = `import(${JSON.stringify(CODE_CACHE)}).then((m) => { const use = m.runCached(${JSON.stringify(file)}); console.error("use=" + use) })`
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", env: { ...process.env, ...env } })
  if (r.status !== 0) throw new Error(`exited ${r.status}: ${r.stderr}`)
  return { use: /use=(\w+)/.exec(r.stderr)?.[1] ?? "?", output: JSON.parse(r.stdout.trim()) as Start["output"] }
}

const caches = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".v8cache")) : [])

const setup = () => {
  const root = mkdtempSync(join(tmpdir(), "hermes-code-cache-"))
  const dir = join(root, "cli")
  mkdirSync(dir)
  const file = join(dir, "main.cjs")
  writeFileSync(file, PROGRAM(42))
  const home = join(root, "home")
  return { root, dir, file, home, env: { HERMES_EFFECT_HOME: home } }
}

describe("code cache", () => {
  it("the first start writes a cache beside the file; the next one reads it and runs the same program", () => {
    const { dir, env, file } = setup()
    const first = start(file, env)
    expect(first.use).toBe("miss")
    expect(first.output).toEqual({ answer: 42, file: "main.cjs", dir })
    expect(caches(join(dir, ".cache"))).toHaveLength(1)
    const second = start(file, env)
    expect(second.use).toBe("hit")
    expect(second.output).toEqual(first.output)
  })

  it("a changed file gets a cache of its own and the old one is removed", () => {
    const { dir, env, file } = setup()
    start(file, env)
    const before = caches(join(dir, ".cache"))
    writeFileSync(file, PROGRAM(4242))
    expect(start(file, env)).toMatchObject({ use: "miss", output: { answer: 4242 } })
    const after = caches(join(dir, ".cache"))
    expect(after).toHaveLength(1)
    expect(after).not.toEqual(before)
    expect(start(file, env)).toMatchObject({ use: "hit", output: { answer: 4242 } })
  })

  it("garbage in the cache is rejected, the program still runs, and the cache is rewritten", () => {
    const { dir, env, file } = setup()
    start(file, env)
    const [name] = caches(join(dir, ".cache"))
    writeFileSync(join(dir, ".cache", name ?? "missing"), Buffer.alloc(4096, 7))
    expect(start(file, env)).toMatchObject({ use: "rejected", output: { answer: 42 } })
    expect(start(file, env)).toMatchObject({ use: "hit", output: { answer: 42 } })
  })

  it("where nothing can be written beside the file, the cache goes to <home>/cache, and only if the home exists", () => {
    const { dir, env, file, home } = setup()
    // A plain file where the cache folder would be: mkdir fails even for root.
    writeFileSync(join(dir, ".cache"), "")
    expect(start(file, env).use).toBe("miss")
    expect(existsSync(home)).toBe(false)
    mkdirSync(home)
    expect(start(file, env).use).toBe("miss")
    expect(caches(join(home, "cache"))).toHaveLength(1)
    expect(start(file, env)).toMatchObject({ use: "hit", output: { answer: 42 } })
  })

  it("HERMES_EFFECT_CODE_CACHE=0 neither reads nor writes a cache", () => {
    const { dir, env, file } = setup()
    expect(start(file, { ...env, HERMES_EFFECT_CODE_CACHE: "0" })).toMatchObject({ use: "off", output: { answer: 42 } })
    expect(caches(join(dir, ".cache"))).toHaveLength(0)
  })
})
