/**
 * Per-run state of the host backends (local, sandbox) (export snapshots, each command's
 * cwd/exports report) lives under the runtime's home, not in /tmp:
 * `<home>/run/<pid>-<start>-<random>/`, mode 0700, removed when the backend
 * closes. `<start>` is the process's start time (/proc/<pid>/stat), so a
 * folder whose pid was reused by another process is recognised as dead.
 * A killed runtime leaves its folder behind; the next backend to start sweeps
 * the folders of runs that are gone.
 *
 * Inside a run folder, `out/` is where commands' wrapper scripts write their
 * reports (the only place commands may write when the home is protected);
 * everything else (the snapshots commands source) is written by the runtime.
 */
import { randomBytes } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"

const FOLDER = /^(\d+)-(\d+)-[0-9a-f]+$/

/** A process's start time in clock ticks since boot ("0" where /proc is not available). */
export const processStart = (pid: number): string | undefined => {
  if (process.platform !== "linux") return "0"
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]
  } catch {
    return undefined
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return typeof error === "object" && error !== null && "code" in error && error.code === "EPERM"
  }
}

/** Whether the run that made this folder is still going: same pid, same start time. */
const runAlive = (pid: number, start: string): boolean => alive(pid) && processStart(pid) === start

export const runsDir = (home: string): string => join(home, "run")

/** Remove the folders of runs that are gone; unrecognised entries are left alone. */
export const sweepRuns = (home: string): void => {
  let entries: Array<string>
  try {
    entries = readdirSync(runsDir(home))
  } catch {
    return
  }
  for (const entry of entries) {
    const match = FOLDER.exec(entry)
    if (match === null || runAlive(Number(match[1]), match[2] ?? "")) continue
    try {
      rmSync(join(runsDir(home), entry), { recursive: true, force: true })
    } catch {
      // another runtime swept it first, or it is not ours to remove
    }
  }
}

export interface RunFolder {
  readonly path: string
  /** Where commands write their reports: `<path>/out`. */
  readonly out: string
  /** A new state directory for one environment: runtime-owned, and its commands' report directory. */
  readonly environment: () => { readonly state: string; readonly out: string }
  readonly remove: () => void
}

/** Create this run's folder (0700, with `out/`). */
export const makeRunFolder = (home: string): RunFolder => {
  const path = join(runsDir(home), `${process.pid}-${processStart(process.pid) ?? "0"}-${randomBytes(4).toString("hex")}`)
  const out = join(path, "out")
  mkdirSync(runsDir(home), { recursive: true, mode: 0o700 })
  mkdirSync(path, { mode: 0o700 })
  mkdirSync(out, { mode: 0o700 })
  let environments = 0
  return {
    path,
    out,
    environment: () => {
      const name = `e${++environments}`
      return { state: join(path, name), out: join(out, name) }
    },
    remove: () => rmSync(path, { recursive: true, force: true })
  }
}
