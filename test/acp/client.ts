/** A real ACP client (the SDK's `client()` app) driving `node dist/bin.mjs acp` as a child process. */
import { spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Readable, Writable } from "node:stream"
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk/unstable"
import type { ClientConnection, RequestPermissionRequest, RequestPermissionResponse, SessionNotification } from "@agentclientprotocol/sdk/unstable"
import { BIN, cliEnv } from "../support/cli.js"

export interface AcpChild {
  readonly connection: ClientConnection
  readonly updates: Array<SessionNotification>
  readonly permissions: Array<RequestPermissionRequest>
  readonly stderr: () => string
  readonly exited: Promise<number | null>
  readonly stop: () => Promise<number | null>
}

/** Home with `model: {provider: scripted, script}` in config.yaml. */
export const scriptedHome = (home: string, lines: ReadonlyArray<unknown>) => {
  mkdirSync(home, { recursive: true })
  const script = join(home, "script.jsonl")
  writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`)
  writeFileSync(join(home, "config.yaml"), `model:\n  provider: scripted\n  script: ${JSON.stringify(script)}\n`)
  return home
}

export const startAcp = (
  home: string,
  answer: (request: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse> = () => ({ outcome: { outcome: "cancelled" } }),
  env?: Readonly<Record<string, string | undefined>>
): AcpChild => {
  const child = spawn(process.execPath, [BIN, "acp"], { env: cliEnv({ home, ...(env === undefined ? {} : { env }) }), stdio: ["pipe", "pipe", "pipe"] })
  let stderr = ""
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const updates: Array<SessionNotification> = []
  const permissions: Array<RequestPermissionRequest> = []
  const app = client()
    .onNotification(methods.client.session.update, ({ params }) => void updates.push(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params)
      return answer(params)
    })
  const connection = app.connect(
    ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>)
  )
  const stop = async () => {
    child.stdin.end()
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000)
    const code = await exited
    clearTimeout(timer)
    return code
  }
  return { connection, updates, permissions, stderr: () => stderr, exited, stop }
}

export const initialize = (acp: AcpChild) =>
  acp.connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: "test", version: "0" } })

/** Updates of one session, by kind. */
export const updatesOf = (acp: AcpChild, sessionId: string) => acp.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update)
