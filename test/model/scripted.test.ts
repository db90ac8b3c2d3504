/** The scripted provider: replay, conditions, cursors, failures, streaming, and its wiring from config. */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Fiber, Layer, Stream, TestClock } from "effect"
import { collectResponse } from "../../src/layers/model/assemble.js"
import { makeScriptedModel, ModelScripted } from "../../src/layers/model/scripted.js"
import type { ScriptSource } from "../../src/layers/model/scripted.js"
import { Model } from "../../src/services/Model.js"
import type { ModelRequest } from "../../src/services/Model.js"
import { testRuntime } from "../support/runtime.js"

const user = (text: string, sessionId?: string): ModelRequest => ({
  messages: [{ role: "system", content: "You are a scripted test." }, { role: "user", content: text }],
  ...(sessionId === undefined ? {} : { context: { sessionId } })
})

const withTool = (request: ModelRequest, id: string, result: string): ModelRequest => ({
  ...request,
  messages: [...request.messages, { role: "tool", tool_call_id: id, content: result }]
})

const script = (text: string): ScriptSource => ({ text, name: "test.jsonl" })

describe("scripted provider", () => {
  it.effect("replays assistant turns in order: text, tool calls with generated ids, raw or object arguments", () =>
    Effect.gen(function*() {
      const model = yield* makeScriptedModel(script([
        `# a comment, then a blank line`,
        ``,
        `{"content": "Let me look.", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.txt"}}, {"name": "terminal", "arguments": "{oops"}]}`,
        `"All done."`
      ].join("\n")))
      const first = yield* model.complete(user("go"))
      expect(first.message).toEqual({
        role: "assistant",
        content: "Let me look.",
        tool_calls: [
          { id: "call_1_1", type: "function", function: { name: "read_file", arguments: "{\"path\":\"a.txt\"}" } },
          { id: "call_1_2", type: "function", function: { name: "terminal", arguments: "{oops" } }
        ]
      })
      expect(first.finishReason).toBe("tool_calls")
      expect(first.model).toBe("scripted")
      const second = yield* model.complete(withTool(user("go"), "call_1_1", "hello"))
      expect(second.message).toEqual({ role: "assistant", content: "All done." })
      expect(second.finishReason).toBe("stop")
      const over = yield* Effect.flip(model.complete(user("go")))
      expect(over).toMatchObject({ _tag: "ModelScriptError", reason: "exhausted", line: 4 })
      expect(over.message).toBe("Model script test.jsonl:4: no turn left to answer request 3 (the script has 2 turns)")
    }))

  it.effect("stream emits what a provider would: chunks, tool-call fragments, finish, usage, then Done", () =>
    Effect.gen(function*() {
      const turn = {
        chunks: ["The answer ", "is ", "42."],
        tool_calls: [{ name: "todo", arguments: { todos: [] }, id: "fixed" }],
        usage: { prompt_tokens: 100, completion_tokens: 7 },
        reasoning: "think"
      }
      const model = yield* makeScriptedModel({ turns: [turn, turn] })
      const deltas = Chunk.toReadonlyArray(yield* Stream.runCollect(model.stream(user("q"))))
      expect(deltas.map((d) => d._tag)).toEqual([
        "ReasoningDelta",
        "TextDelta",
        "TextDelta",
        "TextDelta",
        "ToolCallDelta",
        "ToolCallDelta",
        "FinishDelta",
        "UsageDelta",
        "Done"
      ])
      const fragments = deltas.flatMap((d) => (d._tag === "ToolCallDelta" ? [d] : []))
      expect(fragments[0]).toMatchObject({ index: 0, id: "fixed", name: "todo" })
      expect([fragments[1]!.index, fragments[1]!.id, fragments[1]!.name]).toEqual([0, undefined, undefined])
      expect(fragments.map((f) => f.arguments).join("")).toBe("{\"todos\":[]}")
      const streamed = yield* collectResponse(Stream.fromIterable(deltas))
      const completed = yield* model.complete(user("q"))
      expect(streamed.message).toEqual(completed.message)
      expect(completed.message.content).toBe("The answer is 42.")
      expect(completed.usage).toEqual({ promptTokens: 100, completionTokens: 7, totalTokens: 107 })
    }))

  it.effect("expect: a request that breaks a condition fails with the line and what differed", () =>
    Effect.gen(function*() {
      const model = yield* makeScriptedModel(script([
        `{"expect": {"first_user_contains": "deploy", "tools_include": ["terminal"]}, "tool_calls": [{"name": "terminal", "arguments": {"command": "make deploy"}}]}`,
        `{"expect": {"last_role": "tool", "last_contains": "deployed"}, "content": "Deployed."}`
      ].join("\n")))
      const tools = [{ type: "function" as const, function: { name: "terminal", description: "", parameters: {} } }]
      const first = yield* model.complete({ ...user("please deploy"), tools })
      expect(first.message.tool_calls?.[0]?.function.name).toBe("terminal")
      const error = yield* Effect.flip(model.complete(withTool(user("please deploy"), "call_1_1", "build failed")))
      expect(error).toMatchObject({ _tag: "ModelScriptError", reason: "mismatch", line: 2 })
      expect(error.message).toBe("Model script test.jsonl:2: expected the last message to contain \"deployed\", got \"build failed\"")
      const noTools = yield* makeScriptedModel(script(`{"expect": {"tools_include": ["terminal", "clarify"]}, "content": "x"}`))
      expect((yield* Effect.flip(noTools.complete({ ...user("q"), tools }))).message).toContain("expected the tools offered to include clarify")
    }))

  it.effect("when: turns whose condition does not hold are skipped, so one script can serve a parent and its subagent", () =>
    Effect.gen(function*() {
      const model = yield* makeScriptedModel(script([
        `{"when": {"first_user_contains": "PARENT"}, "tool_calls": [{"name": "delegate_task", "arguments": {"goal": "CHILD: count files"}}]}`,
        `{"when": {"first_user_contains": "CHILD"}, "content": "child: 3 files"}`,
        `{"when": {"first_user_contains": "PARENT"}, "content": "parent: the child found 3 files"}`
      ].join("\n")))
      const parent = yield* model.complete(user("PARENT: how many files?", "s-parent"))
      expect(parent.message.tool_calls?.[0]?.function.name).toBe("delegate_task")
      const child = yield* model.complete(user("CHILD: count files", "s-child"))
      expect(child.message.content).toBe("child: 3 files")
      const final = yield* model.complete(withTool(user("PARENT: how many files?", "s-parent"), "call_1_1", "3 files"))
      expect(final.message.content).toBe("parent: the child found 3 files")
    }))

  it.effect("repeat answers several requests with one turn; true answers every request from there on", () =>
    Effect.gen(function*() {
      const model = yield* makeScriptedModel({ turns: [{ content: "twice", repeat: 2 }, { tool_calls: [{ name: "todo" }], repeat: true }] })
      const answers = yield* Effect.forEach([1, 2, 3, 4, 5], () => model.complete(user("q")))
      expect(answers.map((a) => a.message.content)).toEqual(["twice", "twice", null, null, null])
      expect(answers.slice(2).map((a) => a.message.tool_calls?.[0]?.id)).toEqual(["call_3_1", "call_4_1", "call_5_1"])
      expect(answers[4]!.message.tool_calls?.[0]?.function.arguments).toBe("{}")
    }))

  it.effect("each session replays the script from the top; cursor: shared makes all callers advance one position", () =>
    Effect.gen(function*() {
      const source = { turns: ["one", "two"] }
      const perSession = yield* makeScriptedModel(source)
      const a = yield* Effect.forEach(["a", "b", "a", "b"], (s) => perSession.complete(user("q", s)), { concurrency: "unbounded" })
      expect(a.map((r) => r.message.content)).toEqual(["one", "one", "two", "two"])
      const shared = yield* makeScriptedModel(source, { cursor: "shared" })
      const b = yield* Effect.forEach(["a", "b"], (s) => shared.complete(user("q", s)))
      expect(b.map((r) => r.message.content)).toEqual(["one", "two"])
      const exhausted = yield* Effect.flip(perSession.complete(user("q", "a")))
      expect(exhausted.message).toContain("for session 'a'")
    }))

  it.effect("invalid scripts are reported with the line and the problem on the first call", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<[string, RegExp]> = [
        [`"ok"\n{"content": "x",}`, /^Model script test\.jsonl:2: not valid JSON/],
        [`{"contnet": "typo"}`, /^Model script test\.jsonl:1: contnet: is unexpected/],
        [`{"tool_calls": [{"arguments": {}}]}`, /^Model script test\.jsonl:1: tool_calls\.0\.name: is missing/],
        [`{"content": "abc", "chunks": ["a", "b"]}`, /^Model script test\.jsonl:1: chunks do not join to content$/],
        [`{"error": {"type": "meltdown"}}`, /^Model script test\.jsonl:1: error\.type: Expected "rate_limit"/]
      ]
      for (const [text, pattern] of cases) {
        const model = yield* makeScriptedModel(script(text))
        const error = yield* Effect.flip(model.complete(user("q")))
        expect(error).toMatchObject({ _tag: "ModelScriptError", reason: "invalid" })
        expect(error.message).toMatch(pattern)
      }
      const missing = yield* makeScriptedModel({ file: "/definitely/not/here.jsonl" })
      expect((yield* Effect.flip(missing.complete(user("q")))).message).toMatch(/^Model script \/definitely\/not\/here\.jsonl: cannot read the script: ENOENT/)
    }))

  it.effect("injected failures surface as the provider errors the loop must handle", () =>
    Effect.gen(function*() {
      const model = yield* makeScriptedModel({
        turns: [{ error: { type: "rate_limit" } }, { error: { type: "auth", message: "key revoked" } }, { error: { type: "bad_response" } }, "fine"]
      })
      const errors = yield* Effect.forEach([1, 2, 3], () => Effect.flip(model.complete(user("q"))))
      expect(errors.map((e) => e._tag)).toEqual(["ModelHttpError", "ModelAuthFailed", "ModelBadResponse"])
      expect(errors[0]).toMatchObject({ status: 429 })
      expect(errors[1]!.message).toContain("key revoked")
      const network = yield* makeScriptedModel({ turns: [{ error: { type: "network", message: "connection reset" } }] })
      const streamed = yield* Effect.flip(Stream.runDrain(network.stream(user("q"))))
      expect(streamed).toMatchObject({ _tag: "ModelNetworkError", detail: "connection reset" })
      expect((yield* model.complete(user("q"))).message.content).toBe("fine")
    }))

  it.effect("delay_ms waits on the Clock, and the wait can be interrupted", () =>
    Effect.gen(function*() {
      const model = yield* makeScriptedModel({ turns: [{ content: "slow", delay_ms: 5_000 }, { content: "never", delay_ms: 5_000 }] })
      const fiber = yield* Effect.fork(model.complete(user("q")))
      const now = yield* TestClock.currentTimeMillis
      while (!Chunk.toReadonlyArray(yield* TestClock.sleeps()).includes(now + 5_000)) {
        yield* Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 2)))
      }
      yield* TestClock.adjust(4_999)
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust(1)
      expect((yield* Fiber.join(fiber)).message.content).toBe("slow")
      const interrupted = yield* Effect.fork(Stream.runDrain(model.stream(user("q"))))
      yield* TestClock.adjust(1_000)
      yield* Fiber.interrupt(interrupted)
      expect((yield* Fiber.await(interrupted))._tag).toBe("Failure")
    }))

  it.effect("onRequest sees each request with the line that answered it", () =>
    Effect.gen(function*() {
      const seen: Array<[number, number | undefined]> = []
      const model = yield* makeScriptedModel(script(`"a"\n\n"b"`), { onRequest: (r, line) => seen.push([r.messages.length, line]) })
      yield* model.complete(user("q"))
      yield* model.complete(withTool(user("q"), "x", "y"))
      expect(seen).toEqual([[2, 1], [3, 3]])
    }))
})

