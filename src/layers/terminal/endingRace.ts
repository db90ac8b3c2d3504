/**
 * How a foreground command ended, decided without a fiber per contender:
 * `Effect.raceAll` over the exit, the held-open watch, the timeout and the
 * interrupt forked two or three fibers per command and interrupted the
 * losers: ~80 µs of CPU per command, measured, against ~2 ms for a whole
 * persistent-shell `echo hi`.
 * Here the command's own events settle the race, the timeout is a timer on
 * the caller's Clock (`startClockTimer`), and only a caller's `interrupt`
 * effect, when given, runs in a fiber.
 */
import { Effect, Exit, Runtime } from "effect"
import { runtimeOf, startClockTimer } from "../../lib/effect/clockTimer.js"

export type Ending =
  | { readonly _tag: "Exit"; readonly code: number }
  | { readonly _tag: "Timeout" }
  | { readonly _tag: "Interrupt" }

const TIMEOUT: Ending = { _tag: "Timeout" }
const INTERRUPT: Ending = { _tag: "Interrupt" }

export interface EndingRace {
  /** The command's exit code (its process is gone). */
  readonly onExit: (code: number) => void
  /** The command said it ended; if its process is still open `heldOpenMs` later (something it left holds it), that is its exit. */
  readonly onEnd: (code: number, heldOpenMs: number) => void
  /** The first ending: the exit, `timeoutMs` on the caller's Clock, or `interrupt` completing. */
  readonly await: (timeoutMs: number | undefined, interrupt: Effect.Effect<void> | undefined) => Effect.Effect<Ending>
  /** Clear the held-open timer (the command is over, however it ended). */
  readonly dispose: () => void
}

export const makeEndingRace = (): EndingRace => {
  let ending: Ending | undefined
  let waiter: ((ending: Ending) => void) | undefined
  let heldOpen: ReturnType<typeof setTimeout> | undefined

  const dispose = () => {
    if (heldOpen !== undefined) clearTimeout(heldOpen)
    heldOpen = undefined
  }
  const settle = (first: Ending) => {
    if (ending !== undefined) return
    ending = first
    dispose()
    const wake = waiter
    waiter = undefined
    wake?.(first)
  }

  return {
    onExit: (code) => settle({ _tag: "Exit", code }),
    onEnd: (code, heldOpenMs) => {
      if (ending === undefined && heldOpen === undefined) heldOpen = setTimeout(() => settle({ _tag: "Exit", code }), heldOpenMs)
    },
    dispose,
    await: (timeoutMs, interrupt) =>
      Effect.withFiberRuntime<Ending>((parent, status) => {
        if (ending !== undefined) return Effect.succeed(ending)
        return Effect.async<Ending>((resume) => {
          const stops: Array<() => void> = []
          const stopAll = () => stops.forEach((stop) => stop())
          waiter = (first) => {
            stopAll()
            resume(Effect.succeed(first))
          }
          const runtime = () => runtimeOf(parent, status.runtimeFlags)
          if (timeoutMs !== undefined) stops.push(startClockTimer(parent, runtime, timeoutMs, () => settle(TIMEOUT)))
          if (interrupt !== undefined) {
            const watcher = Runtime.runFork(runtime())(interrupt)
            const onDone = (exit: Exit.Exit<void>) => {
              if (Exit.isSuccess(exit)) settle(INTERRUPT)
            }
            watcher.addObserver(onDone)
            stops.push(() => {
              watcher.removeObserver(onDone)
              watcher.unsafeInterruptAsFork(parent.id())
            })
          }
          return Effect.sync(() => {
            waiter = undefined
            stopAll()
          })
        })
      })
  }
}
