/** `hermes-effect call <tool> [<json-args>]`: prints exactly what the model would get. */
import { Args, Command, Options } from "@effect/cli"
import { Data, Effect, Option } from "effect"
import { ToolExecutor } from "../../services/ToolExecutor.js"
import { DEFAULT_TASK_ID } from "../../services/ToolContext.js"
import { withInteractiveRuntime, writeOut } from "./shared.js"
import { readStdinText } from "./stdinText.js"

/** The arguments named cannot be read (stdin): a usage problem (exit 2). */
export class CallInputError extends Data.TaggedError("CallInputError")<{ readonly message: string }> {}

const argumentsText = (args: Option.Option<string>) =>
  Option.match(args, {
    onNone: () => Effect.succeed("{}"),
    onSome: (text) =>
      text !== "-"
        ? Effect.succeed(text)
        : readStdinText((message) => new CallInputError({ message: `cannot read the arguments from stdin: ${message}` }))
  })

export const callCommand = Command.make(
  "call",
  {
    tool: Args.text({ name: "tool" }).pipe(Args.withDescription("Tool name, e.g. todo")),
    args: Args.text({ name: "json-args" }).pipe(Args.withDescription("Arguments as a JSON object (default {}); - reads them from stdin (for arguments longer than a command line allows)"), Args.optional),
    taskId: Options.text("task-id").pipe(Options.withDescription("Task id: calls with the same id share an environment"), Options.withDefault(DEFAULT_TASK_ID))
  },
  (opts) =>
    withInteractiveRuntime(Effect.gen(function*() {
      const args = yield* argumentsText(opts.args)
      const executor = yield* ToolExecutor
      const result = yield* executor.dispatch(
        { tool: opts.tool, args },
        { context: { taskId: opts.taskId, cwd: process.cwd() } }
      )
      yield* writeOut(result)
    }))
).pipe(Command.withDescription("Call one tool and print the result string the model would see (exit 0 even for {\"error\": ...}); on a terminal, commands needing approval are asked about"))
