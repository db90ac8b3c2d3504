/**
 * The scripted provider: answers with the turns of a script (see `script.ts`)
 * instead of asking a model. Used by tests, the offline demo and replays.
 *
 * Each session (`request.context.sessionId`) keeps its own position in the
 * script, so a batch of prompts can replay one script concurrently and
 * deterministically; `cursor: "shared"` makes every caller advance one
 * position instead. The script is read on first use, so a missing file is
 * reported by the first call (as `ModelScriptError`), never at startup.
 */
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { Effect, Either, Layer, Stream } from "effect"
import {
  Model,
  ModelAuthFailed,
  ModelBadResponse,
  ModelDelta,
  ModelHttpError,
  ModelNetworkError,
  ModelScriptError,
  ModelTimeout
} from "../../services/Model.js"
import type { ModelError, ModelRequest, ModelResponse, ModelService, ToolCallRequest } from "../../services/Model.js"
import { compileTurns, parseScript, unmetCondition } from "./script.js"
import type { CompiledTurn, ScriptProblem, ScriptTurn, ScriptTurnInput } from "./script.js"

export type ScriptSource =
  | { readonly file: string }
  | { readonly text: string; readonly name?: string | undefined }
  | { readonly turns: ReadonlyArray<ScriptTurnInput | string>; readonly name?: string | undefined }

export interface ScriptedOptions {
  /** `session` (default): one position per session id; `shared`: one position for everyone. */
  readonly cursor?: "session" | "shared" | undefined
  /** The model name responses report (default "scripted"). */
  readonly model?: string | undefined
  /** Sees every request with the line that answered it (for test assertions). */
  readonly onRequest?: ((request: ModelRequest, line: number | undefined) => void) | undefined
}

interface Picked {
  readonly compiled: CompiledTurn
  readonly served: number
}

interface Answer {
  readonly turn: ScriptTurn
  readonly response: ModelResponse
}

interface Position {
  index: number
  /** How many requests the turn at `index` has answered (for `repeat`). */
  used: number
  /** Turns served to this key; numbers the generated tool-call ids. */
  served: number
}

const SCRIPT_URL = "script"

const sourceName = (source: ScriptSource) =>
  "file" in source ? source.file : source.name ?? "<inline>"

const load = (source: ScriptSource): Either.Either<ReadonlyArray<CompiledTurn>, ScriptProblem> => {
  if ("turns" in source) return compileTurns(source.turns)
  if ("text" in source) return parseScript(source.text)
  try {
    return parseScript(readFileSync(resolve(source.file), "utf8"))
  } catch (e) {
    return Either.left({ line: undefined, detail: `cannot read the script: ${e instanceof Error ? e.message : String(e)}` })
  }
}

const injected = (failure: NonNullable<ScriptTurn["error"]>): ModelError => {
  const detail = failure.message ?? `scripted ${failure.type.replace("_", " ")}`
  switch (failure.type) {
    case "rate_limit":
      return new ModelHttpError({ status: 429, url: SCRIPT_URL, detail, attempts: 1 })
    case "server_error":
      return new ModelHttpError({ status: 500, url: SCRIPT_URL, detail, attempts: 1 })
    case "auth":
      return new ModelAuthFailed({ status: 401, url: SCRIPT_URL, detail })
    case "bad_response":
      return new ModelBadResponse({ url: SCRIPT_URL, detail })
    case "network":
      return new ModelNetworkError({ url: SCRIPT_URL, detail, attempts: 1 })
    case "timeout":
      return new ModelTimeout({ url: SCRIPT_URL, seconds: 0, attempts: 1 })
  }
}

const toolCallsOf = (turn: ScriptTurn, served: number): Array<ToolCallRequest> =>
  (turn.tool_calls ?? []).map((call, i) => ({
    id: call.id ?? `call_${served}_${i + 1}`,
    type: "function",
    function: {
      name: call.name,
      arguments: call.arguments === undefined ? "{}" : typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments)
    }
  }))

const responseOf = (turn: ScriptTurn, served: number, model: string): ModelResponse => {
  const calls = toolCallsOf(turn, served)
  const text = turn.content ?? (turn.chunks === undefined ? undefined : turn.chunks.join(""))
  const prompt = turn.usage?.prompt_tokens ?? 0
  const completion = turn.usage?.completion_tokens ?? 0
  return {
    message: {
      role: "assistant",
      content: text ?? (calls.length > 0 ? null : ""),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      ...(turn.reasoning !== undefined ? { reasoning: turn.reasoning } : {})
    },
    finishReason: turn.finish_reason ?? (calls.length > 0 ? "tool_calls" : "stop"),
    usage: turn.usage === undefined ? undefined : { promptTokens: prompt, completionTokens: completion, totalTokens: turn.usage.total_tokens ?? prompt + completion },
    model: turn.model ?? model,
    id: `scripted-${served}`
  }
}

