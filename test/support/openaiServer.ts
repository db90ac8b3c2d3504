/**
 * A small OpenAI-compatible chat-completions server on 127.0.0.1 for provider
 * tests: JSON and SSE answers with text and tool calls, error statuses with
 * Retry-After, malformed bodies, hanging or stalling answers and dropped
 * connections. Replies are queued per test (`enqueue`); with none queued the
 * server echoes the last message. Every request is recorded.
 */
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { Effect } from "effect"

export interface ToolCallReply {
  readonly id?: string
  readonly name: string
  readonly arguments: string
}

export type Reply =
  /** A normal answer: JSON, or SSE when the request asked for a stream. */
  | {
    readonly kind: "completion"
    readonly content?: string | null
    readonly toolCalls?: ReadonlyArray<ToolCallReply>
    readonly finishReason?: string
    readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number }
    readonly model?: string
    /** Stream only: characters per content / argument fragment (default 4). */
    readonly fragment?: number
    /** Stream only: send this many events, then stop writing and keep the connection open. */
    readonly stallAfter?: number
    /** Stream only: leave out `data: [DONE]` and the finish reason, then close (a cut stream). */
    readonly cut?: boolean
  }
  | { readonly kind: "status"; readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }
  /** Exactly this body (e.g. malformed JSON), status 200 unless given. */
  | { readonly kind: "raw"; readonly body: string; readonly status?: number; readonly contentType?: string }
  /** These SSE data payloads, verbatim, then the end of the body. */
  | { readonly kind: "events"; readonly events: ReadonlyArray<string> }
  /** Never answer. */
  | { readonly kind: "hang" }
  /** Destroy the connection without an answer. */
  | { readonly kind: "drop" }

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: Record<string, unknown>
  /** Set when the client closed the connection before the answer was complete. */
  aborted: boolean
}

export interface OpenAiTestServer {
  /** e.g. http://127.0.0.1:41234/v1 */
  readonly baseUrl: string
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly enqueue: (...replies: ReadonlyArray<Reply>) => void
  /** Resolves once `n` requests have arrived. */
  readonly waitForRequests: (n: number) => Promise<void>
  /** Resolves once request `i` (0-based) has been aborted by the client. */
  readonly waitForAbort: (i: number) => Promise<void>
  readonly close: () => Promise<void>
}

