/**
 * The file operations of an environment whose files live on this machine
 * (local, and the sandbox through its bind mounts): directory listings,
 * symlink resolution in the environment's own view, ranged reads, atomic
 * writes, rename and delete. Paths come in as the environment's commands see
 * them; `hostPath` says where that is on the host.
 *
 * Only regular files are read or written: a device, FIFO or socket is
 * refused (writing /dev/null atomically would replace the device with a
 * file; opening a FIFO blocks the whole process until a peer appears, beyond
 * any timeout), and nothing is written or removed in /dev, /proc or /sys
 * after symlinks are resolved. Every open is non-blocking and checked with
 * fstat on the descriptor it opened, so a file swapped for a FIFO after a
 * check cannot block either.
 */
import { randomBytes } from "node:crypto"
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync, statSync } from "node:fs"
import type { Stats } from "node:fs"
import { chmod, lstat, mkdir, open, readdir, rename, stat, unlink, writeFile } from "node:fs/promises"
import type { FileHandle } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { Effect } from "effect"
import { inSystemTree } from "../../lib/systemTrees.js"
import type { DirEntry, FileStat, ReadFileOptions } from "../../services/TerminalBackend.js"
import { EnvironmentFileError } from "../../services/TerminalBackend.js"

export interface HostFilesConfig {
  /** Where a path (as commands see it) lives on the host. */
  readonly hostPath: (path: string) => string
  /** True when `hostPath` is the identity (the host's own view). */
  readonly identity: boolean
  /** Why writing this path is refused, or undefined. */
  readonly writeDenied: (path: string) => string | undefined
  readonly fileError: (path: string, error: unknown) => EnvironmentFileError
}

const errnoOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

/** Ranges up to this size are read with blocking calls (page-cache fast, cheaper than async round trips). */
const SYNC_READ_BYTES = 2 * 1024 * 1024

/** Most symlinks followed while resolving one path (Linux's own limit). */
const MAX_LINKS = 40

export const systemTreeRefusal = (path: string): EnvironmentFileError =>
  new EnvironmentFileError({
    path,
    reason: "Denied",
    message: `Refusing to write '${path}': device and kernel files (/dev, /proc, /sys) are never written by file tools.`
  })

/** The target resolves elsewhere than where the write was judged: a symlink on the way changed in between. */
export const movedTargetRefusal = (path: string, judged: string, now: string): EnvironmentFileError =>
  new EnvironmentFileError({
    path,
    reason: "Denied",
    message: `Refusing to write '${path}': it led to ${judged} when the write was checked but leads to ${now} now (a symlink on the way changed). Nothing was written.`
  })

export const notRegularRefusal = (path: string, verb = "write"): EnvironmentFileError =>
  new EnvironmentFileError({
    path,
    reason: "Denied",
    message: `Refusing to ${verb} '${path}': not a regular file (a device, FIFO or socket). Only regular files are read or written by file tools.`
  })

const isDirectoryError = (path: string) => Object.assign(new Error(`Is a directory: ${path}`), { code: "EISDIR" })

/** Thrown inside a try when the descriptor turned out not to be a regular file. */
class NotRegular extends Error {}

const describeStats = (s: Stats): FileStat => ({
  type: s.isFile() ? "file" : s.isDirectory() ? "directory" : "other",
  size: s.size,
  mtimeMs: s.mtimeMs,
  identity: `${s.dev}:${s.ino}`,
  links: s.nlink
})

/** Opened without waiting for a FIFO's peer (O_NONBLOCK changes nothing for regular files). */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK

/** Join `rest` onto an absolute path, lexically. */
const joinAll = (base: string, rest: ReadonlyArray<string>): string => {
  let out = base
  for (const part of rest) {
    if (part === "" || part === ".") continue
    out = part === ".." ? dirname(out) : out === "/" ? `/${part}` : `${out}/${part}`
  }
  return out
}

