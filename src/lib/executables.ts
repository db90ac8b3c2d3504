/**
 * Finding a program on PATH without running it: availability checks ask
 * whether a program is installed, and a stat per PATH directory costs
 * microseconds where spawning it (`prog --version`) costs milliseconds
 * (espeak-ng takes hundreds loading its voices).
 */
import { accessSync, constants, statSync } from "node:fs"
import { delimiter, join } from "node:path"

/** A regular file we may execute. */
export const isExecutableFile = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The first of `names` on PATH (PATH order first, then `names` order), as a full path. */
export const findExecutable = (names: ReadonlyArray<string>, pathVar: string | undefined = process.env["PATH"]): string | undefined => {
  for (const dir of (pathVar ?? "").split(delimiter)) {
    if (dir.length === 0) continue
    for (const name of names) {
      const full = join(dir, name)
      if (isExecutableFile(full)) return full
    }
  }
  return undefined
}

/** Whether an executable named `name` is in one of PATH's directories. */
export const onPath = (name: string, pathVar: string | undefined = process.env["PATH"]): boolean =>
  findExecutable([name], pathVar) !== undefined
