/**
 * What every file tool starts from: the task's environment (so paths mean
 * what they mean to the task's commands, on any backend), the `files:`
 * settings, and the protected paths of this runtime, resolved in that
 * environment.
 */
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { Clock, Effect, Schema } from "effect"
import { inSystemTree } from "../../lib/systemTrees.js"
import { expandHome } from "../../lib/text.js"
import { Approval } from "../../services/Approval.js"
import type { JsonStyle } from "../../lib/pythonJson.js"
import { Config } from "../../services/Config.js"
import type { ConfigService, HermesConfig } from "../../services/Config.js"
import { Environments } from "../../services/Environments.js"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import { ToolContext } from "../../services/ToolContext.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import {
  classifyWriteDenial,
  mapWriteDenyList,
  notRegularWriteError,
  sensitiveWriteError,
  systemTreeWriteError,
  writeDeniedMessage,
  writeDenyList
} from "../../lib/pathSafety.js"
import type { SafetyPaths, WriteDenyList } from "../../lib/pathSafety.js"

/** A file tool refused or failed; the message is what the model reads. */
export class FileToolError extends Schema.TaggedError<FileToolError>()("FileToolError", {
  message: Schema.String
}) {}

export const fail = (message: string) => Effect.fail(new FileToolError({ message }))

export interface FileSettings {
  readonly writeRoots: ReadonlyArray<string>
  readonly readMaxChars: number
  readonly searchEngine: "auto" | "rg" | "builtin"
  /** `tools.result_json`: for results a tool writes as text itself. */
  readonly jsonStyle: JsonStyle
}

/** `files:` from config, plus Hermes' HERMES_WRITE_SAFE_ROOT (colon-separated) when set. */
export const fileSettings = (config: HermesConfig): FileSettings => {
  const files = config.files
  const fromEnv = (process.env["HERMES_WRITE_SAFE_ROOT"] ?? "").split(":")
  const roots = [...files.write_roots, ...fromEnv]
    .map((r) => r.trim())
    .filter((r) => r.length > 0)
    .map((r) => resolve(expandHome(r)))
  return {
    writeRoots: [...new Set(roots)],
    readMaxChars: files.read_max_chars,
    searchEngine: files.search_engine,
    jsonStyle: config.tools.result_json
  }
}

export interface TaskFiles {
  readonly context: ToolCallContext
  readonly env: TerminalEnvironment
  readonly config: ConfigService
  readonly settings: FileSettings
}

/** The calling task's environment and settings. */
export const taskFiles: Effect.Effect<TaskFiles, FileToolError, ToolContext | Environments | Config> = Effect.gen(function*() {
  const context = yield* ToolContext
  const config = yield* Config
  const env = yield* Effect.flatMap(Environments, (e) => e.get(context.taskId)).pipe(
    Effect.mapError((e) => new FileToolError({ message: `Terminal environment unavailable: ${e.message}` }))
  )
  return { context, env, config, settings: fileSettings(yield* config.current) }
})

/** A path argument: as the model wrote it, absolute in the task's environment, and with symlinks resolved. */
export interface Target {
  readonly input: string
  readonly absolute: string
  readonly real: string
}

export const resolveTarget = (env: TerminalEnvironment, input: string): Effect.Effect<Target> =>
  Effect.map(Effect.all([env.resolvePath(input), env.realPath(input)]), ([absolute, real]) => ({ input, absolute, real }))

/**
 * What the checks compare against, resolved in one environment. Resolving
 * costs a round trip per path on remote backends, so it is kept for a while
 * per environment (and redone when the config changes).
 */
interface Resolved {
  readonly at: number
  readonly revision: number
  readonly paths: SafetyPaths
  /** Deny lists for each user home, as written and with symlinks resolved. */
  readonly lists: ReadonlyArray<WriteDenyList>
  readonly roots: ReadonlyArray<string>
  readonly configReal: string
}

const RESOLVED_TTL_MS = 60_000
const resolvedCache = new WeakMap<TerminalEnvironment, Resolved>()

