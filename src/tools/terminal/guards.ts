/**
 * Checks the terminal tool makes before running anything, and the note it
 * adds after: Hermes' rules, in our words.
 */
import { lookupTable } from "../../lib/lookupTable.js"

/** Characters a working directory may contain: no shell metacharacters. */
const WORKDIR_SAFE = /^[A-Za-z0-9/\\:_\-.~ +@=,]+$/

/** An error message when `workdir` contains something other than a plain path. */
export const workdirProblem = (workdir: string): string | undefined => {
  if (workdir.length === 0 || WORKDIR_SAFE.test(workdir)) return undefined
  const bad = [...workdir].find((ch) => !WORKDIR_SAFE.test(ch)) ?? ""
  return `Blocked: workdir contains disallowed character ${JSON.stringify(bad)}. Use a plain filesystem path without shell metacharacters.`
}

/** Blank out quoted text so words inside strings (commit messages, `-c` code) do not count. */
const withoutQuotes = (command: string): string =>
  command.replace(/'[^']*'/g, "''").replace(/"(?:[^"\\]|\\.)*"/g, "\"\"").replace(/`[^`]*`/g, "``")

const isInformational = (command: string): boolean => {
  const normalized = command.toLowerCase().split(/\s+/).join(" ")
  return normalized.includes(" --help") || normalized.endsWith(" -h") || normalized.includes(" --version") || normalized.endsWith(" -v")
}

const SHELL_BACKGROUNDING = /(?:^|[;&|]\s*|&&\s*|\|\|\s*|\$\(\s*)(?:nohup|disown|setsid)\b/im
const INLINE_AMPERSAND = /\s&\s/
const TRAILING_AMPERSAND = /\s&\s*(?:#.*)?$/

const LONG_LIVED: ReadonlyArray<RegExp> = [
  /\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:dev|start|serve|watch)\b/i,
  /\bdocker\s+compose\s+up\b/i,
  /\bnext\s+dev\b/i,
  /\bvite(?:\s|$)/i,
  /\bnodemon\b/i,
  /\buvicorn\b/i,
  /\bgunicorn\b/i,
  /\bpython3?\s+-m\s+http\.server\b/i
]

/**
 * Guidance when a foreground command looks like it starts something that
 * never ends (a dev server, `nohup`, a trailing `&`): those belong in
 * `background=true`, where they can be tracked, polled and killed.
 *
 * This is advice, not containment, and the background path needs none: what
 * either path starts carries the task's marker (a background process's also
 * its own), so it is killed at cleanup even after `setsid` or a double fork
 * (`processes/markedProcesses.ts`). A foreground command's group dies when it
 * ends; what it detached lives until the environment is released, swept or
 * closed. The background path runs `setsid …` as asked: its escapes die with
 * the process.
 */
export const foregroundGuidance = (command: string): string | undefined => {
  if (isInformational(command)) return undefined
  const bare = withoutQuotes(command)
  if (SHELL_BACKGROUNDING.test(bare)) {
    return "This foreground command detaches a process itself (nohup/disown/setsid). Run it with terminal(background=true) so it can be tracked, then check readiness and run tests in separate calls."
  }
  if (INLINE_AMPERSAND.test(bare) || TRAILING_AMPERSAND.test(bare)) {
    return "This foreground command backgrounds work with '&'. Use terminal(background=true) for long-lived processes, then run health checks and tests in follow-up terminal calls."
  }
  if (LONG_LIVED.some((pattern) => pattern.test(bare))) {
    return "This looks like a long-lived server or watcher. Start it with background=true, confirm it is ready (health endpoint or log line), then run tests in a separate command."
  }
  return undefined
}

const NO_MATCHES = "No matches found (not an error)"
const FILES_DIFFER = "Files differ (expected, not an error)"
const CONDITION_FALSE = "Condition evaluated to false (expected, not an error)"

/** Exit codes that are not failures, by the command that decides the exit code. */
const BENIGN_EXIT_CODES: Readonly<Record<string, Readonly<Record<number, string>>>> = lookupTable({
  grep: { 1: NO_MATCHES },
  egrep: { 1: NO_MATCHES },
  fgrep: { 1: NO_MATCHES },
  rg: { 1: NO_MATCHES },
  ag: { 1: NO_MATCHES },
  ack: { 1: NO_MATCHES },
  diff: { 1: FILES_DIFFER },
  colordiff: { 1: FILES_DIFFER },
  find: { 1: "Some directories could not be read (the results may still be useful)" },
  test: { 1: CONDITION_FALSE },
  "[": { 1: CONDITION_FALSE },
  curl: {
    6: "Could not resolve host",
    7: "Failed to connect to host",
    22: "HTTP response code indicated an error (e.g. 404, 500)",
    28: "Operation timed out"
  },
  git: { 1: "Non-zero exit (often normal, e.g. 'git diff' exits 1 when files differ)" }
})

/** What a non-zero exit code means when it is not really an error, judged by the last command of a pipeline or list. */
export const exitCodeMeaning = (command: string, exitCode: number): string | undefined => {
  if (exitCode === 0) return undefined
  const segments = command.split(/\s*(?:\|\||&&|[|;])\s*/)
  const words = (segments[segments.length - 1] ?? command).trim().split(/\s+/)
  // Skip leading VAR=value assignments; /usr/bin/grep counts as grep.
  const first = words.find((w) => !(w.includes("=") && !w.startsWith("-")))
  if (first === undefined || first.length === 0) return undefined
  const base = first.split("/").pop() ?? first
  return BENIGN_EXIT_CODES[base]?.[exitCode]
}
