/**
 * MemoryStore on `<home>/memories/MEMORY.md` and `USER.md`.
 *
 * A change holds an in-process semaphore and a lock file (`<file>.lock`,
 * created exclusively, holding our pid; a lock whose process is gone is
 * taken over), re-reads the file, and replaces it with a temp file + rename,
 * so readers never see half a file and concurrent writers never lose an entry.
 */
import { randomBytes } from "node:crypto"
import { statSync } from "node:fs"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type { PlatformError } from "@effect/platform/Error"
import { Clock, Duration, Effect, Layer } from "effect"
import { errnoCode, nodeMessage } from "../lib/platformErrors.js"
import { Config } from "../services/Config.js"
import { ENTRY_SEPARATOR, MemoryStore, MemoryStoreError } from "../services/MemoryStore.js"
import type { MemoryDrift, MemoryTarget } from "../services/MemoryStore.js"

const LOCK_WAIT_MS = 10_000
const STALE_EMPTY_LOCK_MS = 5_000

export const parseEntries = (raw: string): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const part of raw.split(ENTRY_SEPARATOR)) {
    const entry = part.trim()
    if (entry.length > 0 && !seen.has(entry)) {
      seen.add(entry)
      out.push(entry)
    }
  }
  return out
}

// Node's "utf8": a byte-order mark is kept as text, as before (TextDecoder would drop it).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })
const encoder = new TextEncoder()

/** The file's text, "" when it does not exist. */
const readText = (fs: FileSystem.FileSystem, file: string): Effect.Effect<string, PlatformError> =>
  fs.readFile(file).pipe(
    Effect.map((bytes) => decoder.decode(bytes)),
    Effect.catchIf((e) => errnoCode(e) === "ENOENT", () => Effect.succeed(""))
  )

/** Whether nothing is at `file`: false when there is something, or when a stat cannot tell (read it then). */
const isAbsent = (file: string): boolean => {
  try {
    return statSync(file, { throwIfNoEntry: false }) === undefined
  } catch {
    return false
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** The lock is shared with other processes, so waiting for it takes wall-clock time whatever the Effect clock is (tests run a TestClock). */
const wallClock = Clock.make()

const acquireLock = (fs: FileSystem.FileSystem, lock: string): Effect.Effect<void, PlatformError | Error> =>
  Effect.gen(function*() {
    const deadline = Date.now() + LOCK_WAIT_MS
    for (;;) {
      // Created exclusively: whoever creates the file holds the lock.
      const created = yield* fs.writeFileString(lock, String(process.pid), { flag: "wx" }).pipe(
        Effect.as(true),
        Effect.catchIf((e) => errnoCode(e) === "EEXIST", () => Effect.succeed(false))
      )
      if (created) return
      const holder = Number.parseInt(yield* readText(fs, lock), 10)
      const stale = Number.isInteger(holder) && holder > 0
        ? !alive(holder)
        : Date.now() - (yield* fs.stat(lock).pipe(
          Effect.map((info) => info.mtime._tag === "Some" ? info.mtime.value.getTime() : Date.now()),
          Effect.orElseSucceed(() => Date.now())
        )) > STALE_EMPTY_LOCK_MS
      if (stale) {
        yield* fs.remove(lock, { force: true })
        continue
      }
      if (Date.now() > deadline) return yield* Effect.fail(new Error(`${lock} is held by process ${holder}`))
      yield* Effect.sleep(Duration.millis(15)).pipe(Effect.withClock(wallClock))
    }
  })

/** Temp file, fsync, rename: readers never see half a file, and a crash leaves the old one. */
const writeAtomically = (fs: FileSystem.FileSystem, path: Path.Path, file: string, text: string): Effect.Effect<void, PlatformError> => {
  const temp = path.join(path.dirname(file), `.mem_${randomBytes(6).toString("hex")}.tmp`)
  return Effect.scoped(Effect.gen(function*() {
    const handle = yield* fs.open(temp, { flag: "w" })
    yield* handle.writeAll(encoder.encode(text))
    yield* handle.sync
  })).pipe(
    Effect.zipRight(fs.rename(temp, file)),
    Effect.tapError(() => Effect.ignore(fs.remove(temp, { force: true })))
  )
}

/** Text the tool did not write: it would not survive parse + join, or one entry exceeds the whole store's budget. */
export const hasDrift = (raw: string, limit: number): boolean => {
  if (raw.trim().length === 0) return false
  const parts = raw.split(ENTRY_SEPARATOR).map((e) => e.trim()).filter((e) => e.length > 0)
  return raw.trim() !== parts.join(ENTRY_SEPARATOR) || parts.some((e) => e.length > limit)
}

const failed = (what: string) => (e: unknown) => new MemoryStoreError({ message: `memory: ${what}: ${nodeMessage(e)}` })

export const MemoryStoreFiles: Layer.Layer<MemoryStore, never, Config | FileSystem.FileSystem | Path.Path> = Layer.effect(
  MemoryStore,
  Effect.gen(function*() {
    const config = yield* Config
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const settings = (yield* config.current).memory
    const dir = path.join(config.home.root, "memories")
    const limits: Record<MemoryTarget, number> = {
      memory: settings.memory_char_limit,
      user: settings.user_char_limit
    }
    const files: Record<MemoryTarget, string> = { memory: path.join(dir, "MEMORY.md"), user: path.join(dir, "USER.md") }
    const locks: Record<MemoryTarget, Effect.Semaphore> = { memory: yield* Effect.makeSemaphore(1), user: yield* Effect.makeSemaphore(1) }

    // Every session's system prompt reads both stores, and most homes have neither file: a stat answers that,
    // where reading a missing file built an error value (~0.3 ms). A file that is there is read as always.
    const entries = (target: MemoryTarget) =>
      Effect.suspend(() =>
        isAbsent(files[target])
          ? Effect.succeed<ReadonlyArray<string>>([])
          : readText(fs, files[target]).pipe(Effect.mapError(failed(`cannot read ${files[target]}`)), Effect.map(parseEntries))
      )

    const modify = <A>(
      target: MemoryTarget,
      change: (entries: ReadonlyArray<string>) => { readonly entries?: ReadonlyArray<string> | undefined; readonly result: A },
      options: { readonly guardDrift?: boolean } = {}
    ) => {
      const file = files[target]
      const lock = `${file}.lock`
      const critical = Effect.gen(function*() {
        const raw = yield* readText(fs, file)
        if (options.guardDrift === true && hasDrift(raw, limits[target])) {
          const backup = `${file}.bak.${Math.floor(Date.now() / 1000)}`
          yield* fs.writeFileString(backup, raw)
          const drift: MemoryDrift = { _tag: "MemoryDrift", file, backup }
          return drift
        }
        // A throwing `change` fails the update like an I/O error does.
        const decided = yield* Effect.try({ try: () => change(parseEntries(raw)), catch: (e) => e })
        if (decided.entries !== undefined) yield* writeAtomically(fs, path, file, decided.entries.join(ENTRY_SEPARATOR))
        return decided.result
      }).pipe(Effect.mapError(failed(`cannot update ${file}`)))
      return locks[target].withPermits(1)(
        Effect.acquireUseRelease(
          Effect.zipRight(fs.makeDirectory(dir, { recursive: true }), acquireLock(fs, lock)).pipe(Effect.mapError(failed("cannot lock the memory store"))),
          () => critical,
          () => Effect.ignore(fs.remove(lock, { force: true }))
        )
      )
    }

    return MemoryStore.of({
      limit: (target) => limits[target],
      file: (target) => files[target],
      entries,
      modify
    })
  })
)
