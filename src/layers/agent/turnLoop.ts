/**
 * One agent run: open the session, build the system prompt, then turn after
 * turn ask the model, run its tool calls as one batch and feed the results
 * back, until it answers without tools (`completed`), the iterations run out
 * (one last call without tools asks for a summary: `budget_exhausted`), or it
 * keeps sending calls that cannot run (`invalid_tool_calls`).
 *
 * Persistence goes through a write-behind journal (`journal.ts`): the system
 * prompt and the user message when the run starts, background-process news
 * when it is injected, each model turn together with its tool results; all
 * stored before the run returns. When the run is interrupted during a turn's
 * tools, the batch is interrupted (and with it every running tool) and the
 * turn is stored with the results that did arrive; the other calls are
 * recorded as interrupted.
 *
 * Background work (delegations, `background.ts`) lives in the run's scope.
 * Its reports enter the conversation as user messages before the next model
 * call; when the model answers while some are still owed, the run waits for
 * them and goes on with a new turn instead of returning, and before the last
 * summary of a spent budget it collects them all.
 */
import { Effect, Exit, Scope, Stream } from "effect"
import { AgentEvent, CurrentAgentRun, MAX_INVALID_TOOL_RETRIES, NonInteractiveApprovals } from "../../services/AgentLoop.js"
import type { AgentError, AgentRequest, AgentResult, AgentRunInfo, AgentStatus } from "../../services/AgentLoop.js"
import type { ConfigService, HermesConfig } from "../../services/Config.js"
import type { HooksService } from "../../services/Hooks.js"
import { ModelBadResponse } from "../../services/Model.js"
import type { AssistantMessage, ChatMessage, FinishReason, ModelRequest, ModelResponse, ModelService, ToolCallRequest, ToolMessage } from "../../services/Model.js"
import { SessionNotFound, SessionStoreError } from "../../services/SessionStore.js"
import type { NewMessage, Session, SessionStoreService, StoredMessage } from "../../services/SessionStore.js"
import type { ContentPart, ToolDefinitionJson } from "../../services/Tool.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import type { ToolExecutorService } from "../../services/ToolExecutor.js"
import type { ToolRegistryService } from "../../services/ToolRegistry.js"
import { assembleDefinitions, BRIDGE_TOOL_NAMES, contextLengthOf, toolSearchConfig } from "../../lib/toolSearch/index.js"
import { errorJson } from "../executor/sanitizeErrorMessage.js"
import { budgetWarning, stripBudgetWarnings, withBudgetWarning } from "./budget.js"
import type { CallWatch } from "./callWatch.js"
import { makeJournal } from "./journal.js"
import type { Windows } from "./journal.js"
import { fromStored, repairHistory, toNewMessage } from "./messages.js"
import type { Mailbox } from "./notifications.js"
import { notificationMessage } from "./notifications.js"
import { makeRunBackground } from "./background.js"
import { rejectTurn, withCallIds } from "./toolCalls.js"

export interface LoopDeps {
  readonly model: ModelService
  readonly registry: ToolRegistryService
  readonly executor: ToolExecutorService
  readonly store: SessionStoreService
  readonly hooks: HooksService
  readonly config: ConfigService
  readonly mailbox: Mailbox
  readonly calls: CallWatch
  /** Group-commit windows of every run's journal, timed by one fiber. */
  readonly windows: Windows
  readonly systemPrompt: (input: { readonly tools: ReadonlyArray<string>; readonly cwd: string | undefined; readonly extra: string | undefined }) => Effect.Effect<string>
}

/** What a tool call that was running when the run stopped answers. */
export const INTERRUPTED_RESULT = errorJson("Interrupted: the run was stopped before this tool call finished.")

/** The request for a last answer once the iterations are spent. */
export const budgetExhaustedPrompt = (max: number) =>
  `You have used all ${max} iterations available for this task, so no more tools can run. ` +
  "Reply now with your final answer: what you did, what you found, and what is left to do."

const positive = (value: number | undefined): number | undefined =>
  value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined

