/**
 * File operations of a transport environment, each one helper script on the
 * target (`remoteScripts.ts`) over the same transport as the commands: one
 * round trip per operation. Exit codes and the tools' error text map to the
 * typed reasons (NotFound, IsDirectory, Denied, Io) the local backend gives.
 */
import { posix } from "node:path"
import { Effect } from "effect"
import type { DirEntry, FileStat, TerminalEnvironment, TerminalError } from "../../services/TerminalBackend.js"
import { EnvironmentFileError } from "../../services/TerminalBackend.js"
import {
  EXIT,
  READ_DIR_SCRIPT,
  READ_LINK_SCRIPT,
  READ_SCRIPT,
  REAL_PATH_SCRIPT,
  REMOVE_SCRIPT,
  RENAME_SCRIPT,
  STAT_SCRIPT,
  WRITE_ATOMIC_SCRIPT,
  WRITE_SCRIPT
} from "./remoteScripts.js"
import type { ClientResult } from "./transportProcess.js"

export interface TargetFilesConfig {
  /** Run one helper script on the target. */
  readonly script: (source: string, args: ReadonlyArray<string>, input?: Uint8Array | string) => Effect.Effect<ClientResult, TerminalError>
  /** Why a client's exit is a transport failure (not the script's), or undefined. */
  readonly failure: (code: number, diagnostics: string) => string | undefined
  /** Absolute and normalised, as the environment's commands see it. */
  readonly resolve: (path: string) => string
  /** Absolute but not normalised: `..` after a symlink must be resolved against the link's target. */
  readonly rawAbsolute: (path: string) => string
}

export type TargetFiles = Pick<TerminalEnvironment, "readFile" | "writeFile" | "stat" | "readDir" | "realPath" | "readLink" | "rename" | "remove">

const fileFailure = (path: string, result: ClientResult, transportProblem: string | undefined): EnvironmentFileError => {
  if (transportProblem !== undefined) return new EnvironmentFileError({ path, reason: "Io", message: transportProblem })
  if (result.code === EXIT.notFound || /No such file or directory|Not a directory/.test(result.stderr)) {
    return new EnvironmentFileError({ path, reason: "NotFound", message: `No such file or directory: ${path}` })
  }
  if (result.code === EXIT.isDirectory || /Is a directory/.test(result.stderr)) {
    return new EnvironmentFileError({ path, reason: "IsDirectory", message: `Is a directory: ${path}` })
  }
  if (/Permission denied|Read-only file system|Operation not permitted/.test(result.stderr)) {
    return new EnvironmentFileError({ path, reason: "Denied", message: result.stderr.split("\n")[0] ?? `Permission denied: ${path}` })
  }
  return new EnvironmentFileError({ path, reason: "Io", message: result.stderr.length > 0 ? result.stderr : `file operation failed with exit code ${result.code}: ${path}` })
}

const parseEntries = (result: ClientResult): ReadonlyArray<DirEntry> =>
  result.stdout.toString("utf8").split("\0").filter((item) => item.length > 2).map((item): DirEntry => {
    const kind = item[0]
    return {
      name: item.slice(2),
      type: kind === "f" ? "file" : kind === "d" ? "directory" : kind === "l" ? "symlink" : "other"
    }
  })

const parseStat = (result: ClientResult): FileStat => {
  const [type = "", size = "0", mtime = "0"] = result.stdout.toString("utf8").trim().split("|")
  const seconds = Number(mtime)
  return {
    type: /^regular/i.test(type) ? "file" : /^directory$/i.test(type) ? "directory" : "other",
    size: Number(size) || 0,
    mtimeMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : 0
  }
}

export const makeTargetFiles = ({ failure, rawAbsolute, resolve, script }: TargetFilesConfig): TargetFiles => {
  /** One file helper on the target; `path` (already resolved) names the file in errors. */
  const fileOp = <A>(
    path: string,
    source: string,
    args: ReadonlyArray<string>,
    input: Uint8Array | string | undefined,
    onSuccess: (result: ClientResult) => A
  ): Effect.Effect<A, EnvironmentFileError> =>
    script(source, args, input).pipe(
      Effect.mapError((error) => new EnvironmentFileError({ path, reason: "Io", message: error.message })),
      Effect.flatMap((result) =>
        result.code === 0
          ? Effect.succeed(onSuccess(result))
          : Effect.fail(fileFailure(path, result, failure(result.code, result.stderr)))
      )
    )

  return {
    readFile: (path, options) =>
      Effect.suspend(() => {
        const target = resolve(path)
        const range = options === undefined
          ? ["", ""]
          : [options.offset === undefined ? "" : String(Math.max(0, Math.floor(options.offset))), options.length === undefined ? "" : String(Math.max(0, Math.floor(options.length)))]
        return fileOp(target, READ_SCRIPT, [target, ...range], undefined, (result): Uint8Array => result.stdout)
      }),
    writeFile: (path, data, options) =>
      Effect.suspend(() => {
        const target = resolve(path)
        return fileOp(target, options?.atomic === true ? WRITE_ATOMIC_SCRIPT : WRITE_SCRIPT, [target], data, () => undefined)
      }),
    stat: (path) =>
      Effect.suspend(() => {
        const target = resolve(path)
        return fileOp(target, STAT_SCRIPT, [target], undefined, parseStat)
      }),
    readDir: (path) =>
      Effect.suspend(() => {
        const target = resolve(path)
        return fileOp(target, READ_DIR_SCRIPT, [target], undefined, parseEntries)
      }),
    realPath: (path) =>
      Effect.suspend(() => {
        const raw = rawAbsolute(path)
        return script(REAL_PATH_SCRIPT, [raw]).pipe(
          Effect.map((result) => {
            const out = result.stdout.toString("utf8").replace(/\n$/, "")
            return result.code === 0 && out.startsWith("/") ? posix.normalize(out) : posix.normalize(raw)
          }),
          // Like `realpath -m`, never fails: an unreachable target resolves lexically.
          Effect.orElseSucceed(() => posix.normalize(raw))
        )
      }),
    readLink: (path) =>
      Effect.suspend(() =>
        script(READ_LINK_SCRIPT, [resolve(path)]).pipe(
          Effect.map((result) => (result.code === 0 ? result.stdout.toString("utf8").replace(/\n$/, "") : undefined)),
          Effect.orElseSucceed(() => undefined)
        )
      ),
    rename: (from, to) =>
      Effect.suspend(() => {
        const source = resolve(from)
        return fileOp(source, RENAME_SCRIPT, [source, resolve(to)], undefined, () => undefined)
      }),
    remove: (path) =>
      Effect.suspend(() => {
        const target = resolve(path)
        return fileOp(target, REMOVE_SCRIPT, [target], undefined, () => undefined)
      })
  }
}
