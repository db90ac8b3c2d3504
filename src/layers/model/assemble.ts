/**
 * Deltas → one response. Tool-call fragments are joined by index: the first
 * id and name seen for an index win (some servers repeat them on every
 * fragment), arguments are concatenated in arrival order.
 */
import { Effect, Stream } from "effect"
import type { FinishReason, ModelDelta, ModelError, ModelResponse, ToolCallRequest, Usage } from "../../services/Model.js"
import { ModelDelta as Delta } from "../../services/Model.js"

interface PendingCall {
  id: string | undefined
  name: string
  args: string
}

export interface Assembler {
  readonly add: (delta: ModelDelta) => void
  /** Set the reported model once known (streams name it per chunk). */
  readonly setModel: (model: string) => void
  readonly response: () => ModelResponse
}

export const makeAssembler = (requestedModel: string): Assembler => {
  let text = ""
  let reasoning = ""
  let finish: FinishReason | undefined
  let usage: Usage | undefined
  let model = requestedModel
  const calls = new Map<number, PendingCall>()
  return {
    add: (delta) => {
      switch (delta._tag) {
        case "TextDelta":
          text += delta.text
          return
        case "ReasoningDelta":
          reasoning += delta.text
          return
        case "ToolCallDelta": {
          const call = calls.get(delta.index) ?? { id: undefined, name: "", args: "" }
          if (call.id === undefined && delta.id !== undefined) call.id = delta.id
          if (call.name.length === 0 && delta.name !== undefined) call.name = delta.name
          call.args += delta.arguments
          calls.set(delta.index, call)
          return
        }
        case "FinishDelta":
          finish = delta.reason
          return
        case "UsageDelta":
          usage = delta.usage
          return
        case "Done":
          return
      }
    },
    setModel: (m) => {
      model = m
    },
    response: () => {
      const toolCalls: Array<ToolCallRequest> = [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({ id: call.id ?? `call_${index}`, type: "function", function: { name: call.name, arguments: call.args } }))
      return {
        message: {
          role: "assistant",
          content: text.length > 0 ? text : toolCalls.length > 0 ? null : "",
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...(reasoning.length > 0 ? { reasoning } : {})
        },
        finishReason: finish ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
        usage,
        model
      }
    }
  }
}

/** Pass deltas through and append `Done` with the assembled response. */
export const withDone = <R>(
  requestedModel: string,
  deltas: (assembler: Assembler) => Stream.Stream<ModelDelta, ModelError, R>
): Stream.Stream<ModelDelta, ModelError, R> =>
  Stream.suspend(() => {
    const assembler = makeAssembler(requestedModel)
    return deltas(assembler).pipe(
      Stream.tap((delta) => Effect.sync(() => assembler.add(delta))),
      Stream.concat(Stream.sync(() => Delta.Done({ response: assembler.response() })))
    )
  })

/** Run a stream to its `Done` and return the response (for callers that stream only to show progress). */
export const collectResponse = <E, R>(stream: Stream.Stream<ModelDelta, E, R>): Effect.Effect<ModelResponse, E, R> =>
  Effect.suspend(() => {
    const assembler = makeAssembler("")
    let done: ModelResponse | undefined
    return Stream.runForEach(stream, (delta) =>
      Effect.sync(() => {
        if (delta._tag === "Done") done = delta.response
        else assembler.add(delta)
      })).pipe(Effect.map(() => done ?? assembler.response()))
  })
