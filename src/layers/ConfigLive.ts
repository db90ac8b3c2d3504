/**
 * Config backed by `$HERMES_EFFECT_HOME/config.yaml`.
 *
 * Every write re-reads the file, edits it through the YAML Document API (comments and
 * formatting kept), validates the result and replaces the file atomically. A malformed
 * file is never written over.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type { PlatformError, SystemError } from "@effect/platform/Error"
import { Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { homedir } from "node:os"
import * as NodePath from "node:path"
import { expandHome } from "../lib/text.js"
import { Config, ConfigError } from "../services/Config.js"
import type { ConfigPath, HermesConfig, HermesHome } from "../services/Config.js"
import { applyEdit, parseConfigText } from "./config/yamlConfig.js"
import type { ConfigEdit, ParsedConfig } from "./config/yamlConfig.js"

/** Paths under the home root. `root` defaults to `$HERMES_EFFECT_HOME`, then `~/.hermes-effect`. */
export const resolveHome = (root?: string): HermesHome => {
  const fromEnv = process.env["HERMES_EFFECT_HOME"]
  const chosen = root ?? (fromEnv !== undefined && fromEnv !== "" ? fromEnv : NodePath.join(homedir(), ".hermes-effect"))
  const abs = NodePath.resolve(expandHome(chosen))
  return {
    root: abs,
    configFile: NodePath.join(abs, "config.yaml"),
    database: NodePath.join(abs, "state.db"),
    skillsDir: NodePath.join(abs, "skills"),
    pluginsDir: NodePath.join(abs, "plugins"),
    logsDir: NodePath.join(abs, "logs"),
    workspaceDir: NodePath.join(abs, "workspace")
  }
}

const isNotFound = (error: PlatformError): error is SystemError =>
  error._tag === "SystemError" && error.reason === "NotFound"

/** The file's text, or None when it does not exist. */
const readText = (fs: FileSystem.FileSystem, file: string): Effect.Effect<Option.Option<string>, ConfigError> =>
  fs.readFileString(file).pipe(
    Effect.map(Option.some),
    Effect.catchIf(isNotFound, () => Effect.succeedNone),
    Effect.mapError((error) => new ConfigError({ file, message: `cannot read: ${error.message}` }))
  )

/** Read and decode; a missing file is the empty config (and is not created). */
const readParsed = (fs: FileSystem.FileSystem, file: string): Effect.Effect<ParsedConfig, ConfigError> =>
  Effect.flatMap(readText(fs, file), (text) => parseConfigText(file, Option.getOrElse(text, () => "")))

export const loadConfigFile = (file: string): Effect.Effect<HermesConfig, ConfigError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => Effect.map(readParsed(fs, file), (parsed) => parsed.config))

/** Write `<file>.tmp-<pid>-<random>` in the same directory, fsync, rename over `file`. */
const writeAtomic = (fs: FileSystem.FileSystem, file: string, text: string): Effect.Effect<void, ConfigError> => {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`
  return Effect.gen(function*() {
    yield* fs.makeDirectory(NodePath.dirname(file), { recursive: true })
    // Keep the existing file's permissions (a config may be chmod 600).
    const mode = yield* fs.stat(file).pipe(
      Effect.map((info) => Option.some(info.mode & 0o777)),
      Effect.orElseSucceed(() => Option.none<number>())
    )
    yield* Effect.scoped(Effect.gen(function*() {
      const handle = yield* fs.open(tmp, { flag: "wx" })
      yield* handle.writeAll(new TextEncoder().encode(text))
      yield* handle.sync
    }))
    if (Option.isSome(mode)) yield* fs.chmod(tmp, mode.value)
    yield* fs.rename(tmp, file)
  }).pipe(
    Effect.onError(() => fs.remove(tmp).pipe(Effect.ignore)),
    Effect.mapError((error) => new ConfigError({ file, message: `cannot write: ${error.message}` }))
  )
}

interface State {
  readonly config: HermesConfig
  readonly revision: number
}

const make = (options?: { readonly home?: string }) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const home = resolveHome(options?.home)
    const file = home.configFile
    const initial = yield* readParsed(fs, file)
    // A plain variable, not a Ref: every change is one synchronous assignment, and reading `current`
    // (once per tool call) then costs a single step.
    let state: State = { config: initial.config, revision: 0 }
    // One permit: reload/set/remove never interleave, so no edit is lost.
    const lock = yield* Effect.makeSemaphore(1)

    const commit = (config: HermesConfig) =>
      Effect.sync(() => {
        state = { config, revision: state.revision + 1 }
      })

    const edit = (change: ConfigEdit): Effect.Effect<void, ConfigError> =>
      Effect.gen(function*() {
        // Re-read first so an outside edit since the last load is kept; a bad file fails here.
        const parsed = yield* readParsed(fs, file)
        const result = yield* applyEdit(file, parsed.doc, change)
        if (result._tag === "Unchanged") return yield* commit(parsed.config)
        // Disk and memory change together or not at all.
        yield* Effect.uninterruptible(Effect.zipRight(writeAtomic(fs, file, result.text), commit(result.config)))
      }).pipe(lock.withPermits(1))

    const reload = Effect.fn("Config.reload")(function*() {
      const parsed = yield* readParsed(fs, file)
      yield* commit(parsed.config)
      return parsed.config
    })

    return Config.of({
      home,
      current: Effect.sync(() => state.config),
      revision: Effect.sync(() => state.revision),
      reload: reload().pipe(lock.withPermits(1)),
      set: Effect.fn("Config.set")(function*(path: ConfigPath, value: unknown) {
        yield* edit({ _tag: "Set", path, value })
      }),
      remove: Effect.fn("Config.remove")(function*(path: ConfigPath) {
        yield* edit({ _tag: "Remove", path })
      })
    })
  })

export const ConfigLive = (options?: { readonly home?: string }): Layer.Layer<Config, ConfigError, FileSystem.FileSystem> =>
  Layer.effect(Config, make(options))
