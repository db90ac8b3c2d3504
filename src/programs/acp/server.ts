/**
 * The ACP server: an `agent()` app from @agentclientprotocol/sdk whose
 * handlers compose our services. Each ACP session is a state.db session
 * (source `acp`); its cwd is the working directory of its terminal
 * environment and of relative file paths (task id = session id). A prompt
 * runs `AgentLoop` in its own fiber and streams what happens as session
 * updates; `session/cancel` interrupts that fiber (model stream, tools and
 * the processes they started).
 */
import { randomUUID } from "node:crypto"
import { realpathSync } from "node:fs"
import { basename } from "node:path"
import { Readable, Writable } from "node:stream"
import { agent, methods, ndJsonStream, RequestError } from "@agentclientprotocol/sdk/unstable"
import type { AgentContext, AnyMessage, McpServer, PermissionOption, PromptResponse, RequestPermissionRequest, SessionUpdate, StopReason, Stream, ToolCallContent } from "@agentclientprotocol/sdk/unstable"
import { Cause, Effect, ExecutionStrategy, Exit, Fiber, Option, Runtime, Scope } from "effect"
import { mcpToolset } from "../../layers/mcp/names.js"
import { AgentLoop } from "../../services/AgentLoop.js"
import type { AgentEvent, AgentResult } from "../../services/AgentLoop.js"
import type { ApprovalPrompt, ApproverAnswer } from "../../services/Approver.js"
import { Mcp } from "../../services/Mcp.js"
import type { McpScopedServer } from "../../services/Mcp.js"
import { Model } from "../../services/Model.js"
import { SessionStore } from "../../services/SessionStore.js"
import type { StoredMessage } from "../../services/SessionStore.js"
import type { PromptInput } from "./prompt.js"
import { Shell } from "../../services/Shell.js"
import { ToolRegistry } from "../../services/ToolRegistry.js"
import { AcpTurnSession } from "./approver.js"
import type { Askers, PermissionAsker } from "./approver.js"
import { ACP_EDIT_KEY, editAllowed, isEditMode, modeState } from "./editModes.js"
import type { EditMode } from "./editModes.js"
import { takeHandover } from "./handoff.js"
import { parseSlash, runSlash, SLASH_COMMANDS } from "./slashCommands.js"
import { initializeResult } from "./initialize.js"
import { MODEL_CONFIG_ID, modelConfigOptions, offeredModels } from "./models.js"
import { promptContent } from "./prompt.js"
import { completionContent, failedResult, kindOf, locationsOf, parseArgs, planOf, startContent, titleOf } from "./render.js"

export const ACP_SOURCE = "acp"
export const ACP_TOOLSET = "hermes-acp"
const LIST_PAGE = 50

export type { Askers, PermissionAsker } from "./approver.js"

export interface AcpServerOptions {
  readonly name: string
  readonly version: string
  readonly askers: Askers
  /** Toolsets offered in every session: `hermes-acp` plus the configured MCP servers' (default `hermes-acp`). */
  readonly toolsets?: ReadonlyArray<string> | undefined
  /** Seconds to wait for the client's permission answer before denying. */
  readonly approvalTimeoutSeconds: number
  /** Other model names a session may switch to (config `model.choices`), beside the configured one. */
  readonly modelChoices?: ReadonlyArray<string> | undefined
  /** The configured model accepts images (config `model.vision`): image prompts are offered and passed on. */
  readonly vision?: boolean | undefined
}

interface LiveSession {
  readonly id: string
  cwd: string
  /** The model this session's turns use (undefined = the configured one). */
  model: string | undefined
  /** How much file editing is asked about (editModes.ts); not stored: a restored session starts in `default`. */
  mode: EditMode
  /** The cwd and its real path: edits there pass in `accept_edits` mode. */
  roots: ReadonlyArray<string>
  /** Calls whose edit was approved (a call may write several paths, or a link and its target). */
  /** Edits the editor's user allowed, by tool call id, then path: one yes covers that file in that call, no other. */
  readonly approvedEdits: Map<string, Set<string>>
  /** The cwd has been applied to the session's terminal environment in this process. */
  bound: boolean
  turn: Fiber.RuntimeFiber<AgentResult, unknown> | undefined
  /** Prompts of one session run one after another. */
  tail: Promise<unknown>
  /** The client's MCP servers for this session: their toolsets once connected; closing the scope stops them. */
  mcp: { readonly scope: Scope.CloseableScope; readonly toolsets: Fiber.RuntimeFiber<ReadonlyArray<string>> } | undefined
  /** Running write_file / patch calls by id: what an edit approval shows (the diff computed before the write). */
  readonly edits: Map<string, EditCall>
}