const storeError = (operation: string) => (e: { readonly message: string }) => new SessionStoreError({ operation, message: e.message })

interface Opened {
  readonly session: Session
  readonly history: ReadonlyArray<StoredMessage>
}

const openSession = (store: SessionStoreService, request: AgentRequest, model: string): Effect.Effect<Opened, SessionNotFound | SessionStoreError> => {
  const defaults = {
    source: request.source ?? "cli",
    parentSessionId: request.parentSessionId ?? null,
    cwd: request.cwd ?? null,
    model
  }
  const id = request.sessionId
  if (id === undefined) {
    return Effect.map(store.create(defaults).pipe(Effect.catchTag("SessionExists", (e) => Effect.fail(storeError("create")(e)))), (session) => ({ session, history: [] }))
  }
  return Effect.gen(function*() {
    const session = request.resume === true ? yield* store.get(id) : yield* store.ensure(id, defaults)
    const history = yield* store.history(id)
    return { session, history }
  })
}

/** Definitions offered in this run: the selection, minus exclusions, within `onlyTools`. */
const offeredDefinitions = (all: ReadonlyArray<ToolDefinitionJson>, request: AgentRequest): ReadonlyArray<ToolDefinitionJson> => {
  const only = request.onlyTools === undefined ? undefined : new Set(request.onlyTools)
  const excluded = new Set(request.excludeTools ?? [])
  if (only === undefined && excluded.size === 0) return all
  return all.filter((d) => !excluded.has(d.function.name) && (only === undefined || only.has(d.function.name)))
}

/** What a run offers the model, derived from its definitions and the config. */
interface Offer {
  readonly definitions: ReadonlyArray<ToolDefinitionJson>
  /** Names of the selected tools, sorted (the system prompt's view). */
  readonly names: ReadonlyArray<string>
  /** What may be called: the selection, plus the bridge when it is active. */
  readonly offered: ReadonlySet<string>
  readonly offeredNames: ReadonlyArray<string>
}

/**
 * Offers by definitions array: the registry memoizes its answer per selection
 * (a new array when tools or config change), so runs with the same toolsets
 * share one offer instead of sorting and sizing every definition again.
 */
const offers = new WeakMap<ReadonlyArray<ToolDefinitionJson>, { readonly cfg: HermesConfig; readonly offer: Offer }>()

const offerOf = (selected: ReadonlyArray<ToolDefinitionJson>, cfg: HermesConfig): Offer => {
  const hit = offers.get(selected)
  if (hit !== undefined && hit.cfg === cfg) return hit.offer
  const names = selected.map((d) => d.function.name).sort()
  // Many plugin/MCP tools: they go behind the tool-search bridge, which stays callable with them.
  const assembly = assembleDefinitions(selected, toolSearchConfig(cfg.tools.tool_search), contextLengthOf(cfg.model))
  const offered = new Set(assembly.activated ? [...names, ...BRIDGE_TOOL_NAMES] : names)
  const offer: Offer = { definitions: assembly.definitions, names, offered, offeredNames: [...offered].sort() }
  offers.set(selected, { cfg, offer })
  return offer
}

interface Outcome {
  readonly status: AgentStatus
  readonly response: string
  readonly finishReason: FinishReason
}

const outcome = (status: AgentStatus, response: string, finishReason: FinishReason): Outcome => ({ status, response, finishReason })

const usageOf = (response: ModelResponse) => ({
  inputTokens: response.usage?.promptTokens ?? 0,
  outputTokens: response.usage?.completionTokens ?? 0
})

/**
 * The run in a scope of its own, closed when it ends. Passed by hand rather than by `Effect.scoped`, whose
 * `provideContext` swaps the fiber's whole context in and out again (~20 run-loop steps a run); nothing in a run
 * takes the scope from its context.
 */
export const runAgent = (deps: LoopDeps, request: AgentRequest): Effect.Effect<AgentResult, AgentError> =>
  Effect.flatMap(Scope.make(), (runScope) => Effect.onExit(runIn(deps, request, runScope), (exit) => Scope.close(runScope, exit)))

