/**
 * The script the host transport (local, sandbox) runs for every command: `bash -c <script> bash <command>`.
 *
 * Each command gets a fresh bash, yet the working directory and exported
 * variables carry over: the script sources the task's latest snapshot of
 * exported variables, changes to the tracked directory, runs the command with
 * `eval`, and on exit (however the command ends, `exit` included) writes
 * `export -p` and `pwd -P` to report files named after this run; the
 * environment reads the cwd, and writes the exports it could parse as the
 * next snapshot (`snapshotScript`). Only bash builtins run on this path.
 *
 * The report directory is writable by the command (its own shell writes the
 * report), so what is sourced is never the report itself: the snapshot is
 * rebuilt from parsed names and values, `export NAME='value'` lines only, in
 * a directory commands cannot write when the home is protected. A command
 * that scribbles code into a report can change exported values, as `export`
 * could, and nothing more.
 *
 * Snapshots are never renamed over one another: on ext4 a rename that
 * replaces a file flushes its data first, which cost a millisecond a command.
 */
import { parseExportSnapshot } from "./exportSnapshot.js"


/** Single-quote for bash. */
export const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export interface ScriptSpec {
  /** Directory the command writes its report files to. */
  readonly outDir: string
  /** The export snapshot to start from, if any. */
  readonly snapshot?: string | undefined
  /** Names this run's result files: `<runId>.env`, `<runId>.cwd`. */
  readonly runId: string
  readonly cwd: string
  /** Where to go when `cwd` no longer exists (tracked cwd only; an explicit one must exist). */
  readonly fallbackCwd?: string | undefined
  /** Variables for this command only: exported after the snapshot, left out of the next one. */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Write the cwd and exports back for the next command (foreground yes, background no). */
  readonly persist: boolean
}

export const envResultFile = (outDir: string, runId: string) => `${outDir}/${runId}.env`
export const cwdResultFile = (outDir: string, runId: string) => `${outDir}/${runId}.cwd`

/** `declare -a…x NAME=(…)`: an exported array, which no environment can carry. */
const ARRAY_LINE = /^declare -[a-zA-Z-]*[aA][a-zA-Z-]* ([A-Za-z_][A-Za-z0-9_]*)=/gm

/**
 * The snapshot the next command sources, rebuilt from an `export -p` report:
 * only `export NAME='value'` lines, whatever else the report holds.
 */
export const snapshotScript = (report: string): { readonly script: string; readonly variables: Record<string, string> } => {
  const variables = parseExportSnapshot(report)
  for (const match of report.matchAll(ARRAY_LINE)) delete variables[match[1] ?? ""]
  let script = ""
  for (const [name, value] of Object.entries(variables)) {
    if (NAME.test(name)) script += `export ${name}=${shellQuote(value)}\n`
  }
  return { script, variables }
}

export const wrapperScript = (spec: ScriptSpec): string => {
  const state = shellQuote(spec.outDir)
  const extra = Object.entries(spec.env ?? {}).filter(([name]) => NAME.test(name))
  const unexport = extra.length === 0 ? "" : `builtin export -n ${extra.map(([name]) => name).join(" ")} 2>/dev/null; `
  const cd = spec.fallbackCwd === undefined
    ? `builtin cd -- ${shellQuote(spec.cwd)} || exit 126`
    : `builtin cd -- ${shellQuote(spec.cwd)} 2>/dev/null || builtin cd -- ${shellQuote(spec.fallbackCwd)} || exit 126`
  return [
    `__hermes_state=${state}`,
    ...(spec.snapshot === undefined ? [] : [`. ${shellQuote(spec.snapshot)} >/dev/null 2>&1`]),
    ...extra.map(([name, value]) => `export ${name}=${shellQuote(value)}`),
    ...(spec.persist
      // `builtin`: a function the command defines (`export() { … }`) must not write the report.
      ? [`trap '__hermes_ec=$?; ${unexport}builtin export -p > "$__hermes_state/${spec.runId}.env" 2>/dev/null; builtin pwd -P > "$__hermes_state/${spec.runId}.cwd" 2>/dev/null; builtin exit $__hermes_ec' EXIT`]
      : []),
    cd,
    // One stream, as the model reads it: stderr interleaved with stdout.
    "exec 2>&1",
    `__hermes_cmd=$1; shift`,
    `eval "$__hermes_cmd"`
  ].join("\n")
}

/** argv after the shell binary. */
export const shellArgs = (spec: ScriptSpec, command: string): ReadonlyArray<string> =>
  ["-c", wrapperScript(spec), "bash", command]
