/**
 * The skills layer's file operations on @effect/platform's FileSystem and
 * Path: every failure is a `SkillsIoError` naming the path (with Node's own
 * message, as before), "does not exist" is a value (undefined) where callers
 * branch on it, and writes are atomic (temp file + rename).
 */
import { randomBytes } from "node:crypto"
import type { Dirent, Stats } from "node:fs"
// FileSystem has no lstat, typed directory entries, rmdir, sub-millisecond mtimes or a copy that keeps symlinks verbatim: those stay on node:fs.
import * as nodeFs from "node:fs/promises"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type { PlatformError } from "@effect/platform/Error"
import { Effect } from "effect"
import { isWithin } from "../../lib/pathSafety.js"
import { errnoCode, nodeMessage } from "../../lib/platformErrors.js"
import { SkillsIoError } from "../../services/Skills.js"

/** What every operation here needs from the context (NodeContext provides both). */
export type Disk = FileSystem.FileSystem | Path.Path

// Messages and codes are Node's own (under the PlatformError), as they were before FileSystem.
const describe = (what: string, target: string) => (e: unknown) => new SkillsIoError({ message: `cannot ${what} ${target}: ${nodeMessage(e)}` })

const isMissing = (e: unknown) => errnoCode(e) === "ENOENT" || errnoCode(e) === "ENOTDIR"

/** A FileSystem call with its failure described. */
const attempt = <A, R>(what: string, target: string, run: Effect.Effect<A, PlatformError, R>): Effect.Effect<A, SkillsIoError, R> =>
  Effect.mapError(run, describe(what, target))

/** A FileSystem call answering `fallback` when the path (or a parent) does not exist or is not a directory. */
const orMissing = <A, B, R>(what: string, target: string, run: Effect.Effect<A, PlatformError, R>, fallback: B): Effect.Effect<A | B, SkillsIoError, R> =>
  Effect.catchAll(run, (e) => (isMissing(e) ? Effect.succeed(fallback) : Effect.fail(describe(what, target)(e))))

const promise = <A>(what: string, target: string, run: () => Promise<A>): Effect.Effect<A, SkillsIoError> =>
  Effect.tryPromise({ try: run, catch: describe(what, target) })

const promiseOrMissing = <A, B>(what: string, target: string, run: () => Promise<A>, fallback: B): Effect.Effect<A | B, SkillsIoError> =>
  Effect.tryPromise({ try: run, catch: (e) => e }).pipe(
    Effect.catchAll((e) => (isMissing(e) ? Effect.succeed(fallback) : Effect.fail(describe(what, target)(e))))
  )

/** Follows symlinks. */
export const stat = (p: string): Effect.Effect<FileSystem.File.Info | undefined, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => orMissing("stat", p, fs.stat(p), undefined))

/** Node's own stat, for cache keys: FileSystem's `Info` has whole-millisecond mtimes, and an edit within the same millisecond must still count. */
export const statPrecise = (p: string): Effect.Effect<Stats | undefined, SkillsIoError> => promiseOrMissing("stat", p, () => nodeFs.stat(p), undefined)

/** The link itself, not its target. */
export const lstat = (p: string): Effect.Effect<Stats | undefined, SkillsIoError> => promiseOrMissing("stat", p, () => nodeFs.lstat(p), undefined)

/** Follows symlinks; a broken or looping link counts as missing. */
export const isDirectory = (p: string): Effect.Effect<boolean, never, FileSystem.FileSystem> =>
  Effect.map(Effect.either(stat(p)), (s) => s._tag === "Right" && s.right?.type === "Directory")

export const isFile = (p: string): Effect.Effect<boolean, never, FileSystem.FileSystem> =>
  Effect.map(Effect.either(stat(p)), (s) => s._tag === "Right" && s.right?.type === "File")

/** Whether anything is there, a dangling symlink included (FileSystem's `exists` follows links). */
export const exists = (p: string): Effect.Effect<boolean> =>
  Effect.map(Effect.either(lstat(p)), (s) => s._tag === "Right" && s.right !== undefined)

export const readDir = (p: string): Effect.Effect<ReadonlyArray<Dirent>, SkillsIoError> =>
  promiseOrMissing("list", p, () => nodeFs.readdir(p, { withFileTypes: true }), [] as ReadonlyArray<Dirent>)

export const readBytes = (p: string): Effect.Effect<Uint8Array, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => attempt("read", p, fs.readFile(p)))

/** First `n` bytes. */
export const readHead = (p: string, n: number): Effect.Effect<Uint8Array, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    attempt(
      "read",
      p,
      Effect.scoped(Effect.gen(function*() {
        const file = yield* fs.open(p, { flag: "r" })
        const buffer = new Uint8Array(n)
        const read = yield* file.read(buffer)
        return buffer.subarray(0, Number(read))
      }))
    ))

