/** The `clarify` tool through the registry (the model's view), with each Prompter. */
import { PassThrough } from "node:stream"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Duration, Effect, Fiber, Ref, TestClock } from "effect"
import { interpretAnswer, makeTerminalPrompter, PrompterCallback, PrompterTerminal } from "../../src/layers/Prompters.js"
import { CLARIFY_TIMEOUT_RESPONSE, Prompter } from "../../src/services/Prompter.js"
import type { ClarifyQuestion } from "../../src/services/Prompter.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { flattenChoice, normalizeChoices } from "../../src/tools/clarify.js"
import { testRuntime } from "../support/runtime.js"

const parse = (s: string): Record<string, unknown> => JSON.parse(s) as Record<string, unknown>

/** Real time passing, so the event loop (streams, timers) runs while a test waits for something. */
const tick = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 2)))

const clarify = (args: unknown, toolCallId = "call_q") =>
  Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool: "clarify", args, toolCallId }, { context: { taskId: "task-7", sessionId: "sess-7" } }))

describe("clarify with a callback prompter", () => {
  const asked: Array<ClarifyQuestion> = []
  const runtime = testRuntime({}, {
    prompter: PrompterCallback((q) => {
      asked.push(q)
      if (q.question.startsWith("Fail")) return Promise.reject(new Error("the dialog was closed"))
      if (q.question.startsWith("Weird")) return Effect.succeed(42 as unknown as string)
      return q.choices === undefined ? "  use the staging cluster  " : q.choices[1]!
    })
  })

  it.layer(runtime)((it) => {
    it.effect("asks with the choices and returns Hermes' result shape", () =>
      Effect.gen(function*() {
        const out = yield* clarify({ question: "  Which target?  ", choices: ["staging", "prod"] })
        expect(parse(out)).toEqual({ question: "Which target?", choices_offered: ["staging", "prod"], user_response: "prod" })
        const q = asked[asked.length - 1]!
        expect(q.question).toBe("Which target?")
        expect(q.context).toMatchObject({ taskId: "task-7", sessionId: "sess-7", toolCallId: "call_q" })
      }))

    it.effect("choices are flattened, emptied ones dropped, at most 4 kept; none left means open-ended", () =>
      Effect.gen(function*() {
        const out = parse(yield* clarify({
          question: "Pick an auth method",
          choices: [{ label: "OAuth" }, "{\"description\": \"API key\"}", "", { value: "ignored" }, "mTLS", "none", "basic"]
        }))
        expect(out["choices_offered"]).toEqual(["OAuth", "API key", "mTLS", "none"])
        expect(out["user_response"]).toBe("API key")
        for (const choices of [undefined, [], null, ["  ", {}]]) {
          const open = parse(yield* clarify(choices === undefined ? { question: "Anything else?" } : { question: "Anything else?", choices }))
          expect(open).toEqual({ question: "Anything else?", choices_offered: null, user_response: "use the staging cluster" })
          expect(asked[asked.length - 1]!.choices).toBeUndefined()
        }
      }))

    it.effect("choices sent as a JSON string are coerced to the list, as Hermes does", () =>
      Effect.gen(function*() {
        const out = parse(yield* clarify({ question: "Which one?", choices: "[\"left\", \"right\"]" }))
        expect(out).toMatchObject({ choices_offered: ["left", "right"], user_response: "right" })
      }))

    it.effect("a blank question and a failing or odd answer are errors the model can read", () =>
      Effect.gen(function*() {
        expect(parse(yield* clarify({ question: "   " }))).toEqual({ error: "Question text is required." })
        expect(parse(yield* clarify({ question: "Fail please" }))).toEqual({ error: "Failed to get user input: the dialog was closed" })
        expect(parse(yield* clarify({ question: "Weird answer" }))).toEqual({ error: "Failed to get user input: the answer was number, not text" })
        expect(parse(yield* clarify({ choices: ["a"] }))["error"]).toMatch(/^Invalid argument 'question' for tool 'clarify'/)
      }))

    it.effect("the model sees Hermes' schema: a required question and up to 4 string choices", () =>
      Effect.gen(function*() {
        const registry = yield* ToolRegistry
        const defs = yield* registry.definitions({ enabled: ["clarify"] })
        expect(defs.map((d) => d.function.name)).toEqual(["clarify"])
        const params = defs[0]!.function.parameters
        expect(params).toMatchObject({
          type: "object",
          required: ["question"],
          properties: { question: { type: "string" }, choices: { type: "array", items: { type: "string" }, maxItems: 4 } }
        })
        expect(registry.get("clarify")).toMatchObject({ toolset: "clarify", parallel: "never", emoji: "❓" })
      }))
  })
})