const runIn = (deps: LoopDeps, request: AgentRequest, runScope: Scope.Scope): Effect.Effect<AgentResult, AgentError> =>
  Effect.gen(function*() {
    const cfg = yield* deps.config.current
    const emit = request.onEvent ?? (() => Effect.void)
    const maxIterations = positive(request.maxIterations) ?? cfg.agent.max_turns
    const depth = request.depth ?? 0
    const modelName = request.model ?? deps.model.model

    const { history, session } = yield* openSession(deps.store, request, modelName)
    const sessionId = session.id
    const taskId = request.taskId ?? sessionId
    const context: ToolCallContext = { taskId, sessionId, ...(request.cwd === undefined ? {} : { cwd: request.cwd }) }
    yield* emit(AgentEvent.SessionStarted({ sessionId, taskId, resumed: history.length > 0 }))

    const { definitions, names, offered, offeredNames } = offerOf(offeredDefinitions(yield* deps.registry.definitions(request.toolsets), request), cfg)

    const conversation: Array<ChatMessage> = repairHistory(stripBudgetWarnings(history.map(fromStored)))
    const opening: Array<NewMessage> = []
    if (!conversation.some((m) => m.role === "system")) {
      const content = request.systemPrompt ?? (yield* deps.systemPrompt({ tools: names, cwd: request.cwd, extra: cfg.agent.system_prompt }))
      conversation.unshift({ role: "system", content })
      // A session some other writer started keeps its history as is; the prompt is only sent.
      if (history.length === 0) opening.push({ role: "system", content })
    }
    const isFirstTurn = !conversation.some((m) => m.role === "user")
    const added = deps.hooks.has("pre_llm_call")
      ? yield* deps.hooks.preLlmCall({ userMessage: request.prompt, messages: [...conversation], isFirstTurn, model: modelName, context })
      : undefined
    const userText = added === undefined ? request.prompt : `${request.prompt}\n\n${added}`
    conversation.push(request.images === undefined || request.images.length === 0
      ? { role: "user", content: userText }
      : { role: "user", content: userText, content_parts: [{ type: "text", text: userText }, ...request.images.map((url) => ({ type: "image_url" as const, image_url: { url } }))] })
    opening.push({ role: "user", content: request.prompt })
    const journal = makeJournal(deps.store, sessionId, runScope, deps.windows)
    yield* journal.write(opening)

    // On the scope directly: `acquireRelease` would diff every fiber ref (the whole runtime context) twice on release.
    yield* Effect.uninterruptible(Effect.zipRight(deps.mailbox.open(sessionId, taskId, depth), Scope.addFinalizer(runScope, deps.mailbox.close(sessionId))))
    // Background units live in this run's scope: stopping the run stops them.
    const background = yield* makeRunBackground(runScope)

    // Outcomes of the current turn's calls as they finish (through the post_tool_call hook).
    let results = new Map<string, string>()
    let reported = new Set<string>()
    /** Content parts of this turn's multimodal results, by call id. */
    let multimodal = new Map<string, ReadonlyArray<ContentPart>>()
    let pending = new Map<string, ToolCallRequest>()
    const finished = (id: string, tool: string, status: "ok" | "error" | "blocked", result: string, durationMs: number) =>
      Effect.suspend(() => {
        results.set(id, result)
        if (reported.has(id)) return Effect.void
        reported.add(id)
        return emit(AgentEvent.ToolFinished({ toolCallId: id, tool, status, result, durationMs }))
      })
    yield* deps.calls.watch(sessionId, (event) => {
      const id = event.context.toolCallId
      return id !== undefined && pending.has(id) ? finished(id, event.tool, event.status, event.result, event.durationMs) : Effect.void
    }, runScope)

    let iterations = 0
    let toolCalls = 0
    let invalidStreak = 0
    let inputTokens = 0
    let outputTokens = 0

    const callModel = (tools: ReadonlyArray<ToolDefinitionJson> | undefined): Effect.Effect<ModelResponse, AgentError> => {
      const modelRequest: ModelRequest = {
        messages: [...conversation],
        ...(tools === undefined || tools.length === 0 ? {} : { tools }),
        ...(request.model === undefined ? {} : { model: request.model }),
        context
      }
      const answer = request.stream !== true ? deps.model.complete(modelRequest) : Effect.suspend(() => {
        let done: ModelResponse | undefined
        return Stream.runForEach(deps.model.stream(modelRequest), (delta) => {
          if (delta._tag === "TextDelta") return emit(AgentEvent.TextDelta({ text: delta.text }))
          if (delta._tag === "Done") done = delta.response
          return Effect.void
        }).pipe(Effect.flatMap(() =>
          done === undefined ? Effect.fail(new ModelBadResponse({ url: deps.model.provider, detail: "the stream ended without a response" })) : Effect.succeed(done)
        ))
      })
      return Effect.map(answer, (response) => {
        iterations++
        const usage = usageOf(response)
        inputTokens += usage.inputTokens
        outputTokens += usage.outputTokens
        return response
      })
    }

    const injectReports = (reports: ReadonlyArray<string>) =>
      // Checked before every model call, and almost always empty: no loop to set up then.
      reports.length === 0 ? Effect.void : Effect.forEach(reports, (content) =>
        Effect.gen(function*() {
          conversation.push({ role: "user", content })
          yield* journal.write([{ role: "user", content }])
          yield* emit(AgentEvent.Notice({ kind: "delegation", text: content }))
        }), { discard: true })

    const injectNotifications = Effect.gen(function*() {
      const news = yield* deps.mailbox.take(sessionId)
      if (news.length > 0) {
        const content = notificationMessage(news)
        conversation.push({ role: "user", content })
        yield* journal.write([{ role: "user", content }])
        yield* emit(AgentEvent.Notice({ kind: "process", text: content }))
      }
      yield* injectReports(yield* background.take)
    })

    /** Background work still owes a report: wait for the next one(s) and put them in the conversation. */
    const awaitReports = Effect.gen(function*() {
      if ((yield* background.pending) === 0) return false
      yield* injectReports(yield* background.next)
      return true
    })

    /** The turn's tool messages, in the model's order, from whatever is known now. */
    const toolMessages = (calls: ReadonlyArray<ToolCallRequest>): Array<ToolMessage> =>
      calls.map((c) => {
        const parts = multimodal.get(c.id)
        const message: ToolMessage = { role: "tool", tool_call_id: c.id, name: c.function.name, content: results.get(c.id) ?? INTERRUPTED_RESULT }
        return parts === undefined ? message : { ...message, content_parts: parts }
      })

    const runTools = (assistant: AssistantMessage, calls: ReadonlyArray<ToolCallRequest>, usage: { inputTokens: number; outputTokens: number }) =>
      Effect.gen(function*() {
        results = new Map()
        multimodal = new Map()
        reported = new Set()
        pending = new Map()
        let rejected = 0
        const valid: Array<ToolCallRequest> = []
        for (const call of calls) yield* emit(AgentEvent.ToolStarted({ call }))
        const answers = rejectTurn(calls, offered, offeredNames)
        for (const call of calls) {
          const answer = answers.get(call.id)
          if (answer === undefined) {
            valid.push(call)
            pending.set(call.id, call)
            continue
          }
          rejected++
          yield* emit(AgentEvent.Notice({ kind: "invalid_tool_call", text: answer }))
          yield* finished(call.id, call.function.name, "error", answer, 0)
        }
        if (valid.length > 0) {
          const outcomes = yield* deps.executor.executeBatch(
            valid.map((c) => ({ tool: c.function.name, args: c.function.arguments.trim().length === 0 ? "{}" : c.function.arguments, toolCallId: c.id })),
            { context, allowed: offered }
          )
          for (const [i, o] of outcomes.entries()) {
            if (o.parts !== undefined) multimodal.set(valid[i]!.id, o.parts)
            yield* finished(valid[i]!.id, o.tool, o.status, o.result, o.durationMs)
          }
        }
        return { messages: toolMessages(calls), rejected }
      }).pipe(
        // Keep what finished; the batch was interrupted with us, so nothing is still running.
        Effect.onInterrupt(() =>
          journal.write([toNewMessage(assistant), ...toolMessages(calls).map(toNewMessage)], usage).pipe(
            Effect.zipRight(journal.flush),
            Effect.catchAll((e) => Effect.logWarning(`agent loop: could not store the interrupted turn: ${e.message}`))
          )
        )
      )

    const loop = Effect.gen(function*() {
      while (true) {
        if (iterations >= maxIterations) {
          // The last answer should know what the children found.
          while (yield* awaitReports) { /* every report in before the summary */ }
          const ask: ChatMessage = { role: "user", content: budgetExhaustedPrompt(maxIterations) }
          conversation.push(ask)
          yield* journal.write([toNewMessage(ask)])
          const response = yield* callModel(undefined)
          // No tools are offered; whatever calls the model still sends are dropped.
          const answer: AssistantMessage = { role: "assistant", content: response.message.content ?? "" }
          conversation.push(answer)
          yield* emit(AgentEvent.ModelResponded({ iteration: iterations, message: answer }))
          yield* journal.write([toNewMessage(answer)], usageOf(response))
          return outcome("budget_exhausted", answer.content ?? "", response.finishReason)
        }
        yield* injectNotifications
        const response = yield* callModel(definitions)
        const usage = usageOf(response)
        const calls = withCallIds(response.message.tool_calls ?? [], iterations)
        const assistant: AssistantMessage = calls.length > 0 ? { ...response.message, tool_calls: calls } : response.message
        conversation.push(assistant)
        yield* emit(AgentEvent.ModelResponded({ iteration: iterations, message: assistant }))
        if (calls.length === 0) {
          yield* journal.write([toNewMessage(assistant)], usage)
          // Children still running: their reports start the next turns (Hermes delivers them once the agent is idle).
          if (yield* awaitReports) continue
          return outcome("completed", assistant.content ?? "", response.finishReason)
        }
        toolCalls += calls.length
        const turn = yield* runTools(assistant, calls, usage)
        invalidStreak = turn.rejected > 0 ? invalidStreak + 1 : 0
        const warning = budgetWarning(iterations, maxIterations)
        const last = turn.messages[turn.messages.length - 1]
        if (warning !== undefined && last !== undefined) {
          const parts = last.content_parts === undefined ? {} : { content_parts: [...last.content_parts, { type: "text" as const, text: warning }] }
          turn.messages[turn.messages.length - 1] = { ...last, content: withBudgetWarning(last.content, warning), ...parts }
          yield* emit(AgentEvent.Notice({ kind: "budget", text: warning }))
        }
        conversation.push(...turn.messages)
        yield* journal.write([toNewMessage(assistant), ...turn.messages.map(toNewMessage)], usage)
        if (invalidStreak > MAX_INVALID_TOOL_RETRIES) {
          return outcome("invalid_tool_calls", assistant.content ?? "", response.finishReason)
        }
      }
    })

    const info: AgentRunInfo = {
      sessionId,
      taskId,
      cwd: request.cwd,
      depth,
      tools: names,
      toolsets: request.toolsets,
      model: request.model,
      background: background.work
    }
    const scoped = Effect.locally(loop, CurrentAgentRun, info)
    const ended = yield* (request.nonInteractive === true ? Effect.locally(scoped, NonInteractiveApprovals, true) : scoped).pipe(
      // Failed or interrupted: what was handed over still gets stored (a model error keeps the turns before it).
      Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.ignore(journal.flush)))
    )
    yield* journal.flush

    if (deps.hooks.has("post_llm_call")) {
      yield* deps.hooks.postLlmCall({
        userMessage: request.prompt,
        assistantResponse: ended.response,
        messages: [...conversation],
        model: modelName,
        context
      })
    }
    return {
      sessionId,
      taskId,
      status: ended.status,
      finishReason: ended.finishReason,
      response: ended.response,
      iterations,
      toolCalls,
      usage: { inputTokens, outputTokens },
      messages: conversation
    } satisfies AgentResult
  })