export const makeHostFiles = (config: HostFilesConfig) => {
  /**
   * Resolve symlinks one component at a time in the environment's view (a link to
   * `/tmp/x` inside the sandbox means the sandbox's /tmp). Missing components are
   * kept as written. Synchronous: a handful of readlink calls, cheaper than a
   * round trip through the thread pool per component.
   */
  const realPathSync = (absolute: string): string => {
    if (config.identity) {
      try {
        return realpathSync.native(absolute)
      } catch {
        // missing somewhere along the way: walk it below
      }
    }
    const pending = absolute.split("/").filter((p) => p.length > 0)
    let resolved = "/"
    let links = 0
    while (pending.length > 0) {
      const part = pending.shift() as string
      if (part === ".") continue
      if (part === "..") {
        resolved = dirname(resolved)
        continue
      }
      const next = resolved === "/" ? `/${part}` : `${resolved}/${part}`
      let link: string
      try {
        link = readlinkSync(config.hostPath(next))
      } catch (error) {
        const code = errnoOf(error)
        // Not a link: descend. Missing (or unreadable): the rest stays as written.
        if (code === "EINVAL") {
          resolved = next
          continue
        }
        return joinAll(next, pending)
      }
      if (++links > MAX_LINKS) return joinAll(next, pending)
      if (link.startsWith("/")) resolved = "/"
      pending.unshift(...link.split("/").filter((p) => p.length > 0))
    }
    return resolved
  }

  /** Small ranges are read synchronously: one syscall each instead of a thread-pool round trip per step. */
  const readRangeSync = (target: string, offset: number, length: number): Effect.Effect<Uint8Array, EnvironmentFileError> =>
    Effect.try({
      try: () => {
        const fd = openSync(config.hostPath(target), READ_FLAGS)
        try {
          checkReadable(fstatSync(fd), target)
          const buffer = Buffer.allocUnsafe(length)
          let filled = 0
          while (filled < length) {
            const n = readSync(fd, buffer, filled, length - filled, offset + filled)
            if (n === 0) break
            filled += n
          }
          return buffer.subarray(0, filled)
        } finally {
          closeSync(fd)
        }
      },
      catch: (e) => fileError(target, e, "read")
    })

  const readRange = (target: string, options: ReadFileOptions): Effect.Effect<Uint8Array, EnvironmentFileError> =>
    options.length !== undefined && options.length <= SYNC_READ_BYTES
      ? readRangeSync(target, Math.max(0, options.offset ?? 0), Math.max(0, options.length))
      : Effect.tryPromise({
      try: async () => {
        const handle = await open(config.hostPath(target), READ_FLAGS)
        try {
          const stats = checkReadable(await handle.stat(), target)
          const offset = Math.max(0, options.offset ?? 0)
          const length = options.length ?? Math.max(0, stats.size - offset)
          const buffer = Buffer.alloc(Math.max(0, length))
          let filled = 0
          while (filled < buffer.length) {
            const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, offset + filled)
            if (bytesRead === 0) break
            filled += bytesRead
          }
          return buffer.subarray(0, filled)
        } finally {
          await handle.close()
        }
      },
      catch: (e) => fileError(target, e, "read")
    })

  /** The whole file, however large; /proc files (size 0) are read to their end. */
  const readWhole = (target: string): Effect.Effect<Uint8Array, EnvironmentFileError> =>
    Effect.tryPromise({
      try: async () => {
        const handle = await open(config.hostPath(target), READ_FLAGS)
        try {
          checkReadable(await handle.stat(), target)
          return await handle.readFile()
        } finally {
          await handle.close()
        }
      },
      catch: (e) => fileError(target, e, "read")
    })

  /**
   * Why `target` may not be written: a system tree (as written, or once its
   * links are resolved), or an existing file that is not a regular one.
   * `final` is the resolved path. stat() does not open, so a FIFO cannot block it.
   */
  const writeProblem = (target: string, final: string): EnvironmentFileError | undefined => {
    if (inSystemTree(target) || inSystemTree(final)) return systemTreeRefusal(final)
    const refused = denied(target) ?? (final === target ? undefined : denied(final))
    if (refused !== undefined) return refused
    let stats: Stats
    try {
      stats = statSync(config.hostPath(final))
    } catch {
      return undefined // absent (or unreadable: the write itself will say)
    }
    if (stats.isDirectory()) return new EnvironmentFileError({ path: final, reason: "IsDirectory", message: `Is a directory: ${final}` })
    return stats.isFile() ? undefined : notRegularRefusal(final)
  }

  /** A plain (not atomic) write into the file itself, refusing whatever the descriptor turns out to be if not a regular file. */
  const writeInPlace = async (final: string, data: Uint8Array | string) => {
    const host = config.hostPath(final)
    await mkdir(dirname(host), { recursive: true })
    let handle: FileHandle
    try {
      handle = await open(host, WRITE_FLAGS, 0o666)
    } catch (error) {
      // A FIFO without a reader: O_NONBLOCK makes the open fail instead of waiting.
      if (errnoOf(error) === "ENXIO") throw new NotRegular()
      throw error
    }
    try {
      const stats = await handle.stat()
      if (stats.isDirectory()) throw isDirectoryError(final)
      if (!stats.isFile()) throw new NotRegular()
      await handle.truncate(0)
      await handle.writeFile(data)
    } finally {
      await handle.close()
    }
  }

  const denied = (path: string): EnvironmentFileError | undefined => {
    const reason = config.writeDenied(path)
    return reason === undefined ? undefined : new EnvironmentFileError({ path, reason: "Denied", message: reason })
  }

  const fileError = (path: string, error: unknown, verb: string): EnvironmentFileError =>
    error instanceof NotRegular ? notRegularRefusal(path, verb) : config.fileError(path, error)

  /** Fails (inside a try) unless the opened descriptor is a regular file; a directory keeps its usual error. */
  const checkReadable = (stats: Stats, target: string): Stats => {
    if (stats.isDirectory()) throw isDirectoryError(target)
    if (!stats.isFile()) throw new NotRegular()
    return stats
  }

  /** A name being moved or deleted: the entry itself (a link, not its target) must not be in a system tree. */
  const movedProblem = (path: string): EnvironmentFileError | undefined => {
    const parent = realPathSync(dirname(path))
    const entry = parent === "/" ? `/${basename(path)}` : `${parent}/${basename(path)}`
    return inSystemTree(path) || inSystemTree(entry) ? systemTreeRefusal(entry) : undefined
  }

  return {
    realPath: (absolute: string): Effect.Effect<string> => Effect.sync(() => realPathSync(absolute)),

    readLink: (target: string): Effect.Effect<string | undefined> =>
      Effect.sync(() => {
        try {
          return readlinkSync(config.hostPath(target))
        } catch {
          return undefined
        }
      }),

    readFile: (target: string, options?: ReadFileOptions): Effect.Effect<Uint8Array, EnvironmentFileError> =>
      options === undefined || (options.offset === undefined && options.length === undefined)
        ? readWhole(target)
        : readRange(target, options),

    /** One synchronous stat (a metadata lookup, never blocks on a FIFO): cheaper than a thread-pool round trip. */
    stat: (target: string): Effect.Effect<FileStat, EnvironmentFileError> =>
      Effect.try({ try: () => describeStats(statSync(config.hostPath(target))), catch: (e) => config.fileError(target, e) }),

    /** Write in place (creating the directory), only into a regular file or a new one. */
    write: (target: string, data: Uint8Array | string): Effect.Effect<void, EnvironmentFileError> =>
      Effect.suspend(() => {
        const final = realPathSync(target)
        const refused = writeProblem(target, final)
        if (refused !== undefined) return Effect.fail(refused)
        return Effect.tryPromise({ try: () => writeInPlace(final, data), catch: (e) => fileError(final, e, "write") })
      }),

    readDir: (target: string): Effect.Effect<ReadonlyArray<DirEntry>, EnvironmentFileError> =>
      Effect.tryPromise({
        try: () => readdir(config.hostPath(target), { withFileTypes: true }),
        catch: (e) => config.fileError(target, e)
      }).pipe(Effect.map((entries) =>
        entries.map((d): DirEntry => ({
          name: d.name,
          type: d.isFile() ? "file" : d.isDirectory() ? "directory" : d.isSymbolicLink() ? "symlink" : "other"
        }))
      )),

    /**
     * Temp file beside the (link-resolved) target, mode copied, then one rename. With `expectedReal`, the target
     * must still resolve there, and its folder once more just before the rename: a link swapped by another
     * process between the caller's judgement and the write would otherwise put the file somewhere never judged.
     */
    writeAtomic: (target: string, data: Uint8Array | string, expectedReal?: string): Effect.Effect<void, EnvironmentFileError> =>
      Effect.suspend(() => {
        const final = realPathSync(target)
        if (expectedReal !== undefined && final !== expectedReal) return Effect.fail(movedTargetRefusal(target, expectedReal, final))
        const refused = writeProblem(target, final)
        if (refused !== undefined) return Effect.fail(refused)
        const host = config.hostPath(final)
        const folderMoved = (): EnvironmentFileError | undefined => {
          if (expectedReal === undefined) return undefined
          const folder = realPathSync(dirname(final))
          return folder === dirname(final) ? undefined : movedTargetRefusal(target, expectedReal, join(folder, basename(final)))
        }
        return Effect.tryPromise({
          try: async () => {
            await mkdir(dirname(host), { recursive: true })
            const existing = await stat(host).catch(() => undefined)
            // Checked again just before the rename: it would put a file where a device or FIFO was.
            if (existing !== undefined && !existing.isFile()) throw existing.isDirectory() ? isDirectoryError(final) : new NotRegular()
            const mode = existing === undefined ? undefined : existing.mode & 0o7777
            const temp = join(dirname(host), `.${basename(host)}.hermes-${randomBytes(6).toString("hex")}.tmp`)
            try {
              // "wx": never through something already at the temp name (a planted link or FIFO).
              await writeFile(temp, data, mode === undefined ? { flag: "wx" } : { mode, flag: "wx" })
              // The umask may have dropped bits of the original mode.
              if (mode !== undefined) await chmod(temp, mode)
              const moved = folderMoved()
              if (moved !== undefined) throw moved
              await rename(temp, host)
            } catch (error) {
              await unlink(temp).catch(() => undefined)
              throw error
            }
          },
          catch: (e) => (e instanceof EnvironmentFileError ? e : fileError(target, e, "write"))
        })
      }),

    rename: (from: string, to: string): Effect.Effect<void, EnvironmentFileError> =>
      Effect.suspend(() => {
        const refused = denied(from) ?? denied(to) ?? movedProblem(from) ?? writeProblem(to, realPathSync(to))
        if (refused !== undefined) return Effect.fail(refused)
        return Effect.tryPromise({
          try: async () => {
            await mkdir(dirname(config.hostPath(to)), { recursive: true })
            await rename(config.hostPath(from), config.hostPath(to))
          },
          catch: (e) => config.fileError(from, e)
        })
      }),

    remove: (target: string): Effect.Effect<void, EnvironmentFileError> =>
      Effect.suspend(() => {
        const refused = denied(target) ?? movedProblem(target)
        if (refused !== undefined) return Effect.fail(refused)
        const host = config.hostPath(target)
        return Effect.tryPromise({
          try: async () => {
            const entry = await lstat(host)
            if (entry.isDirectory()) throw isDirectoryError(target)
            if (!entry.isFile() && !entry.isSymbolicLink()) throw new NotRegular()
            await unlink(host)
          },
          catch: (e) => fileError(target, e, "delete")
        })
      })
  }
}
