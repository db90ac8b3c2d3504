/**
 * File operations of a transport environment, each one helper script on the
 * target (`remoteScripts.ts`) over the same transport as the commands: one
 * round trip per operation. Exit codes and the tools' error text map to the
 * typed reasons (NotFound, IsDirectory, Denied, Io) the local backend gives.
 *
 * As on the local backend, only regular files are read or written, and
 * nothing is written, moved or deleted in /dev, /proc or /sys once symlinks
 * are resolved: a guard runs first in the same script (the same round trip).
 */
import { posix } from "node:path"
import { Effect, Request, RequestResolver } from "effect"
import type { DirEntry, FileStat, TerminalEnvironment, TerminalError } from "../../services/TerminalBackend.js"
import { EnvironmentFileError } from "../../services/TerminalBackend.js"
import {
  EXIT,
  READ_DIR_SCRIPT,
  READ_LINK_SCRIPT,
  READ_SCRIPT,
  REAL_PATHS_SCRIPT,
  REMOVE_SCRIPT,
  RENAME_SCRIPT,
  WRITE_ATOMIC_SCRIPT,
  WRITE_SCRIPT
} from "./remoteScripts.js"
import { movedTargetRefusal, notRegularRefusal, systemTreeRefusal } from "./environmentFiles.js"
import type { ClientResult } from "./transportProcess.js"

/** Exit codes of the guards below (the helper scripts use 20-24). */
const NOT_REGULAR = 25
const SYSTEM_TREE = 26
/** The target resolved elsewhere than where the write was judged. */
const MOVED = 27

const SYSTEM_CASE = `/dev|/dev/*|/proc|/proc/*|/sys|/sys/*) exit ${SYSTEM_TREE};;`

/** sh: a path argument's target with symlinks resolved (realpath -m, else readlink -f, else as given). */
const resolved = (arg: string, into: string) =>
  `${into}=$(realpath -m -- "${arg}" 2>/dev/null || readlink -f -- "${arg}" 2>/dev/null); [ -n "$${into}" ] || ${into}=${arg}`

/** sh: refuse reading anything that exists and is neither a regular file nor a directory (a FIFO would block). */
const READ_GUARD = `if [ -e "$1" ] && [ ! -f "$1" ] && [ ! -d "$1" ]; then exit ${NOT_REGULAR}; fi\n`

/** sh: refuse writing `arg` in a system tree (as given or resolved) or over something that is not a regular file. */
const writeGuard = (arg: string) =>
  `${resolved(arg, "__hr")}
for __hp in "${arg}" "$__hr"; do case $__hp in ${SYSTEM_CASE} esac; done
if [ -e "$__hr" ] && [ ! -f "$__hr" ]; then [ -d "$__hr" ] && exit ${EXIT.isDirectory}; exit ${NOT_REGULAR}; fi
`

/** sh: refuse moving or deleting the entry `arg` (not what a link points to) in a system tree. */
const entryGuard = (arg: string) =>
  `__he=${arg}; __hd=\${__he%/*}; [ -n "$__hd" ] || __hd=/
${resolved("$__hd", "__hd")}
for __hp in "$__he" "$__hd/\${__he##*/}"; do case $__hp in ${SYSTEM_CASE} esac; done
`

const REMOVE_GUARD = `${entryGuard("$1")}if [ -e "$1" ] && [ ! -L "$1" ] && [ ! -f "$1" ] && [ ! -d "$1" ]; then exit ${NOT_REGULAR}; fi
`

/** Type, size, mtime, `dev:ino` and link count (GNU, busybox, then BSD stat). Arg: path. */
const FILE_STAT_SCRIPT = `[ -e "$1" ] || exit ${EXIT.notFound}
stat -L -c '%F|%s|%.9Y|%d:%i|%h' -- "$1" 2>/dev/null || stat -L -c '%F|%s|%Y|%d:%i|%h' -- "$1" 2>/dev/null || stat -L -f '%HT|%z|%m|%d:%i|%l' -- "$1"`

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

/** One `realPath` lookup; lookups made together (`batching: true`) share one script (see `makeTargetFiles`). */
interface RealPathLookup extends Request.Request<string> {
  readonly _tag: "RealPathLookup"
  /** Absolute, not normalised. */
  readonly raw: string
}
const RealPathLookup = Request.tagged<RealPathLookup>("RealPathLookup")

export type TargetFiles = Pick<TerminalEnvironment, "readFile" | "writeFile" | "stat" | "readDir" | "realPath" | "readLink" | "rename" | "remove">

/** sh, before the rename of an atomic write judged at $2: the temp file's folder ($d) still resolves to $2's. */
const STILL_THERE = `__hd2=\${2%/*}; [ -n "$__hd2" ] || __hd2=/
${resolved("$d", "__hdr")}
[ "$__hdr" = "$__hd2" ] || { rm -f -- "$tmp"; exit ${MOVED}; }
`
const MOVED_MARK = "hermes: write target moved"

