/**
 * Prompter layers: who answers `clarify`.
 */
import { createInterface } from "node:readline"
import { Cause, Duration, Effect, Layer } from "effect"
import { CLARIFY_TIMEOUT_RESPONSE, PromptFailed, Prompter, PromptUnavailable } from "../services/Prompter.js"
import type { ClarifyQuestion, PrompterService } from "../services/Prompter.js"

/** Nobody to ask (batch, subagents, CI): `clarify` answers with Hermes' unavailable error. */
export const PrompterNonInteractive = Layer.succeed(
  Prompter,
  Prompter.of({ interactive: false, ask: () => Effect.fail(new PromptUnavailable()) })
)

const describe = (e: unknown) => (e instanceof Error ? e.message : typeof e === "string" ? e : String(e))

/**
 * A program answers (an editor, a chat front end, a test): the callback may
 * return the answer, a Promise of it, or an Effect. A failure, a rejection or
 * a non-string answer becomes `Failed to get user input: …` for the model.
 */
export const PrompterCallback = (
  answer: (question: ClarifyQuestion) => string | PromiseLike<string> | Effect.Effect<string, unknown>
): Layer.Layer<Prompter> =>
  Layer.succeed(
    Prompter,
    Prompter.of({
      interactive: true,
      ask: (question) =>
        Effect.suspend(() => {
          const out = answer(question)
          const effect: Effect.Effect<unknown, unknown> = Effect.isEffect(out)
            ? out
            : typeof out === "string"
            ? Effect.succeed(out)
            : Effect.tryPromise({ try: () => Promise.resolve(out), catch: (e) => e })
          return effect.pipe(
            Effect.flatMap((value) =>
              typeof value === "string" ? Effect.succeed(value) : Effect.fail(`the answer was ${value === null ? "null" : typeof value}, not text`)
            ),
            Effect.catchAllCause((cause) => Effect.fail(new PromptFailed({ detail: describe(Cause.squash(cause)) })))
          )
        })
    })
  )

export interface TerminalPrompterOptions {
  readonly input?: NodeJS.ReadableStream | undefined
  readonly output?: NodeJS.WritableStream | undefined
  /** Whether a person is there (default: stdin is a TTY). */
  readonly interactive?: boolean | undefined
  /** How long the person has; then the model is told to decide itself, as Hermes does (default 120 s). */
  readonly timeout?: Duration.DurationInput | undefined
}

export const CLARIFY_TERMINAL_TIMEOUT = Duration.seconds(120)

/** Map what was typed to an answer: a choice number, a choice's text, or free text. */
export const interpretAnswer = (typed: string, choices: ReadonlyArray<string> | undefined): { readonly answer: string } | "other" => {
  const text = typed.trim()
  if (choices === undefined || choices.length === 0) return { answer: text }
  if (/^\d+$/.test(text)) {
    const n = Number(text)
    if (n >= 1 && n <= choices.length) return { answer: choices[n - 1]! }
    if (n === choices.length + 1) return "other"
  }
  if (text.length === 0 || text.toLowerCase() === "other") return "other"
  const named = choices.find((c) => c.toLowerCase() === text.toLowerCase())
  return { answer: named ?? text }
}

const render = (question: ClarifyQuestion): string => {
  const lines = [``, `❓ ${question.question}`]
  const choices = question.choices ?? []
  choices.forEach((choice, i) => lines.push(`   ${i + 1}. ${choice}`))
  if (choices.length > 0) lines.push(`   ${choices.length + 1}. Other (type your answer)`)
  return `${lines.join("\n")}\n`
}

/** One question; interruption (the timeout) closes the prompt. */
const askOn = (input: NodeJS.ReadableStream, output: NodeJS.WritableStream, tty: boolean, question: ClarifyQuestion) =>
  Effect.async<string, PromptFailed>((resume) => {
    const rl = createInterface({ input, output, terminal: tty })
    let settled = false
    const finish = (effect: Effect.Effect<string, PromptFailed>) => {
      if (settled) return
      settled = true
      rl.close()
      resume(effect)
    }
    output.write(render(question))
    const choices = question.choices
    const freeText = () => rl.question("Your answer: ", (typed) => finish(Effect.succeed(typed.trim())))
    if (choices === undefined || choices.length === 0) {
      freeText()
    } else {
      rl.question(`Choose 1-${choices.length + 1} or type an answer: `, (typed) => {
        const picked = interpretAnswer(typed, choices)
        if (picked === "other") freeText()
        else finish(Effect.succeed(picked.answer))
      })
    }
    rl.on("close", () => finish(Effect.fail(new PromptFailed({ detail: "the terminal input closed before an answer" }))))
    return Effect.sync(() => {
      settled = true
      rl.close()
    })
  })

export const makeTerminalPrompter = (options: TerminalPrompterOptions = {}): Effect.Effect<PrompterService> =>
  Effect.map(Effect.makeSemaphore(1), (lock) => {
    const input = options.input ?? process.stdin
    const output = options.output ?? process.stderr
    const interactive = options.interactive ?? (options.input === undefined ? process.stdin.isTTY === true : true)
    const tty = options.input === undefined && process.stdin.isTTY === true
    const timeout = options.timeout ?? CLARIFY_TERMINAL_TIMEOUT
    return Prompter.of({
      interactive,
      ask: (question) =>
        interactive
          ? lock.withPermits(1)(
            askOn(input, output, tty, question).pipe(
              Effect.timeoutTo({ duration: timeout, onTimeout: () => CLARIFY_TIMEOUT_RESPONSE, onSuccess: (answer) => answer })
            )
          )
          : Effect.fail(new PromptUnavailable())
    })
  })

/** Ask the person at this terminal (stdin/stderr); without a TTY nobody can answer. */
export const PrompterTerminal = Layer.effect(Prompter, makeTerminalPrompter())

/** The same on given streams (tests, a pseudo-terminal). */
export const PrompterTerminalWith = (options: TerminalPrompterOptions) => Layer.effect(Prompter, makeTerminalPrompter(options))