describe("clarify never runs alongside other calls", () => {
  it.effect("two questions in one turn are asked one after the other, in the model's order", () =>
    Effect.gen(function*() {
      const active = yield* Ref.make(0)
      const peak = yield* Ref.make(0)
      const order = yield* Ref.make<ReadonlyArray<string>>([])
      const prompter = PrompterCallback((q) =>
        Effect.gen(function*() {
          const now = yield* Ref.updateAndGet(active, (n) => n + 1)
          yield* Ref.update(peak, (p) => Math.max(p, now))
          yield* Ref.update(order, (o) => [...o, q.question])
          yield* Effect.sleep("10 millis")
          yield* Ref.update(active, (n) => n - 1)
          return "ok"
        })
      )
      const program = Effect.gen(function*() {
        const executor = yield* ToolExecutor
        const fiber = yield* Effect.fork(executor.executeBatch([
          { tool: "clarify", args: { question: "first?" }, toolCallId: "a" },
          { tool: "clarify", args: { question: "second?" }, toolCallId: "b" }
        ]))
        // Each question takes 10 ms of TestClock time; move the clock until the turn is answered.
        while (fiber.unsafePoll() === null) {
          yield* TestClock.adjust("5 millis")
          yield* tick
        }
        const outcomes = yield* Fiber.join(fiber)
        expect(outcomes.map((o) => parse(o.result)["question"])).toEqual(["first?", "second?"])
      })
      yield* Effect.provide(program, testRuntime({}, { prompter }))
      expect(yield* Ref.get(peak)).toBe(1)
      expect(yield* Ref.get(order)).toEqual(["first?", "second?"])
    }))
})

describe("clarify with nobody to ask", () => {
  // A fresh runtime (not it.layer): it.layer memoizes shared layers such as the built-in tools across a file.
  it.effect("answers with Hermes' unavailable error (the default runtime is non-interactive)", () =>
    Effect.gen(function*() {
      expect(JSON.parse(yield* clarify({ question: "Which target?", choices: ["a", "b"] }))).toEqual({
        error: "Clarify tool is not available in this execution context."
      })
      expect((yield* Prompter).interactive).toBe(false)
      // Hermes checks the question first.
      expect(parse(yield* clarify({ question: "" }))).toEqual({ error: "Question text is required." })
    }).pipe(Effect.provide(testRuntime())))

  it.effect("the terminal prompter without a TTY cannot ask either", () =>
    Effect.gen(function*() {
      const prompter = yield* Prompter
      expect(prompter.interactive).toBe(process.stdin.isTTY === true)
    }).pipe(Effect.provide(PrompterTerminal)))
})

