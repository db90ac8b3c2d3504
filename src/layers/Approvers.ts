/**
 * Approver layers: who is asked when a command needs approval.
 */
import { createInterface } from "node:readline"
import { Effect, Layer } from "effect"
import { Approver } from "../services/Approver.js"
import type { ApprovalChoice, ApprovalPrompt, ApproverAnswer } from "../services/Approver.js"
import { Config } from "../services/Config.js"

/**
 * Nobody to ask (batch, subagents, CI): deny, unless the operator explicitly
 * set `approvals.non_interactive: allow`.
 */
export const ApproverNonInteractive = Layer.effect(
  Approver,
  Effect.map(Config, (config) =>
    Approver.of({
      interactive: false,
      ask: () =>
        Effect.map(config.current, (c): ApproverAnswer =>
          c.approvals.non_interactive.trim().toLowerCase() === "allow"
            ? { choice: "once", via: "policy" }
            : { choice: "deny", via: "non-interactive" })
    }))
)

/**
 * A program decides (an editor over ACP, an embedding app): the callback may
 * return a choice, a Promise of one, or an Effect. Failures count as deny.
 */
export const ApproverCallback = (
  decide: (prompt: ApprovalPrompt) => ApprovalChoice | PromiseLike<ApprovalChoice> | Effect.Effect<ApprovalChoice, unknown>
) =>
  Layer.succeed(
    Approver,
    Approver.of({
      interactive: true,
      ask: (prompt) =>
        Effect.suspend(() => {
          const out = decide(prompt)
          const effect: Effect.Effect<ApprovalChoice, unknown> = Effect.isEffect(out)
            ? out
            : typeof out === "string"
            ? Effect.succeed(out)
            : Effect.tryPromise(() => Promise.resolve(out))
          return effect.pipe(
            Effect.map((choice): ApproverAnswer => ({ choice, via: "callback" })),
            Effect.catchAllCause(() => Effect.succeed<ApproverAnswer>({ choice: "deny", via: "callback", reason: "the approval callback failed" }))
          )
        })
    })
  )

const CHOICES: Record<string, ApprovalChoice> = {
  o: "once",
  once: "once",
  s: "session",
  session: "session",
  a: "always",
  always: "always",
  d: "deny",
  deny: "deny",
  n: "deny",
  no: "deny"
}

/** One question on the terminal; interruption (the timeout) closes it, which answers deny. */
const askOnTerminal = (prompt: ApprovalPrompt): Effect.Effect<ApproverAnswer> =>
  Effect.async<ApproverAnswer>((resume) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true })
    const options = prompt.allowPermanent ? "[o]nce / [s]ession / [a]lways / [d]eny" : "[o]nce / [s]ession / [d]eny"
    process.stderr.write(`\n⚠️  ${prompt.description}\n    ${prompt.command}\n`)
    let settled = false
    const finish = (answer: ApproverAnswer) => {
      if (settled) return
      settled = true
      rl.close()
      resume(Effect.succeed(answer))
    }
    rl.question(`Allow this command? ${options}: `, (text) => {
      const choice = CHOICES[text.trim().toLowerCase()] ?? "deny"
      finish({ choice: choice === "always" && !prompt.allowPermanent ? "session" : choice, via: "human" })
    })
    rl.on("close", () => finish({ choice: "deny", via: "human", reason: "no answer" }))
    return Effect.sync(() => {
      settled = true
      rl.close()
    })
  })

/**
 * Ask the person at this terminal. Prompts are serialised so two sessions
 * never interleave on one screen. Without a TTY nobody can answer: deny.
 */
export const ApproverTerminal = Layer.effect(
  Approver,
  Effect.gen(function*() {
    const lock = yield* Effect.makeSemaphore(1)
    const tty = process.stdin.isTTY === true
    return Approver.of({
      interactive: tty,
      ask: (prompt) =>
        tty ? lock.withPermits(1)(askOnTerminal(prompt)) : Effect.succeed<ApproverAnswer>({ choice: "deny", via: "non-interactive" })
    })
  })
)
