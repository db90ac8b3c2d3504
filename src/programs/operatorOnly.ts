/**
 * Commands that change what the runtime allows (the approval allowlist,
 * config, installed skills, recorded sessions) are an operator's act. Every
 * process a tool starts carries TOOL_RUN_ENV in its environment, so when it is
 * set the caller is the model, through a tool: those commands refuse to run.
 * Read-only commands are unaffected.
 *
 * A tool's command can drop the variable before starting us (`env -u`,
 * `unset`, `env -i`), so on Linux the ancestors count too: the environment a
 * process was started with stays readable in /proc/<pid>/environ whatever it
 * did to its own copy later, and a marked ancestor means a tool started us.
 */
import { readFileSync } from "node:fs"
import { Data, Effect } from "effect"
import { TOOL_RUN_VARIABLE } from "../services/Environments.js"

/** Set (to `<runtime instance>:<task id>`) in every process a tool starts; defined with the environments. */
export const TOOL_RUN_ENV = TOOL_RUN_VARIABLE

export class OperatorOnlyCommand extends Data.TaggedError("OperatorOnlyCommand")<{ readonly command: string }> {
  override get message(): string {
    return `'${this.command}' is an operator's act; it cannot be run from inside an agent's tool call (${TOOL_RUN_ENV} is set here or in a process this one descends from). Ask the user to run it.`
  }
}

const MAX_ANCESTORS = 64

/** The parent of `pid` from /proc/<pid>/stat (the field after the state, past the command name's closing paren). */
const parentOf = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1")
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
    return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined
  } catch {
    return undefined
  }
}

/** Whether `pid` was started with the marker in its environment (false where /proc is not readable). */
const startedMarked = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").some((entry) => entry.startsWith(`${TOOL_RUN_ENV}=`))
  } catch {
    return false
  }
}

/** True when this process, or a process it descends from, was started by a tool of a running agent. */
export const markedAncestry = (pid: number = process.pid): boolean => {
  let current: number | undefined = pid
  for (let k = 0; current !== undefined && current > 1 && k < MAX_ANCESTORS; k++) {
    if (startedMarked(current)) return true
    current = parentOf(current)
  }
  return false
}

/** True when this process was started by a tool of a running agent. */
export const insideToolRun = (env: NodeJS.ProcessEnv = process.env): boolean => env[TOOL_RUN_ENV] !== undefined || markedAncestry()

/** Fails with OperatorOnlyCommand inside a tool run; checked before anything is opened or read. */
export const requireOperator = (command: string): Effect.Effect<void, OperatorOnlyCommand> =>
  Effect.suspend(() => (insideToolRun() ? Effect.fail(new OperatorOnlyCommand({ command })) : Effect.void))

/** Wrap a command handler so it refuses to run inside a tool run. */
export const operatorOnly = <O, A, E, R>(command: string, handler: (opts: O) => Effect.Effect<A, E, R>) =>
(opts: O): Effect.Effect<A, E | OperatorOnlyCommand, R> => Effect.zipRight(requireOperator(command), handler(opts))