const fileFailure = (path: string, result: ClientResult, transportProblem: string | undefined, verb: string): EnvironmentFileError => {
  if (transportProblem !== undefined) return new EnvironmentFileError({ path, reason: "Io", message: transportProblem })
  if (result.code === MOVED) return new EnvironmentFileError({ path, reason: "Denied", message: MOVED_MARK })
  if (result.code === NOT_REGULAR) return notRegularRefusal(path, verb)
  if (result.code === SYSTEM_TREE) return systemTreeRefusal(path)
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
  const [type = "", size = "0", mtime = "0", identity = "", links = ""] = result.stdout.toString("utf8").trim().split("|")
  const seconds = Number(mtime)
  const count = Number(links)
  return {
    type: /^regular/i.test(type) ? "file" : /^directory$/i.test(type) ? "directory" : "other",
    size: Number(size) || 0,
    mtimeMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : 0,
    identity: /^\d+:\d+$/.test(identity) ? identity : undefined,
    links: links.length > 0 && Number.isInteger(count) ? count : undefined
  }
}

export const makeTargetFiles = ({ failure, rawAbsolute, resolve, script }: TargetFilesConfig): TargetFiles => {
  /** One file helper on the target; `path` (already resolved) names the file in errors. */
  const fileOp = <A>(
    path: string,
    source: string,
    args: ReadonlyArray<string>,
    input: Uint8Array | string | undefined,
    onSuccess: (result: ClientResult) => A,
    verb = "read"
  ): Effect.Effect<A, EnvironmentFileError> =>
    script(source, args, input).pipe(
      Effect.mapError((error) => new EnvironmentFileError({ path, reason: "Io", message: error.message })),
      Effect.flatMap((result) =>
        result.code === 0
          ? Effect.succeed(onSuccess(result))
          : Effect.fail(fileFailure(path, result, failure(result.code, result.stderr), verb))
      )
    )

  /**
   * Resolves every lookup of a batch in one script: the file tools' safety checks resolve
   * some thirty protected paths, a round trip each on a remote target otherwise.
   */
  const realPaths = RequestResolver.makeBatched((lookups: ReadonlyArray<RealPathLookup>) =>
    script(REAL_PATHS_SCRIPT, lookups.map((lookup) => lookup.raw)).pipe(
      Effect.map((result) => {
        const outs = result.stdout.toString("utf8").split("\0")
        return lookups.map((lookup, i) => {
          const out = outs[i] ?? ""
          return result.code === 0 && out.startsWith("/") ? posix.normalize(out) : posix.normalize(lookup.raw)
        })
      }),
      // Like `realpath -m`, never fails: an unreachable target resolves lexically.
      Effect.orElseSucceed(() => lookups.map((lookup) => posix.normalize(lookup.raw))),
      Effect.flatMap((paths) => Effect.forEach(lookups, (lookup, i) => Request.succeed(lookup, paths[i]!), { discard: true }))
    )
  )

  return {
    readFile: (path, options) =>
      Effect.suspend(() => {
        const target = resolve(path)
        const range = options === undefined
          ? ["", ""]
          : [options.offset === undefined ? "" : String(Math.max(0, Math.floor(options.offset))), options.length === undefined ? "" : String(Math.max(0, Math.floor(options.length)))]
        return fileOp(target, READ_GUARD + READ_SCRIPT, [target, ...range], undefined, (result): Uint8Array => result.stdout)
      }),
    writeFile: (path, data, options) =>
      Effect.suspend(() => {
        const target = resolve(path)
        const write = options?.atomic === true ? WRITE_ATOMIC_SCRIPT : WRITE_SCRIPT
        const expected = options?.expectedReal
        if (expected === undefined) return fileOp(target, writeGuard("$1") + write, [target], data, () => undefined, "write")
        // Judged at `expected`: the target must still resolve there, and its folder again just before the rename.
        const checked = writeGuard("$1") + `[ "$__hr" = "$2" ] || exit ${MOVED}\n` + write.replace("mv -f --", STILL_THERE + "mv -f --")
        return fileOp(target, checked, [target, expected], data, () => undefined, "write").pipe(
          Effect.catchIf((e) => e.message === MOVED_MARK, () => Effect.fail(movedTargetRefusal(target, expected, "another place")))
        )
      }),
    stat: (path) =>
      Effect.suspend(() => {
        const target = resolve(path)
        return fileOp(target, FILE_STAT_SCRIPT, [target], undefined, parseStat)
      }),
    readDir: (path) =>
      Effect.suspend(() => {
        const target = resolve(path)
        return fileOp(target, READ_DIR_SCRIPT, [target], undefined, parseEntries)
      }),
    realPath: (path) => Effect.suspend(() => Effect.request(RealPathLookup({ raw: rawAbsolute(path) }), realPaths)),
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
        return fileOp(source, entryGuard("$1") + writeGuard("$2") + RENAME_SCRIPT, [source, resolve(to)], undefined, () => undefined, "move")
      }),
    remove: (path) =>
      Effect.suspend(() => {
        const target = resolve(path)
        return fileOp(target, REMOVE_GUARD + REMOVE_SCRIPT, [target], undefined, () => undefined, "delete")
      })
  }
}
