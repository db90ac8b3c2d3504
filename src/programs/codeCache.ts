/**
 * Loads the CLI's one-file CommonJS bundle (dist/cli/main.cjs) with a V8 code
 * cache, so a start deserializes the functions the last run compiled instead
 * of parsing ~3 MB of JavaScript again: Node 20 has no compile cache for ES
 * modules (`module.enableCompileCache` arrived in 22), but `vm.Script` takes
 * cached data. The first run after a build parses and then writes the cache.
 *
 * The cache lives beside the bundle, so it is exactly as writable as the code
 * it stands for; where that folder is read-only, in `<home>/cache`, a path the
 * approval gate already guards. Its name carries the bundle's size and mtime
 * and the V8 version, and V8 itself rejects data made for other flags or
 * source; a rejected or missing cache is rewritten atomically at exit.
 * `HERMES_EFFECT_CODE_CACHE=0` turns it off.
 *
 * Node 20 gives functions restored from a cache no `import()` callback, so the
 * bundle imports run-time modules through lib/importModule.ts, which the
 * entry (bin.ts) points at its own `import`.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { homedir } from "node:os"
import { basename, dirname, join } from "node:path"
import { Script } from "node:vm"

const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) { "
const WRAPPER_TAIL = "\n})"

const cacheKey = (file: string) => {
  const { size, mtimeMs } = statSync(file)
  const key = [process.versions.v8, process.arch, process.execArgv.join(" "), size, mtimeMs].join("|")
  return `${basename(file)}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}.v8cache`
}

const homeCache = () => {
  const fromEnv = process.env["HERMES_EFFECT_HOME"]
  return join(fromEnv !== undefined && fromEnv !== "" ? fromEnv : join(homedir(), ".hermes-effect"), "cache")
}

const readOrUndefined = (path: string): Buffer | undefined => {
  try {
    return readFileSync(path)
  } catch {
    return undefined
  }
}

/** Writes `data` as `dir/name` through a temporary file, and drops the folder's caches of older builds. */
const store = (dir: string, name: string, data: Buffer): boolean => {
  try {
    // The home is made by the program proper, not as a side effect of caching.
    if (!existsSync(dirname(dir))) return false
    mkdirSync(dir, { recursive: true })
    const temporary = join(dir, `.${name}.${process.pid}`)
    writeFileSync(temporary, data, { mode: 0o600 })
    renameSync(temporary, join(dir, name))
    const prefix = name.slice(0, name.lastIndexOf("-") + 1)
    for (const other of readdirSync(dir)) {
      if (other !== name && other.startsWith(prefix) && other.endsWith(".v8cache")) unlinkSync(join(dir, other))
    }
    return true
  } catch {
    return false
  }
}

/** How a start used the cache: read one, found none, had one rejected by V8, or was told not to use any. */
export type CacheUse = "hit" | "miss" | "rejected" | "off"

/** Runs the CommonJS file `file` as Node would, through a code cache when one is usable. */
export const runCached = (file: string): CacheUse => {
  const enabled = process.env["HERMES_EFFECT_CODE_CACHE"] !== "0"
  const name = cacheKey(file)
  const dirs = [join(dirname(file), ".cache"), homeCache()]
  const found = enabled ? dirs.map((dir) => ({ dir, data: readOrUndefined(join(dir, name)) })).find((c) => c.data !== undefined) : undefined
  const source = readFileSync(file, "utf8").replace(/^#!.*/, "")
  const script = new Script(WRAPPER_HEAD + source + WRAPPER_TAIL, {
    filename: file,
    ...(found?.data === undefined ? {} : { cachedData: found.data })
  })
  if (enabled && (found === undefined || script.cachedDataRejected === true)) {
    // At exit the cache also holds every function this run compiled, not only the top level.
    process.once("exit", () => {
      const data = script.createCachedData()
      for (const dir of found === undefined ? dirs : [found.dir]) if (store(dir, name, data)) return
    })
  }
  const module = { exports: {} }
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string
  ) => void
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
  return !enabled ? "off" : found === undefined ? "miss" : script.cachedDataRejected === true ? "rejected" : "hit"
}
