/**
 * Secret files are protected by name (pathSafety.ts), and a hard link gives
 * the same file another name: `ln ~/.hermes-effect/auth.json notes.txt`.
 * A file with more than one link is compared by identity (device and inode)
 * with every file the read rules protect; ordinary files (one link) cost
 * nothing more than the stat the tools already make.
 */
import { posix } from "node:path"
import { Effect } from "effect"
import type { FileStat } from "../../services/TerminalBackend.js"
import { namedSecretFiles, tokenDirs } from "../../lib/pathSafety.js"
import type { SafetyPaths } from "../../lib/pathSafety.js"
import type { TaskFiles } from "./taskFiles.js"

/** How far up from the working directory project `.env` files are looked for. */
const ENV_DIR_LEVELS = 4

const ancestors = (dir: string, levels: number): ReadonlyArray<string> => {
  const out = [dir]
  let current = dir
  for (let i = 0; i < levels && current !== "/"; i++) {
    current = posix.dirname(current)
    out.push(current)
  }
  return out
}

/** Identities of the protected files that exist, each with its path. */
const protectedIdentities = (files: TaskFiles, safety: SafetyPaths, near: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, string>> =>
  Effect.gen(function*() {
    const { env } = files
    const cwd = yield* env.cwd
    const envDirs = [...new Set([...ancestors(cwd, ENV_DIR_LEVELS), ...near, safety.userHome])]
    const tokenFiles = yield* Effect.forEach(tokenDirs(safety), (dir) =>
      env.readDir(dir).pipe(
        Effect.map((entries) => entries.filter((e) => e.type === "file").map((e) => posix.join(dir, e.name))),
        Effect.orElseSucceed((): ReadonlyArray<string> => [])
      ))
    const candidates = [...namedSecretFiles(safety, envDirs), ...tokenFiles.flat()]
    const found = new Map<string, string>()
    yield* Effect.forEach(candidates, (path) =>
      env.stat(path).pipe(
        Effect.tap((st) => Effect.sync(() => {
          if (st.identity !== undefined && !found.has(st.identity)) found.set(st.identity, path)
        })),
        Effect.ignore
      ), { concurrency: 8, discard: true })
    return found
  })

/**
 * A lookup for "which protected file is this another name of": built on the
 * first file with more than one link, then reused for the rest of a call.
 */
export const makeTwinFinder = (files: TaskFiles, safety: SafetyPaths) => {
  let identities: ReadonlyMap<string, string> | undefined
  return (path: string, stat: FileStat): Effect.Effect<string | undefined> =>
    Effect.gen(function*() {
      if (stat.type !== "file" || (stat.links ?? 1) <= 1 || stat.identity === undefined) return undefined
      identities ??= yield* protectedIdentities(files, safety, ancestors(posix.dirname(path), 1))
      const twin = identities.get(stat.identity)
      return twin === undefined || twin === path ? undefined : twin
    })
}