describe("model from config", () => {
  const dir = mkdtempSync(join(tmpdir(), "hermes-model-script-"))
  const file = join(dir, "demo.jsonl")
  writeFileSync(file, `{"content": "hello from the script"}\n`)

  it.effect("model.provider: scripted with model.script replays the file", () =>
    Effect.gen(function*() {
      const model = yield* Model
      expect(model.provider).toBe("scripted")
      expect((yield* model.complete(user("hi"))).message.content).toBe("hello from the script")
    }).pipe(Effect.provide(testRuntime({ model: { provider: "scripted", script: file } }))))

  it.effect("with no model section every call says what to configure", () =>
    Effect.gen(function*() {
      const model = yield* Model
      expect(model.provider).toBe("none")
      const error = yield* Effect.flip(model.complete(user("hi")))
      expect(error._tag).toBe("ModelNotConfigured")
      expect(error.message).toBe(
        "No model configured: config.yaml has no model section; set model.provider, model.name, model.base_url and model.api_key_env in config.yaml (or model.provider: scripted with model.script: <file.jsonl>)"
      )
      expect((yield* Effect.flip(Stream.runDrain(model.stream(user("hi")))))._tag).toBe("ModelNotConfigured")
    }).pipe(Effect.provide(testRuntime())))

  it.effect("the runtime's model option replaces the configured one", () =>
    Effect.gen(function*() {
      expect((yield* (yield* Model).complete(user("hi"))).message.content).toBe("from the option")
    }).pipe(Effect.provide(testRuntime({ model: "gpt-4o" }, { model: ModelScripted({ turns: ["from the option"] }) as Layer.Layer<Model> }))))
})
