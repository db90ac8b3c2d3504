/**
 * The only place an `ApprovedCommand` is made: a command (or text typed into
 * a process) reaches a shell only after Approval has said yes for it, on the
 * path it will take, for the backend it will run on. When the environment is
 * known, Approval may look into it (exports, scripts the command runs, where
 * its paths lead); without one it judges those as unknown.
 */
import { readFileSync } from "node:fs"
import { posix } from "node:path"
import { Effect, Option } from "effect"
import type { ApprovalService, CommandDenied, CommandPath, CommandSurroundings, InputReader, ModifiedAt, RuntimeProcess } from "../../services/Approval.js"
import type { ApprovedCommand, BackendInfo, TerminalEnvironment } from "../../services/TerminalBackend.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { hasTraversalComponent } from "../../lib/pathSafety.js"
import { asCommandSees } from "../approval/detect/pathClasses.js"

/** Backends whose commands see the host's own files (so a host path means the same file to both). */
const HOST_FILES = new Set(["local", "sandbox"])

/**
 * How commands that share our process table (the local backend; the sandbox has a pid namespace of its own) can name
 * the runtime: its pid and its parent's, its process names and its command line, as `kill`, `pkill` and `killall`
 * see them. Read once: none of it changes while the process runs.
 */
let ownProcess: RuntimeProcess | undefined
const runtimeProcess = (): RuntimeProcess => {
  if (ownProcess !== undefined) return ownProcess
  const proc = (name: string): string | undefined => {
    try {
      return readFileSync(`/proc/self/${name}`, "utf8")
    } catch {
      return undefined
    }
  }
  const comm = proc("comm")?.trim()
  const cmdline = proc("cmdline")?.split("\0").filter((part) => part !== "").join(" ")
  ownProcess = {
    pids: [process.pid, process.ppid],
    names: [...new Set([...(comm === undefined || comm === "" ? [] : [comm]), posix.basename(process.execPath), process.title])],
    commandLine: cmdline ?? [process.execPath, ...process.execArgv, ...process.argv.slice(1)].join(" ")
  }
  return ownProcess
}

const isEnvironment = (target: TerminalEnvironment | BackendInfo): target is TerminalEnvironment => "readFile" in target

/** A `workdir` through `/proc/self/cwd` is entered by the task's shell: it counts from where that shell stands. */
const workdirSeen = (env: TerminalEnvironment, workdir: string): Effect.Effect<string> => {
  const seen = asCommandSees(workdir)
  return seen === workdir || seen.startsWith("/") ? Effect.succeed(seen) : Effect.map(env.cwd, (cwd) => posix.join(cwd, seen))
}

/** What Approval may look at; `cwd`: where the command will start when the caller chose it (a `workdir`). */
export const surroundingsOf = (env: TerminalEnvironment, cwd?: string): CommandSurroundings => {
  // The environment's file operations fold `..` by the text (`i/..` is the folder holding `i`); the kernel climbs from
  // where `i` points. A path with `..` is resolved first, so what is read is the file the command will open.
  const asOpened = (path: string): Effect.Effect<string> => (hasTraversalComponent(path) ? env.realPath(path) : Effect.succeed(path))
  return {
    cwd: cwd === undefined ? env.cwd : workdirSeen(env, cwd),
    variables: env.variables,
    shellFunctions: env.shellFunctions,
    readText: (path, maxBytes) =>
      asOpened(path).pipe(
        Effect.flatMap((opened) =>
          Effect.flatMap(env.stat(opened), (st) =>
            st.type === "file" && st.size <= maxBytes
              ? Effect.map(env.readFile(opened), (bytes) => Option.some(Buffer.from(bytes).toString("utf8")))
              : Effect.succeed(Option.none<string>())
          )
        ),
        Effect.orElseSucceed(() => Option.none<string>())
      ),
    readHead: (path, length) =>
      asOpened(path).pipe(
        Effect.flatMap((opened) =>
          Effect.flatMap(env.stat(opened), (st) =>
            st.type === "file"
              ? Effect.map(env.readFile(opened, { offset: 0, length }), (bytes) => Option.some(bytes))
              : Effect.succeed(Option.none<Uint8Array>())
          )
        ),
        Effect.orElseSucceed(() => Option.none<Uint8Array>())
      ),
    realPath: env.realPath,
    listDir: (path) => asOpened(path).pipe(Effect.flatMap(env.readDir), Effect.orElseSucceed(() => [])),
    modifiedAt: (path) =>
      asOpened(path).pipe(
        Effect.flatMap(env.stat),
        Effect.map((st): ModifiedAt => (st.mtimeMs > 0 ? st.mtimeMs : "unknown")),
        Effect.catchAll((error) => Effect.succeed<ModifiedAt>(error.reason === "NotFound" ? "missing" : "unknown"))
      ),
    fileKind: (path) =>
      asOpened(path).pipe(
        Effect.flatMap(env.stat),
        Effect.map((st) => st.type),
        Effect.orElseSucceed(() => "missing" as const)
      ),
    linkCount: (path) =>
      asOpened(path).pipe(
        Effect.flatMap(env.stat),
        Effect.map((st) => (st.type === "file" ? st.links ?? 1 : 1)),
        Effect.orElseSucceed(() => 1)
      ),
    sharesHostFiles: HOST_FILES.has(env.kind),
    runtimeProcess: env.kind === "local" ? runtimeProcess() : undefined
  }
}

