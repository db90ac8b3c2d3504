/**
 * Every command runs as the leader of its own process group, so stopping it
 * means signalling the group: the shell and everything it started.
 *
 * Waits here use real timers, not the Effect Clock: they bound how long we
 * wait for the kernel, and must not stall under a TestClock.
 */
import { readdirSync, readFileSync } from "node:fs"
import { Effect } from "effect"

/** Signal a process group; false when it no longer exists. */
export const signalGroup = (pgid: number, signal: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false
  }
}

/**
 * Whether any live (non-zombie) process is still in the group. Zombies count
 * as gone: they run nothing, and an init that does not reap would keep them forever.
 */
export const groupAlive = (pgid: number): boolean => {
  if (!signalGroup(pgid, 0)) return false
  if (process.platform !== "linux") return true
  let entries: Array<string>
  try {
    entries = readdirSync("/proc")
  } catch {
    return true
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "latin1")
    } catch {
      continue
    }
    // Fields after the parenthesised command: state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true
  }
  return false
}

const sleepReal = (ms: number) => Effect.async<void>((resume) => {
  const timer = setTimeout(() => resume(Effect.void), ms)
  return Effect.sync(() => clearTimeout(timer))
})

/** SIGTERM the group, wait up to `graceMs` for it to go, then SIGKILL whatever is left. */
export const terminateGroup = (pgid: number, graceMs = 1000): Effect.Effect<void> =>
  Effect.gen(function*() {
    if (!signalGroup(pgid, "SIGTERM")) return
    // SIGTERM may be ignored or the process may be stopped: wake it so it can die.
    signalGroup(pgid, "SIGCONT")
    const deadline = Date.now() + graceMs
    let wait = 5
    while (Date.now() < deadline) {
      if (!groupAlive(pgid)) return
      yield* sleepReal(wait)
      wait = Math.min(wait * 2, 100)
    }
    signalGroup(pgid, "SIGKILL")
  }).pipe(Effect.uninterruptible)

/** Kill whatever is left of a group at once (after its leader exited). */
export const killGroup = (pgid: number): void => {
  signalGroup(pgid, "SIGKILL")
}
