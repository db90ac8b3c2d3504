/**
 * Shell over the task environments and the approval gate (`commandGate.ts`):
 * what the terminal tools need, so they never reach into terminal layers.
 */
import { Effect, Layer } from "effect"
import { Approval } from "../../services/Approval.js"
import { Config } from "../../services/Config.js"
import { Environments } from "../../services/Environments.js"
import { Shell, ShellUnavailable, WorkdirNotFound } from "../../services/Shell.js"
import type { ShellOutput, ShellRunOptions, ShellTarget } from "../../services/Shell.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { capOutput, MAX_OUTPUT_CHARS, redactToolOutput, stripAnsiOutput } from "../../lib/text.js"
import { approveCommand, approveLauncher } from "./commandGate.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const ShellLive: Layer.Layer<Shell, never, Environments | Approval | Config> = Layer.effect(
  Shell,
  Effect.gen(function*() {
    const environments = yield* Environments
    const approval = yield* Approval
    const config = yield* Config
    const settings = Effect.map(config.current, (current) => ({ timeoutSeconds: current.terminal.timeout }))

    const target = (context: ToolCallContext, workdir?: string): Effect.Effect<ShellTarget, ShellUnavailable | WorkdirNotFound> =>
      Effect.gen(function*() {
        const env = yield* Effect.mapError(environments.get(context.taskId), (error) => new ShellUnavailable({ message: error.message }))
        if (workdir === undefined || workdir.length === 0) return { env, workdir: undefined }
        const resolved = yield* env.resolvePath(workdir)
        const stat = yield* Effect.either(env.stat(resolved))
        if (stat._tag === "Left" || stat.right.type !== "directory") return yield* new WorkdirNotFound({ path: resolved })
        return { env, workdir: resolved }
      })

    const run = observedFn("Shell.run")(function*(context: ToolCallContext, command: string, options: ShellRunOptions = {}) {
      const { env, workdir } = yield* target(context, options.workdir)
      const pty = options.pty === true
      // Judged where it runs: relative paths in it (a script read, a file written) mean files in the workdir.
      const approved = yield* approveCommand(approval, env, context, command, pty ? "pty" : "foreground", undefined, workdir)
      const timeoutSeconds = options.timeoutSeconds ?? (yield* settings).timeoutSeconds
      const ran = yield* env.run(approved, { cwd: workdir, timeoutMs: timeoutSeconds * 1000, maxOutputBytes: MAX_OUTPUT_CHARS, pty })
      let output = capOutput(ran.output, MAX_OUTPUT_CHARS)
      if (ran.timedOut) output = `${output.trimEnd()}\n[Command timed out after ${timeoutSeconds}s]`
      if (ran.interrupted) output = `${output.trimEnd()}\n[Command interrupted]`
      output = stripAnsiOutput(output)
      output = output.length === 0 ? "" : redactToolOutput(output.trim(), command)
      const result: ShellOutput = {
        output,
        exitCode: ran.exitCode,
        timedOut: ran.timedOut,
        interrupted: ran.interrupted,
        grant: approved.grant
      }
      return result
    })

    return Shell.of({
      settings,
      target,
      approve: (env, context, text, path, language) => approveCommand(approval, env, context, text, path, language),
      approveLauncher: (env, context, judged, runs, path) => approveLauncher(approval, env, context, judged, runs, path),
      run
    })
  })
)