const decoder = new TextDecoder("utf-8")

/** UTF-8 with a leading BOM dropped and bad bytes replaced (Hermes' `utf-8-sig`, errors="replace"). */
export const decodeText = (bytes: Uint8Array): string => {
  const text = decoder.decode(bytes)
  return text.startsWith("\ufeff") ? text.slice(1) : text
}

export const readText = (p: string): Effect.Effect<string, SkillsIoError, FileSystem.FileSystem> => Effect.map(readBytes(p), decodeText)

export const realPath = (p: string): Effect.Effect<string | undefined, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => orMissing("resolve", p, fs.realPath(p), undefined))

export const readLink = (p: string): Effect.Effect<string | undefined, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => Effect.orElseSucceed(fs.readLink(p), () => undefined))

export const makeDir = (p: string): Effect.Effect<void, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => attempt("create", p, fs.makeDirectory(p, { recursive: true })))

/** Remove a file or a whole tree; nothing there is fine. */
export const remove = (p: string): Effect.Effect<void, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => attempt("remove", p, fs.remove(p, { recursive: true, force: true })))

export const removeFile = (p: string): Effect.Effect<void, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => attempt("remove", p, fs.remove(p)))

/** Remove an empty directory; anything else (not empty, gone) is left as is. */
export const removeEmptyDir = (p: string): Effect.Effect<void> => Effect.ignore(promise("remove", p, () => nodeFs.rmdir(p)))

export const rename = (from: string, to: string): Effect.Effect<void, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => attempt("rename", `${from} to`, fs.rename(from, to)))

export const symlink = (target: string, at: string): Effect.Effect<void, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => attempt("link", at, fs.symlink(target, at)))

export const chmod = (p: string, mode: number): Effect.Effect<void, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => attempt("chmod", p, fs.chmod(p, mode)))

const encoder = new TextEncoder()

/** Write through a temp file in the same directory and a rename, so readers never see half a file. */
export const writeAtomic = (file: string, data: string | Uint8Array, mode?: number): Effect.Effect<void, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const dir = path.dirname(file)
    const temp = path.join(dir, `.${path.basename(file)}.tmp.${randomBytes(6).toString("hex")}`)
    yield* fs.makeDirectory(dir, { recursive: true })
    yield* Effect.gen(function*() {
      yield* fs.writeFile(temp, typeof data === "string" ? encoder.encode(data) : data, mode === undefined ? {} : { mode })
      // The umask narrowed the mode given to open(): set it exactly.
      if (mode !== undefined) yield* fs.chmod(temp, mode)
      yield* fs.rename(temp, file)
    }).pipe(Effect.tapError(() => Effect.ignore(fs.remove(temp, { force: true }))))
  }).pipe(Effect.mapError(describe("write", file)))

export const makeTempDir = (parent: string, prefix: string): Effect.Effect<string, SkillsIoError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    attempt(
      "create a directory in",
      parent,
      Effect.zipRight(fs.makeDirectory(parent, { recursive: true }), fs.makeTempDirectory({ directory: parent, prefix }))
    ))

/** Copy a tree, keeping symlinks as links (verbatim) and the permission bits; refuses to overwrite. */
export const copyTree = (from: string, to: string): Effect.Effect<void, SkillsIoError> =>
  promise("copy", from, () => nodeFs.cp(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false }))

/** The path lies in `dir` or is `dir` (both already absolute and normalised): the file tools' own containment rule. */
export const isInside = (p: string, dir: string): boolean => isWithin(p, dir)

/**
 * Where `target` really is: its deepest existing ancestor resolved through
 * symlinks, plus the rest of the path. Hermes' `Path.resolve()` (non-strict).
 */
export const resolveLoosely = (target: string): Effect.Effect<string, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const path = yield* Path.Path
    let current = path.resolve(target)
    const tail: Array<string> = []
    for (let hops = 0;;) {
      const real = yield* realPath(current)
      if (real !== undefined) return path.join(real, ...tail)
      // A dangling link still points somewhere: a write through it would land there.
      const link = yield* readLink(current)
      if (link !== undefined && hops++ < 40) {
        current = path.resolve(path.dirname(current), link)
        continue
      }
      const parent = path.dirname(current)
      if (parent === current) return path.join(current, ...tail)
      tail.unshift(path.basename(current))
      current = parent
    }
  })

/** Hermes' `validate_within_dir`: the error when `target` (symlinks followed) is not inside `root`. */
export const escapesDir = (target: string, root: string): Effect.Effect<string | undefined, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const resolved = yield* resolveLoosely(target)
    const base = yield* resolveLoosely(root)
    return isInside(resolved, base) ? undefined : `Path escapes allowed directory: '${resolved}' is not in the subpath of '${base}'`
  })
