/**
 * Approver that asks the person at this terminal.
 */
import { createInterface } from "node:readline"
import { Effect, Layer } from "effect"
import { Approver } from "../../../services/Approver.js"
import type { ApprovalChoice, ApprovalPrompt, ApproverAnswer } from "../../../services/Approver.js"
import { lookupTable } from "../../../lib/lookupTable.js"

const CHOICES: Record<string, ApprovalChoice> = lookupTable({
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
})

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
