/**
 * The file operations of an environment whose files live on this machine
 * (local, and the sandbox through its bind mounts): directory listings,
 * symlink resolution in the environment's own view, ranged reads, atomic
 * writes, rename and delete. Paths come in as the environment's commands see
 * them; `hostPath` says where that is on the host.
 */
import { randomBytes } from "node:crypto"
import { closeSync, openSync, readlinkSync, readSync, realpathSync } from "node:fs"
import { chmod, lstat, mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { Effect } from "effect"
import type { DirEntry, ReadFileOptions } from "../../services/TerminalBackend.js"
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
        const fd = openSync(config.hostPath(target), "r")
        try {
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
      catch: (e) => config.fileError(target, e)
    })

  const readRange = (target: string, options: ReadFileOptions): Effect.Effect<Uint8Array, EnvironmentFileError> =>
    options.length !== undefined && options.length <= SYNC_READ_BYTES
      ? readRangeSync(target, Math.max(0, options.offset ?? 0), Math.max(0, options.length))
      : Effect.tryPromise({
      try: async () => {
        const handle = await open(config.hostPath(target), "r")
        try {
          const offset = Math.max(0, options.offset ?? 0)
          const length = options.length ?? Math.max(0, (await handle.stat()).size - offset)
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
      catch: (e) => config.fileError(target, e)
    })

  const denied = (path: string): EnvironmentFileError | undefined => {
    const reason = config.writeDenied(path)
    return reason === undefined ? undefined : new EnvironmentFileError({ path, reason: "Denied", message: reason })
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
        ? Effect.tryPromise({ try: () => readFile(config.hostPath(target)), catch: (e) => config.fileError(target, e) })
        : readRange(target, options),

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

    /** Temp file beside the (link-resolved) target, mode copied, then one rename. */
    writeAtomic: (target: string, data: Uint8Array | string): Effect.Effect<void, EnvironmentFileError> =>
      Effect.suspend(() => {
        const final = realPathSync(target)
        const refused = denied(target) ?? (final === target ? undefined : denied(final))
        if (refused !== undefined) return Effect.fail(refused)
        const host = config.hostPath(final)
        return Effect.tryPromise({
          try: async () => {
            await mkdir(dirname(host), { recursive: true })
            const mode = await stat(host).then((s) => s.mode & 0o7777, () => undefined)
            const temp = join(dirname(host), `.${basename(host)}.hermes-${randomBytes(6).toString("hex")}.tmp`)
            try {
              await writeFile(temp, data, mode === undefined ? {} : { mode })
              // The umask may have dropped bits of the original mode.
              if (mode !== undefined) await chmod(temp, mode)
              await rename(temp, host)
            } catch (error) {
              await unlink(temp).catch(() => undefined)
              throw error
            }
          },
          catch: (e) => config.fileError(target, e)
        })
      }),

    rename: (from: string, to: string): Effect.Effect<void, EnvironmentFileError> =>
      Effect.suspend(() => {
        const refused = denied(from) ?? denied(to)
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
        const refused = denied(target)
        if (refused !== undefined) return Effect.fail(refused)
        const host = config.hostPath(target)
        return Effect.tryPromise({
          try: async () => {
            if ((await lstat(host)).isDirectory()) {
              throw Object.assign(new Error(`Is a directory: ${target}`), { code: "EISDIR" })
            }
            await unlink(host)
          },
          catch: (e) => config.fileError(target, e)
        })
      })
  }
}
