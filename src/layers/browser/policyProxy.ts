/**
 * A loopback HTTP proxy the launched Chromium sends every request through,
 * so the web tools' address policy holds for each hop: redirects,
 * subresources, fetch/XHR and WebSocket tunnels included (playwright's
 * `route` only sees the first URL of a redirect chain). The host is resolved
 * here and the connection made to the address that was judged, so DNS
 * rebinding cannot slip between check and connect. Refusals answer 403 with
 * `x-hermes-blocked: 1`.
 */
import { lookup } from "node:dns/promises"
import * as http from "node:http"
import * as net from "node:net"
import type { Duplex } from "node:stream"
import { addressAllowed, METADATA_HOSTS } from "../../lib/web/addressPolicy.js"
import { blockForHost } from "../../lib/web/websitePolicy.js"
import type { BlockRule } from "../../lib/web/websitePolicy.js"
import { BLOCKED_PRIVATE } from "../../lib/web/urlPolicy.js"

export const BLOCKED_HEADER = "x-hermes-blocked"

export interface PolicyProxy {
  /** `http://127.0.0.1:<port>` */
  readonly server: string
  readonly close: () => Promise<void>
}

/** `unresolved`: the name has no address (refused too: fail closed). */
type Verdict = { readonly ok: true; readonly address: string } | { readonly ok: false; readonly unresolved?: true }

/** Whether `rawHost` may be contacted, with the address to connect to (every DNS answer must pass). */
export const judgeHost = async (rawHost: string, allowPrivate: boolean): Promise<Verdict> => {
  const host = rawHost.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase()
  if (METADATA_HOSTS.includes(host)) return { ok: false }
  if (net.isIP(host) !== 0) return addressAllowed(host, allowPrivate) ? { ok: true, address: host } : { ok: false }
  try {
    const answers = await lookup(host, { all: true })
    if (answers.length === 0 || answers.some((a) => !addressAllowed(a.address, allowPrivate))) return { ok: false }
    return { ok: true, address: answers[0]!.address }
  } catch {
    return { ok: false, unresolved: true }
  }
}

const refuse = (res: http.ServerResponse) => {
  res.writeHead(403, { "content-type": "text/plain; charset=utf-8", [BLOCKED_HEADER]: "1", connection: "close" })
  res.end(BLOCKED_PRIVATE)
}

/** The policy in force for one connection: private addresses allowed or not, the website blocklist. */
export interface HostPolicy {
  readonly allowPrivate: boolean
  readonly rules: ReadonlyArray<BlockRule>
}

/** `judgeHost` after the website blocklist (a listed host is refused before any DNS lookup). */
export const judgeUnderPolicy = (rawHost: string, policy: HostPolicy): Promise<Verdict> =>
  blockForHost(rawHost.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase(), policy.rules) === undefined
    ? judgeHost(rawHost, policy.allowPrivate)
    : Promise.resolve({ ok: false })

/** Start the proxy; the policy is read per connection (config can change). */
export const startPolicyProxy = (policy: () => HostPolicy): Promise<PolicyProxy> => {
  const sockets = new Set<Duplex>()
  const track = (socket: Duplex) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  }

  const server = http.createServer((req, res) => {
    let target: URL
    try {
      target = new URL(req.url ?? "")
    } catch {
      res.writeHead(400).end()
      return
    }
    if (target.protocol !== "http:") {
      res.writeHead(400).end()
      return
    }
    void judgeUnderPolicy(target.hostname, policy()).then((verdict) => {
      if (!verdict.ok) return refuse(res)
      const headers = { ...req.headers }
      delete headers["proxy-connection"]
      delete headers["proxy-authorization"]
      const upstream = http.request({
        host: verdict.address,
        port: target.port === "" ? 80 : Number(target.port),
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        setHost: false
      }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
        answer.pipe(res)
      })
      upstream.on("error", () => {
        if (!res.headersSent) res.writeHead(502)
        res.end()
      })
      req.pipe(upstream)
    })
  })

  server.on("connection", track)
  server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? "")
    if (match === null) {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n")
      return
    }
    const [, host, port] = match as unknown as [string, string, string]
    client.on("error", () => client.destroy())
    void judgeUnderPolicy(host, policy()).then((verdict) => {
      if (!verdict.ok) {
        client.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: 1\r\ncontent-length: 0\r\n\r\n`)
        return
      }
      const upstream = net.connect(Number(port), verdict.address, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
        if (head.length > 0) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      track(upstream)
      upstream.on("error", () => {
        client.destroy()
        upstream.destroy()
      })
      client.on("close", () => upstream.destroy())
    })
  })

  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      resolve({
        server: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })
}