export const approveCommand = (
  approval: ApprovalService,
  target: TerminalEnvironment | BackendInfo,
  context: ToolCallContext,
  text: string,
  path: CommandPath,
  language?: InputReader,
  /** The directory the command will run in when it is not the environment's own (`terminal(workdir=…)`): judged there. */
  cwd?: string
): Effect.Effect<ApprovedCommand, CommandDenied> =>
  Effect.map(
    approval.check({
      command: text,
      context,
      backend: { kind: target.kind, isolated: target.isolated },
      path,
      language,
      surroundings: isEnvironment(target) ? surroundingsOf(target, cwd) : undefined
    }),
    // The brand is declared, never constructed: this cast is the approval boundary.
    (grant) => ({ text, path, grant }) as unknown as ApprovedCommand
  )

/**
 * Approval for `judged`, to run `runs` instead: only for a launcher the runtime builds that runs exactly the bytes
 * `judged` names, handed to it by the runtime rather than read from files another process could change in between
 * (execute_code: code/scriptLoader.ts). The audit records `judged`.
 */
export const approveLauncher = (
  approval: ApprovalService,
  target: TerminalEnvironment,
  context: ToolCallContext,
  judged: string,
  runs: string,
  path: CommandPath
): Effect.Effect<ApprovedCommand, CommandDenied> =>
  Effect.map(
    approval.check({ command: judged, context, backend: { kind: target.kind, isolated: target.isolated }, path, surroundings: surroundingsOf(target) }),
    // The brand is declared, never constructed: this cast is the approval boundary.
    (grant) => ({ text: runs, path, grant }) as unknown as ApprovedCommand
  )

/** A PATH whose entries are only known when the program runs: every program it finds needs approval. */
const UNKNOWN_PATH = "$HERMES_READER_PATH"

/** What the program reading typed text inherited from the command that started it (see processes/readerSetup.ts). */
export interface ReaderState {
  /** Where it stands (absolute). */
  readonly cwd: string
  /** Its variables may differ from the task's exports: every name not set by the typed text itself is unknown. */
  readonly variablesUnknown: boolean
  /** Where it finds programs is not known. */
  readonly pathUnknown: boolean
  /** Why the text needs approval whatever it says, if it does. */
  readonly uncertain?: string | undefined
}

/** The task's surroundings, as the reader sees them: its directory, and what it may hold that the task does not. */
const readerSurroundings = (env: TerminalEnvironment, reader: ReaderState): CommandSurroundings => {
  const base = surroundingsOf(env, reader.cwd)
  if (!reader.variablesUnknown && !reader.pathUnknown) return base
  const variables = Effect.map(env.variables, (exported): Readonly<Record<string, string>> => {
    const path = reader.pathUnknown ? UNKNOWN_PATH : exported["PATH"]
    const kept = reader.variablesUnknown ? {} : exported
    return path === undefined ? kept : { ...kept, PATH: path }
  })
  if (!reader.variablesUnknown) return { ...base, variables }
  // As a persistent shell's: a name missing from `variables` is unknown rather than unset.
  const held = env.shellFunctions ?? Effect.succeed(undefined)
  return { ...base, variables, shellFunctions: Effect.map(held, (functions) => functions ?? []) }
}

/**
 * Text typed into a running program: judged as `judged`, what the program
 * will have read (the input before it included), in the reader's directory
 * and with what it inherited; approved for writing `written` only.
 */
export const approveInput = (
  approval: ApprovalService,
  env: TerminalEnvironment,
  context: ToolCallContext,
  judged: string,
  written: string,
  language: InputReader,
  reader: ReaderState
): Effect.Effect<ApprovedCommand, CommandDenied> =>
  Effect.map(
    approval.check({
      command: judged,
      context,
      backend: { kind: env.kind, isolated: env.isolated },
      path: "process-write",
      language,
      surroundings: readerSurroundings(env, reader),
      uncertain: reader.uncertain
    }),
    // The brand is declared, never constructed: this cast is the approval boundary.
    (grant) => ({ text: written, path: "process-write", grant }) as unknown as ApprovedCommand
  )
