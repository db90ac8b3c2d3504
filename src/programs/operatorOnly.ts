/**
 * Commands that change what the runtime allows (the approval allowlist,
 * config, installed skills, recorded sessions) are an operator's act. Every
 * process a tool starts carries TOOL_RUN_ENV in its environment, so when it is
 * set the caller is the model, through a tool: those commands refuse to run.
 * Read-only commands are unaffected.
 */
import { Data, Effect } from "effect"
import { TOOL_RUN_VARIABLE } from "../services/Environments.js"

/** Set (to `<runtime instance>:<task id>`) in every process a tool starts; defined with the environments. */
export const TOOL_RUN_ENV = TOOL_RUN_VARIABLE

export class OperatorOnlyCommand extends Data.TaggedError("OperatorOnlyCommand")<{ readonly command: string }> {
  override get message(): string {
    return `'${this.command}' is an operator's act; it cannot be run from inside an agent's tool call (${TOOL_RUN_ENV} is set). Ask the user to run it.`
  }
}

/** True when this process was started by a tool of a running agent. */
export const insideToolRun = (env: NodeJS.ProcessEnv = process.env): boolean => env[TOOL_RUN_ENV] !== undefined

/** Fails with OperatorOnlyCommand inside a tool run; checked before anything is opened or read. */
export const requireOperator = (command: string): Effect.Effect<void, OperatorOnlyCommand> =>
  Effect.suspend(() => (insideToolRun() ? Effect.fail(new OperatorOnlyCommand({ command })) : Effect.void))

/** Wrap a command handler so it refuses to run inside a tool run. */
export const operatorOnly = <O, A, E, R>(command: string, handler: (opts: O) => Effect.Effect<A, E, R>) =>
(opts: O): Effect.Effect<A, E | OperatorOnlyCommand, R> => Effect.zipRight(requireOperator(command), handler(opts))