interface EditCall {
  readonly tool: string
  readonly args: Record<string, unknown>
  readonly content: ReadonlyArray<ToolCallContent>
}

const EDIT_TOOLS = new Set(["write_file", "patch"])

type Services = AgentLoop | Mcp | Model | SessionStore | Shell | ToolRegistry

/** The folder as given and with its links resolved. */
const rootsOf = (cwd: string): ReadonlyArray<string> => {
  try {
    const real = realpathSync(cwd)
    return real === cwd ? [cwd] : [cwd, real]
  } catch {
    return [cwd]
  }
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`


/** An ACP MCP server as ours (SSE is not offered: `mcpCapabilities.sse` is false). */
const scopedServer = (server: McpServer): ReadonlyArray<McpScopedServer> => {
  if ("type" in server) {
    if (server.type !== "http") return []
    return [{ name: server.name, transport: { kind: "http", url: server.url, headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) } }]
  }
  return [{ name: server.name, transport: { kind: "stdio", command: server.command, args: server.args, env: Object.fromEntries(server.env.map((e) => [e.name, e.value])) } }]
}

/** How a finished turn ended, for the client: the iteration budget, the model's token cap or its content filter. */
export const stopReasonOf = (result: Pick<AgentResult, "status" | "finishReason">): StopReason => {
  if (result.status === "budget_exhausted") return "max_turn_requests"
  if (result.finishReason === "length") return "max_tokens"
  if (result.finishReason === "content_filter") return "refusal"
  return "end_turn"
}

const finished = (result: AgentResult): PromptResponse => ({
  stopReason: stopReasonOf(result),
  usage: {
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    totalTokens: result.usage.inputTokens + result.usage.outputTokens
  }
})

const chunk = (kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk", text: string): SessionUpdate => ({
  sessionUpdate: kind,
  content: { type: "text", text }
})

export const makeAcpServer = (options: AcpServerOptions) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<Services>()
    const run = Runtime.runPromise(runtime)
    const fork = Runtime.runFork(runtime)
    const store = yield* SessionStore
    const model = yield* Model
    // The configured model provider is the only auth method ("none" = nothing usable configured).
    const provider = model.provider === "none" ? undefined : model.provider
    const vision = options.vision === true
    const models = offeredModels(model.model, options.modelChoices)
    /** The session's config options: the model picker (none when no model is configured). */
    const configOptions = (session: LiveSession) => (provider === undefined ? [] : modelConfigOptions(session.model ?? model.model, models))
    const registry = yield* ToolRegistry
    const sessions = new Map<string, LiveSession>()
    let mcpSettled = false
    // Sessions' MCP scopes hang off the server's scope, so they close when the connection ends.
    const root = yield* Effect.scope

    const live = (id: string, cwd: string, chosen?: string | null): LiveSession => {
      const session: LiveSession = { id, cwd, model: undefined, mode: "default", roots: rootsOf(cwd), approvedEdits: new Map(), bound: false, turn: undefined, tail: Promise.resolve(), mcp: undefined, edits: new Map() }
      // A model no longer on offer (config changed) falls back to the configured one.
      if (chosen !== undefined && chosen !== null && models.includes(chosen)) session.model = chosen
      sessions.set(id, session)
      return session
    }

    /**
     * Connect the client's MCP servers for this session in the background (a turn waits for them), replacing the
     * previous set (load / resume pass them again); servers in both sets stay connected.
     */
    const attachMcp = async (session: LiveSession, servers: ReadonlyArray<McpServer>) => {
      const previous = session.mcp
      if (servers.length === 0 && previous === undefined) return
      const scope = await run(Scope.fork(root, ExecutionStrategy.sequential))
      const connect = Effect.flatMap(Mcp, (mcp) => mcp.connectScoped(servers.flatMap(scopedServer))).pipe(
        Scope.extend(scope),
        Effect.tap((statuses) =>
          Effect.forEach(statuses, (s) => (s.state === "connected" ? Effect.void : Effect.logWarning(`acp: MCP server '${s.name}' for session ${session.id}: ${s.error ?? s.state}`)), { discard: true })
        ),
        Effect.map((statuses) => statuses.map((s) => mcpToolset(s.name))),
        Effect.ensuring(previous === undefined ? Effect.void : closeMcp(previous))
      )
      session.mcp = { scope, toolsets: fork(connect) }
    }

    const closeMcp = (mcp: NonNullable<LiveSession["mcp"]>) => Effect.zipRight(Fiber.interrupt(mcp.toolsets), Scope.close(mcp.scope, Exit.void))

    /** In memory, else restored from state.db (only `acp` sessions); an unknown id is `-32002`. */
    const lookup = async (id: string): Promise<LiveSession> => {
      const known = sessions.get(id)
      if (known !== undefined) return known
      const stored = await run(Effect.either(store.get(id)))
      if (stored._tag === "Left" || stored.right.source !== ACP_SOURCE) throw RequestError.sessionNotFound(id)
      return live(id, stored.right.cwd ?? process.cwd(), stored.right.model)
    }

    const send = (client: AgentContext, sessionId: string, update: SessionUpdate) =>
      client.notify(methods.client.session.update, { sessionId, update }).catch(() => undefined)

    /** The session's terminal environment starts in its cwd (file tools resolve relative paths there too). */
    const bindCwd = (session: LiveSession) =>
      Effect.suspend(() => {
        if (session.bound) return Effect.void
        return Effect.flatMap(Shell, (shell) => shell.run({ taskId: session.id, sessionId: session.id, cwd: session.cwd }, `cd ${shellQuote(session.cwd)}`)).pipe(
          Effect.tap(() => Effect.sync(() => void (session.bound = true))),
          Effect.catchAll((e) => Effect.logWarning(`acp: cannot enter ${session.cwd}: ${String(e)}`))
        )
      })

    /**
     * A permission request for an approval of this session. A file write (planted-file protection: rc files, git
     * hooks …) asked during a write_file / patch call shows that call's diff as an edit approval.
     */
    const permissionRequest = (session: LiveSession, prompt: ApprovalPrompt): RequestPermissionRequest => {
      const toolCallId = prompt.context.toolCallId ?? `perm-${randomUUID()}`
      const edit = prompt.context.toolCallId === undefined ? undefined : session.edits.get(prompt.context.toolCallId)
      const tool = prompt.command.slice(0, Math.max(0, prompt.command.indexOf(" ")))
      if ((edit !== undefined && tool === edit.tool) || prompt.key === ACP_EDIT_KEY) {
        const path = prompt.command.slice(tool.length + 1)
        const patch = edit?.args["patch"]
        // A subagent's edit has no card of ours: it is shown as text.
        const content: Array<ToolCallContent> = edit !== undefined && edit.content.some((c) => c.type === "diff")
          ? [...edit.content]
          : typeof patch === "string"
          ? [{ type: "diff", path, oldText: null, newText: patch }]
          : [{ type: "content", content: { type: "text", text: `${prompt.description}\n${tool} ${path}` } }]
        const options: Array<PermissionOption> = [
          { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
          ...(prompt.allowPermanent ? [{ optionId: "allow_always", name: "Allow always", kind: "allow_always" as const }] : []),
          { optionId: "deny", name: "Reject", kind: "reject_once" }
        ]
        return {
          sessionId: session.id,
          toolCall: {
            toolCallId,
            title: `Approve edit: ${path} (${prompt.description})`,
            kind: "edit" as const,
            status: "pending" as const,
            content,
            rawInput: { tool, arguments: edit?.args ?? { path } }
          },
          options
        }
      }
      return {
        sessionId: session.id,
        toolCall: {
          toolCallId,
          title: `${prompt.description}: ${prompt.command}`,
          kind: "execute" as const,
          status: "pending" as const,
          content: [{ type: "content" as const, content: { type: "text" as const, text: `${prompt.description}\n$ ${prompt.command}` } }],
          rawInput: { command: prompt.command, description: prompt.description }
        },
        options: [
          { optionId: "allow_once", name: "Allow once", kind: "allow_once" as const },
          { optionId: "allow_session", name: "Allow for session", kind: "allow_always" as const },
          ...(prompt.allowPermanent ? [{ optionId: "allow_always", name: "Allow always", kind: "allow_always" as const }] : []),
          { optionId: "deny", name: "Deny", kind: "reject_once" as const }
        ]
      }
    }

    const askClient = (client: AgentContext, session: LiveSession, prompt: ApprovalPrompt): Effect.Effect<ApproverAnswer> =>
      Effect.tryPromise((signal) =>
        client.request(methods.client.session.requestPermission, permissionRequest(session, prompt), { cancellationSignal: signal })
      ).pipe(
        Effect.timeoutOption(options.approvalTimeoutSeconds * 1000),
        Effect.map((reply): ApproverAnswer => {
          if (Option.isNone(reply)) return { choice: "deny", via: "timeout" }
          const answer = reply.value
          if (answer.outcome.outcome !== "selected") return { choice: "deny", via: "human", reason: "the request was cancelled" }
          switch (answer.outcome.optionId) {
            case "allow_once":
              return { choice: "once", via: "human" }
            case "allow_session":
              return { choice: "session", via: "human" }
            case "allow_always":
              return { choice: prompt.allowPermanent ? "always" : "deny", via: "human" }
            default:
              return { choice: "deny", via: "human" }
          }
        }),
        // A client error is a no, as is no answer in time.
        Effect.catchAllCause(() => Effect.succeed<ApproverAnswer>({ choice: "deny", via: "callback", reason: "the editor could not answer" }))
      )

    const asker = (client: AgentContext, session: LiveSession): PermissionAsker => (prompt) => {
      if (prompt.key !== ACP_EDIT_KEY) return askClient(client, session, prompt)
      // An ordinary edit: the session's mode decides, else the editor's user (once per call).
      const callId = prompt.context.toolCallId
      const path = prompt.command.slice(prompt.command.indexOf(" ") + 1)
      // Keyed by path too: the model picks call ids, so a yes for one file must not carry over to another
      // file edited by the same call (a multi-file patch) or by a second call reusing the id.
      if ((callId !== undefined && session.approvedEdits.get(callId)?.has(path) === true) || editAllowed(session.mode, path, session.roots)) {
        return Effect.succeed<ApproverAnswer>({ choice: "once", via: "policy" })
      }
      return Effect.tap(askClient(client, session, prompt), (answer) =>
        Effect.sync(() => {
          if (answer.choice === "deny" || callId === undefined) return
          const paths = session.approvedEdits.get(callId) ?? new Set<string>()
          paths.add(path)
          session.approvedEdits.set(callId, paths)
        }))
    }

    /**
     * Session updates for one turn's events. The SDK writes messages in the order they are sent, so
     * updates go out without the loop waiting for each write; the prompt answers after all are written.
     */
    const onEvent = (client: AgentContext, session: LiveSession, outbox: Array<Promise<unknown>>) => {
      let streamed = false
      const post = (update: SessionUpdate) => void outbox.push(send(client, session.id, update))
      return (event: AgentEvent): Effect.Effect<void> =>
        Effect.sync(() => {
          switch (event._tag) {
            case "TextDelta":
              streamed = true
              return post(chunk("agent_message_chunk", event.text))
            case "ModelResponded": {
              const reasoning = event.message.reasoning
              if (!streamed && reasoning !== undefined && reasoning.trim().length > 0) post(chunk("agent_thought_chunk", reasoning))
              if (!streamed && event.message.content !== null && event.message.content.length > 0) {
                post(chunk("agent_message_chunk", event.message.content))
              }
              streamed = false
              return
            }
            case "ToolStarted": {
              const tool = event.call.function.name
              const args = parseArgs(event.call.function.arguments)
              const content = startContent(tool, args, session.cwd)
              if (EDIT_TOOLS.has(tool)) session.edits.set(event.call.id, { tool, args, content })
              post({
                sessionUpdate: "tool_call",
                toolCallId: event.call.id,
                title: titleOf(tool, args),
                kind: kindOf(tool),
                status: "pending",
                rawInput: args,
                content,
                locations: locationsOf(args, session.cwd)
              })
              return post({ sessionUpdate: "tool_call_update", toolCallId: event.call.id, status: "in_progress" })
            }
            case "ToolFinished": {
              session.edits.delete(event.toolCallId)
              session.approvedEdits.delete(event.toolCallId)
              const failed = failedResult(event.status, event.result)
              const content = completionContent(event.tool, event.result)
              post({
                sessionUpdate: "tool_call_update",
                toolCallId: event.toolCallId,
                status: failed ? "failed" : "completed",
                ...(content.length === 0 ? {} : { content }),
                rawOutput: { result: event.result }
              })
              if (event.tool === "todo" && !failed) {
                const plan = planOf(event.result)
                if (plan !== undefined) post(plan)
              }
              return
            }
            default:
              return
          }
        })
    }

    /** The session's toolsets: the server's, plus its own MCP servers once connected. */
    const sessionToolsets = (session: LiveSession): Effect.Effect<ReadonlyArray<string>> =>
      Effect.map(
        session.mcp === undefined ? Effect.succeed([]) : Effect.orElseSucceed(Fiber.join(session.mcp.toolsets), () => []),
        (own) => [...(options.toolsets ?? [ACP_TOOLSET]), ...own]
      )

    const turn = (client: AgentContext, session: LiveSession, prompt: PromptInput, outbox: Array<Promise<unknown>>) =>
      Effect.gen(function*() {
        yield* bindCwd(session)
        // Configured MCP servers finish their first connection attempt before a turn, so their tools are offered.
        if (!mcpSettled) yield* Effect.flatMap(Mcp, (mcp) => Effect.tap(mcp.awaitSettled, () => Effect.sync(() => void (mcpSettled = true))))
        const enabled = yield* sessionToolsets(session)
        const loop = yield* AgentLoop
        return yield* loop.run({
          prompt: prompt.text,
          ...(prompt.images.length === 0 ? {} : { images: prompt.images }),
          ...(session.model === undefined ? {} : { model: session.model }),
          sessionId: session.id,
          source: ACP_SOURCE,
          taskId: session.id,
          cwd: session.cwd,
          stream: true,
          toolsets: { enabled },
          onEvent: onEvent(client, session, outbox)
        })
      }).pipe(Effect.locally(AcpTurnSession, session.id))

    const runTurn = async (client: AgentContext, session: LiveSession, prompt: PromptInput): Promise<PromptResponse> => {
      const outbox: Array<Promise<unknown>> = []
      // The session's approvals go to this client for the length of the turn (one session's turns never overlap).
      options.askers.set(session.id, asker(client, session))
      const fiber = fork(turn(client, session, prompt, outbox))
      session.turn = fiber
      const exit = await new Promise<Exit.Exit<AgentResult, unknown>>((resolve) => fiber.addObserver(resolve))
      session.turn = undefined
      options.askers.delete(session.id)
      await Promise.all(outbox)
      if (Exit.isSuccess(exit)) return finished(exit.value)
      if (Cause.isInterruptedOnly(exit.cause)) return { stopReason: "cancelled" }
      const error = Cause.squash(exit.cause)
      const message = error !== null && typeof error === "object" && "message" in error && typeof error.message === "string" && error.message.length > 0
        ? error.message
        : String(error)
      await send(client, session.id, chunk("agent_message_chunk", `Error: ${message}`))
      return { stopReason: "end_turn" }
    }

    /** History as session updates (load / resume): user and agent text, tool calls with their final status. */
    const replay = async (client: AgentContext, id: string, history: ReadonlyArray<StoredMessage>, cwd: string) => {
      const tools = new Map<string, string>()
      for (const m of history) {
        if (m.role === "user" && m.content !== null && m.content.length > 0) await send(client, id, chunk("user_message_chunk", m.content))
        if (m.role === "assistant") {
          if (m.content !== null && m.content.trim().length > 0) await send(client, id, chunk("agent_message_chunk", m.content))
          for (const call of m.toolCalls ?? []) {
            const args = parseArgs(call.function.arguments)
            tools.set(call.id, call.function.name)
            await send(client, id, {
              sessionUpdate: "tool_call",
              toolCallId: call.id,
              title: titleOf(call.function.name, args),
              kind: kindOf(call.function.name),
              status: "pending",
              rawInput: args,
              locations: locationsOf(args, cwd)
            })
          }
        }
        if (m.role === "tool" && m.toolCallId !== null) {
          const tool = tools.get(m.toolCallId) ?? m.toolName ?? "tool"
          const result = m.content ?? ""
          const failed = failedResult("ok", result)
          const content = completionContent(tool, result)
          await send(client, id, {
            sessionUpdate: "tool_call_update",
            toolCallId: m.toolCallId,
            status: failed ? "failed" : "completed",
            ...(content.length === 0 ? {} : { content })
          })
          if (tool === "todo") {
            const plan = planOf(result)
            if (plan !== undefined) await send(client, id, plan)
          }
        }
      }
    }

    const chooseModel = async (session: LiveSession, name: string) => {
      session.model = name
      await run(store.update(session.id, { model: name }))
    }

    /** Tell the editor which slash commands exist, after the response that opened the session. */
    const announce = (client: AgentContext, session: LiveSession) =>
      void setImmediate(() => void send(client, session.id, { sessionUpdate: "available_commands_update", availableCommands: [...SLASH_COMMANDS] }))

    /** A slash command of ours: answered here, not sent to the model, not stored in the history. */
    const slash = async (client: AgentContext, session: LiveSession, command: { readonly name: string; readonly arg: string }): Promise<PromptResponse> => {
      const reply = await runSlash(command, {
        model: session.model ?? model.model,
        provider,
        models,
        mode: session.mode,
        version: options.version,
        setModel: async (name) => {
          await chooseModel(session, name)
          await send(client, session.id, { sessionUpdate: "config_option_update", configOptions: configOptions(session) })
        },
        setMode: (mode) => {
          session.mode = mode
          void send(client, session.id, { sessionUpdate: "current_mode_update", currentModeId: mode })
        },
        setTitle: async (title) => {
          await run(store.update(session.id, { title }))
          await send(client, session.id, { sessionUpdate: "session_info_update", title })
        },
        tools: async () => {
          const definitions = await run(registry.definitions({ enabled: await run(sessionToolsets(session)) }))
          return definitions.map((d) => ({ name: d.function.name, description: d.function.description ?? "" }))
        },
        roles: async () => {
          const counts: Record<string, number> = {}
          for (const m of await run(store.history(session.id))) counts[m.role] = (counts[m.role] ?? 0) + 1
          return counts
        }
      })
      await send(client, session.id, chunk("agent_message_chunk", reply))
      return { stopReason: "end_turn" }
    }

    const reopen = async (client: AgentContext, id: string, cwd: string, replayHistory: boolean, servers: ReadonlyArray<McpServer>) => {
      const session = await lookup(id)
      await attachMcp(session, servers)
      if (session.cwd !== cwd) {
        session.cwd = cwd
        session.roots = rootsOf(cwd)
        session.bound = false
        await run(Effect.ignore(store.update(id, { cwd })))
      }
      if (replayHistory) await replay(client, id, await run(store.history(id)), cwd)
      return session
    }

    const app = agent()
      .onRequest(methods.agent.initialize, () => initializeResult(options.name, options.version, provider, vision))
      .onRequest(methods.agent.authenticate, ({ params }) => {
        if (provider === undefined) {
          throw RequestError.authRequired(undefined, "no model is configured: set model.provider (and its key) in config.yaml, then restart the agent")
        }
        if (params.methodId.trim().toLowerCase() !== provider.toLowerCase()) {
          throw RequestError.invalidParams({ methodId: params.methodId }, `unknown auth method; this agent offers '${provider}'`)
        }
        return {}
      })
      .onRequest(methods.agent.session.close, async ({ params }) => {
        const session = await lookup(params.sessionId)
        const running = session.turn
        if (running !== undefined) await run(Fiber.interrupt(running))
        if (session.mcp !== undefined) await run(closeMcp(session.mcp))
        sessions.delete(session.id)
        return {}
      })
      .onRequest(methods.agent.session.new, async ({ params, client }) => {
        const id = randomUUID()
        await run(store.create({ id, source: ACP_SOURCE, cwd: params.cwd, ...(provider === undefined ? {} : { model: model.model }) }))
        const session = live(id, params.cwd)
        await attachMcp(session, params.mcpServers)
        announce(client, session)
        return { sessionId: id, configOptions: configOptions(session), modes: modeState(session.mode) }
      })
      .onRequest(methods.agent.session.load, async ({ params, client }) => {
        const session = await reopen(client, params.sessionId, params.cwd, true, params.mcpServers)
        announce(client, session)
        return { configOptions: configOptions(session), modes: modeState(session.mode) }
      })
      .onRequest(methods.agent.session.resume, async ({ params, client }) => {
        const session = await reopen(client, params.sessionId, params.cwd, false, params.mcpServers ?? [])
        announce(client, session)
        return { configOptions: configOptions(session), modes: modeState(session.mode) }
      })
      .onRequest(methods.agent.session.fork, async ({ params, client }) => {
        const source = await lookup(params.sessionId)
        const id = randomUUID()
        await run(store.fork(params.sessionId, { id, source: ACP_SOURCE }))
        await run(store.update(id, { cwd: params.cwd, ...(source.model === undefined ? {} : { model: source.model }) }))
        const session = live(id, params.cwd, source.model)
        session.mode = source.mode
        await attachMcp(session, params.mcpServers ?? [])
        announce(client, session)
        return { sessionId: id, configOptions: configOptions(session), modes: modeState(session.mode) }
      })
      .onRequest(methods.agent.session.setMode, async ({ params }) => {
        const session = await lookup(params.sessionId)
        if (!isEditMode(params.modeId)) {
          throw RequestError.invalidParams({ modeId: params.modeId }, `unknown mode '${params.modeId}'; modes: default, accept_edits, dont_ask`)
        }
        session.mode = params.modeId
        return {}
      })
      .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
        const session = await lookup(params.sessionId)
        if (params.configId !== MODEL_CONFIG_ID || provider === undefined) {
          throw RequestError.invalidParams({ configId: params.configId }, `unknown config option '${params.configId}'; this agent offers '${MODEL_CONFIG_ID}'`)
        }
        const value = params.value
        if (typeof value !== "string" || !models.includes(value)) {
          throw RequestError.invalidParams({ value }, `model '${String(value)}' is not offered; choose one of: ${models.join(", ")}`)
        }
        await chooseModel(session, value)
        return { configOptions: configOptions(session) }
      })
      .onRequest(methods.agent.session.list, async ({ params }) => {
        const offset = params.cursor === undefined || params.cursor === null ? 0 : Number.parseInt(params.cursor, 10)
        const page = await run(store.list({
          source: ACP_SOURCE,
          limit: LIST_PAGE,
          offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
          orderBy: "updated",
          ...(params.cwd === undefined || params.cwd === null ? {} : { cwd: params.cwd })
        }))
        return {
          sessions: page.sessions.filter((s) => s.messageCount > 0).map((s) => ({
            sessionId: s.id,
            cwd: s.cwd ?? "",
            title: s.title ?? s.preview ?? (s.cwd === null ? "New thread" : basename(s.cwd)),
            updatedAt: new Date(s.updatedAt).toISOString()
          })),
          ...(page.nextOffset === null ? {} : { nextCursor: String(page.nextOffset) })
        }
      })
      .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
        const session = await lookup(params.sessionId)
        const prompt = await promptContent(params.prompt, vision)
        const command = prompt.images.length === 0 ? parseSlash(prompt.text) : undefined
        const result = session.tail.then((): PromptResponse | Promise<PromptResponse> =>
          command !== undefined
            ? slash(client, session, command)
            : prompt.text.trim().length === 0 && prompt.images.length === 0
            ? { stopReason: "end_turn" }
            : runTurn(client, session, prompt)
        )
        session.tail = result.catch(() => undefined)
        return await result
      })
      .onNotification(methods.agent.session.cancel, ({ params }) => {
        // Only a running turn is interrupted: a cancel before or after one changes nothing.
        const running = sessions.get(params.sessionId)?.turn
        if (running !== undefined) fork(Fiber.interrupt(running))
      })

    return app
  })

async function* afterPrefix(prefix: Uint8Array, stream: AsyncIterable<Uint8Array>) {
  if (prefix.length > 0) yield prefix
  yield* stream
}

/** `stream` without our first answer to request `id` (the fast path sent it). */
const withoutAnswer = (stream: Stream, id: string | number): Stream => {
  const writer = stream.writable.getWriter()
  let dropped = false
  const writable = new WritableStream<AnyMessage>({
    write: (message) => {
      if (!dropped && "id" in message && message.id === id && !("method" in message)) {
        dropped = true
        return
      }
      return writer.write(message)
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason)
  })
  return { readable: stream.readable, writable }
}

/** Serve over stdin/stdout until the client closes the connection. */
export const serveStdio = (options: AcpServerOptions) =>
  Effect.scoped(Effect.gen(function*() {
    const app = yield* makeAcpServer(options)
    const output = Writable.toWeb(process.stdout) as WritableStream<Uint8Array>
    // What the fast path (fast.ts) read comes first; its `initialize` was answered there already.
    const handover = takeHandover()
    const source = handover === undefined ? process.stdin : Readable.from(afterPrefix(handover.input, process.stdin))
    const stream = ndJsonStream(output, Readable.toWeb(source) as ReadableStream<Uint8Array>)
    const connection = app.connect(handover?.answered === undefined ? stream : withoutAnswer(stream, handover.answered))
    yield* Effect.promise(() => connection.closed)
  }))
