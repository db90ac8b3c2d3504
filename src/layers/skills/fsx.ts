/**
 * The filesystem as Effects for the skills layer: every failure is a
 * `SkillsIoError` naming the path, "does not exist" is a value (undefined)
 * where callers branch on it, and writes are atomic (temp file + rename).
 */
import { randomBytes } from "node:crypto"
import type { Dirent, Stats } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect } from "effect"
import { SkillsIoError } from "../../services/Skills.js"
import { isWithin } from "../../lib/pathSafety.js"

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code

const describe = (what: string, target: string) => (e: unknown) =>
  new SkillsIoError({ message: `cannot ${what} ${target}: ${e instanceof Error ? e.message : String(e)}` })

const attempt = <A>(what: string, target: string, run: () => Promise<A>): Effect.Effect<A, SkillsIoError> =>
  Effect.tryPromise({ try: run, catch: describe(what, target) })

/** Run `run`, answering `fallback` when the path (or a parent) does not exist or is not a directory. */
const orMissing = <A, B>(what: string, target: string, run: () => Promise<A>, fallback: B): Effect.Effect<A | B, SkillsIoError> =>
  attempt(what, target, async () => {
    try {
      return await run()
    } catch (e) {
      if (code(e) === "ENOENT" || code(e) === "ENOTDIR") return fallback
      throw e
    }
  })

export const stat = (p: string): Effect.Effect<Stats | undefined, SkillsIoError> => orMissing("stat", p, () => fs.stat(p), undefined)
export const lstat = (p: string): Effect.Effect<Stats | undefined, SkillsIoError> => orMissing("stat", p, () => fs.lstat(p), undefined)

/** Follows symlinks; a broken or looping link counts as missing. */
export const isDirectory = (p: string): Effect.Effect<boolean> =>
  Effect.map(Effect.either(stat(p)), (s) => s._tag === "Right" && s.right?.isDirectory() === true)

export const isFile = (p: string): Effect.Effect<boolean> =>
  Effect.map(Effect.either(stat(p)), (s) => s._tag === "Right" && s.right?.isFile() === true)

export const exists = (p: string): Effect.Effect<boolean> =>
  Effect.map(Effect.either(lstat(p)), (s) => s._tag === "Right" && s.right !== undefined)

export const readDir = (p: string): Effect.Effect<ReadonlyArray<Dirent>, SkillsIoError> =>
  orMissing("list", p, () => fs.readdir(p, { withFileTypes: true }), [] as ReadonlyArray<Dirent>)

export const readBytes = (p: string): Effect.Effect<Uint8Array, SkillsIoError> => attempt("read", p, () => fs.readFile(p))

/** First `n` bytes. */
export const readHead = (p: string, n: number): Effect.Effect<Uint8Array, SkillsIoError> =>
  attempt("read", p, async () => {
    const handle = await fs.open(p, "r")
    try {
      const buffer = Buffer.alloc(n)
      const { bytesRead } = await handle.read(buffer, 0, n, 0)
      return buffer.subarray(0, bytesRead)
    } finally {
      await handle.close()
    }
  })

const decoder = new TextDecoder("utf-8")

/** UTF-8 with a leading BOM dropped and bad bytes replaced (Hermes' `utf-8-sig`, errors="replace"). */
export const decodeText = (bytes: Uint8Array): string => {
  const text = decoder.decode(bytes)
  return text.startsWith("\ufeff") ? text.slice(1) : text
}

export const readText = (p: string): Effect.Effect<string, SkillsIoError> => Effect.map(readBytes(p), decodeText)

export const realPath = (p: string): Effect.Effect<string | undefined, SkillsIoError> =>
  orMissing("resolve", p, () => fs.realpath(p), undefined)

export const readLink = (p: string): Effect.Effect<string | undefined> =>
  Effect.orElseSucceed(attempt("read link", p, () => fs.readlink(p)), () => undefined)

export const makeDir = (p: string): Effect.Effect<void, SkillsIoError> =>
  Effect.asVoid(attempt("create", p, () => fs.mkdir(p, { recursive: true })))

export const remove = (p: string): Effect.Effect<void, SkillsIoError> =>
  attempt("remove", p, () => fs.rm(p, { recursive: true, force: true }))

export const removeFile = (p: string): Effect.Effect<void, SkillsIoError> => attempt("remove", p, () => fs.unlink(p))

/** Remove an empty directory; anything else (not empty, gone) is left as is. */
export const removeEmptyDir = (p: string): Effect.Effect<void> =>
  Effect.ignore(attempt("remove", p, () => fs.rmdir(p)))

export const rename = (from: string, to: string): Effect.Effect<void, SkillsIoError> =>
  attempt("rename", `${from} to`, () => fs.rename(from, to))

export const symlink = (target: string, at: string): Effect.Effect<void, SkillsIoError> =>
  attempt("link", at, () => fs.symlink(target, at))

export const chmod = (p: string, mode: number): Effect.Effect<void, SkillsIoError> => attempt("chmod", p, () => fs.chmod(p, mode))

/** Write through a temp file in the same directory and a rename, so readers never see half a file. */
export const writeAtomic = (file: string, data: string | Uint8Array, mode?: number): Effect.Effect<void, SkillsIoError> =>
  attempt("write", file, async () => {
    const dir = path.dirname(file)
    await fs.mkdir(dir, { recursive: true })
    const temp = path.join(dir, `.${path.basename(file)}.tmp.${randomBytes(6).toString("hex")}`)
    try {
      await fs.writeFile(temp, data, mode === undefined ? {} : { mode })
      if (mode !== undefined) await fs.chmod(temp, mode)
      await fs.rename(temp, file)
    } catch (e) {
      await fs.rm(temp, { force: true })
      throw e
    }
  })

export const makeTempDir = (parent: string, prefix: string): Effect.Effect<string, SkillsIoError> =>
  attempt("create a directory in", parent, async () => {
    await fs.mkdir(parent, { recursive: true })
    return fs.mkdtemp(path.join(parent, prefix))
  })

/** Copy a tree, keeping symlinks as links and the permission bits. */
export const copyTree = (from: string, to: string): Effect.Effect<void, SkillsIoError> =>
  attempt("copy", from, () => fs.cp(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false }))

/** The path lies in `dir` or is `dir` (both already absolute and normalised): the file tools' own containment rule. */
export const isInside = (p: string, dir: string): boolean => isWithin(p, dir)

/**
 * Where `target` really is: its deepest existing ancestor resolved through
 * symlinks, plus the rest of the path. Hermes' `Path.resolve()` (non-strict).
 */
export const resolveLoosely = (target: string): Effect.Effect<string, SkillsIoError> =>
  Effect.gen(function*() {
    let current = path.resolve(target)
    const tail: Array<string> = []
    for (let hops = 0; ;) {
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
export const escapesDir = (target: string, root: string): Effect.Effect<string | undefined, SkillsIoError> =>
  Effect.gen(function*() {
    const resolved = yield* resolveLoosely(target)
    const base = yield* resolveLoosely(root)
    return isInside(resolved, base) ? undefined : `Path escapes allowed directory: '${resolved}' is not in the subpath of '${base}'`
  })
