/**
 * Finding what a tool started by a variable in its environment.
 *
 * A process group does not hold everything a command starts: `setsid`,
 * `setsid -f`, a daemon's double fork all leave it. The environment does
 * follow: every process a tool starts inherits the tool-run marker
 * (`NAME=value`), and the kernel keeps each process's initial environment in
 * /proc/<pid>/environ, readable by its own user (and root). Cleanup signals
 * every live process that carries the marker, wherever it went.
 *
 * Limits: a process that deliberately drops the variable (`env -u`) before
 * detaching, or one that changes user (readable then only by root), is not
 * found here; the sandbox's PID namespace still takes its processes down.
 * Waits use real timers: they bound how long we wait for the kernel.
 */
import { readdirSync, readFileSync } from "node:fs"
import { Effect } from "effect"

/** Whether `environ` (NUL-separated entries) holds exactly `entry`. */
const holds = (environ: Buffer, entry: Buffer): boolean => {
  let at = environ.indexOf(entry)
  while (at >= 0) {
    const end = at + entry.length
    if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true
    at = environ.indexOf(entry, at + 1)
  }
  return false
}

/** Live processes (never this one) whose initial environment holds `entry` (`NAME=value`). Zombies have none. */
export const markedProcesses = (entry: string): ReadonlyArray<number> => {
  if (process.platform !== "linux") return []
  const needle = Buffer.from(entry)
  let names: Array<string>
  try {
    names = readdirSync("/proc")
  } catch {
    return []
  }
  const found: Array<number> = []
  for (const name of names) {
    const first = name.charCodeAt(0)
    if (first < 48 || first > 57) continue
    const pid = Number(name)
    if (pid === process.pid) continue
    let environ: Buffer
    try {
      environ = readFileSync(`/proc/${name}/environ`)
    } catch {
      // gone, or another user's
      continue
    }
    if (holds(environ, needle)) found.push(pid)
  }
  return found
}

const signal = (pid: number, sig: NodeJS.Signals): void => {
  try {
    process.kill(pid, sig)
  } catch {
    // already gone
  }
}

const sleepReal = (ms: number) =>
  Effect.async<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), ms)
    return Effect.sync(() => clearTimeout(timer))
  })

/** Rounds of SIGKILL at the end: each one also catches what was forked since the last scan. */
const KILL_ROUNDS = 20

/**
 * SIGTERM every process carrying `entry` (and SIGCONT, so a stopped one can
 * die), wait up to `graceMs` for them to go (newcomers get SIGTERM too), then
 * SIGKILL whatever still carries it. Returns how many processes were found.
 */
export const killMarked = (entry: string, graceMs = 1000): Effect.Effect<number> =>
  Effect.gen(function*() {
    const seen = new Set<number>()
    const terminate = (pids: ReadonlyArray<number>) => {
      for (const pid of pids) {
        if (seen.has(pid)) continue
        seen.add(pid)
        signal(pid, "SIGTERM")
        signal(pid, "SIGCONT")
      }
    }
    let pids = markedProcesses(entry)
    if (pids.length === 0) return 0
    terminate(pids)
    const deadline = Date.now() + graceMs
    let wait = 5
    while (Date.now() < deadline) {
      yield* sleepReal(wait)
      wait = Math.min(wait * 2, 100)
      pids = markedProcesses(entry)
      if (pids.length === 0) return seen.size
      terminate(pids)
    }
    for (let round = 0; round < KILL_ROUNDS && pids.length > 0; round++) {
      for (const pid of pids) {
        seen.add(pid)
        signal(pid, "SIGKILL")
      }
      yield* sleepReal(5)
      pids = markedProcesses(entry)
    }
    return seen.size
  }).pipe(Effect.uninterruptible)

/**
 * The same cleanup as a POSIX sh script, for a target reached over a transport
 * (ssh). Args: the entry (`NAME=value`), grace in 25 ms steps (default 40).
 * Uses `grep -z` where it exists (one process for the whole scan), else one
 * `tr | grep` per process. The script's own shell does not carry the marker
 * (helper scripts do not source the task's exports), and skips itself anyway.
 */
export const MARKER_KILL_SCRIPT = `e=$1; grace=\${2:-40}
if printf 'a\\000' | grep -qzxF a 2>/dev/null; then
  marked() { grep -lzxF -e "$e" /proc/[0-9]*/environ 2>/dev/null | while IFS=/ read -r _ _ p _; do [ "$p" != "$$" ] && echo "$p"; done; }
else
  marked() { for f in /proc/[0-9]*/environ; do p=\${f#/proc/}; p=\${p%/environ}; [ "$p" != "$$" ] || continue; tr '\\000' '\\n' < "$f" 2>/dev/null | grep -qxF -e "$e" && echo "$p"; done; }
fi
[ -d /proc/self ] || exit 0
p=$(marked); [ -n "$p" ] || exit 0
kill -TERM $p 2>/dev/null; kill -CONT $p 2>/dev/null
n=0
while [ $n -lt "$grace" ]; do
  sleep 0.025; n=$((n+1))
  p=$(marked); [ -n "$p" ] || exit 0
  kill -TERM $p 2>/dev/null
done
n=0
while [ $n -lt ${KILL_ROUNDS} ]; do
  p=$(marked); [ -n "$p" ] || exit 0
  kill -KILL $p 2>/dev/null; n=$((n+1))
done
exit 0`
