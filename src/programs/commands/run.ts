/**
 * `hermes-effect run "<prompt>"`: one agent run in the terminal. The answer
 * streams to stdout; tool progress, warnings and the session id go to stderr,
 * so `run … > answer.txt` keeps only the answer. Ctrl-C interrupts the run:
 * running tools are stopped, what they returned so far is stored, and the
 * session can be continued with `--resume`.
 */
import { Args, Command, Options } from "@effect/cli"
import { Data, Effect, Option } from "effect"
import { AgentLoop } from "../../services/AgentLoop.js"
import type { AgentEvent, AgentResult } from "../../services/AgentLoop.js"
import type { ToolCallRequest } from "../../services/Model.js"
import { runtimeLayer } from "./lazy.js"
import { splitList, toolsetsOption } from "./shared.js"

/** The run ended without a usable answer (exit 1). */
export class RunIncomplete extends Data.TaggedError("RunIncomplete")<{ readonly message: string }> {}

export const modelOption = Options.text("model").pipe(
  Options.withDescription("Model name to request (default: model.name in config.yaml)"),
  Options.optional
)

export const scriptOption = Options.text("script").pipe(
  Options.withDescription("Replay this JSONL script of assistant turns instead of calling a model (offline demos, tests)"),
  Options.optional
)

export const maxTurnsOption = Options.integer("max-turns").pipe(
  Options.withDescription("Model calls the run may make (default: agent.max_turns, else 90)"),
  Options.optional
)

/** The runtime for agent programs: `--script` swaps in the scripted model; a terminal gets approval and clarify prompts. */
export const agentRuntime = (script: string | undefined, interactive: boolean) =>
  runtimeLayer(async () => {
    const [{ ApproverTerminal }, { ApproverNonInteractive }, { PrompterNonInteractive, PrompterTerminal }, { ModelScripted }] = await Promise.all([
      import("../../layers/approval/approvers/ApproverTerminal.js"),
      import("../../layers/approval/approvers/ApproverNonInteractive.js"),
      import("../../layers/Prompters.js"),
      import("../../layers/model/scripted.js")
    ])
    return {
      approver: interactive ? ApproverTerminal : ApproverNonInteractive,
      prompter: interactive ? PrompterTerminal : PrompterNonInteractive,
      ...(script === undefined ? {} : { model: ModelScripted({ file: script }) })
    }
  })

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

const describeCall = (call: ToolCallRequest) => `${call.function.name} ${oneLine(call.function.arguments, 100)}`.trimEnd()

const errorOf = (result: string): string | undefined => {
  if (!result.startsWith("{\"error\"")) return undefined
  try {
    const parsed: unknown = JSON.parse(result)
    // Only a string: String() of a deeply nested array recurses.
    return parsed !== null && typeof parsed === "object" && "error" in parsed && typeof parsed.error === "string" ? parsed.error : undefined
  } catch {
    return undefined
  }
}

/** Prints events as they come: answer text on stdout, progress on stderr, never two half lines at once. */
const makePrinter = () => {
  let openLine = false
  let streamed = false
  const out = (text: string) => {
    if (text.length === 0) return
    process.stdout.write(text)
    openLine = !text.endsWith("\n")
  }
  const err = (line: string) => {
    if (openLine) out("\n")
    process.stderr.write(`${line}\n`)
  }
  let session: string | undefined
  const onEvent = (event: AgentEvent) =>
    Effect.sync(() => {
      switch (event._tag) {
        case "SessionStarted":
          session = event.sessionId
          if (event.resumed) err(`↻ resuming session ${event.sessionId}`)
          return
        case "TextDelta":
          streamed = true
          out(event.text)
          return
        case "ModelResponded":
          if (!streamed && event.message.content !== null) out(event.message.content)
          if (openLine) out("\n")
          streamed = false
          return
        case "ToolStarted":
          err(`  → ${describeCall(event.call)}`)
          return
        case "ToolFinished": {
          const error = errorOf(event.result)
          const ms = `${Math.round(event.durationMs)} ms`
          err(error === undefined ? `  ✓ ${event.tool} (${ms})` : `  ✗ ${event.tool}: ${oneLine(error, 160)}`)
          return
        }
        case "Notice":
          if (event.kind === "budget") err(`  ⚠ ${event.text}`)
          else if (event.kind === "process") err(`  ⚙ ${oneLine(event.text, 160)}`)
          else if (event.kind === "delegation") err(`  🔀 ${oneLine(event.text, 160)}`)
          return
      }
    })
  const interrupted = () => err(session === undefined ? "⏹ interrupted" : `⏹ interrupted: what ran so far is stored; continue with --resume ${session}`)
  return { onEvent, finish: () => (openLine ? out("\n") : undefined), err, interrupted }
}

const summary = (result: AgentResult) =>
  `session ${result.sessionId} · ${result.iterations} model call${result.iterations === 1 ? "" : "s"} · ${result.toolCalls} tool call${
    result.toolCalls === 1 ? "" : "s"
  }${result.usage.inputTokens + result.usage.outputTokens > 0 ? ` · ${result.usage.inputTokens}+${result.usage.outputTokens} tokens` : ""}`

export const runCommand = Command.make(
  "run",
  {
    prompt: Args.text({ name: "prompt" }).pipe(Args.withDescription("What to ask the agent")),
    toolsets: toolsetsOption,
    model: modelOption,
    resume: Options.text("resume").pipe(Options.withDescription("Continue this session (its id, as printed at the end of a run)"), Options.optional),
    script: scriptOption,
    maxTurns: maxTurnsOption
  },
  (opts) => {
    const printer = makePrinter()
    const toolsets = splitList(opts.toolsets)
    const resume = Option.getOrUndefined(opts.resume)
    const program = Effect.gen(function*() {
      const agent = yield* AgentLoop
      const result = yield* agent.run({
        prompt: opts.prompt,
        cwd: process.cwd(),
        stream: true,
        onEvent: printer.onEvent,
        ...(toolsets === undefined ? {} : { toolsets: { enabled: toolsets } }),
        ...(Option.isSome(opts.model) ? { model: opts.model.value } : {}),
        ...(Option.isSome(opts.maxTurns) ? { maxIterations: opts.maxTurns.value } : {}),
        ...(resume === undefined ? {} : { sessionId: resume, resume: true })
      }).pipe(Effect.ensuring(Effect.sync(printer.finish)), Effect.onInterrupt(() => Effect.sync(printer.interrupted)))
      if (result.status === "budget_exhausted") {
        printer.err(`⚠ Iteration budget reached (${result.iterations - 1}/${result.iterations - 1}) — response may be incomplete`)
      }
      printer.err(summary(result))
      if (result.status === "invalid_tool_calls") {
        return yield* new RunIncomplete({ message: "stopped: the model kept sending tool calls that cannot run (unknown tools or arguments that are not JSON)" })
      }
    })
    const interactive = process.stdin.isTTY === true
    return Effect.provide(program, agentRuntime(Option.getOrUndefined(opts.script), interactive))
  }
).pipe(Command.withDescription("Run the agent on a prompt: the answer streams to stdout, tool progress to stderr; Ctrl-C interrupts cleanly"))