/** The stream a real provider would send for this response: text in chunks, each call in two fragments. */
const deltasOf = (turn: ScriptTurn, response: ModelResponse): Array<ModelDelta> => {
  const out: Array<ModelDelta> = []
  const message = response.message
  if (message.reasoning !== undefined) out.push(ModelDelta.ReasoningDelta({ text: message.reasoning }))
  const chunks = turn.chunks ?? (message.content === null || message.content.length === 0 ? [] : [message.content])
  for (const text of chunks) if (text.length > 0) out.push(ModelDelta.TextDelta({ text }))
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    const args = call.function.arguments
    const cut = Math.ceil(args.length / 2)
    out.push(ModelDelta.ToolCallDelta({ index, id: call.id, name: call.function.name, arguments: args.slice(0, cut) }))
    if (cut < args.length) out.push(ModelDelta.ToolCallDelta({ index, arguments: args.slice(cut) }))
  }
  out.push(ModelDelta.FinishDelta({ reason: response.finishReason }))
  if (response.usage !== undefined) out.push(ModelDelta.UsageDelta({ usage: response.usage }))
  out.push(ModelDelta.Done({ response }))
  return out
}

export const makeScriptedModel = (source: ScriptSource, options: ScriptedOptions = {}): Effect.Effect<ModelService> =>
  Effect.gen(function*() {
    const name = sourceName(source)
    const model = options.model ?? "scripted"
    const shared = options.cursor === "shared"
    // Loaded once, on the first request (a problem is then every request's answer). A plain memo: `Effect.cached`
    // takes a lock and diffs fiber refs on every read, ~30 run-loop steps a model call.
    let loaded: Effect.Effect<ReadonlyArray<CompiledTurn>, ModelScriptError> | undefined
    const script = Effect.suspend(() =>
      loaded ??= Either.match(load(source), {
        onLeft: (problem) => Effect.fail(new ModelScriptError({ reason: "invalid", source: name, line: problem.line, detail: problem.detail })),
        onRight: Effect.succeed
      })
    )
    const positions = new Map<string, Position>()

    /** Pick (and consume) the turn that answers this request. Synchronous, so concurrent callers never share a turn. */
    const next = (turns: ReadonlyArray<CompiledTurn>, request: ModelRequest): Either.Either<Picked, ModelScriptError> => {
      const key = shared ? "" : request.context?.sessionId ?? request.context?.taskId ?? ""
      let position = positions.get(key)
      if (position === undefined) {
        position = { index: 0, used: 0, served: 0 }
        positions.set(key, position)
      }
      while (position.index < turns.length) {
        const compiled = turns[position.index]!
        const turn = compiled.turn
        if (turn.when !== undefined && unmetCondition(turn.when, request) !== undefined) {
          position.index++
          position.used = 0
          continue
        }
        position.used++
        if (turn.repeat !== true && position.used >= (turn.repeat ?? 1)) {
          position.index++
          position.used = 0
        }
        position.served++
        return Either.right({ compiled, served: position.served })
      }
      const who = key.length === 0 ? "" : ` for session '${key}'`
      const lastLine = turns.length === 0 ? undefined : turns[turns.length - 1]!.line
      return Either.left(new ModelScriptError({
        reason: "exhausted",
        source: name,
        line: lastLine,
        detail: `no turn left to answer request ${position.served + 1}${who} (the script has ${turns.length} turns)`
      }))
    }

    /** The chosen turn after its checks, delay and injected failure; plain values on the common path. */
    const answer = (request: ModelRequest): Effect.Effect<Answer, ModelError> =>
      Effect.flatMap(script, (turns) => {
        const picked = next(turns, request)
        if (Either.isLeft(picked)) return Effect.fail(picked.left)
        const { compiled, served } = picked.right
        options.onRequest?.(request, compiled.line)
        const turn = compiled.turn
        const unmet = turn.expect === undefined ? undefined : unmetCondition(turn.expect, request)
        if (unmet !== undefined) return Effect.fail(new ModelScriptError({ reason: "mismatch", source: name, line: compiled.line, detail: unmet }))
        const result: Effect.Effect<Answer, ModelError> = turn.error !== undefined
          ? Effect.fail(injected(turn.error))
          : Effect.succeed({ turn, response: responseOf(turn, served, request.model ?? model) })
        return turn.delay_ms !== undefined && turn.delay_ms > 0 ? Effect.zipRight(Effect.sleep(turn.delay_ms), result) : result
      })

    return {
      provider: "scripted",
      model,
      complete: (request) => Effect.map(answer(request), (a) => a.response),
      stream: (request) => Stream.flatMap(Stream.fromEffect(answer(request)), (a) => Stream.fromIterable(deltasOf(a.turn, a.response)))
    } satisfies ModelService
  })

export const ModelScripted = (source: ScriptSource, options?: ScriptedOptions): Layer.Layer<Model> =>
  Layer.effect(Model, makeScriptedModel(source, options))
