/** `hermes-effect acp` on the raw wire: bad lines, auth with and without a model, the registry manifest. */
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { methods } from "@agentclientprotocol/sdk/unstable"
import { describe, expect, it } from "vitest"
import { BIN, cliEnv } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"
import { initialize, scriptedHome, startAcp } from "./client.js"

/** Write lines to a fresh server, collect stdout lines until `count` JSON messages arrived. */
const exchange = (home: string, lines: ReadonlyArray<string>, count: number) =>
  new Promise<{ messages: Array<Record<string, unknown>>; raw: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "acp"], { env: cliEnv({ home }), stdio: ["pipe", "pipe", "pipe"] })
    let raw = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`timed out; stdout so far: ${raw}`))
    }, 30_000)
    child.stdout.on("data", (d: Buffer) => {
      raw += d.toString()
      const done = raw.split("\n").filter((l) => l.trim().length > 0)
      if (done.length >= count && raw.endsWith("\n")) {
        clearTimeout(timer)
        child.stdin.end()
        resolve({ messages: done.map((l) => JSON.parse(l) as Record<string, unknown>), raw })
      }
    })
    for (const line of lines) child.stdin.write(`${line}\n`)
  })

describe("hermes-effect acp wire", () => {
  it("a line that is not JSON gets a JSON-RPC error; the server keeps answering; stdout is only JSON-RPC", async () => {
    const home = scriptedHome(tempHome("hermes-acp-wire-"), [{ content: "hi" }])
    const { messages } = await exchange(home, [
      "this is not json",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } })
    ], 2)
    const error = messages.find((m) => m["id"] === null || m["id"] === undefined)
    expect(error?.["error"]).toMatchObject({ code: -32700 })
    expect(messages.find((m) => m["id"] === 1)?.["result"]).toMatchObject({ protocolVersion: 1 })
    for (const m of messages) expect(m["jsonrpc"]).toBe("2.0")
  })

  it("authenticate: the configured provider is the method; without a model it is a clear error", async () => {
    const configured = startAcp(scriptedHome(tempHome("hermes-acp-auth-"), [{ content: "hi" }]))
    try {
      const init = await initialize(configured)
      expect(init.authMethods?.map((m) => m.id)).toEqual(["scripted"])
      await expect(configured.connection.agent.request(methods.agent.authenticate, { methodId: "Scripted" })).resolves.toBeDefined()
      await expect(configured.connection.agent.request(methods.agent.authenticate, { methodId: "other" })).rejects.toMatchObject({ code: -32602 })
    } finally {
      await configured.stop()
    }
    const bare = startAcp(tempHome("hermes-acp-noauth-"))
    try {
      const init = await initialize(bare)
      expect(init.authMethods).toEqual([])
      await expect(bare.connection.agent.request(methods.agent.authenticate, { methodId: "openai" })).rejects.toMatchObject({ code: -32000 })
    } finally {
      await bare.stop()
    }
  })

  it("the registry manifest runs `acp` at the package's version", () => {
    const manifest = JSON.parse(readFileSync(new URL("../../examples/acp/agent.json", import.meta.url), "utf8")) as Record<string, unknown>
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; version: string }
    expect(manifest).toMatchObject({ id: pkg.name, version: pkg.version, args: ["acp"] })
    expect(manifest["distribution"]).toMatchObject({ npx: { package: `${pkg.name}@${pkg.version}`, args: ["acp"] } })
  })
})
