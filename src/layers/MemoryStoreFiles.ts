/**
 * MemoryStore on `<home>/memories/MEMORY.md` and `USER.md`.
 *
 * A change holds an in-process semaphore and a lock file (`<file>.lock`,
 * created exclusively, holding our pid; a lock whose process is gone is
 * taken over), re-reads the file, and replaces it with a temp file + rename,
 * so readers never see half a file and concurrent writers never lose an entry.
 */
import { randomBytes } from "node:crypto"
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { Effect, Layer } from "effect"
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

const readText = async (file: string): Promise<string> => {
  try {
    return await readFile(file, "utf8")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return ""
    throw e
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

const acquireLock = async (lock: string): Promise<void> => {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      const handle = await open(lock, "wx")
      await handle.writeFile(String(process.pid))
      await handle.close()
      return
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
    }
    const holder = Number.parseInt(await readText(lock), 10)
    const stale = Number.isInteger(holder) && holder > 0
      ? !alive(holder)
      : Date.now() - (await stat(lock).then((s) => s.mtimeMs, () => Date.now())) > STALE_EMPTY_LOCK_MS
    if (stale) {
      await rm(lock, { force: true })
      continue
    }
    if (Date.now() > deadline) throw new Error(`${lock} is held by process ${holder}`)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

const writeAtomically = async (file: string, text: string) => {
  const temp = join(dirname(file), `.mem_${randomBytes(6).toString("hex")}.tmp`)
  try {
    const handle = await open(temp, "w")
    try {
      await handle.writeFile(text, "utf8")
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (e) {
    await rm(temp, { force: true })
    throw e
  }
}

/** Text the tool did not write: it would not survive parse + join, or one entry exceeds the whole store's budget. */
export const hasDrift = (raw: string, limit: number): boolean => {
  if (raw.trim().length === 0) return false
  const parts = raw.split(ENTRY_SEPARATOR).map((e) => e.trim()).filter((e) => e.length > 0)
  return raw.trim() !== parts.join(ENTRY_SEPARATOR) || parts.some((e) => e.length > limit)
}

const failed = (what: string) => (e: unknown) => new MemoryStoreError({ message: `memory: ${what}: ${e instanceof Error ? e.message : String(e)}` })

export const MemoryStoreFiles = Layer.effect(
  MemoryStore,
  Effect.gen(function*() {
    const config = yield* Config
    const settings = (yield* config.current).memory
    const dir = join(config.home.root, "memories")
    const limits: Record<MemoryTarget, number> = {
      memory: settings.memory_char_limit,
      user: settings.user_char_limit
    }
    const files: Record<MemoryTarget, string> = { memory: join(dir, "MEMORY.md"), user: join(dir, "USER.md") }
    const locks: Record<MemoryTarget, Effect.Semaphore> = { memory: yield* Effect.makeSemaphore(1), user: yield* Effect.makeSemaphore(1) }

    const entries = (target: MemoryTarget) =>
      Effect.tryPromise({ try: () => readText(files[target]), catch: failed(`cannot read ${files[target]}`) }).pipe(Effect.map(parseEntries))

    const modify = <A>(
      target: MemoryTarget,
      change: (entries: ReadonlyArray<string>) => { readonly entries?: ReadonlyArray<string> | undefined; readonly result: A },
      options: { readonly guardDrift?: boolean } = {}
    ) => {
      const file = files[target]
      const lock = `${file}.lock`
      const critical = Effect.tryPromise({
        try: async (): Promise<A | MemoryDrift> => {
          const raw = await readText(file)
          if (options.guardDrift === true && hasDrift(raw, limits[target])) {
            const backup = `${file}.bak.${Math.floor(Date.now() / 1000)}`
            await writeFile(backup, raw, "utf8")
            return { _tag: "MemoryDrift", file, backup }
          }
          const decided = change(parseEntries(raw))
          if (decided.entries !== undefined) await writeAtomically(file, decided.entries.join(ENTRY_SEPARATOR))
          return decided.result
        },
        catch: failed(`cannot update ${file}`)
      })
      return locks[target].withPermits(1)(
        Effect.acquireUseRelease(
          Effect.tryPromise({
            try: async () => {
              await mkdir(dir, { recursive: true })
              await acquireLock(lock)
            },
            catch: failed("cannot lock the memory store")
          }),
          () => critical,
          () => Effect.promise(() => rm(lock, { force: true }))
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