export interface ServerOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>` or get 401. */
  readonly apiKey?: string
  /** Replies queued from the start. */
  readonly replies?: ReadonlyArray<Reply>
}

/** The brief's named modes, as reply queues. */
export const modes = {
  /** One 429 with `Retry-After: 2`, then a normal answer. */
  rateLimitedOnce: (answer: Reply = { kind: "completion", content: "after the rate limit" }): ReadonlyArray<Reply> => [
    { kind: "status", status: 429, headers: { "retry-after": "2" }, body: { error: { message: "Rate limit reached for requests", type: "requests" } } },
    answer
  ],
  /** A 200 whose body is not a chat completion. */
  malformed: (): ReadonlyArray<Reply> => [{ kind: "raw", body: "{\"id\": \"x\", \"choices\": \"none\"}" }]
} as const

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const parts: Array<Buffer> = []
    req.on("data", (part: Buffer) => parts.push(part))
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")))
    req.on("error", reject)
  })

const pieces = (text: string, size: number): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

const lastText = (body: Record<string, unknown>): string => {
  const messages = Array.isArray(body["messages"]) ? (body["messages"] as Array<Record<string, unknown>>) : []
  const last = messages[messages.length - 1]
  return last === undefined ? "" : `${String(last["role"])}: ${String(last["content"] ?? "")}`
}

export const startOpenAiServer = (options: ServerOptions = {}): Promise<OpenAiTestServer> => {
  const queue: Array<Reply> = [...(options.replies ?? [])]
  const requests: Array<RecordedRequest> = []
  const sockets = new Set<Socket>()
  const waiters: Array<() => void> = []
  const notify = () => waiters.splice(0).forEach((w) => w())
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (done() ? resolve() : waiters.push(check))
      check()
    })
  let counter = 0

  const completionJson = (reply: Extract<Reply, { kind: "completion" }>, model: string) => {
    const calls = (reply.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_srv_${i}`, type: "function", function: { name: c.name, arguments: c.arguments } }))
    return {
      id: `chatcmpl-${++counter}`,
      object: "chat.completion",
      model: reply.model ?? model,
      choices: [{
        index: 0,
        message: { role: "assistant", content: reply.content === undefined ? (calls.length > 0 ? null : "") : reply.content, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        finish_reason: reply.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop")
      }],
      ...(reply.usage === undefined ? {} : { usage: { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens } })
    }
  }

  const streamEvents = (reply: Extract<Reply, { kind: "completion" }>, model: string, includeUsage: boolean): Array<string> => {
    const id = `chatcmpl-${++counter}`
    const size = reply.fragment ?? 4
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      JSON.stringify({ id, object: "chat.completion.chunk", model: reply.model ?? model, choices: [{ index: 0, delta, finish_reason: finish }] })
    const events = [chunk({ role: "assistant", content: "" })]
    for (const piece of pieces(reply.content ?? "", size)) events.push(chunk({ content: piece }))
    ;(reply.toolCalls ?? []).forEach((call, index) => {
      events.push(chunk({ tool_calls: [{ index, id: call.id ?? `call_srv_${index}`, type: "function", function: { name: call.name, arguments: "" } }] }))
      for (const piece of pieces(call.arguments, size)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
    })
    if (reply.cut === true) return events
    events.push(chunk({}, reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? "tool_calls" : "stop")))
    if (includeUsage && reply.usage !== undefined) {
      events.push(JSON.stringify({ id, object: "chat.completion.chunk", model, choices: [], usage: { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens } }))
    }
    events.push("[DONE]")
    return events
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req)
    let body: Record<string, unknown> = {}
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch {
      body = { unparsable: text }
    }
    const record: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, aborted: false }
    requests.push(record)
    res.on("close", () => {
      if (!res.writableFinished) {
        record.aborted = true
        notify()
      }
    })
    notify()

    if (req.method !== "POST" || !(req.url ?? "").endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }))
      return
    }
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" } }))
      return
    }
    const model = typeof body["model"] === "string" ? body["model"] : "test-model"
    const reply: Reply = queue.shift() ?? { kind: "completion", content: `echo ${lastText(body)}` }
    switch (reply.kind) {
      case "hang":
        return
      case "drop":
        req.socket.destroy()
        return
      case "status": {
        const payload = reply.body === undefined ? { error: { message: `status ${reply.status}` } } : reply.body
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
        res.end(typeof payload === "string" ? payload : JSON.stringify(payload))
        return
      }
      case "raw":
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" }).end(reply.body)
        return
      case "events":
        res.writeHead(200, { "content-type": "text/event-stream" })
        for (const event of reply.events) res.write(`data: ${event}\n\n`)
        res.end()
        return
      case "completion": {
        if (body["stream"] !== true) {
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completionJson(reply, model)))
          return
        }
        const includeUsage = (body["stream_options"] as Record<string, unknown> | undefined)?.["include_usage"] === true
        const events = streamEvents(reply, model, includeUsage)
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
        res.write(": keep-alive comment\n\n")
        const limit = reply.stallAfter ?? events.length
        events.slice(0, limit).forEach((event) => res.write(`data: ${event}\n\n`))
        if (reply.stallAfter === undefined) res.end()
        return
      }
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      res.writeHead(500).end(String(e))
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port
      resolve({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        requests,
        enqueue: (...replies) => void queue.push(...replies),
        waitForRequests: (n) => until(() => requests.length >= n),
        waitForAbort: (i) => until(() => requests[i]?.aborted === true),
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })
}

/** The server for the length of a scope. */
export const openAiServer = (options?: ServerOptions) =>
  Effect.acquireRelease(Effect.promise(() => startOpenAiServer(options)), (server) => Effect.promise(() => server.close()))