const resolveSafety = (files: TaskFiles): Effect.Effect<Resolved> =>
  Effect.gen(function*() {
    const { env, config, settings } = files
    const now = yield* Clock.currentTimeMillis
    const revision = yield* config.revision
    const cached = resolvedCache.get(env)
    if (cached !== undefined && cached.revision === revision && now - cached.at < RESOLVED_TTL_MS) return cached
    const home = config.home
    const [userHome, hermesHome, hermesInstall, configReal] = yield* Effect.all([
      env.realPath("~"),
      env.realPath(home.root),
      env.realPath(join(homedir(), ".hermes")),
      env.realPath(home.configFile)
    ], { batching: true })
    const paths: SafetyPaths = {
      userHome,
      hermesHome,
      otherHermesHomes: [home.root, hermesInstall],
      configFile: home.configFile,
      // The state database holds sessions and the approval audit: never a file tool's target.
      protectedFiles: [join(home.logsDir, "approvals.jsonl"), home.database, `${home.database}-wal`, `${home.database}-shm`],
      writeRoots: settings.writeRoots
    }
    const lexical = [...new Set([userHome, homedir()])].map((h) => writeDenyList({ ...paths, userHome: h }))
    // Batched: a remote environment resolves them all in one round trip.
    const [real, roots] = yield* Effect.all([
      Effect.forEach(lexical, (list) => mapWriteDenyList(list, env.realPath), { batching: true }),
      Effect.forEach(settings.writeRoots, env.realPath, { batching: true })
    ], { batching: true })
    const resolved: Resolved = { at: now, revision, paths, lists: [...lexical, ...real], roots, configReal }
    resolvedCache.set(env, resolved)
    return resolved
  })

/** The protected paths of this runtime, as the task's environment sees them. */
export const safetyPaths = (files: TaskFiles): Effect.Effect<SafetyPaths> => Effect.map(resolveSafety(files), (r) => r.paths)

/**
 * Why writing `target` is refused (system path, our config, credential file,
 * outside `files.write_roots`), or undefined. The deny lists are compared both
 * as written and with their own symlinks resolved, for the user's home as the
 * environment sees it and the host's.
 */
export const writeRefusal = (files: TaskFiles, target: Target): Effect.Effect<string | undefined> =>
  Effect.gen(function*() {
    if (inSystemTree(target.absolute) || inSystemTree(target.real)) return systemTreeWriteError(target.input)
    const { lists, roots, configReal } = yield* resolveSafety(files)
    const configFile = files.config.home.configFile
    const sensitive = sensitiveWriteError(target.input, [target.absolute, target.real], [configFile, configReal])
    if (sensitive !== undefined) return sensitive
    const denial = classifyWriteDenial(target.real, lists, roots) ??
      (target.absolute === target.real ? undefined : classifyWriteDenial(target.absolute, lists, []))
    if (denial !== undefined) return writeDeniedMessage(target.real, denial, roots)
    // stat does not open the file, so a FIFO cannot block it.
    const existing = yield* Effect.either(files.env.stat(target.real))
    return existing._tag === "Right" && existing.right.type === "other" ? notRegularWriteError(target.input) : undefined
  })

/**
 * Ask approval for writing each target: the file written (symlinks resolved)
 * and, when a link leads elsewhere, the path as named (`~/.bashrc` linked to
 * a dotfiles checkout is still the shell's start-up file). A denial's message
 * is what the model reads; nothing has been written.
 */
export const approveWrites = (
  files: TaskFiles,
  tool: string,
  targets: ReadonlyArray<Target>
): Effect.Effect<void, FileToolError, Approval> =>
  Effect.gen(function*() {
    const approval = yield* Approval
    const backend = { kind: files.env.kind, isolated: files.env.isolated }
    const ask = (path: string) =>
      approval.checkFileWrite({ path, tool, context: files.context, backend }).pipe(
        Effect.mapError((denied) => new FileToolError({ message: denied.message }))
      )
    for (const target of targets) {
      const grant = yield* ask(target.real)
      if (grant.decidedBy === "not-dangerous" && target.absolute !== target.real) yield* ask(target.absolute)
    }
  })

/** A relative path that lands outside the task's working directory (Hermes warns about wrong-checkout edits). */
export const outsideWorkspaceWarning = (env: TerminalEnvironment, target: Target): Effect.Effect<string | undefined> =>
  Effect.map(env.cwd, (cwd) => {
    if (target.input.startsWith("/") || target.input.startsWith("~")) return undefined
    const root = cwd.endsWith("/") ? cwd : `${cwd}/`
    if (target.absolute === cwd || target.absolute.startsWith(root)) return undefined
    return `Relative path '${target.input}' resolved to '${target.absolute}', which is OUTSIDE the working directory ('${cwd}'). ` +
      "If this is not intended, pass an absolute path under the working directory instead."
  })