describe("terminal prompter", () => {
  /** A prompter on in-memory streams and a way to type into it once it has asked. */
  const terminal = (timeout?: Duration.DurationInput) =>
    Effect.gen(function*() {
      const input = new PassThrough()
      const output = new PassThrough()
      let shown = ""
      output.on("data", (b: Buffer) => (shown += b.toString("utf8")))
      const prompter = yield* makeTerminalPrompter({ input, output, interactive: true, ...(timeout === undefined ? {} : { timeout }) })
      const typeWhen = (marker: string, text: string) =>
        Effect.promise(() =>
          new Promise<void>((resolve) => {
            const check = () => (shown.includes(marker) ? resolve(void input.write(text)) : setTimeout(check, 2))
            check()
          })
        )
      return { prompter, input, typeWhen, shown: () => shown }
    })

  const question = (choices?: ReadonlyArray<string>): ClarifyQuestion => ({ question: "Which region?", choices, context: { taskId: "t" } })

  it.effect("shows numbered choices plus Other; a number picks a choice", () =>
    Effect.gen(function*() {
      const t = yield* terminal()
      const fiber = yield* Effect.fork(t.prompter.ask(question(["eu-west", "us-east"])))
      yield* t.typeWhen("Choose 1-3", "2\n")
      expect(yield* Fiber.join(fiber)).toBe("us-east")
      expect(t.shown()).toContain("❓ Which region?\n   1. eu-west\n   2. us-east\n   3. Other (type your answer)\n")
    }))

  it.effect("Other asks for free text; open-ended questions ask for it directly", () =>
    Effect.gen(function*() {
      const t = yield* terminal()
      const other = yield* Effect.fork(t.prompter.ask(question(["eu-west", "us-east"])))
      yield* t.typeWhen("Choose 1-3", "3\n")
      yield* t.typeWhen("Your answer:", "ap-south, please\n")
      expect(yield* Fiber.join(other)).toBe("ap-south, please")
      const u = yield* terminal()
      const open = yield* Effect.fork(u.prompter.ask(question()))
      yield* u.typeWhen("Your answer:", "  wherever is cheapest \n")
      expect(yield* Fiber.join(open)).toBe("wherever is cheapest")
    }))

  it.effect("no answer in time tells the model to decide itself, as Hermes' CLI does", () =>
    Effect.gen(function*() {
      const t = yield* terminal("30 seconds")
      const fiber = yield* Effect.fork(t.prompter.ask(question(["a", "b"])))
      yield* Effect.promise(() => new Promise<void>((resolve) => {
        const check = () => (t.shown().includes("Choose") ? resolve() : setTimeout(check, 2))
        check()
      }))
      // The TestClock may already have moved in this file: look for our timer relative to now.
      const now = yield* TestClock.currentTimeMillis
      while (!Chunk.toReadonlyArray(yield* TestClock.sleeps()).includes(now + 30_000)) yield* tick
      yield* TestClock.adjust("30 seconds")
      expect(yield* Fiber.join(fiber)).toBe(CLARIFY_TIMEOUT_RESPONSE)
    }))

  it.effect("input that ends before an answer is a failure", () =>
    Effect.gen(function*() {
      const t = yield* terminal()
      const fiber = yield* Effect.fork(Effect.flip(t.prompter.ask(question())))
      yield* t.typeWhen("Your answer:", "")
      t.input.end()
      expect((yield* Fiber.join(fiber)).message).toBe("Failed to get user input: the terminal input closed before an answer")
    }))
})

describe("choice handling", () => {
  it("flattens the shapes models send", () => {
    expect(flattenChoice(" plain ")).toBe("plain")
    expect(flattenChoice({ title: "T", text: "X" })).toBe("X")
    expect(flattenChoice({ name: "n" })).toBe("")
    expect(flattenChoice(["a", { label: "b" }])).toBe("a b")
    expect(flattenChoice(7)).toBe("7")
    expect(flattenChoice("{not json}")).toBe("{not json}")
    expect(normalizeChoices(["a", "b", "c", "d", "e"])).toEqual(["a", "b", "c", "d"])
  })

  it("reads a typed answer as a number, a choice's name, Other, or free text", () => {
    const choices = ["Yes", "No"]
    expect(interpretAnswer("1", choices)).toEqual({ answer: "Yes" })
    expect(interpretAnswer("no", choices)).toEqual({ answer: "No" })
    expect(interpretAnswer("3", choices)).toBe("other")
    expect(interpretAnswer("other", choices)).toBe("other")
    expect(interpretAnswer("", choices)).toBe("other")
    expect(interpretAnswer("9", choices)).toEqual({ answer: "9" })
    expect(interpretAnswer("maybe later", choices)).toEqual({ answer: "maybe later" })
  })
})
